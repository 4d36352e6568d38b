package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUsageMessages checks issue 57's usage errors: one rule for the
// weight, flags that did nothing refused, a checkpoint's fault named, and
// one name before each message.
func TestUsageMessages(t *testing.T) {
	empty := writeInput(t, "empty.json", "{}")
	sealedEmpty := writeInput(t, "sealed.json", "")
	writeSealed(t, sealedEmpty, map[string]any{"version": 3})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--weight", "0.999"}, "solve: bad --weight 0.999: want 1 (optimal) or 1.01 to 100, in hundredths\n"},
		{[]string{"--weight", "1.0000001"}, "in hundredths"}, // searched optimally, labelled not
		{[]string{"--size", "3x3"}, "--size and --seed are --random's"},
		{[]string{"--seed", "3"}, "--size and --seed are --random's"},
		{[]string{"--random", "0"}, "bad --random 0"}, // it read standard input
		{[]string{"--partition", "663", "--heuristic", "manhattan"}, "only the pdb heuristic"},
		{[]string{"--resume", empty}, "empty.json is refused, and left as it was: it has no seal"},
		{[]string{"--resume", sealedEmpty}, "is not a checkpoint of solve --checkpoint: it names no puzzle\n"},
		{[]string{"--prune-depth", "1"}, "solve: pruning depth 1"},
		{[]string{"--frontier", "-1"}, "solve: bad --frontier -1: want 1 to 65536 MiB, or 0 for depth-first\n"},
		{[]string{"--frontier", "70000"}, "bad --frontier 70000"},
		{[]string{"--partition", "1,2/3,4,5,6,7,9"}, `"9" is not a tile of a 3x3 board`},    // a 4x4 board's fault was named
		{[]string{"help"}, "solve: no file \"help\" to read: for the help, solve --help\n"}, // issue 67: "open help"
		// Flags that would do nothing (issue 66: accepted).
		{[]string{"--print-only", "--checkpoint", "c.json"}, "--print-only prints the puzzles: not with --checkpoint, which is the search's"},
		{[]string{"--print-only", "--contour"}, "--print-only prints the puzzles: not with --contour, which is the search's"}, // issue 76: taken
		{[]string{"--checkpoint-every", "1s"}, "--checkpoint-every is how often --checkpoint saves"},
		{[]string{"--frontier", "16", "--order", "ULRD"}, "--frontier ranks the tasks of each round: not with --order"},
		{[]string{"--frontier", "16", "--weight", "2"}, "not with --order, --weight"},
		{[]string{"--frontier", "0", "--greedy"}, "not with --order, --weight"},
		{[]string{"--frontier", "16", "--constructive"}, "not with --order, --weight"},
		{[]string{"--contour", "--results", "r", "--task", "0/2"}, "--contour: a split search's tasks cut each iteration at its plan's depth"},
		{[]string{"--contour", "--frontier", "0"}, "--contour chooses how --frontier cuts"},
		{[]string{"--contour", "--order", "ULRD"}, "--contour chooses how --frontier cuts"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			status, out, stderr := runSolve(t, "a: 1 2 3 4 5 6 7 0 8\n", c.args...)
			if status != 2 || out != "" || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "solver:") || strings.Contains(stderr, "search:") || strings.Contains(stderr, "pdb:") {
				t.Errorf("status %d, stdout %q, stderr %q; want 2 and %q", status, out, stderr, c.want)
			}
		})
	}
}

// TestSummaryCountsMalformed checks that the summary counts every puzzle
// of the input, the malformed ones too (issue 57: "solved 1 of 1" of 3).
func TestSummaryCountsMalformed(t *testing.T) {
	status, _, stderr := runSolve(t, "1 2 3 4 5 6 7 0 8\n1 2 3\nx: 1 1 2 3 4 5 6 7 0\n", "--heuristic", "manhattan")
	if status != 1 || !strings.Contains(stderr, "solved 1 of 3:") {
		t.Errorf("status %d: %s", status, stderr)
	}
}

