package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"fifteen/puzzle"
)

// TestParallelIteration compares single iterations of the rounds, taking
// their tasks depth-first, with the sequential ones on random 4×4
// positions, below, at and above the optimal bound, cut at depths from 1
// to just above the goal, on one thread, so that the caller searches
// every task after cutting, and on three. They must agree on whether
// a solution is found and which, and a completed iteration on the next
// bound and on the very counts, as every node lies either above the cut
// or in one task.
func TestParallelIteration(t *testing.T) {
	size := puzzle.Size{Rows: 4, Cols: 4}
	h, err := Manhattan(size, puzzle.GoalLast)
	if err != nil {
		t.Fatal(err)
	}
	search := func(b puzzle.Board, threads int) *searcher { return openSearch(t, h, b, threads) }
	rng := rand.New(rand.NewPCG(7, 8))
	for range 16 {
		b, length := randomWalk(t, h, rng)
		for _, bound := range []int{length - 2, length, length + 2, length + 4} {
			seq := search(b, 1)
			want := seq.iterate(bound, nil)
			wantMoves := seq.w.path[:seq.w.length]
			seq.close()
			for _, depth := range []int{1, 2, 3, 5, 8, 13, bound - 1} {
				for _, threads := range []int{1, 3} {
					par := search(b, threads)
					par.plan.cutDepth = depth
					got := par.round(bound, nil)
					par.close()
					where := fmt.Sprintf("%v, bound %d, cut at %d, %d goroutines", b, bound, depth, threads)
					switch moves := par.w.path[:par.w.length]; {
					case got.found != want.found || !slices.Equal(moves, wantMoves):
						t.Errorf("%s: found %v %v, sequential %v %v", where, got.found, puzzle.FormatMoves(moves), want.found, puzzle.FormatMoves(wantMoves))
					case !want.found && (got.it != want.it || got.next != want.next):
						t.Errorf("%s: %+v and next %d, sequential %+v and %d", where, got.it, got.next, want.it, want.next)
					}
				}
			}
		}
	}
}

// openSearch opens a search of b toward h's goal on threads, taking its
// rounds' tasks depth-first; the caller closes it.
func openSearch(t *testing.T, h *Heuristic, b puzzle.Board, threads int) *searcher {
	opts := Options{Threads: threads}
	s, err := open(t.Context(), b, h.goal, h, &opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// randomWalk returns the board 40 random moves from h's goal, and its
// optimal length.
func randomWalk(t *testing.T, h *Heuristic, rng *rand.Rand) (puzzle.Board, int) {
	b := puzzle.SolvedBoard(h.size, h.goal)
	for range 40 {
		b, _, _ = b.Move(puzzle.Move(rng.IntN(4)))
	}
	s := openSearch(t, h, b, 1)
	defer s.close()
	res, _ := s.run(0)
	return b, res.Length()
}
