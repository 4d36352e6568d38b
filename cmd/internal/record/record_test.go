package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"fifteen/puzzle"
	"fifteen/search"
	"fifteen/solver"
)

// result is a solve of a 2×2 puzzle two moves from the goal, as the
// solver would give it.
func result() *solver.Result {
	return &solver.Result{
		Puzzle: puzzle.Puzzle{ID: "p1", Size: puzzle.Size{Rows: 2, Cols: 2}, Tiles: []int{1, 3, 0, 2}},
		Result: search.Result{Moves: []puzzle.Move{puzzle.Right, puzzle.Up}, Solved: true, H0: 2,
			Iterations: []search.Iteration{{Bound: 2, Expanded: 3, Generated: 5}}, Expanded: 3, Generated: 5, Elapsed: 2 * time.Millisecond},
		Tiles: []int{2, 3}, Optimal: true, Heuristic: "manhattan",
	}
}

// TestNew: a solved record holds the length, moves and tiles; an
// unsolved one the error and the counts, with empty moves and tiles and
// no length; a constructive solve, which has no iterations, an empty list.
func TestNew(t *testing.T) {
	opts := solver.Options{Goal: puzzle.GoalLast, Options: search.Options{Threads: 2, Frontier: search.DefaultFrontier}}
	rec := New(result(), nil, opts)
	if !rec.Solved || !rec.Optimal || rec.Length == nil || *rec.Length != 2 || rec.Moves != puzzle.FormatMoves(result().Moves) ||
		len(rec.Tiles) != 2 || rec.Goal != "last" || rec.Threads != 2 || rec.Size != "2x2" || rec.Error != "" || len(rec.Iterations) != 1 {
		t.Errorf("solved: %+v", rec)
	}
	failed := New(result(), errors.New("timed out"), opts)
	if failed.Solved || failed.Optimal || failed.Length != nil || failed.Moves != "" || len(failed.Tiles) != 0 || failed.Tiles == nil ||
		failed.Error != "timed out" || failed.Generated != 5 {
		t.Errorf("unsolved: %+v", failed)
	}
	human := result()
	human.Iterations = nil
	if rec := New(human, nil, solver.Options{Mode: solver.Constructive}); rec.Iterations == nil {
		t.Error("a constructive solve's iterations are null, not []")
	}
}

// TestPrinter checks the text line of each mode and of an unsolved
// puzzle, and that a JSON line reads back as the record.
func TestPrinter(t *testing.T) {
	for _, c := range []struct {
		name string
		mode solver.Mode
		err  error
		want string
	}{
		{"optimal", solver.Optimal, nil, "p1: 2 moves RU (h0 2, 5 generated, 3 expanded, 0.0020 s, 0.0 Mnodes/s)\n"},
		{"weighted", solver.Weighted, nil, ", not optimal: at most 1.5× the optimum)\n"},
		{"greedy", solver.Greedy, nil, ", not optimal: greedy)\n"},
		{"human", solver.Constructive, nil, ", not optimal: constructive)\n"},
		{"unsolved", solver.Optimal, errors.New("stopped"), "p1: unsolved (h0 2, 5 generated, 3 expanded, 0.0020 s)\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := New(result(), c.err, solver.Options{Mode: c.mode})
			var text, jsonl bytes.Buffer
			if err := NewPrinter("text", 1.5, &text).Print(&rec); err != nil || !strings.HasSuffix(text.String(), c.want) {
				t.Errorf("text %q (%v), want it to end %q", text.String(), err, c.want)
			}
			if err := NewPrinter("jsonl", 1.5, &jsonl).Print(&rec); err != nil || strings.Count(jsonl.String(), "\n") != 1 {
				t.Fatalf("jsonl %q: %v", jsonl.String(), err)
			}
			var back Record
			if err := json.Unmarshal(jsonl.Bytes(), &back); err != nil || back.ID != rec.ID || back.Solved != rec.Solved || back.Mode != rec.Mode || back.Error != rec.Error {
				t.Errorf("read back %+v (%v), want %+v", back, err, rec)
			}
		})
	}
}
