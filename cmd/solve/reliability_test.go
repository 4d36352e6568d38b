package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"fifteen/cmd/internal/batch"
	"fifteen/cmd/internal/cli"
	"fifteen/cmd/internal/cluster"
	"fifteen/internal/testtool"
	"fifteen/search"
)

// The defects of issue 39 in solve, each with the test that found it.

// writeInput writes a file of puzzles into a test's directory.
func writeInput(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runTasks runs the n tasks of a split job once each.
func runTasks(t *testing.T, dir string, n int, args ...string) {
	t.Helper()
	for k := range n {
		if status, _, stderr := runSolve(t, "", append([]string{"--results", dir, "--task", fmt.Sprintf("%d/%d", k, n)}, args...)...); status > 1 {
			t.Fatalf("task %d/%d: status %d: %s", k, n, status, stderr)
		}
	}
}

// TestSplitBatchOtherInput runs a split batch on one input, then, with
// job.json removed, on another in the same directory: the tasks solve
// the new input's puzzles rather than keep the old ones' outcomes, and
// the merge replays every record it prints, refusing a forged one.
func TestSplitBatchOtherInput(t *testing.T) {
	a := writeInput(t, "a.txt", "a1: 1 2 3 4 5 6 0 7 8\na2: 1 2 3 4 0 5 7 8 6\na3: 0 1 2 3 4 5 6 7 8\n")
	b := writeInput(t, "b.txt", "b1: 8 6 7 2 5 4 3 0 1\nb2: 1 2 3 4 5 6 7 0 8\nb3: 4 1 3 0 2 6 7 5 8\n")
	dir := filepath.Join(t.TempDir(), "results")
	flags := []string{"--heuristic", "manhattan", "--format", "jsonl"}
	runTasks(t, dir, 3, append([]string{a}, flags...)...)
	os.Remove(filepath.Join(dir, "job.json"))
	runTasks(t, dir, 3, append([]string{b}, flags...)...)
	_, want, _ := runSolve(t, "", append([]string{b}, flags...)...)
	status, got, stderr := runSolve(t, "", append([]string{"--results", dir, "--merge", b}, flags...)...)
	if status != 0 || !reflect.DeepEqual(records(t, got), records(t, want)) {
		t.Fatalf("merge of b: status %d\n%s%s\nwant\n%s", status, got, stderr, want)
	}

	// A record whose moves do not solve its puzzle.
	path := filepath.Join(dir, "batch-0.jsonl")
	l := taskLines(t, dir, 0)[0]
	if l.Record == nil {
		t.Fatal("no record of the first puzzle")
	}
	three := 3
	l.Record.Moves, l.Record.Length = "UUU", &three
	writeSealed(t, path, l)
	status, got, stderr = runSolve(t, "", append([]string{"--results", dir, "--merge", b}, flags...)...)
	if status != 1 || got != "" || !strings.Contains(stderr, "refused") {
		t.Errorf("merge of a forged record: status %d, %q, %s", status, got, stderr)
	}
}

// TestSplitStrayMark leaves a mark in found-B/ that says a solution lies
// in the first subtree of the round of bound B, where none does: the
// tasks give up their subtrees after it, and the merge refuses the round
// instead of printing a longer answer as optimal.
func TestSplitStrayMark(t *testing.T) {
	// Korf's 54th with Manhattan distance: its iterations are large
	// enough that the tasks look for marks while they search.
	file := writeInput(t, "k54.txt", "korf54: 12 11 0 8 10 2 13 15 5 4 7 3 6 9 14 1\n")
	dir := filepath.Join(t.TempDir(), "results")
	flags := []string{file, "--goal", "first", "--heuristic", "manhattan", "-t", "1", "--split-above", "262144"}
	runTasks(t, dir, 2, flags...)
	if status, _, stderr := runSolve(t, "", append([]string{"--results", dir, "--merge"}, flags...)...); status != cli.StatusAgain {
		t.Fatalf("merge of the first round: status %d: %s", status, stderr)
	}
	var pf struct{ Plan *struct{ Bound int } }
	if data, err := os.ReadFile(filepath.Join(dir, "plan.json")); err != nil || json.Unmarshal(data, &pf) != nil || pf.Plan == nil {
		t.Fatalf("plan.json: %s, %v", data, err)
	}
	found := filepath.Join(dir, "puzzle-0", fmt.Sprintf("found-%d", pf.Plan.Bound))
	// Sealed, as no task wrote it: the seal refuses the file as it was
	// written by hand (TestEditedFiles); this is the check behind it.
	if err := os.MkdirAll(found, 0o755); err != nil {
		t.Fatal(err)
	}
	writeSealed(t, filepath.Join(found, "0"), map[string]any{"subtree": 0})
	runTasks(t, dir, 2, flags...)
	status, out, stderr := runSolve(t, "", append([]string{"--results", dir, "--merge"}, flags...)...)
	if status != 1 || out != "" || !strings.Contains(stderr, "stray mark") {
		t.Errorf("merge after a stray mark: status %d, %q, %s", status, out, stderr)
	}
	if st := jobStatus(t, dir); st.State != cluster.Failed || !strings.Contains(st.Why, "stray mark") {
		t.Errorf("status.json after a stray mark: %+v", st)
	}
}

// failingWriter fails every write, as a full disk does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestCheckpointAfterOutput solves a batch whose output cannot be
// written: the checkpoint never says that the batch is past a puzzle
// whose answer was lost, and resuming from it prints every answer.
func TestCheckpointAfterOutput(t *testing.T) {
	file := writeInput(t, "three.txt", "a: 1 2 3 4 5 6 0 7 8\nb: 1 2 3 4 0 5 7 8 6\nc: 8 6 7 2 5 4 3 0 1\n")
	checkpoint := filepath.Join(t.TempDir(), "c.json")
	var stderr strings.Builder
	if status := run([]string{"-j", "1", "--heuristic", "manhattan", "--checkpoint", checkpoint, file}, strings.NewReader(""), failingWriter{}, &stderr); status != 1 {
		t.Fatalf("status %d with a full output: %s", status, stderr.String())
	}
	f, err := batch.ReadCheckpoint(checkpoint, search.Options{}, keyFor(t, checkpoint))
	if errors.Is(err, os.ErrNotExist) {
		return // nothing to resume from: a rerun solves every puzzle
	}
	if err != nil || f.Done {
		t.Fatalf("the checkpoint says the batch is past %s (%v), whose answer was not written", f.ID, err)
	}
	status, out, errOut := runSolve(t, "", "--heuristic", "manhattan", "--resume", checkpoint, file)
	if status != 0 || strings.Count(out, "moves") != 3 {
		t.Errorf("resumed: status %d\n%s%s", status, out, errOut)
	}
}

// TestNotRegularFiles names a FIFO or a device where solve reads or writes
// its state: each is refused at once, never waited on or read for ever.
func TestNotRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	testtool.Mkfifo(t, fifo)
	file := writeInput(t, "one.txt", "a: 1 2 3 4 5 6 0 7 8\n")
	results := filepath.Join(dir, "results")
	if err := os.Mkdir(results, 0o755); err != nil {
		t.Fatal(err)
	}
	testtool.Mkfifo(t, filepath.Join(results, "job.json"))
	for _, args := range [][]string{
		{"--resume", "/dev/zero", file},
		{"--resume", fifo, file},
		{"--checkpoint", fifo, file},
		{"--gif", fifo, file},
		{"--results", results, "--task", "0/1", file},
		{"--results", results, "--merge", file},
	} {
		done := make(chan string, 1)
		go func() {
			status, _, stderr := runSolve(t, "", append([]string{"--heuristic", "manhattan"}, args...)...)
			done <- fmt.Sprintf("status %d: %s", status, stderr)
		}()
		select {
		case got := <-done:
			if !strings.Contains(got, "regular file") && !strings.Contains(got, "no process reads") {
				t.Errorf("%v: %s", args, got)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%v: no answer", args)
		}
	}
}

// TestResumeDuplicateLabels stops the search of the second of two
// puzzles that share a label, once the first's answer is written, and
// resumes it: the checkpoint is of the second, not the first.
func TestResumeDuplicateLabels(t *testing.T) {
	dir := t.TempDir()
	checkpoint := filepath.Join(dir, "c.json")
	korf54 := "x: 12 11 0 8 10 2 13 15 5 4 7 3 6 9 14 1\n"
	both := writeInput(t, "both.txt", "x: 14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15\n"+korf54)
	flags := []string{"--goal", "first", "--heuristic", "manhattan", "-t", "1"}
	cmd := child(append([]string{"--checkpoint", checkpoint, "--checkpoint-every", "20ms", both}, flags...)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if f, err := batch.ReadCheckpoint(checkpoint, search.Options{}, keyFor(t, checkpoint)); err == nil && !f.Done && f.Written != nil && f.Checkpoint.TasksDone() > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no checkpoint within an iteration")
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	status, out, stderr := runSolve(t, "", append([]string{"--resume", checkpoint, both}, flags...)...)
	if status != 0 || strings.Count(out, "moves") != 1 || !strings.Contains(out, "x: 56 moves") {
		t.Errorf("resumed: status %d\n%s%s", status, out, stderr)
	}
}

// TestSplitEditedPart runs a split search of Korf's 16th until a task's
// part holds the solution, then edits the round as issue 66 did: that
// part's found mark set to -1 and its solution removed, and no other part
// saying that it heeded the mark, as if they had ended before it (the
// merge planned the next bound, and printed 44 moves as optimal where 42
// are). The merge refuses the round: by the task's mark in found-B/,
// and, with the mark removed too, by the subtrees the part no longer
// lists.
func TestSplitEditedPart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "results")
	flags := []string{"--set", "korf100", "--ids", "16", "--heuristic", "manhattan", "-t", "1", "--split-above", "20000"}
	merge := func() (int, string, string) {
		return runSolve(t, "", append([]string{"--results", dir, "--merge"}, flags...)...)
	}
	for round := 0; !editFound(t, dir); round++ {
		if status, _, stderr := merge(); status != cli.StatusAgain || round == 20 {
			t.Fatalf("merge of round %d, where no part holds a solution: status %d: %s", round, status, stderr)
		}
		runTasks(t, dir, 3, flags...)
	}
	status, out, stderr := merge()
	if status != 1 || out != "" || !strings.Contains(stderr, "marks subtree") {
		t.Errorf("merge of a part edited, its mark kept: status %d, %q, %s", status, out, stderr)
	}
	marks, _ := filepath.Glob(filepath.Join(dir, "puzzle-0", "found-*"))
	for _, m := range marks {
		os.RemoveAll(m)
	}
	status, out, stderr = merge()
	if status != 1 || out != "" || !strings.Contains(stderr, "none holds a solution") {
		t.Errorf("merge of a part edited, its mark removed: status %d, %q, %s", status, out, stderr)
	}
}

// editFound edits the round files of a split search in dir, if a part
// holds a solution, as TestSplitEditedPart says, and reports whether it
// did.
func editFound(t *testing.T, dir string) bool {
	paths, _ := filepath.Glob(filepath.Join(dir, "puzzle-0", "*-*.json"))
	files := map[string]map[string]any{}
	found := false
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var f map[string]any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber() // a next bound of math.MaxInt is no float64
		if err := dec.Decode(&f); err != nil || f["part"] == nil {
			continue // a checkpoint
		}
		files[path] = f
		part := f["part"].(map[string]any)
		delete(part, "heeded")
		if n, _ := part["found"].(json.Number).Int64(); n >= 0 {
			found = true
			part["found"] = -1
			delete(part, "solution")
		}
	}
	for path, f := range files {
		if found {
			writeSealed(t, path, f)
		}
	}
	return found
}
