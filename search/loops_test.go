package search_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"fifteen/data"
	"fifteen/puzzle"
	"fifteen/search"
)

// TestLoopsAgree searches the same puzzles with dfs, the loop written for
// up to four views, and with dfsWide, the loop over any number of views
// (both written from one template, internal/gendfs), and checks that they
// find the same moves with the same counts in every iteration: Manhattan
// distance (one view), 6-6-3 with its reflection (two), two 6-6-3
// partitions (four) and 7-7-1. (dfsWide maximises its views: linear
// conflict, whose two views are added, is searched by dfs alone.)
func TestLoopsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	var walks []puzzle.Board
	for range 8 {
		walks = append(walks, randomWalk(rng, size4, puzzle.GoalFirst, 60))
	}
	var korf []puzzle.Board
	for _, in := range data.Korf100()[:10] {
		korf = append(korf, board(in))
	}
	for _, c := range []struct {
		name   string
		h      func(t *testing.T) *search.Heuristic
		boards []puzzle.Board
	}{
		{"manhattan", func(t *testing.T) *search.Heuristic {
			h, err := search.Manhattan(size4, puzzle.GoalFirst)
			if err != nil {
				t.Fatal(err)
			}
			return h
		}, walks},
		{"663", func(t *testing.T) *search.Heuristic { return pdbHeuristic(t, "663", true) }, korf},
		{"663x2", func(t *testing.T) *search.Heuristic { return pdbHeuristic(t, "663x2", true) }, korf},
		{"771", func(t *testing.T) *search.Heuristic { return pdbHeuristic(t, "771", true) }, korf},
	} {
		t.Run(c.name, func(t *testing.T) {
			skipSevenTiles(t, c.name)
			h := c.h(t)
			for i, b := range c.boards {
				var got [2]string
				for k, wide := range []bool{false, true} {
					search.SetTestWide(wide)
					res, err := search.Solve(t.Context(), b, puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier})
					search.SetTestWide(false)
					if err != nil {
						t.Fatal(err)
					}
					got[k] = fmt.Sprint(puzzle.FormatMoves(res.Moves), res.Iterations)
				}
				if got[0] != got[1] {
					t.Errorf("board %d: dfs %s\ndfsWide %s", i, got[0], got[1])
				}
			}
		})
	}
}
