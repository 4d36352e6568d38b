//go:build unix

package pdb

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps size bytes of f read-only and shared, so that every process
// mapping the file uses the same pages of the page cache.
func mapFile(f *os.File, size int) ([]byte, func() error, error) {
	b, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return b, func() error { return unix.Munmap(b) }, nil
}
