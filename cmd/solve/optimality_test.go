package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fifteen/cmd/internal/batch"
	"fifteen/cmd/internal/cli"
	"fifteen/internal/atomicfile"
	"fifteen/internal/seal"
	"fifteen/puzzle"
	"fifteen/search"
	"fifteen/solver"
)

// An optimal answer read from a file is checked against what solve can
// recompute (issue 57): its iterations begin at the start's estimate and
// rise as a search's do, and the last is its length. Each test edits a
// file as the attack did, consistently enough to pass the checks
// before them, and the answer is refused.

// editJSON rewrites the JSON file at path through edit, atomically, and
// seals it again (resealed), as only a program that holds the key could:
// the checks behind the seal are tested so.
func editJSON(t *testing.T, path string, edit func(map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	edit(v)
	writeSealed(t, path, v)
}

// editText edits the sealed JSON object in the file at path as text,
// and seals it again (editJSON).
func editText(t *testing.T, path string, edit func(string) string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, resealed(t, path, []byte(edit(string(data)))), 0o644); err != nil {
		t.Fatal(err)
	}
}

// resealed returns data, a sealed JSON object of the file at path that
// was edited, sealed again under its key (keyFor).
func resealed(t *testing.T, path string, data []byte) []byte {
	t.Helper()
	i := bytes.LastIndex(data, []byte(`,"seal":`))
	if i < 0 {
		t.Fatalf("%s: no seal", path)
	}
	sealed, err := keyFor(t, path).Seal(append(data[:i:i], '}'))
	if err != nil {
		t.Fatal(err)
	}
	return sealed
}

// keyFor returns the key that seals the file at path: its results
// directory's, found above it, else the user's (cli.SealKey).
func keyFor(t *testing.T, path string) *seal.Key {
	t.Helper()
	load := func() (*seal.Key, error) { return cli.SealKey("") }
	for d := filepath.Dir(path); d != filepath.Dir(d); d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, seal.KeyFile)); err == nil {
			load = func() (*seal.Key, error) { return seal.LoadKey(d) }
			break
		}
	}
	key, err := load()
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// writeSealed writes the values into the file at path, a line each,
// sealed under its key (keyFor).
func writeSealed(t *testing.T, path string, values ...any) {
	t.Helper()
	key := keyFor(t, path)
	var data []byte
	for _, v := range values {
		if m, ok := v.(map[string]any); ok {
			delete(m, "seal")
		}
		line, err := key.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, line...)
	}
	if err := atomicfile.WriteFile(path, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
		t.Fatal(err)
	}
}

// hardest is the 8-puzzle's hardest start: Manhattan distance's
// iterations run from 21 to 31.
const hardest = "8 6 7 2 5 4 3 0 1"

func TestMergeRefusesEditedIterations(t *testing.T) {
	manhattan := []string{"--heuristic", "manhattan", "--format", "jsonl"}
	file := writeInput(t, "a.txt", "a1: "+hardest+"\na2: 1 2 3 4 0 5 7 8 6\n")
	// Korf's first under the default databases, whose bounds may rise by
	// any amount: the detour is refused as a path the search prunes.
	databases := []string{"--goal", "first", "--format", "jsonl"}
	korf1 := writeInput(t, "korf1.txt", "korf1: 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\nkorf2: 13 2 10 3 1 12 8 4 5 0 9 6 15 14 7 11\n")
	raise := func(r map[string]any) {
		its := r["iterations"].([]any)
		its[len(its)-1].(map[string]any)["bound"] = r["length"]
	}
	for _, c := range []struct {
		name, file string
		flags      []string
		edit       func(map[string]any)
		want       string
	}{
		{"last raised, databases", korf1, databases, raise, "of the solution is one the search prunes"},
		{"emptied", file, manhattan, func(r map[string]any) { r["iterations"] = []any{} }, "no iteration"},
		{"removed", file, manhattan, func(r map[string]any) { delete(r, "iterations") }, "no iteration"},
		{"last raised", file, manhattan, raise, "bound 33 after 29"},
		{"one left", file, manhattan, func(r map[string]any) { r["iterations"] = []any{map[string]any{"bound": r["length"]}} }, "the first bound is 33"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "results")
			runTasks(t, dir, 2, append([]string{c.file}, c.flags...)...)
			l := taskLines(t, dir, 0)[0]
			moves, tiles := detour(t, l.Record.Start, l.Record.Moves)
			n := len(moves)
			l.Record.Moves, l.Record.Tiles, l.Record.Length = moves, tiles, &n
			path := filepath.Join(dir, "batch-0.jsonl")
			writeSealed(t, path, l)
			editJSON(t, path, func(v map[string]any) { c.edit(v["record"].(map[string]any)) })
			status, out, stderr := runSolve(t, "", append([]string{"--results", dir, "--merge", c.file}, c.flags...)...)
			if status != 1 || out != "" || !strings.Contains(stderr, "is refused") || !strings.Contains(stderr, c.want) {
				t.Errorf("merge: status %d, %q, %s", status, out, stderr)
			}
		})
	}
}

