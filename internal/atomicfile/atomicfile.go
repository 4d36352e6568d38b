// Package atomicfile writes files so that readers see the old file or the
// whole new one, never a part: a temporary file beside the target, synced,
// then renamed over it. Only a regular file, or a path where nothing is,
// is written so, and a symbolic link is followed to the file it names.
// A file the program reads back (Create, WriteFile, ReadFile) must be a
// regular file: anything else is refused with ErrNotRegular. An output
// that the user names (CreateOutput, WriteOutput) may also be a device or
// a FIFO, written to directly, so that /dev/stdout works and /dev/null is
// never replaced; a FIFO that no process reads is refused rather than
// waited on. A file of a directory that others write too (WriteShared:
// databases, a split job's results) must be a regular file itself: a
// symbolic link there is refused with ErrLink, so that no one who can
// write the directory can redirect a write to a file outside it. Errors
// name the path the caller gave.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"fifteen/internal/flock"
)

// ErrNotRegular is the error of a file the program reads back whose path
// names something other than a regular file: a device, a FIFO, a socket.
var ErrNotRegular = errors.New("not a regular file")

// ErrLink is the error of a file of a shared directory (WriteShared) whose
// path is a symbolic link.
var ErrLink = errors.New("a symbolic link, not followed in a shared directory")

// errNoReader is the error of an output FIFO that no process reads.
var errNoReader = errors.New("a FIFO that no process reads")

// File is a file being written. Nothing is at its path until Commit.
type File struct {
	path   string // as the caller gave it
	target string // path with its symbolic links followed
	f      *os.File
	w      *bufio.Writer
	direct bool // a device or a FIFO, written in place
}

// kind is what a path may name besides a regular file or nothing.
type kind int

const (
	regular kind = iota // a symbolic link to a regular file, or to nothing
	output              // that, or a device or a FIFO, written in place
	shared              // nothing else: a file of a shared directory
)

// Create starts writing the regular file at path, readable by all once
// committed.
func Create(path string) (*File, error) { return create(path, regular) }

// CreateOutput is Create for an output that the user names, which may be
// a device or a FIFO.
func CreateOutput(path string) (*File, error) { return create(path, output) }

func create(path string, k kind) (*File, error) {
	target, direct, err := lookup(path, k)
	if err != nil {
		return nil, pathError("create", path, err)
	}
	file := &File{path: path, target: target, direct: direct}
	if direct {
		file.f, err = openDirect(target)
	} else {
		removeStale(filepath.Dir(target), tempPrefix(target))
		file.f, err = createTemp(target)
	}
	if err != nil {
		return nil, pathError("create", path, err)
	}
	file.w = bufio.NewWriterSize(file.f, 1<<16)
	return file, nil
}

// openDirect opens a device or a FIFO for writing. Opened non-blocking,
// a FIFO that no process reads fails at once (ENXIO) instead of waiting
// for a reader that may never come; the writes still wait for the
// reader, in Go's poller.
func openDirect(target string) (*os.File, error) {
	f, err := OpenFile(target, os.O_WRONLY|os.O_TRUNC)
	if errors.Is(err, syscall.ENXIO) {
		err = errNoReader
	}
	return f, err
}

// createTemp creates and locks a temporary file for target. A writer that
// sweeps stale files (removeStale) may remove a new file before its
// creator locks it; the creator then finds its name gone and tries
// another, so that a locked file is never removed, and no age is needed
// to tell a dead writer's file from a live one's.
func createTemp(target string) (*os.File, error) {
	for {
		f, err := os.CreateTemp(filepath.Dir(target), tempPattern(target))
		if err != nil {
			return nil, err
		}
		locked, err := flock.TryLock(f)
		if err == nil && locked && linked(f) {
			return f, nil
		}
		f.Close()
		if err != nil {
			os.Remove(f.Name())
			return nil, err
		}
	}
}

// linked reports whether f's name still names f.
func linked(f *os.File) bool {
	info, err1 := f.Stat()
	named, err2 := os.Lstat(f.Name())
	return err1 == nil && err2 == nil && os.SameFile(info, named)
}

// Check reports, without writing anything, the error that Create would
// return now for path, so that a program can refuse a file before doing
// the work behind it.
func Check(path string) error { return check(path, regular) }

// CheckOutput is Check for CreateOutput. A device or a FIFO is not
// opened.
func CheckOutput(path string) error { return check(path, output) }

func check(path string, k kind) error {
	target, direct, err := lookup(path, k)
	if err != nil || direct {
		return pathError("create", path, err)
	}
	f, err := os.CreateTemp(filepath.Dir(target), tempPattern(target))
	if err != nil {
		return pathError("create", path, err)
	}
	err = f.Close()
	// A writer of the same file sweeping its stale temporary files
	// (removeStale) may have removed this one, which no lock holds: the
	// file could be made, which is what was asked.
	if rerr := os.Remove(f.Name()); !errors.Is(rerr, fs.ErrNotExist) {
		err = errors.Join(err, rerr)
	}
	return err
}

