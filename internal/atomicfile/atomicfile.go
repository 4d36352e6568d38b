// Package atomicfile writes files so that readers see the old file or the
// whole new one, never a part: a temporary file beside the target, synced,
// then renamed over it.
package atomicfile

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
)

// WriteFile writes path through write, atomically, readable by all. An old
// file at path is replaced, never written to, so a process that maps it
// keeps a consistent copy.
func WriteFile(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // fails harmlessly after the rename
	bw := bufio.NewWriterSize(f, 1<<16)
	// Readable by all, as CreateTemp makes the file 0600.
	if err := errors.Join(write(bw), bw.Flush(), f.Chmod(0o644), f.Sync(), f.Close()); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // make the rename durable where the system allows
		d.Close()
	}
	return nil
}
