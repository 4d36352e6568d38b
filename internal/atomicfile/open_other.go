//go:build !unix

package atomicfile

import (
	"io/fs"
	"os"
)

// OpenFile opens the file at path as os.OpenFile does: this system (Windows,
// WebAssembly) has no FIFO that an open waits on.
func OpenFile(path string, flag int) (*os.File, error) {
	return os.OpenFile(path, flag, 0)
}

// openNoFollow opens the file at path for reading, refusing a symbolic
// link there (ErrLink). This system opens no file without following its
// link, so the path is looked at first: a link put in its place between
// the look and the open is followed (docs/design.md, "Platforms").
func openNoFollow(path string) (*os.File, error) {
	if info, err := os.Lstat(path); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return nil, pathError("read", path, ErrLink)
	}
	return OpenFile(path, os.O_RDONLY)
}
