//go:build unix

package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// TestStreamMemory prints a million puzzles (--print-only) in a child
// process and checks its peak memory, which the input's length must not
// set.
func TestStreamMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("a million lines")
	}
	cmd := exec.Command(os.Args[0], "--print-only")
	cmd.Env = append(os.Environ(), "FIFTEEN_RUN_SOLVE=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(in)
	for range 1_000_000 {
		w.WriteString("1 2 3 4 5 6 7 0 8\n")
	}
	if err := errors.Join(w.Flush(), in.Close(), cmd.Wait()); err != nil {
		t.Fatal(err)
	}
	usage, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no resource usage on this system")
	}
	if peak := usage.Maxrss; peak > 100<<10 { // kilobytes on Linux
		t.Errorf("peak RSS %d KiB for a million lines, want under 100 MiB", peak)
	}
}
