package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"fifteen/cmd/internal/cluster"
	"fifteen/puzzle"
)

// A split job's files, edited, tampered with or linked (issues 48 and 57).

// detour returns the moves with a move and its undoing before them, and
// the tiles they slide, from start: a longer solution of the same puzzle.
func detour(t *testing.T, start []int, moves string) (string, []int) {
	t.Helper()
	side := 2
	for side*side < len(start) {
		side++
	}
	p := puzzle.Puzzle{Size: puzzle.Size{Rows: side, Cols: side}, Tiles: start}
	for _, pair := range []string{"UD", "DU", "LR", "RL"} {
		longer, err := puzzle.ParseMoves(pair + moves)
		if err != nil {
			t.Fatal(err)
		}
		if _, tiles, err := p.Apply(longer); err == nil {
			return pair + moves, tiles
		}
	}
	t.Fatalf("no detour from %v", start)
	return "", nil
}

// TestMergeRefusesLonger edits a batch task's record, and a split
// search's first round, to hold a solution two moves longer than the
// optimum, its length and tiles made to match: the merge refuses it, as
// its last iteration's bound says otherwise.
func TestMergeRefusesLonger(t *testing.T) {
	flags := []string{"--heuristic", "manhattan", "--format", "jsonl"}
	t.Run("batch", func(t *testing.T) {
		file := writeInput(t, "a.txt", "a1: 8 6 7 2 5 4 3 0 1\na2: 1 2 3 4 0 5 7 8 6\na3: 0 1 2 3 4 5 6 7 8\n")
		dir := filepath.Join(t.TempDir(), "results")
		runTasks(t, dir, 3, append([]string{file}, flags...)...)
		l := taskLines(t, dir, 0)[0]
		moves, tiles := detour(t, l.Record.Start, l.Record.Moves)
		n := len(moves)
		l.Record.Moves, l.Record.Tiles, l.Record.Length = moves, tiles, &n
		writeSealed(t, filepath.Join(dir, "batch-0.jsonl"), l)
		status, out, stderr := runSolve(t, "", append([]string{"--results", dir, "--merge", file}, flags...)...)
		if status != 1 || out != "" || !strings.Contains(stderr, "last iteration's bound") {
			t.Errorf("merge of a longer record: status %d, %q, %s", status, out, stderr)
		}
	})
	t.Run("search", func(t *testing.T) {
		start := []int{8, 6, 7, 2, 5, 4, 3, 0, 1}
		file := writeInput(t, "b.txt", "b1: 8 6 7 2 5 4 3 0 1\n")
		dir := filepath.Join(t.TempDir(), "results")
		args := append([]string{file, "--split", "search"}, flags...)
		runTasks(t, dir, 2, args...)
		path := filepath.Join(dir, "puzzle-0", "first-0.json")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			ID    string         `json:"id"`
			Task  int            `json:"task"`
			Begun map[string]any `json:"begun"`
		}
		if err := json.Unmarshal(data, &f); err != nil || f.Begun["solution"] == nil {
			t.Fatalf("%s: %s, %v", path, data, err)
		}
		f.Begun["solution"], _ = detour(t, start, f.Begun["solution"].(string))
		writeSealed(t, path, f)
		status, out, stderr := runSolve(t, "", append([]string{"--results", dir, "--merge"}, args...)...)
		if status != 1 || out != "" || !strings.Contains(stderr, "last iteration's bound") {
			t.Errorf("merge of a longer solution: status %d, %q, %s", status, out, stderr)
		}
	})
}

// TestSplitBadPlan tampers with plan.json: a puzzle out of range (issue
// 48: a panic), and a plan for fewer tasks than the job's (issue 48:
// taken, and the job stuck at failed). The tasks refuse it without a
// panic, the merge writes it anew, and the job ends with the answer.
func TestSplitBadPlan(t *testing.T) {
	file := writeInput(t, "b.txt", "b1: 8 6 7 2 5 4 3 0 1\n")
	flags := []string{file, "--heuristic", "manhattan", "--format", "jsonl", "-t", "1", "--split-above", "1000"}
	// A split search takes its subtrees depth-first.
	_, want, _ := runSolve(t, "", append(flags[:len(flags)-2:len(flags)-2], "--frontier", "0")...)
	for _, c := range []struct {
		name   string
		tamper func(pf map[string]any)
	}{
		{"puzzle -1", func(pf map[string]any) { pf["puzzle"] = -1 }},
		{"puzzle 1", func(pf map[string]any) { pf["puzzle"] = 1 }},
		{"one start for two tasks", func(pf map[string]any) {
			plan := pf["plan"].(map[string]any)
			plan["starts"] = plan["starts"].([]any)[:1]
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "results")
			merge := append([]string{"--results", dir, "--merge"}, flags...)
			runTasks(t, dir, 2, flags...)
			if status, _, stderr := runSolve(t, "", merge...); status != 3 {
				t.Fatalf("merge of the first round: status %d: %s", status, stderr)
			}
			path := filepath.Join(dir, "plan.json")
			var pf map[string]any
			if data, err := os.ReadFile(path); err != nil || json.Unmarshal(data, &pf) != nil || pf["plan"] == nil {
				t.Fatalf("plan.json: %s, %v", data, err)
			}
			c.tamper(pf)
			writeSealed(t, path, pf)
			status, _, stderr := runSolve(t, "", append([]string{"--results", dir, "--task", "0/2"}, flags...)...)
			if status != 1 || !strings.Contains(stderr, "plan.json") {
				t.Fatalf("task 0 of a tampered plan: status %d: %s", status, stderr)
			}
			for range 20 {
				status, out, stderr := runSolve(t, "", merge...)
				if status == 0 {
					if !reflect.DeepEqual(records(t, out), records(t, want)) {
						t.Errorf("merged %s, want %s", out, want)
					}
					return
				}
				if status != 3 {
					t.Fatalf("merge: status %d: %s", status, stderr)
				}
				runTasks(t, dir, 2, flags...)
			}
			t.Fatal("no end in 20 rounds")
		})
	}
}

