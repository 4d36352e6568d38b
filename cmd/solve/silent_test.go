package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fifteen/cmd/internal/record"
	"fifteen/data"
	"fifteen/puzzle"
	"fifteen/solver"
)

// Issue 76's input cases: a goal board keeps its size, --goal takes one
// board, and solve says what it did where it said nothing.

func TestGoalBoardSize(t *testing.T) {
	near15 := "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n"
	for _, c := range []struct {
		stdin  string
		args   []string
		status int
		out    string // in stdout
		err    string // in stderr
	}{
		// A 3x3 goal board, a convention's, solved a 4x4 puzzle toward the
		// 4x4 goal.
		{near15, []string{"--goal", "1 2 3 4 5 6 7 8 0"}, 1, "", "1: a 4x4 puzzle for a 3x3 goal"},
		{"1 2 3 4 5 6 7 0 8\n", []string{"--goal", "1 2 3 4 5 6 7 8 0"}, 0, "1: 1 moves R", ""},
		{"", []string{"--random", "1", "--goal", "1 2 3 4 5 6 7 8 0", "--print-only"}, 0, "random1: 4 1 6 2 7 0 8 3 5\n", ""},
		{"", []string{"--random", "1", "--size", "3x3", "--goal", "2x4 1 2 3 4 5 6 7 0"}, 2, "", "--size 3x3, but --goal is a 2x4 board"},
		{"", []string{"--set", "korf100", "--goal", "0 1 2 3 4 5 6 7 8"}, 2, "", "--set korf100's puzzles are 4x4, but --goal is a 3x3 board"},
		// --goal takes one board, without a label.
		{"", []string{"--goal", "1 2 3 0\n1 2 3 0"}, 2, "", "more than one board"},
		{"", []string{"--goal", ""}, 2, "", `bad goal "": want first, last or a board's tiles (no tiles)`},
		{"", []string{"--goal", "g: 1 2 3 0"}, 2, "", "a goal board takes no label"},
		// The way to larger boards named.
		{"", []string{"--random", "1", "--size", "6x6"}, 2, "", "the constructive mode, not optimal, takes up to 255"},
		// No input, no word.
		{"", nil, 0, "", "no puzzle was read"},
	} {
		status, out, stderr := runSolve(t, c.stdin, c.args...)
		if status != c.status || !strings.Contains(out, c.out) || !strings.Contains(stderr, c.err) {
			t.Errorf("%q %q: status %d, %q, %s", c.stdin, c.args, status, out, stderr)
		}
	}
}

// TestResumeFinished resumes a checkpoint whose search finished before
// the run was stopped: solve says so, and what it did (issue 76: it
// printed nothing, exit 0).
func TestResumeFinished(t *testing.T) {
	checkpoint, databases := filepath.Join(t.TempDir(), "k.json"), t.TempDir()
	file := writeInput(t, "easy.txt", "easy: 1 2 3 4 5 6 7 0 8\n")
	flags := []string{"--heuristic", "manhattan", "--pdb-dir", databases, "--checkpoint", checkpoint, file}
	if status, _, stderr := runSolve(t, "", flags...); status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	status, out, stderr := runSolve(t, "", append(flags, "--resume", checkpoint)...)
	if status != 0 || out != "" || !strings.Contains(stderr, "the checkpoint's search, of easy, is finished: the run that saved it printed its answer") || !strings.Contains(stderr, "no puzzle after the checkpoint's remains to solve") {
		t.Errorf("status %d, %q, %s", status, out, stderr)
	}
	// The key is the user's, not the database directory's, which may be
	// shared or read-only.
	if entries, _ := os.ReadDir(databases); len(entries) != 0 {
		t.Errorf("written into the database directory: %v", entries)
	}
}

// TestLibraryDefaults solves Korf's 100 with solve's defaults on one
// thread, and through the library's zero options: the same nodes, as the
// same search (issue 79: the library's zero value was plain IDA*).
func TestLibraryDefaults(t *testing.T) {
	status, out, stderr := runSolve(t, "", "--korf100", "-t", "1", "-j", "1", "--format", "jsonl")
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	var want uint64
	for line := range strings.Lines(out) {
		var r record.Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		want += r.Generated
	}
	s, err := solver.New(solver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got uint64
	for _, p := range data.Korf100() {
		res, err := s.Solve(t.Context(), p, solver.Options{Goal: puzzle.GoalFirst})
		if err != nil {
			t.Fatal(err)
		}
		got += res.Generated
	}
	if got != want {
		t.Errorf("solver.Options{} generated %d nodes on Korf's 100, solve --korf100 -t 1 %d", got, want)
	}
}
