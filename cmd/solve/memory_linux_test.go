package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"fifteen/internal/testtool"
)

// TestStreamMemory prints a million puzzles (--print-only) in a child
// process and checks its peak memory, which the input's length must not
// set: read from the child's own high-water mark (VmHWM) once it has
// printed all but the puzzles its output buffer may hold, before its
// input ends.
func TestStreamMemory(t *testing.T) {
	testtool.SkipUnlessLong(t, "a million lines")
	const n = 1_000_000
	cmd := child("--print-only")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// Output that waits for the end of the input never comes: the
	// watchdog turns that into the failure below.
	watchdog := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
	defer watchdog.Stop()
	go func() {
		w := bufio.NewWriter(in)
		for range n {
			w.WriteString("1 2 3 4 5 6 7 0 8\n")
		}
		w.Flush()
	}()
	sc := bufio.NewScanner(out)
	for range n - 1000 {
		if !sc.Scan() {
			t.Fatalf("no output while the input is open (or it ended early): %v", sc.Err())
		}
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		t.Skip(err)
	}
	var peak int
	for line := range strings.Lines(string(status)) {
		if _, err := fmt.Sscanf(line, "VmHWM: %d kB", &peak); err == nil {
			break
		}
	}
	if peak == 0 || peak > 100<<10 {
		t.Errorf("peak RSS %d KiB for a million lines, want under 100 MiB", peak)
	}
	t.Logf("peak RSS %d KiB", peak)
	go io.Copy(io.Discard, out)
	if err := errors.Join(in.Close(), cmd.Wait()); err != nil {
		t.Fatal(err)
	}
}
