package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"fifteen/cmd/internal/batch"
	"fifteen/cmd/internal/cli"
	"fifteen/cmd/internal/cluster"
	"fifteen/cmd/internal/record"
	"fifteen/search"
)

// splitJob runs a split job as deploy/local/solve.sh does, in process: each
// round's tasks one after another, then the merge, until it is done; it
// returns the merge's status and output, and the rounds.
func splitJob(t *testing.T, file string, n int, args ...string) (status int, stdout, stderr string, rounds int) {
	t.Helper()
	return splitJobIn(t, filepath.Join(t.TempDir(), "results"), file, n, args...)
}

// splitJobIn runs a split job, as splitJob does, in the results directory.
func splitJobIn(t *testing.T, dir, file string, n int, args ...string) (status int, stdout, stderr string, rounds int) {
	t.Helper()
	for rounds = 1; rounds < 50; rounds++ {
		for k := range n {
			if status, _, stderr := runSolve(t, "", append([]string{"--results", dir, "--task", fmt.Sprintf("%d/%d", k, n), file}, args...)...); status > 1 {
				t.Fatalf("task %d/%d: status %d: %s", k, n, status, stderr)
			}
		}
		status, stdout, stderr = runSolve(t, "", append([]string{"--results", dir, "--merge", file}, args...)...)
		want := cluster.Status{Version: 1, State: cluster.Again, Exit: status}
		if status != cli.StatusAgain {
			want.State = cluster.Done
		}
		if got := jobStatus(t, dir); got.State != want.State || got.Exit != want.Exit || got.Version != want.Version {
			t.Fatalf("status.json %+v after a merge that exits %d", got, status)
		}
		if status != cli.StatusAgain {
			return status, stdout, stderr, rounds
		}
	}
	t.Fatalf("no end after %d rounds: %s", rounds, stderr)
	return
}

// records parses JSONL records, leaving out what depends on the machine and
// the threads' timing: the times, and the last iteration's counts.
func records(t *testing.T, jsonl string) []record.Record {
	t.Helper()
	var recs []record.Record
	for line := range strings.Lines(jsonl) {
		var r record.Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %q", err, line)
		}
		r.Seconds, r.NodesPerSecond, r.Threads = 0, 0, 0
		if n := len(r.Iterations); n > 0 {
			r.Expanded -= r.Iterations[n-1].Expanded
			r.Generated -= r.Iterations[n-1].Generated
			r.Iterations[n-1].Expanded, r.Iterations[n-1].Generated = 0, 0
		}
		recs = append(recs, r)
	}
	return recs
}

// TestSplitJob splits one search (Korf's 12th with Manhattan
// distance) and a batch among 1, 3 and 7 tasks, and checks that the merge
// prints what solve prints, but for the times and the last iteration's
// counts, the malformed and unsolvable puzzles' errors included.
func TestSplitJob(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.txt")
	batchFile := filepath.Join(dir, "batch.txt")
	os.WriteFile(one, []byte("korf12: 14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15\n"), 0o644)
	os.WriteFile(batchFile, []byte("korf12: 14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15\nbad: 1 2 3\n8p: 8 6 7 2 5 4 3 0 1\nswapped: 0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15\nkorf79: 4 7 13 10 1 2 9 6 12 8 14 5 3 0 11 15\n"), 0o644)
	flags := []string{"--goal", "first", "--heuristic", "manhattan", "--format", "jsonl", "-t", "1"}
	for _, c := range []struct {
		file  string
		split []string
	}{
		{one, []string{"--split-above", "5000"}},
		{batchFile, nil},
		{batchFile, []string{"--split", "search", "--split-above", "5000"}},
	} {
		wantStatus, want, wantErr := runSolve(t, "", append([]string{c.file}, flags...)...)
		for _, n := range []int{1, 3, 7} {
			name := fmt.Sprintf("%s %v, %d tasks", filepath.Base(c.file), c.split, n)
			status, got, stderr, rounds := splitJob(t, c.file, n, append(flags, c.split...)...)
			if status != wantStatus || !reflect.DeepEqual(records(t, got), records(t, want)) {
				t.Fatalf("%s: status %d\n%s%s\nwant status %d\n%s%s", name, status, got, stderr, wantStatus, want, wantErr)
			}
			for _, msg := range []string{"bad: 3 tiles", "swapped: unsolvable"} {
				if c.file == batchFile && !strings.Contains(stderr, msg) {
					t.Errorf("%s: the merge does not report %q: %s", name, msg, stderr)
				}
			}
			if c.file == one && rounds < 2 {
				t.Errorf("%s: %d rounds: the search was not split", name, rounds)
			}
		}
	}
}

