//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestNoTerminal runs play in a session of its own, without a controlling
// terminal: it says that it needs one, and exits 1 (issue 66: it printed
// "open /dev/tty: no such device or address").
func TestNoTerminal(t *testing.T) {
	cmd := exec.Command(os.Args[0], "--goal", "last", "1", "2", "3", "4", "5", "6", "0", "7", "8")
	cmd.Env = append(os.Environ(), "FIFTEEN_RUN_PLAY=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.HasPrefix(string(out), "play: needs a terminal to play on") {
		t.Errorf("%v: %s", err, out)
	}
}
