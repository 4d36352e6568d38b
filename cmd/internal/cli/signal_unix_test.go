//go:build unix

package cli

import (
	"os"
	"syscall"
	"testing"
)

// TestContext checks that the signal ends the context, and that a second
// one is no longer caught once it has.
func TestContext(t *testing.T) {
	ctx, stop := Context(syscall.SIGUSR1)
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	<-ctx.Done()
	if ctx.Err() == nil {
		t.Error("no error once ended")
	}
}
