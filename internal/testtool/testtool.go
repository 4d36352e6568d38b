// Package testtool skips a test whose outside program (tmux, Chromium, a
// C compiler, Slurm's tools) is missing, and says so where a user running
// "go test ./..." sees it: go test prints a passing package's output only
// with -v, so the line also goes to the terminal, when there is one.
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

// LongEnv names the environment variable that runs the tests that take
// minutes in full (the docs' examples, the 7-tile databases' searches,
// exhaustive runs): "1", as .ci/run sets it. README's test command leaves
// it unset, and those tests run a cheaper form, or skip, saying so.
const LongEnv = "FIFTEEN_LONG_TESTS"

// Long reports whether the tests that take minutes run in full (LongEnv).
func Long() bool { return os.Getenv(LongEnv) == "1" }

// SkipUnlessLong skips the test, saying why it is long and how to run it,
// unless the long tests run (Long).
func SkipUnlessLong(t testing.TB, why string) {
	t.Helper()
	if !Long() {
		t.Skipf("%s: runs with %s=1", why, LongEnv)
	}
}