// TestSplitFlags checks the split job's flags and the task's environment.
func TestSplitFlags(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "p.txt")
	os.WriteFile(file, []byte("1 2 3 4 5 6 7 0 8\n"), 0o644)
	results := filepath.Join(dir, "results")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--task", "0/2", file}, "--task is for a split job"},
		{[]string{"--merge", file}, "--merge is for a split job"},
		{[]string{"--results", results, file}, "--results needs --task K/N"},
		{[]string{"--results", results, "--task", "2/2", file}, "solve: bad --task 2/2: want"}, // issue 57: "bad task --task"
		{[]string{"--results", results, "--task", "x", file}, `bad --task "x"`},
		{[]string{"--results", results, "--task", "0/2"}, "name a FILE"},
		{[]string{"--results", results, "--task", "0/2", "--split", "all", file}, `bad --split "all"`},
		{[]string{"--results", results, "--task", "0/2", "--checkpoint", "c.json", file}, "--checkpoint is not for a split job"},
		{[]string{"--results", results, "--merge", "--task", "0/2", file}, "exclude each other"},
	} {
		if status, _, stderr := runSolve(t, "", c.args...); status != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: status %d, %q; want 2 and %q", c.args, status, stderr, c.want)
		}
	}
	if status, _, stderr := runSolve(t, "", "--results", results, "--merge", file); status != cli.StatusAgain || !strings.Contains(stderr, "no task has run") {
		t.Errorf("a merge before any task: status %d, %s", status, stderr)
	}
	if status, _, stderr := runSolve(t, "", "--results", results, "--task", "0/2", "--greedy", "--split", "search", file); status != 2 || !strings.Contains(stderr, "IDA*") {
		t.Errorf("a greedy split search: status %d, %s", status, stderr)
	}
	if status, _, stderr := runSolve(t, "", "--results", results, "--task", "0/2", file); status != 0 {
		t.Fatalf("task 0/2: status %d, %s", status, stderr)
	}
	if status, _, stderr := runSolve(t, "", "--results", results, "--task", "0/3", file); status != 1 || !strings.Contains(stderr, "another job, a split search of 1 puzzles among 2 tasks") || strings.Contains(stderr, "{") {
		t.Errorf("task 0/3 in a directory of 2 tasks: status %d, %s", status, stderr)
	}
	if status, _, stderr := runSolve(t, "", "--results", results, "--task", "1/2", "--frontier", "16", file); status != 2 || !strings.Contains(stderr, "not with a split search") {
		t.Errorf("--frontier in a split search, which takes its subtrees depth-first: status %d, %s", status, stderr)
	}
	if status, _, stderr := runSolve(t, "", "--results", results, "--task", "1/2", "--no-reflect", file); status != 1 || !strings.Contains(stderr, "another job") {
		t.Errorf("a task without reflection in a directory of a job with: status %d, %s", status, stderr)
	}
	if status, _, stderr := runSolve(t, "", "--results", filepath.Join(file, "results"), "--task", "0/2", file); status != 1 {
		t.Errorf("a task whose job.json cannot be made: status %d, %s", status, stderr)
	}
}

