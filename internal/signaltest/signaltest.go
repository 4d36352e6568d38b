// Package signaltest signals a command's child process at an event the
// test can see, a line of its standard error, rather than after a time it
// hopes is long enough.
package signaltest

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// When starts cmd, sends it sig once a line of its standard error
// satisfies ready, and returns how long it took to exit then, its
// standard error, and its error.
func When(t testing.TB, cmd *exec.Cmd, sig os.Signal, ready func(line string) bool) (time.Duration, string, error) {
	t.Helper()
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	sc := bufio.NewScanner(pipe)
	for sc.Scan() {
		stderr.WriteString(sc.Text() + "\n")
		if ready(sc.Text()) {
			break
		}
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	sent := time.Now()
	rest, _ := io.ReadAll(pipe)
	stderr.Write(rest)
	err = cmd.Wait()
	return time.Since(sent), stderr.String(), err
}