// tempPattern is the name of target's temporary files, for CreateTemp:
// the prefix, then a random number.
func tempPattern(target string) string { return tempPrefix(target) + "*" }

func tempPrefix(target string) string { return "." + filepath.Base(target) + ".tmp" }

// Sweep removes the temporary files in dir that writers killed before
// they could finish (by SIGKILL, say) left behind: those no live writer
// holds locked. A directory's owner sweeps it when it opens it, so that
// such files do not stay for good when nothing is written there again.
func Sweep(dir string) { removeStale(dir, ".") }

// removeStale removes the temporary files in dir whose names begin with
// prefix and that no process holds locked: their writers are gone.
func removeStale(dir, prefix string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) || !isTemp(e.Name()) || !e.Type().IsRegular() {
			continue
		}
		name := filepath.Join(dir, e.Name())
		if f, err := OpenFile(name, os.O_RDWR); err == nil {
			if ok, _ := flock.TryLock(f); ok && linked(f) {
				os.Remove(name)
			}
			f.Close()
		}
	}
}

// isTemp reports whether name is that of a temporary file: ".NAME.tmp"
// and CreateTemp's random digits.
func isTemp(name string) bool {
	i := strings.LastIndex(name, ".tmp")
	if !strings.HasPrefix(name, ".") || i < 1 || i+4 == len(name) {
		return false
	}
	for _, c := range name[i+4:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// lookup returns where the file at path is written, and whether directly
// (a device, a FIFO, or a file that no link names, such as /dev/stdout
// redirected to one) rather than through a temporary file beside it: only
// an output is written directly, anything else gets ErrNotRegular. In a
// shared directory, path itself must be a regular file or nothing.
func lookup(path string, k kind) (target string, direct bool, err error) {
	if k == shared {
		info, err := os.Lstat(path)
		switch {
		case err == nil && info.Mode()&fs.ModeSymlink != 0:
			return "", false, ErrLink
		case err == nil && info.IsDir():
			return "", false, syscall.EISDIR
		case err == nil && !info.Mode().IsRegular():
			return "", false, ErrNotRegular
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return "", false, err
		}
		return path, false, nil
	}
	isOutput := k == output
	info, err := os.Stat(path) // the system follows the links
	switch {
	case err == nil && info.IsDir():
		return "", false, syscall.EISDIR
	case err == nil && !info.Mode().IsRegular() && !isOutput:
		return "", false, ErrNotRegular
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
			if !isOutput {
				return "", false, ErrNotRegular
			}
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

// WriteFile writes the regular file at path through write, atomically.
// An old file at path is replaced, never written to, so a process that
// maps it keeps a consistent copy.
func WriteFile(path string, write func(io.Writer) error) error {
	return writeFile(path, regular, write)
}

// WriteOutput is WriteFile for an output that the user names, written
// directly if it is a device or a FIFO.
func WriteOutput(path string, write func(io.Writer) error) error {
	return writeFile(path, output, write)
}

// WriteShared is WriteFile for a file of a directory that others write
// too: a symbolic link at path is refused (ErrLink), not followed. The
// temporary file is created anew (O_EXCL) and renamed over path.
func WriteShared(path string, write func(io.Writer) error) error {
	return writeFile(path, shared, write)
}

func writeFile(path string, k kind, write func(io.Writer) error) error {
	f, err := create(path, k)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// ReadFile reads the regular file at path, of at most max bytes, as
// WriteFile writes it: anything else at path is refused (ErrNotRegular),
// before it is read, so that a FIFO or /dev/zero named by mistake neither
// blocks nor fills the memory.
func ReadFile(path string, max int64) ([]byte, error) {
	return readFile(path, max, func(path string) (*os.File, error) { return OpenFile(path, os.O_RDONLY) })
}

// ReadShared is ReadFile for a file of a directory that others write too,
// as WriteShared writes it: a symbolic link at path is refused (ErrLink),
// not read through.
func ReadShared(path string, max int64) ([]byte, error) {
	return readFile(path, max, openNoFollow)
}

func readFile(path string, max int64, open func(string) (*os.File, error)) ([]byte, error) {
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	switch {
	case err != nil:
		return nil, pathError("read", path, err)
	case !info.Mode().IsRegular():
		return nil, pathError("read", path, ErrNotRegular)
	case info.Size() > max:
		return nil, pathError("read", path, fmt.Errorf("%d bytes, over the %d a file of this kind may have", info.Size(), max))
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(data)) > max {
		err = fmt.Errorf("over the %d bytes a file of this kind may have", max)
	}
	return data, pathError("read", path, err)
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
