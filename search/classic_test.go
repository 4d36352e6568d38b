package search_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"fifteen/data"
	"fifteen/internal/bfs"
	"fifteen/puzzle"
	"fifteen/search"
)

// TestClassicAdmissible checks on every position of small boards, against
// breadth-first distances, that misplaced ≤ Manhattan ≤ linear conflict ≤
// the distance, and that linear conflict is sometimes strictly better, and
// that each heuristic is consistent (changes by at most 1 a move).
func TestClassicAdmissible(t *testing.T) {
	for _, size := range []puzzle.Size{{Rows: 2, Cols: 3}, {Rows: 3, Cols: 3}, {Rows: 2, Cols: 4}} {
		for _, goal := range []puzzle.Goal{puzzle.GoalFirst, puzzle.GoalLast} {
			mis, err1 := search.Misplaced(size, goal)
			md, err2 := search.Manhattan(size, goal)
			lc, err3 := search.LinearConflict(size, goal)
			if err1 != nil || err2 != nil || err3 != nil {
				t.Fatal(err1, err2, err3)
			}
			better := 0
			for _, p := range bfs.All(size, goal) {
				a, b, c := mis.Estimate(p.Board), md.Estimate(p.Board), lc.Estimate(p.Board)
				if a > b || b > c || c > p.Dist {
					t.Fatalf("%v %v: misplaced %d, manhattan %d, linear conflict %d, distance %d", size, p.Board, a, b, c, p.Dist)
				}
				if c > b {
					better++
				}
				for _, m := range puzzle.Moves {
					if next, _, ok := p.Board.Move(m); ok {
						if d := lc.Estimate(next) - c; d > 1 || d < -1 {
							t.Fatalf("%v → %v: linear conflict changes by %d", p.Board, next, d)
						}
					}
				}
			}
			if better == 0 {
				t.Errorf("%v %v: linear conflict never beats Manhattan distance", size, goal)
			}
		}
	}
}

// TestClassicSolve solves random 8-puzzles with each heuristic: the same
// optimal lengths, and linear conflict generates no more nodes than
// Manhattan distance.
func TestClassicSolve(t *testing.T) {
	size := puzzle.Size{Rows: 3, Cols: 3}
	hs := map[string]func(puzzle.Size, puzzle.Goal) (*search.Heuristic, error){
		"misplaced": search.Misplaced, "manhattan": search.Manhattan, "linear-conflict": search.LinearConflict,
	}
	rng := rand.New(rand.NewPCG(8, 8))
	for range 20 {
		p, _ := puzzle.Random(rng, size, puzzle.GoalLast)
		b := board(p)
		nodes := map[string]uint64{}
		length := -1
		for name, make := range hs {
			h, err := make(size, puzzle.GoalLast)
			if err != nil {
				t.Fatal(err)
			}
			// Depth-first, so that the last iterations' orders agree.
			res := solve(t, b, puzzle.GoalLast, h, search.Options{Frontier: search.DepthFirst}, length)
			length = res.Length()
			nodes[name] = res.Generated
		}
		if nodes["linear-conflict"] > nodes["manhattan"] {
			t.Errorf("%v: linear conflict generated %d nodes, Manhattan %d", b, nodes["linear-conflict"], nodes["manhattan"])
		}
	}
	if _, err := search.LinearConflict(puzzle.Size{Rows: 2, Cols: 8}, puzzle.GoalLast); err == nil {
		t.Error("linear conflict on 8-cell rows accepted")
	}
}

// TestGreedyBound gives up a greedy search at its bound on the positions
// it keeps, with ErrGreedyMemory and the counts so far (issue 57: Korf's
// eighth 24-puzzle under misplaced tiles passed 4 GB and the process
// died; the bound measured 1.3 GB at the peak).
func TestGreedyBound(t *testing.T) {
	defer search.SetGreedyLimit(search.SetGreedyLimit(10_000))
	b := board(data.Korf50()[7])
	h, err := search.Misplaced(b.Size(), puzzle.GoalFirst)
	if err != nil {
		t.Fatal(err)
	}
	res, err := search.Greedy(context.Background(), b, puzzle.GoalFirst, h)
	if !errors.Is(err, search.ErrGreedyMemory) || res.Solved || res.Generated != 10_000 {
		t.Errorf("%d generated, solved %v: %v", res.Generated, res.Solved, err)
	}
}
