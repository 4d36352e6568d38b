package search_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"fifteen/data"
	"fifteen/puzzle"
	"fifteen/search"
)

// TestCheckIterations checks the iterations of a real search (solve checks
// every search's) and edits of them that issue 57 made to label a longer
// answer optimal: each is refused.
func TestCheckIterations(t *testing.T) {
	b := board(data.Korf100()[46])
	h, err := search.Manhattan(b.Size(), puzzle.GoalFirst)
	if err != nil {
		t.Fatal(err)
	}
	res := solve(t, b, puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier}, -1)
	its := res.Iterations
	if len(its) < 3 || its[0].Bound != res.H0 || its[len(its)-1].Bound != res.Length() {
		t.Fatalf("iterations %v of a search from %d to %d moves", its, res.H0, res.Length())
	}
	with := func(edit func([]search.Iteration) []search.Iteration) []search.Iteration {
		return edit(slices.Clone(its))
	}
	last := len(its) - 1
	for _, c := range []struct {
		name string
		its  []search.Iteration
		next int
		ok   bool
	}{
		{"the search's", its, 0, true},
		{"the search's, and the next", its[:last], its[last].Bound, true},
		{"none", nil, 0, false},
		{"the first left out", its[1:], 0, false},
		{"the last raised by two", with(func(s []search.Iteration) []search.Iteration { s[last].Bound += 2; return s }), 0, false},
		{"one more", append(slices.Clone(its), search.Iteration{Bound: its[last].Bound + 2}), 0, true}, // only a search tells
		{"one skipped", slices.Delete(slices.Clone(its), 1, 2), 0, false},
		{"one repeated", slices.Insert(slices.Clone(its), 1, its[1]), 0, false},
		{"the next skipping", its, its[last].Bound + 4, false},
		{"the next below", its, its[last].Bound - 2, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := search.CheckIterations(b, puzzle.GoalFirst, h, 0, c.its, c.next)
			if (err == nil) != c.ok || err != nil && !errors.Is(err, search.ErrIterations) {
				t.Errorf("%v then %d: %v", c.its, c.next, err)
			}
		})
	}
	// The solution's path: the search's is taken; one with a detour (a
	// move and its undoing) is pruned, and past the bound below its length.
	if err := search.CheckPath(b, puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier}, res.Moves, its[last].Bound); err != nil {
		t.Errorf("the search's path: %v", err)
	}
	for _, detour := range []string{"UD", "DU", "LR", "RL"} {
		pair, _ := puzzle.ParseMoves(detour)
		longer := append(pair, res.Moves...)
		if _, err := b.Apply(longer); err != nil {
			continue
		}
		for _, prune := range []int{search.PruneInverse, 0} {
			if err := search.CheckPath(b, puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier, PruneDepth: prune}, longer, its[last].Bound+2); !errors.Is(err, search.ErrIterations) {
				t.Errorf("%s first, pruning %d: %v", detour, prune, err)
			}
		}
	}
	if err := search.CheckPath(b, puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier}, res.Moves, its[last].Bound-2); !errors.Is(err, search.ErrIterations) {
		t.Errorf("past the bound: %v", err)
	}
	// A weighted search's first bound is W times the estimate.
	if err := search.CheckIterations(b, puzzle.GoalFirst, h, 2, its, 0); err == nil {
		t.Error("an optimal search's iterations taken for a weighted one's")
	}
}

// TestResumeEdited resumes from checkpoints edited as issue 57 did: a
// bound raised past those the search meets, its tasks emptied, or the
// iterations done cut to one that is not the start's estimate. Each is
// refused before any search.
func TestResumeEdited(t *testing.T) {
	b := board(data.Korf100()[46])
	h, err := search.Manhattan(b.Size(), puzzle.GoalFirst)
	if err != nil {
		t.Fatal(err)
	}
	var saved []search.Checkpoint
	opts := search.Options{Frontier: search.DefaultFrontier, Checkpoint: func(cp *search.Checkpoint) { saved = append(saved, *cp) }}
	res := solve(t, b, puzzle.GoalFirst, h, opts, -1)
	var between *search.Checkpoint // saved between two iterations
	for i := range saved {
		if len(saved[i].Iterations) >= 2 && saved[i].TasksDone() == 0 {
			between = &saved[i]
			break
		}
	}
	if between == nil {
		t.Fatalf("no checkpoint between iterations among %d", len(saved))
	}
	for _, c := range []struct {
		name string
		edit func(*search.Checkpoint)
	}{
		{"bound raised", func(cp *search.Checkpoint) { cp.Bound = res.Length() + 8 }},
		{"iterations cut", func(cp *search.Checkpoint) {
			cp.Iterations = []search.Iteration{{Bound: res.H0 - 12}}
			cp.Bound = res.Length() + 8
		}},
		{"first iteration dropped", func(cp *search.Checkpoint) { cp.Iterations = cp.Iterations[1:] }},
	} {
		t.Run(c.name, func(t *testing.T) {
			cp := *between
			cp.Iterations = slices.Clone(cp.Iterations)
			c.edit(&cp)
			got, err := search.Solve(context.Background(), b, puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier, Resume: &cp})
			if !errors.Is(err, search.ErrIterations) || got.Solved {
				t.Errorf("resumed from %v, bound %d: %d moves, %v", cp.Iterations, cp.Bound, got.Length(), err)
			}
		})
	}
	// The checkpoint as saved resumes.
	solve(t, b, puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier, Resume: between}, res.Length())
}
