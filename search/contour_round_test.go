package search

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"fifteen/internal/bfs"
	"fifteen/puzzle"
)

// TestContourRound compares single iterations cut at contours 1 to 4
// moves of 2 below their bounds, with budgets that fit them and one that
// fits no chunk, with the sequential ones on random 4×4 positions, below,
// at and above the optimal bound, on one thread and on three. An
// iteration without a solution must generate the very nodes and meet the
// very next bound of the sequential one, as every node lies within the
// contour or below one node of its frontier; one with a solution finds
// one too, within the bound, which replays to the goal.
func TestContourRound(t *testing.T) {
	size := puzzle.Size{Rows: 4, Cols: 4}
	h, err := Manhattan(size, puzzle.GoalLast)
	if err != nil {
		t.Fatal(err)
	}
	search := func(b puzzle.Board, threads int) *searcher { return openSearch(t, h, b, threads) }
	goal := puzzle.SolvedBoard(size, puzzle.GoalLast)
	rng := rand.New(rand.NewPCG(9, 10))
	for range 12 {
		b, length := randomWalk(t, h, rng)
		for _, bound := range []int{length - 4, length - 2, length, length + 2} {
			seq := search(b, 1)
			want := seq.iterate(bound, nil)
			seq.close()
			for _, steps := range []int{1, 2, 3, 4} {
				for _, budget := range []int{1 << 20, 1} {
					for _, threads := range []int{1, 3} {
						par := search(b, threads)
						par.produce = &contour{budget: budget, steps: steps}
						got := par.round(bound, nil)
						moves := par.w.path[:par.w.length]
						par.close()
						where := fmt.Sprintf("%v, bound %d, contour %d below, budget %d, %d goroutines", b, bound, 2*steps, budget, threads)
						end, err := b.Apply(moves)
						switch {
						case got.found != want.found:
							t.Errorf("%s: found %v, sequential %v", where, got.found, want.found)
						case got.found && (err != nil || end != goal || len(moves) > bound):
							t.Errorf("%s: %s (%d moves) ends at %v (%v)", where, puzzle.FormatMoves(moves), len(moves), end, err)
						case !want.found && (got.it != want.it || got.next != want.next):
							t.Errorf("%s: %+v and next %d, sequential %+v and %d", where, got.it, got.next, want.it, want.next)
						}
					}
				}
			}
		}
	}
}

// TestContourInconsistent solves positions of the 3×3 board under the
// blank-aware additive tables of TestAStarPhaseBFS, which are not
// consistent (a move can lower the estimate by more than one, and so a
// child can lie within a contour that its parent lies above), with
// every round cut at a contour, and checks every length against
// breadth-first search, on one thread and on two, and the moves' replay.
func TestContourInconsistent(t *testing.T) {
	size := puzzle.Size{Rows: 3, Cols: 3}
	h := builtAdditive(t, "pdb:44", size, false, []int{1, 2, 3, 4}, []int{5, 6, 7, 8})
	goal := puzzle.SolvedBoard(size, h.goal)
	defer func(old int) { testBudget = old }(testBudget)
	for _, budget := range []int{0, 20 << 10} {
		testBudget = budget
		for i, all := len(bfs.All(size, h.goal))-1, bfs.All(size, h.goal); i >= 0; i -= 61 {
			for _, threads := range []int{1, 2} {
				opts := Options{Threads: threads, Cut: CutContour}
				res, err := Solve(t.Context(), all[i].Board, h.goal, h, opts)
				if err != nil || !res.Solved || res.Length() != all[i].Dist {
					t.Fatalf("%v, %d threads, budget %d: %d moves (%v), want %d", all[i].Board, threads, budget, res.Length(), err, all[i].Dist)
				}
				if end, err := all[i].Board.Apply(res.Moves); err != nil || end != goal {
					t.Fatalf("%v: %s ends at %v (%v)", all[i].Board, puzzle.FormatMoves(res.Moves), end, err)
				}
			}
		}
	}
}

// TestContourOption checks the option's validation: a cut out of its
// bounds, and a split search's task cut at a contour, which cuts at its
// plan's depth.
func TestContourOption(t *testing.T) {
	for _, o := range []Options{{Cut: CutFixed + 1}, {Cut: -1}} {
		if o.Validate() == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	h, err := Manhattan(puzzle.Size{Rows: 3, Cols: 3}, puzzle.GoalLast)
	if err != nil {
		t.Fatal(err)
	}
	b, err := puzzle.NewBoard(h.size, []int{8, 6, 7, 2, 5, 4, 3, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	res, plan, err := Split(t.Context(), b, puzzle.GoalLast, h, Options{}, 2, 1)
	if err != nil || res.Solved {
		t.Fatalf("Split: %v, solved %v", err, res.Solved)
	}
	if _, err := SolveShare(t.Context(), b, puzzle.GoalLast, h, Options{Cut: CutContour}, Share{Plan: plan}); err == nil || !strings.Contains(err.Error(), "contour") {
		t.Errorf("a share cut at a contour: %v", err)
	}
}
