package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fifteen/cmd/internal/batch"
	"fifteen/cmd/internal/cli"
	"fifteen/internal/seal"
	"fifteen/puzzle"
	"fifteen/search"
	"fifteen/solver"
)

// stream returns the puzzles of text as solve reads them.
func stream(text string) iter.Seq2[puzzle.Puzzle, error] {
	return func(yield func(puzzle.Puzzle, error) bool) {
		r := puzzle.NewReader(strings.NewReader(text), "")
		for {
			p, err := r.Next()
			if err == io.EOF || !yield(p, err) {
				return
			}
		}
	}
}

// small is a batch of 3×3 puzzles searched with Manhattan distance.
func small() *batch.Config {
	return &batch.Config{Solver: solver.Config{Heuristic: "manhattan"}, Format: "text", Options: solver.Options{Options: search.Options{Threads: 1, Frontier: search.DefaultFrontier}}}
}

// run runs task k of n (k < 0: the merge) of the split job in dir, and
// returns what it printed on stdout, and its error.
func run(t *testing.T, dir, input string, k, n int, split string, above uint64) (string, error) {
	t.Helper()
	c := &Config{Dir: dir, Task: max(k, 0), Tasks: n, Merge: k < 0, Split: split, Above: above}
	var stdout bytes.Buffer
	err := Run(context.Background(), c, small(), stream(input), &stdout, io.Discard)
	return stdout.String(), err
}

// verdict returns status.json's state and exit status.
func verdict(t *testing.T, dir string) string {
	t.Helper()
	var v Status
	data, err := os.ReadFile(filepath.Join(dir, "status.json"))
	if err == nil {
		err = json.Unmarshal(data, &v)
	}
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(v.State, " ", v.Exit)
}

// isAgain reports whether err is the merge's while the tasks must run
// again, and names which.
func isAgain(err error, why string) bool {
	var ae *AgainError
	return errors.As(err, &ae) && strings.Contains(ae.Why, why)
}

// TestSplitBatch runs a split batch's tasks and merges, and checks each
// verdict: the tasks behind, the answers in input order once all are in,
// and a file tampered with.
func TestSplitBatch(t *testing.T) {
	input := "a: 1 2 3 4 5 6 0 7 8\nb: 1 2 3\nc: 1 2 3 0 4 6 7 5 8\nd: 1 2 3 4 5 6 7 8 0\ne: 1 2 3 4 0 6 7 5 8\n"
	dir := t.TempDir()
	if _, err := run(t, dir, input, -1, 0, "", 0); !isAgain(err, "no task has run") {
		t.Fatalf("a merge before the tasks: %v", err)
	}
	if _, err := run(t, dir, input, 0, 2, "", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, dir, input, -1, 0, "", 0); !isAgain(err, "tasks [1] of 2") || verdict(t, dir) != "again 3" {
		t.Fatalf("a merge with task 1 behind: %v, %s", err, verdict(t, dir))
	}
	if _, err := run(t, dir, input, 1, 2, "", 0); !errors.Is(err, cli.ErrReported) {
		t.Fatalf("task 1, whose share holds b, malformed: %v", err)
	}
	key, err := seal.LoadKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	for k := range 2 { // task K holds the puzzles K, K+2, …
		lines, err := readBatch(key, batchPath(dir, k))
		if err != nil {
			t.Fatal(err)
		}
		var want []int
		for i := k; i < 5; i += 2 {
			want = append(want, i)
		}
		if got := slices.Sorted(maps.Keys(lines)); !slices.Equal(got, want) {
			t.Errorf("task %d's outcomes: %v, want %v", k, got, want)
		}
	}
	out, err := run(t, dir, input, -1, 0, "", 0)
	if !errors.Is(err, cli.ErrReported) || verdict(t, dir) != "done 1" {
		t.Errorf("the merge: %v, %s", err, verdict(t, dir))
	}
	var ids []string
	for line := range strings.Lines(out) {
		id, _, _ := strings.Cut(line, ":")
		ids = append(ids, id)
	}
	if got := strings.Join(ids, " "); got != "a c d e" {
		t.Errorf("merged %q, want a c d e", got)
	}

	// Task 0's file with the outcome of a puzzle of task 1's share: as
	// an edit, refused by its seal; sealed, by what it says.
	path := batchPath(dir, 0)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	line := []byte(`{"index":1,"puzzle":"x"}` + "\n")
	sealed, err := key.Seal(line)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		line []byte
		why  string
	}{{line, "seal"}, {sealed, "not of task 0 of 2's share"}} {
		if err := os.WriteFile(path, append(slices.Clone(data), c.line...), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := run(t, dir, input, -1, 0, "", 0); err == nil || isAgain(err, "") || !strings.Contains(err.Error(), c.why) || verdict(t, dir) != "failed 1" {
			t.Errorf("a tampered file: %v, %s", err, verdict(t, dir))
		}
	}
}

