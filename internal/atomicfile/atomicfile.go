// Package atomicfile writes files so that readers see the old file or the
// whole new one, never a part: a temporary file beside the target, synced,
// then renamed over it. Only a regular file, or a path where nothing is,
// is written so: a device or a FIFO is written to directly (so that
// /dev/stdout works and /dev/null is never replaced), and a symbolic link
// is followed to the file it names. Errors name the path the caller gave.
package atomicfile

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"fifteen/internal/flock"
)

// File is a file being written. Nothing is at its path until Commit.
type File struct {
	path   string // as the caller gave it
	target string // path with its symbolic links followed
	f      *os.File
	w      *bufio.Writer
	direct bool // a device or a FIFO, written in place
}

// Create starts writing the file at path, readable by all once committed.
func Create(path string) (*File, error) {
	target, direct, err := lookup(path)
	if err != nil {
		return nil, pathError("create", path, err)
	}
	file := &File{path: path, target: target, direct: direct}
	if direct {
		file.f, err = os.OpenFile(target, os.O_WRONLY|os.O_TRUNC, 0)
	} else {
		removeStale(target)
		if file.f, err = os.CreateTemp(filepath.Dir(target), tempPattern(target)); err == nil {
			// Locked while written: a later writer removes it only once
			// this process is gone.
			_, err = flock.TryLock(file.f)
		}
	}
	if err != nil {
		if file.f != nil {
			file.Abort()
		}
		return nil, pathError("create", path, err)
	}
	file.w = bufio.NewWriterSize(file.f, 1<<16)
	return file, nil
}

// Check reports, without writing anything, the error that Create would
// return now for path, so that a program can refuse an output before
// doing the work behind it. A device or a FIFO is not opened: a FIFO's
// open waits for a reader.
func Check(path string) error {
	target, direct, err := lookup(path)
	if err != nil || direct {
		return pathError("create", path, err)
	}
	f, err := os.CreateTemp(filepath.Dir(target), tempPattern(target))
	if err != nil {
		return pathError("create", path, err)
	}
	return errors.Join(f.Close(), os.Remove(f.Name()))
}

// tempPattern is the name of target's temporary files, for CreateTemp:
// the prefix, then a random number.
func tempPattern(target string) string { return tempPrefix(target) + "*" }

func tempPrefix(target string) string { return "." + filepath.Base(target) + ".tmp" }

// staleAfter is how long a temporary file must have been left untouched
// before it may be removed: a writer locks its file just after making it.
const staleAfter = 10 * time.Second

// removeStale removes target's temporary files that their writers left
// behind, killed before they could: those untouched for staleAfter whose
// lock no process holds.
func removeStale(target string) {
	dir := filepath.Dir(target)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), tempPrefix(target)) {
			continue
		}
		name := filepath.Join(dir, e.Name())
		info, err := os.Lstat(name)
		if err != nil || !info.Mode().IsRegular() || time.Since(info.ModTime()) < staleAfter {
			continue
		}
		if f, err := os.OpenFile(name, os.O_RDWR, 0); err == nil {
			if ok, _ := flock.TryLock(f); ok {
				os.Remove(name)
			}
			f.Close()
		}
	}
}

// lookup returns where the file at path is written, and whether directly
// (a device, a FIFO, or a file that no link names, such as /dev/stdout
// redirected to one) rather than through a temporary file beside it.
func lookup(path string) (target string, direct bool, err error) {
	info, err := os.Stat(path) // the system follows the links
	switch {
	case err == nil && info.IsDir():
		return "", false, syscall.EISDIR
	case err == nil && !info.Mode().IsRegular():
		return path, true, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return "", false, err
	}
	if target, err = resolve(path); err != nil {
		return "", false, err
	}
	if info != nil {
		if t, err := os.Stat(target); err != nil || !os.SameFile(info, t) {
			return path, true, nil
		}
	}
	return target, false, nil
}

// Write writes to the file's buffer.
func (f *File) Write(p []byte) (int, error) { return f.w.Write(p) }

// Commit writes the file out and puts it at its path, replacing what was
// there.
func (f *File) Commit() error {
	if f.direct {
		if err := errors.Join(f.w.Flush(), f.f.Close()); err != nil {
			return pathError("write", f.path, err)
		}
		return nil
	}
	// Readable by all, as CreateTemp makes the file 0600.
	err := errors.Join(f.w.Flush(), f.f.Chmod(0o644), f.f.Sync(), f.f.Close())
	if err == nil {
		err = os.Rename(f.f.Name(), f.target)
	}
	if err != nil {
		os.Remove(f.f.Name())
		return pathError("write", f.path, err)
	}
	if d, err := os.Open(filepath.Dir(f.target)); err == nil {
		d.Sync() // make the rename durable where the system allows
		d.Close()
	}
	return nil
}

// Abort gives up the file: what was at its path stays.
func (f *File) Abort() {
	f.f.Close()
	if !f.direct {
		os.Remove(f.f.Name())
	}
}

// WriteFile writes path through write, atomically unless path is a
// device or a FIFO. An old file at path is replaced, never written to, so
// a process that maps it keeps a consistent copy.
func WriteFile(path string, write func(io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// maxLinks bounds the symbolic links followed, as the kernel's own.
const maxLinks = 40

// resolve follows the symbolic links of path's last element to the path
// they name, which need not exist, so that a file can be replaced beside
// it; the directories on the way are the system's to follow.
func resolve(path string) (string, error) {
	for range maxLinks {
		target, err := os.Readlink(path)
		if err != nil { // not a link, or nothing there
			return path, nil
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return "", syscall.ELOOP
}

// pathError reports err, of whatever file it names, as an error of path;
// nil stays nil.
func pathError(op, path string, err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	return &fs.PathError{Op: op, Path: path, Err: err}
}
