//go:build !unix && !windows

package pdb

import (
	"io"
	"os"
)

// mapFile reads size bytes of f: this system (WebAssembly) maps no files.
func mapFile(f *os.File, size int) ([]byte, func() error, error) {
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, nil, err
	}
	return b, func() error { return nil }, nil
}
