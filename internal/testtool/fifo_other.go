//go:build !unix

package testtool

import "testing"

// Mkfifo skips the test: this system has no FIFOs.
func Mkfifo(t testing.TB, path string) {
	t.Helper()
	t.Skipf("no FIFO for %s on this system", path)
}
