package atomicfile

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"fifteen/internal/flock"
)

// HoldName keeps other processes from writing the file at path until
// release, without waiting: while another holds it, it returns an error
// that wraps flock.ErrHeld and says who holds it. The file is replaced at
// every write, so a lock on it would not outlive one: the locks are files
// of the user's (LockDir), not beside it, named by path with its symbolic
// links resolved and, where the file exists, by its identity on its
// device, so that every name that reaches the file (a symbolic link, a
// hard link, another relative path) meets the same lock (issue 76: a link
// to a checkpoint let a second run write over the first's search).
// Release removes them.
func HoldName(path string) (release func() error, err error) {
	dir, err := LockDir()
	if err != nil {
		return nil, err
	}
	names, err := lockNames(path)
	if err != nil {
		return nil, pathError("lock", path, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	var releases []func() error
	release = func() error {
		var errs []error
		for _, r := range releases {
			errs = append(errs, r())
		}
		return errors.Join(errs...)
	}
	for _, name := range names {
		lock := filepath.Join(dir, name)
		r, err := flock.HoldRemovable(lock)
		if errors.Is(err, flock.ErrHeld) {
			err = fmt.Errorf("%w: by %s", flock.ErrHeld, flock.Holder(lock))
		}
		if err != nil {
			release()
			return nil, err
		}
		releases = append(releases, r)
	}
	return release, nil
}

// LockDir returns the directory of HoldName's locks: the user's cache
// directory's fifteen/locks, else a directory of the user's in the
// system's temporary directory.
func LockDir() (string, error) {
	if cache, err := os.UserCacheDir(); err == nil {
		return filepath.Join(cache, "fifteen", "locks"), nil
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("fifteen-%d-locks", os.Getuid())), nil
}

// lockNames returns the names of the locks of the file at path: one by
// its path resolved, one by its identity if it exists.
func lockNames(path string) ([]string, error) {
	abs, err := filepath.Abs(path)
	if err == nil {
		abs, err = resolve(abs)
	}
	if err != nil {
		return nil, err
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(filepath.Join(dir, filepath.Base(abs))))
	names := []string{"path-" + hex.EncodeToString(sum[:12]) + ".lock"}
	if info, err := os.Stat(path); err == nil {
		if id, ok := fileID(info); ok {
			names = append(names, "file-"+id+".lock")
		}
	}
	return names, nil
}
