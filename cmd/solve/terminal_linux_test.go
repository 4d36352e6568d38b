package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestTerminalHint runs solve with a terminal for its standard input, a
// pseudo-terminal's, as a user who types "solve" does: it says how to give
// it a puzzle before it waits, then solves the one typed (issue 59: it
// waited without a word).
func TestTerminalHint(t *testing.T) {
	tty := pseudoTerminal(t, "1 2 3 4 5 6 7 0 8\n\x04")
	var stdout, stderr bytes.Buffer
	status := run([]string{"--heuristic", "manhattan"}, tty, &stdout, &stderr)
	if status != 0 || !strings.HasPrefix(stderr.String(), "solve: reading puzzles from the terminal, one a line") || !strings.Contains(stdout.String(), "1: 1 moves R") {
		t.Errorf("status %d, stdout %q, stderr %q", status, stdout.String(), stderr.String())
	}
}

// TestPipeIgnored: with --random, puzzles piped in are ignored, and solve
// says so (issue 59: silently).
func TestPipeIgnored(t *testing.T) {
	for _, c := range []struct {
		name, piped string
		args        []string
		note        string // on stderr first
		solved      string // on stdout first
	}{
		{"puzzles piped", "1 2 3 4 5 6 7 0 8\n", []string{"--random", "1", "--size", "3"}, "solve: the puzzles come from --random: standard input is ignored\n", "random1: "},
		// Issue 66: an empty pipe got the notice, and "-" was a file name.
		{"an empty pipe", "", []string{"--random", "1", "--size", "3"}, "", "random1: "},
		{"- among the files", "a: 1 2 3 4 5 6 7 0 8\n", []string{writeInput(t, "b.txt", "b: 1 2 3 4 5 6 0 7 8\n"), "-"}, "", "\na: 1 moves"},
	} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, c.piped) // the pipe's buffer holds it
		w.Close()
		var stdout, stderr bytes.Buffer
		status := run(append(c.args, "--heuristic", "manhattan"), r, &stdout, &stderr)
		r.Close()
		if status != 0 || !strings.HasPrefix(stderr.String(), c.note) || !strings.Contains(stdout.String(), c.solved) || c.note == "" && strings.Contains(stderr.String(), "ignored") {
			t.Errorf("%s: status %d, stdout %q, stderr %q", c.name, status, stdout.String(), stderr.String())
		}
	}
}

// pseudoTerminal returns the terminal end of a new pseudo-terminal, whose
// input is typed, in canonical mode (Ctrl-D ends the input). It is closed
// when the test ends.
func pseudoTerminal(t *testing.T, typed string) *os.File {
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skip("no pseudo-terminals:", err)
	}
	t.Cleanup(func() { ptm.Close() })
	if err := unix.IoctlSetPointerInt(int(ptm.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(ptm.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close() })
	if _, err := io.WriteString(ptm, typed); err != nil {
		t.Fatal(err)
	}
	return tty
}