// TestSplitBatchRerun stops a batch task with SIGTERM, as a scheduler
// does, while it searches its second puzzle: the first stays in its file,
// the second is left out of it, and a rerun resumes its search from the
// checkpoint; the merge then prints what solve prints.
func TestSplitBatchRerun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM to send")
	}
	dir := t.TempDir()
	batchFile := filepath.Join(dir, "batch.txt")
	os.WriteFile(batchFile, []byte("korf12: 14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15\nkorf54: 12 11 0 8 10 2 13 15 5 4 7 3 6 9 14 1\n"), 0o644)
	results := filepath.Join(dir, "results")
	flags := []string{"--goal", "first", "--heuristic", "manhattan", "--format", "jsonl", "-j", "1", "-t", "1", batchFile}
	task := append([]string{"--results", results, "--task", "0/1", "--checkpoint-every", "20ms"}, flags...)
	cmd := child(task...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	checkpoint := filepath.Join(results, "batch-0.checkpoint.json")
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if f, err := batch.ReadCheckpoint(checkpoint, search.Options{}, keyFor(t, checkpoint)); err == nil && f.ID == "korf54" && !f.Done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no checkpoint of korf54's search")
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err == nil {
		t.Fatal("the stopped task exited 0")
	}
	lines := taskLines(t, results, 0)
	if _, ok := lines[1]; len(lines) != 1 || ok {
		t.Fatalf("after SIGTERM the task's file holds %v, want korf12's outcome alone", lines)
	}
	// The same, with its checkpoint edited, and of another version: the
	// task's own state, which it searches afresh rather than fail every
	// round.
	edited, other := filepath.Join(dir, "edited"), filepath.Join(dir, "other")
	for _, d := range []string{edited, other} {
		if err := os.CopyFS(d, os.DirFS(results)); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(other, "batch-0.checkpoint.json"))
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte(fmt.Sprintf(`"version":%d`, search.CheckpointVersion)), []byte(`"version":2`), 1)
	if err := os.WriteFile(filepath.Join(edited, "batch-0.checkpoint.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	writeSealed(t, filepath.Join(other, "batch-0.checkpoint.json"), v)
	_, want, _ := runSolve(t, "", flags...)
	for _, c := range []struct{ results, said string }{
		{results, "resuming its search"},
		{edited, "batch-0.checkpoint.json is refused, and left as it was: its seal does not match"},
		{other, "version 2, and this search resumes versions 3 to 4: start the search again; the checkpoint is left as it was: searching it afresh"},
	} {
		task[1] = c.results
		status, _, stderr := runSolve(t, "", task...)
		if status != 0 || !strings.Contains(stderr, c.said) {
			t.Errorf("the rerun: status %d, %s", status, stderr)
		}
		status, got, stderr := runSolve(t, "", append([]string{"--results", c.results, "--merge"}, flags...)...)
		if status != 0 || !reflect.DeepEqual(records(t, got), records(t, want)) {
			t.Errorf("merge: status %d\n%s%s\nwant\n%s", status, got, stderr, want)
		}
	}
}

// jobStatus reads the status.json that the merge left in dir.
func jobStatus(t *testing.T, dir string) cluster.Status {
	t.Helper()
	var st cluster.Status
	data, err := os.ReadFile(filepath.Join(dir, "status.json"))
	if err == nil {
		err = json.Unmarshal(data, &st)
	}
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// taskLine is a line of a batch task's file (docs/cluster.md).
type taskLine struct {
	Index   int            `json:"index"`
	Puzzle  string         `json:"puzzle"`
	Message string         `json:"message,omitempty"`
	Record  *record.Record `json:"record,omitempty"`
}

// taskLines reads batch task k's file in dir, by puzzle index.
func taskLines(t *testing.T, dir string, k int) map[int]taskLine {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("batch-%d.jsonl", k)))
	if err != nil {
		t.Fatal(err)
	}
	lines := map[int]taskLine{}
	for line := range strings.Lines(string(data)) {
		var l taskLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		lines[l.Index] = l
	}
	return lines
}
