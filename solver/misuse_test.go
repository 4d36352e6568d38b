package solver_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"fifteen/data"
	"fifteen/puzzle"
	"fifteen/search"
	"fifteen/solver"
)

// TestMisuse calls the library as issue 57's attack did: each call
// returns an error, or panics where the caller can recover, and leaves
// the Solver able to close.
func TestMisuse(t *testing.T) {
	s, err := solver.New(solver.Config{Heuristic: "manhattan"})
	if err != nil {
		t.Fatal(err)
	}
	p := puzzle.Puzzle{ID: "p", Size: size3, Tiles: []int{8, 6, 7, 2, 5, 4, 3, 0, 1}}
	t.Run("a split among too many tasks", func(t *testing.T) {
		// It was a fatal out of memory: a plan of 2^40 starts.
		if _, _, err := s.Split(context.Background(), p, solver.Options{}, 1<<40, 1); err == nil {
			t.Error("accepted")
		}
	})
	t.Run("a plan for a negative count", func(t *testing.T) {
		if _, err := search.NextPlan([]search.Part{{Next: 3}}, -1); err == nil {
			t.Error("accepted")
		}
		if _, err := search.NextPlan(nil, 2); err == nil {
			t.Error("no parts accepted")
		}
	})
	t.Run("an empty result", func(t *testing.T) {
		if err := solver.Verify(&solver.Result{}, solver.Options{}); !errors.Is(err, solver.ErrWrongAnswer) {
			t.Errorf("Verify: %v", err)
		}
	})
	t.Run("a nil context", func(t *testing.T) {
		//lint:ignore SA1012 the misuse under test
		if _, err := s.Solve(nil, p, solver.Options{}); err == nil {
			t.Error("accepted")
		}
	})
	t.Run("a panicking input", func(t *testing.T) {
		input := func(yield func(puzzle.Puzzle, error) bool) {
			if yield(p, nil) {
				panic("the input's")
			}
		}
		solved := 0
		func() {
			defer func() {
				if r := recover(); r != "the input's" {
					t.Errorf("recovered %v", r)
				}
			}()
			for r, err := range s.SolveAll(context.Background(), input, 1, solver.Options{}) {
				if err != nil || !r.Solved {
					t.Errorf("%v", err)
				}
				solved++
			}
		}()
		if solved != 1 {
			t.Errorf("%d solved before the panic, want 1", solved)
		}
	})
	closed := make(chan error)
	go func() { closed <- s.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(time.Minute): // a failure, not a wait: Close returns at once
		t.Fatal("Close waits for a call that never ends")
	}
}

// TestGreedyTimeout stops a greedy search by its timeout: the message
// names no bound, which greedy search has none of (issue 57).
func TestGreedyTimeout(t *testing.T) {
	s := newSolver(t, solver.Config{Heuristic: "misplaced"})
	// Misplaced tiles keep a greedy search of this 24-puzzle going for
	// seconds, to its memory bound.
	_, err := s.Solve(context.Background(), data.Korf50()[7], solver.Options{Goal: puzzle.GoalFirst, Mode: solver.Greedy, Timeout: time.Millisecond})
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || !strings.HasPrefix(err.Error(), "timed out after 1ms") || strings.Contains(err.Error(), "bound") {
		t.Errorf("%v", err)
	}
}
