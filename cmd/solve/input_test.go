package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Input read as the user gave it (issue 48).

// TestPrintOnlyReadsBack checks that --print-only's output reads back as
// the same puzzles with the same ids, for boards of every shape and for
// ids that carry a file's name.
func TestPrintOnlyReadsBack(t *testing.T) {
	for _, size := range []string{"2x8", "3x4", "4x3", "3", "4", "5x5", "2x2"} {
		t.Run(size, func(t *testing.T) {
			status, printed, stderr := runSolve(t, "", "--random", "3", "--seed", "3", "--size", size, "--print-only")
			if status != 0 {
				t.Fatalf("status %d: %s", status, stderr)
			}
			status, again, stderr := runSolve(t, printed, "--print-only")
			if status != 0 || again != printed {
				t.Errorf("read back: status %d: %s\n%s\nwant\n%s", status, stderr, again, printed)
			}
		})
	}
	t.Run("two files", func(t *testing.T) {
		a := writeInput(t, "a.txt", "1 2 3 4 5 6 7 0 8\n2x3\n1 2 3\n4 0 5\n")
		b := writeInput(t, "b.txt", "1 2 3 4 0 5 6 7 8 9 10 11 12 13 14 15\n")
		status, printed, stderr := runSolve(t, "", "--print-only", a, b)
		if status != 0 || strings.Count(printed, "\n") != 3 {
			t.Fatalf("status %d: %s\n%s", status, stderr, printed)
		}
		status, again, stderr := runSolve(t, printed, "--print-only")
		if status != 0 || again != printed {
			t.Errorf("read back: status %d: %s\n%s\nwant\n%s", status, stderr, again, printed)
		}
	})
	// A 2x4 puzzle read back is solved at its own optimum: 2x8's would
	// take too long here, but the board read is the same.
	_, printed, _ := runSolve(t, "", "--random", "1", "--seed", "3", "--size", "2x4", "--print-only")
	if status, out, stderr := runSolve(t, printed, "-t", "1"); status != 0 || !strings.HasPrefix(out, "random1: ") {
		t.Errorf("solving %q: status %d: %s%s", printed, status, out, stderr)
	}
}

// TestBlockOutOfRange checks that a block header of a size no reader
// takes is one error, its rows read with it and not solved as puzzles.
func TestBlockOutOfRange(t *testing.T) {
	row16 := "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n"
	for _, c := range []struct{ name, block, want string }{
		{"1x16", "1x16\n" + row16, "unsupported size 1x16"},
		{"16x16", "16x16\n" + strings.Repeat(row16, 16), "unsupported size 16x16"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "in.txt")
			if err := os.WriteFile(path, []byte(c.block+"ok: 1 2 3 4 5 6 7 0 8\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			status, out, stderr := runSolve(t, "", "--print-only", path)
			if status != 1 || out != "ok: 1 2 3 4 5 6 7 0 8\n" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
				t.Errorf("status %d, stdout %q, stderr %q", status, out, stderr)
			}
		})
	}
}

// TestPipeAnswersEach drives solve as a coprocess does: it writes one
// puzzle into a pipe and waits for its answer before it writes the next
// (issue 48: solve read two puzzles ahead before it answered the first).
func TestPipeAnswersEach(t *testing.T) {
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer inR.Close()
	defer outR.Close()
	var stderr strings.Builder
	status := make(chan int, 1)
	go func() {
		status <- run([]string{"--heuristic", "manhattan"}, inR, outW, &stderr)
		outW.Close()
	}()
	answers := bufio.NewReader(outR)
	for _, p := range []string{"a: 1 2 3 4 5 6 7 0 8", "b: 1 2 3 4 5 6 0 7 8"} {
		if _, err := fmt.Fprintln(inW, p); err != nil {
			t.Fatal(err)
		}
		// The answer comes while the input stays open: a solve that
		// waits for more input never answers, and the test's deadline
		// ends it.
		line, err := answers.ReadString('\n')
		if err != nil || !strings.HasPrefix(line, p[:2]) {
			t.Fatalf("answer to %q: %q, %v", p, line, err)
		}
	}
	inW.Close()
	if s := <-status; s != 0 {
		t.Errorf("status %d: %s", s, stderr.String())
	}
}

// TestJobsBound checks that --jobs is bounded as --threads is.
func TestJobsBound(t *testing.T) {
	for _, j := range []string{"257", "1000000", "-1"} {
		if status, _, stderr := runSolve(t, "1 2 3 4 5 6 7 0 8\n", "-j", j); status != 2 || !strings.Contains(stderr, `"-j, --jobs" flag: want 0 to 256`) {
			t.Errorf("-j %s: status %d: %s", j, status, stderr)
		}
	}
}
