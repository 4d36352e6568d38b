//go:build unix

package testtool

import (
	"syscall"
	"testing"
)

// Mkfifo makes a FIFO at path, or fails the test; where the system has
// no FIFOs, it skips the test.
func Mkfifo(t testing.TB, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}
