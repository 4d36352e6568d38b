//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// OpenFile opens the file at path as os.OpenFile does, without waiting on
// a FIFO or a device: opened non-blocking (O_NONBLOCK), a FIFO that no
// process writes, or reads, answers at once.
func OpenFile(path string, flag int) (*os.File, error) {
	return os.OpenFile(path, flag|syscall.O_NONBLOCK, 0)
}

// openNoFollow opens the file at path for reading, refusing a symbolic
// link there (ErrLink): the system refuses it as it opens (O_NOFOLLOW).
func openNoFollow(path string) (*os.File, error) {
	f, err := OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW)
	if errors.Is(err, syscall.ELOOP) {
		return nil, pathError("read", path, ErrLink)
	}
	return f, err
}
