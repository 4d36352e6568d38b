// Package testtool serves the tests: it skips a test whose outside
// program (tmux, Chromium, a C compiler, Slurm's tools) is missing, and
// says so where a user running "go test ./..." sees it (go test prints a
// passing package's output only with -v, so the line also goes to the
// terminal, when there is one); it runs the tests that take minutes in
// full only when asked (Long); it makes FIFOs where the system has them;
// and it holds the docs' tables of flags to a command's (CheckDocFlags).
package testtool

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Need returns the path of the first of programs found on PATH, or skips
// the test, saying which it needs and, where install is not "", how to
// install it (such as "apt-get install tmux").
func Need(t testing.TB, install string, programs ...string) string {
	t.Helper()
	for _, name := range programs {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	msg := fmt.Sprintf("%s skipped: it needs %s on PATH", t.Name(), strings.Join(programs, " or "))
	if install != "" {
		msg += " (" + install + ")"
	}
	tell(msg)
	t.Skip(msg)
	return ""
}

// terminal is where tell writes: the terminal that go test runs on.
var terminal = "/dev/tty"

// tell writes msg on the terminal, if there is one.
func tell(msg string) {
	tty, err := os.OpenFile(terminal, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return // no terminal: CI reads the skip in -v's output
	}
	defer tty.Close()
	fmt.Fprintf(tty, "note: %s\n", msg)
}