// TestJobFileTampered changes job.json under a finished split batch: a
// version this solve does not write, or another task count. The merge
// says the job failed, not that its tasks must run again.
func TestJobFileTampered(t *testing.T) {
	file := writeInput(t, "a.txt", "a1: 8 6 7 2 5 4 3 0 1\na2: 1 2 3 4 0 5 7 8 6\na3: 0 1 2 3 4 5 6 7 8\na4: 1 2 3 4 5 6 0 7 8\n")
	flags := []string{file, "--heuristic", "manhattan", "--format", "jsonl"}
	for _, c := range []struct{ name, from, to, want string }{
		{"version", `"version":3`, `"version":99`, "version 99"},
		{"version 2", `"version":3`, `"version":2`, "version 2, not 3"},
		{"fewer tasks", `"tasks":3`, `"tasks":2`, "job.json says 2 tasks"},
		{"more tasks", `"tasks":3`, `"tasks":4`, "was job.json changed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "results")
			runTasks(t, dir, 3, flags...)
			path := filepath.Join(dir, "job.json")
			data, err := os.ReadFile(path)
			if err != nil || !strings.Contains(string(data), c.from) {
				t.Fatalf("job.json: %s, %v", data, err)
			}
			editText(t, path, func(s string) string { return strings.Replace(s, c.from, c.to, 1) })
			status, out, stderr := runSolve(t, "", append([]string{"--results", dir, "--merge"}, flags...)...)
			st := jobStatus(t, dir)
			if status != 1 || out != "" || st.State != cluster.Failed || !strings.Contains(st.Why, c.want) {
				t.Errorf("status %d, %+v: %s", status, st, stderr)
			}
		})
	}
}

// TestResultsLinks puts a dangling symbolic link where a batch task's
// file goes in the shared results directory: the task refuses to write
// through it, and nothing is created where it points (issue 48).
func TestResultsLinks(t *testing.T) {
	file := writeInput(t, "a.txt", "a1: 1 2 3 4 5 6 0 7 8\na2: 1 2 3 4 0 5 7 8 6\n")
	dir, outside := filepath.Join(t.TempDir(), "results"), t.TempDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"batch-0.jsonl", "batch-0.checkpoint.json"} {
		if err := os.Symlink(filepath.Join(outside, name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	status, _, stderr := runSolve(t, "", "--results", dir, "--task", "0/2", "-j", "1", "--heuristic", "manhattan", file)
	if status != 1 || !strings.Contains(stderr, "symbolic link") {
		t.Errorf("status %d: %s", status, stderr)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("%d files created outside the results directory", len(entries))
	}
}

// TestMergeTamperedOutcomes edits a batch task's outcomes: a message that
// holds a terminal's escape sequence and a bidi override is printed
// escaped, and a record unsolved without a message makes the merge exit
// 1 (issue 48: exit 0, "solved 1 of 2").
func TestMergeTamperedOutcomes(t *testing.T) {
	file := writeInput(t, "a.txt", "a1: 1 2 3 4 5 6 0 7 8\na2: 1 2 3 4 0 5 7 8 6\n")
	flags := []string{file, "--heuristic", "manhattan"}
	dir := filepath.Join(t.TempDir(), "results")
	runTasks(t, dir, 1, flags...)
	lines := taskLines(t, dir, 0)
	first, second := lines[0], lines[1]
	first.Record, first.Message = nil, "a1: \x1b[2J\u202eevil"
	second.Record.Solved, second.Record.Optimal, second.Record.Length, second.Record.Moves, second.Record.Tiles = false, false, nil, "", []int{}
	writeSealed(t, filepath.Join(dir, "batch-0.jsonl"), first, second)
	status, out, stderr := runSolve(t, "", append([]string{"--results", dir, "--merge"}, flags...)...)
	if status != 1 || strings.ContainsAny(stderr, "\x1b\u202e") || !strings.Contains(stderr, `a1: \x1b[2J\u202eevil`) || !strings.Contains(out, "a2: unsolved") {
		t.Errorf("status %d, stdout %q, stderr %q", status, out, stderr)
	}
}