// TestSplitSearch runs a split search of one puzzle in rounds, its tasks
// and the merge taking turns as a driver would, until the merge prints
// the answer: optimal, as one search finds it.
func TestSplitSearch(t *testing.T) {
	input := "p: 8 6 7 2 5 4 3 0 1\n" // 31 moves, the most on 3×3
	var want bytes.Buffer
	if err := batch.Solve(context.Background(), small(), stream(input), &want, io.Discard); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	const tasks = 3
	for round := 1; ; round++ {
		if round > 40 {
			t.Fatal("no answer after 40 rounds")
		}
		for k := range tasks {
			if _, err := run(t, dir, input, k, tasks, "search", 1000); err != nil {
				t.Fatalf("round %d, task %d: %v", round, k, err)
			}
		}
		out, err := run(t, dir, input, -1, 0, "search", 1000)
		if isAgain(err, "run the tasks again") {
			continue
		}
		if err != nil || verdict(t, dir) != "done 0" {
			t.Fatalf("round %d: %v, %s", round, err, verdict(t, dir))
		}
		if got, want := length(out), length(want.String()); got != want || round < 2 {
			t.Errorf("%s moves in %d rounds, want %s in more than one:\n%s", got, round, want, out)
		}
		return
	}
}

// length returns the length of an answer line, "p: N moves …".
func length(line string) string {
	_, rest, _ := strings.Cut(line, ": ")
	n, _, _ := strings.Cut(rest, " ")
	return n
}

// TestRunUsage checks the requests a split search cannot carry out.
func TestRunUsage(t *testing.T) {
	for _, c := range []struct {
		name string
		opts solver.Options
	}{
		{"greedy", solver.Options{Mode: solver.Greedy}},
		{"timeout", solver.Options{Timeout: time.Second}},
	} {
		b := small()
		b.Options = c.opts
		err := Run(context.Background(), &Config{Dir: t.TempDir(), Tasks: 2, Split: "search"}, b, stream("a: 1 2 3 4 5 6 0 7 8\n"), io.Discard, io.Discard)
		if !errors.As(err, new(*cli.UsageError)) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestMergeBeforeAnyTask merges a results directory that holds a task's
// checkpoint but no job.json (removed, say): the tasks must run, and
// the merge says so, reading no file it cannot open (issue 76: with no
// key yet, it must not fail on the checkpoint).
func TestMergeBeforeAnyTask(t *testing.T) {
	dir := t.TempDir()
	other, err := seal.LoadKey(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := other.Seal([]byte(`{"id":"a"}`))
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "batch-0.checkpoint.json"), sealed, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, dir, "a: 1 2 3 4 5 6 7 0 8\n", -1, 0, "", 0); !isAgain(err, "no task has run") || verdict(t, dir) != "again 3" {
		t.Errorf("the merge: %v, %s", err, verdict(t, dir))
	}
}
