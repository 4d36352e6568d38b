package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// pipeWaiting reports whether bytes wait in the pipe or socket f
// (TIOCINQ, Linux's FIONREAD).
func pipeWaiting(f *os.File) bool {
	n, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCINQ)
	return err == nil && n > 0
}
