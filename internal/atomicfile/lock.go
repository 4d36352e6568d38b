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
// every write, so a lock on it would not outlive one: the lock is a file
// of the user's (lockDir), not beside it, named by path made absolute
// with its symbolic links resolved, so that every name that leads to the
// file, through links or another relative path, meets the same lock
// (issue 76: a symbolic link to a checkpoint let a second run write over
// the first's search). A hard link is another name of the file only
// until the first write, which replaces the name written: nothing is
// written through it. Release removes the lock file.
func HoldName(path string) (release func() error, err error) {
	dir := lockDir()
	name, err := lockName(path)
	if err != nil {
		return nil, pathError("lock", path, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	lock := filepath.Join(dir, name)
	release, err = flock.HoldRemovable(lock)
	if errors.Is(err, flock.ErrHeld) {
		err = fmt.Errorf("%w: by %s", flock.ErrHeld, flock.Holder(lock))
	}
	return release, err
}

// lockDir returns the directory of HoldName's locks: the user's cache
// directory's fifteen/locks, else a directory of the user's in the
// system's temporary directory.
func lockDir() string {
	if cache, err := os.UserCacheDir(); err == nil {
		return filepath.Join(cache, "fifteen", "locks")
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("fifteen-%d-locks", os.Getuid()))
}

// lockName returns the name of the lock of the file at path: a digest
// of its path resolved.
func lockName(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err == nil {
		abs, err = resolve(abs)
	}
	if err != nil {
		return "", err
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(filepath.Join(dir, filepath.Base(abs))))
	return hex.EncodeToString(sum[:12]) + ".lock", nil
}