func TestSplitRefusesEditedIterations(t *testing.T) {
	file := writeInput(t, "b.txt", "b1: "+hardest+"\n")
	args := []string{file, "--split", "search", "--split-above", "1", "--heuristic", "manhattan", "--format", "jsonl"}
	t.Run("first round", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "results")
		args := append(args[:len(args):len(args)], "--split-above", "1000000") // solved in the first round
		runTasks(t, dir, 2, args...)
		editJSON(t, filepath.Join(dir, "puzzle-0", "first-0.json"), func(f map[string]any) {
			begun := f["begun"].(map[string]any)
			begun["iterations"] = []any{}
			begun["solution"], _ = detour(t, []int{8, 6, 7, 2, 5, 4, 3, 0, 1}, begun["solution"].(string))
		})
		status, out, stderr := runSolve(t, "", append([]string{"--results", dir, "--merge"}, args...)...)
		if status != 1 || out != "" || !strings.Contains(stderr, "no iteration") {
			t.Errorf("merge: status %d, %q, %s", status, out, stderr)
		}
	})
	// The edit: each part's next bound raised, under Manhattan
	// distance and under the 8-puzzle's default database; and the same
	// with every subtree's next raised too, which Manhattan distance's
	// bounds, rising by 2, refuse.
	korf1 := writeInput(t, "korf1.txt", "korf1: 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n")
	for _, c := range []struct {
		name     string
		args     []string
		subtrees bool
	}{
		{"next raised", nil, false},
		{"next raised, databases", []string{korf1, "--heuristic", "pdb", "--goal", "first"}, false},
		{"next raised in every subtree", nil, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append(args[:len(args):len(args)], c.args...)
			if c.args != nil {
				args = args[1:] // another file
			}
			merge := func(dir string) (int, string, string) {
				return runSolve(t, "", append([]string{"--results", dir, "--merge"}, args...)...)
			}
			dir := filepath.Join(t.TempDir(), "results")
			runTasks(t, dir, 2, args...)
			if status, _, stderr := merge(dir); status != 3 {
				t.Fatalf("merge after the first round: status %d, %s", status, stderr)
			}
			runTasks(t, dir, 2, args...)
			var plan struct {
				Plan struct {
					Bound int `json:"bound"`
				} `json:"plan"`
			}
			if data, err := os.ReadFile(filepath.Join(dir, "plan.json")); err != nil || json.Unmarshal(data, &plan) != nil {
				t.Fatalf("plan.json: %v", err)
			}
			for k := range 2 {
				editJSON(t, filepath.Join(dir, "puzzle-0", fmt.Sprintf("bound-%d-%d.json", plan.Plan.Bound, k)), func(f map[string]any) {
					part := f["part"].(map[string]any)
					part["next"] = plan.Plan.Bound + 8
					if tasks, ok := part["tasks"].([]any); ok && c.subtrees {
						for _, t := range tasks {
							t.(map[string]any)["next"] = plan.Plan.Bound + 8
						}
					}
				})
			}
			status, out, stderr := merge(dir)
			if status != 1 || out != "" || !strings.Contains(stderr, "iterations that no search of this start makes") {
				t.Errorf("merge: status %d, %q, %s", status, out, stderr)
			}
		})
	}
}

// TestResumeRefusesEdited resumes from a checkpoint whose bound was
// raised, its iterations cut to one below the start's estimate.
func TestResumeRefusesEdited(t *testing.T) {
	p := puzzle.Puzzle{ID: "k", Size: puzzle.Size{Rows: 3, Cols: 3}, Tiles: []int{8, 6, 7, 2, 5, 4, 3, 0, 1}}
	s, err := solver.New(solver.Config{Heuristic: "manhattan"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var cp *search.Checkpoint
	opts := solver.Options{Options: search.Options{Frontier: search.DefaultFrontier, Checkpoint: func(c *search.Checkpoint) {
		if len(c.Iterations) == 2 && cp == nil {
			cp = c
		}
	}}}
	if _, err := s.Solve(context.Background(), p, opts); err != nil || cp == nil {
		t.Fatalf("%v, checkpoint %v", err, cp)
	}
	cp.Iterations, cp.Bound, cp.Done = cp.Iterations[:1], 33, nil
	cp.Iterations[0].Bound = 19
	path := filepath.Join(t.TempDir(), "ck.json")
	writeSealed(t, path, batch.CheckpointFile{Mark: batch.Mark{ID: p.ID, Start: p.Tiles}, Checkpoint: cp, Version: 3})
	status, out, stderr := runSolve(t, "k: "+hardest+"\n", "--heuristic", "manhattan", "--resume", path)
	if status != 1 || out != "" || !strings.Contains(stderr, "the first bound is 19") {
		t.Errorf("resume: status %d, %q, %s", status, out, stderr)
	}
}

// TestSplitPlanOnce checks that a split search's plan is written once:
// its starts, one a task, are in task 0's file of the first round alone,
// and the other files name them by their digest (issue 57: repeated in
// every task's file, they made the merge's memory grow with N²).
func TestSplitPlanOnce(t *testing.T) {
	const n = 8
	file := writeInput(t, "b.txt", "b1: "+hardest+"\n")
	args := []string{file, "--split", "search", "--split-above", "1", "--heuristic", "manhattan"}
	dir := filepath.Join(t.TempDir(), "results")
	runTasks(t, dir, n, args...)
	for k := range n {
		var f struct {
			Part struct {
				Plan struct {
					Starts []string `json:"starts"`
				} `json:"plan"`
				Digest string `json:"starts_sha256"`
			} `json:"part"`
		}
		data, err := os.ReadFile(filepath.Join(dir, "puzzle-0", fmt.Sprintf("first-%d.json", k)))
		if err == nil {
			err = json.Unmarshal(data, &f)
		}
		if want := map[bool]int{true: n, false: 0}[k == 0]; err != nil || len(f.Part.Plan.Starts) != want || f.Part.Digest == "" {
			t.Errorf("task %d's first round: %d starts, digest %q, want %d; %v", k, len(f.Part.Plan.Starts), f.Part.Digest, want, err)
		}
	}
	status, out, stderr, _ := splitJobIn(t, dir, file, n, args[1:]...)
	if status != 0 || !strings.Contains(out, "31 moves") {
		t.Errorf("merge: status %d, %q, %s", status, out, stderr)
	}
}