// TestBatchLinkNotRead puts a symbolic link to another job's outcomes
// where a batch task's file goes: the task refuses it before reading it
// (issue 57: it read the outcomes through the link, then refused to
// write).
func TestBatchLinkNotRead(t *testing.T) {
	file := writeInput(t, "a.txt", "a1: 1 2 3 4 5 6 0 7 8\na2: 1 2 3 4 0 5 7 8 6\n")
	dir, outside := filepath.Join(t.TempDir(), "results"), filepath.Join(t.TempDir(), "other.jsonl")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outside, []byte("not JSON: another job's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "batch-0.jsonl")); err != nil {
		t.Fatal(err)
	}
	status, _, stderr := runSolve(t, "", "--results", dir, "--task", "0/2", "--heuristic", "manhattan", file)
	if status != 1 || !strings.Contains(stderr, "symbolic link") || strings.Contains(stderr, "invalid character") {
		t.Errorf("status %d: %s", status, stderr)
	}
}

// TestHelp: --help says what solve does and how it is called, lists every
// flag under the heading of what a user does with it, in that order, and
// gives examples and the exit statuses, on standard output.
func TestHelp(t *testing.T) {
	status, help, stderr := runSolve(t, "", "--help")
	if status != 0 || stderr != "" {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
	at := 0
	for _, want := range []string{
		"solve: solves sliding-tile puzzles", "Usage: solve [flags] [FILE...]",
		"Input and output:\n", "--korf100", "--format", "Search:\n", "--weight", "--timeout",
		"Databases:\n", "--partition", "Batch and checkpoints:\n", "--jobs", "--resume",
		"cluster's tasks", "--merge", "Profiling:\n", "--cpuprofile",
		"Examples:\n", "solve --korf100 ", "Exit status:\n", "  3  --merge",
	} {
		i := strings.Index(help[at:], want)
		if i < 0 {
			t.Fatalf("the help lacks %q after byte %d:\n%s", want, at, help)
		}
		at += i
	}
}

// TestHelpExits checks the help's exit statuses against what solve does
// where its databases are missing: exit 1, which the help says (issue 66:
// it promised exit 2 for "a bad … database").
func TestHelpExits(t *testing.T) {
	_, help, _ := runSolve(t, "", "--help")
	_, exits, _ := strings.Cut(help, "Exit status:\n")
	one, two, _ := strings.Cut(exits, "\n  2  ")
	status, _, stderr := runSolve(t, "a: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n", "--partition", "663", "--pdb-dir", t.TempDir())
	if status != 1 || !strings.Contains(stderr, "are not in") || !strings.Contains(one, "databases are missing") || strings.Contains(two, "database") {
		t.Errorf("missing databases: status %d, %s; the help says:\n%s", status, stderr, exits)
	}
	// Issue 76: a missing file exits 1, the word help 2, as the help says.
	if status, _, stderr := runSolve(t, "", filepath.Join(t.TempDir(), "none.txt")); status != 1 || !strings.Contains(one, "a FILE cannot be read") {
		t.Errorf("a missing file: status %d, %s; the help says:\n%s", status, stderr, exits)
	}
	if status, _, stderr := runSolve(t, "", "help"); status != 2 || !strings.Contains(two, "the word help where a FILE goes") {
		t.Errorf("help: status %d, %s; the help says:\n%s", status, stderr, exits)
	}
}

// TestSuggestion: a mistyped flag gets the nearest one suggested.
func TestSuggestion(t *testing.T) {
	status, _, stderr := runSolve(t, "", "--korf10")
	if want := "solve: unknown flag: --korf10 (did you mean --korf100?)\n"; status != 2 || stderr != want {
		t.Errorf("status %d, %q; want 2, %q", status, stderr, want)
	}
}

// TestOtherGoal solves Korf's first instance toward the blank last: the
// message says it is solvable toward the blank first, and names the flag
// (issue 67).
func TestOtherGoal(t *testing.T) {
	status, _, stderr := runSolve(t, "korf1: 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n", "--heuristic", "manhattan")
	if want := "korf1: unsolvable: permutation parity does not match the blank's position; it is solvable toward goal first (--goal first)\n"; status != 1 || !strings.Contains(stderr, want) {
		t.Errorf("status %d: %s", status, stderr)
	}
}
