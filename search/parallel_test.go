package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"fifteen/puzzle"
)

// TestParallelIteration compares single iterations of the rounds, taking
// their tasks depth-first, with the sequential ones on random 4×4
// positions, below, at and above the optimal bound, cut at depths from 1
// to just above the goal, with no crew, so that the caller searches every
// task after cutting, and with two goroutines. They must agree on whether
// a solution is found and which, and a completed iteration on the next
// bound and on the very counts, as every node lies either above the cut
// or in one task.
func TestParallelIteration(t *testing.T) {
	size := puzzle.Size{Rows: 4, Cols: 4}
	h, err := Manhattan(size, puzzle.GoalLast)
	if err != nil {
		t.Fatal(err)
	}
	prune, err := prunerFor(DefaultPruneDepth)
	if err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	worker := func(b puzzle.Board) *worker {
		return newWorker(h, prune, puzzle.Moves, false, b, &stop)
	}
	teams := []*crew{startCrew(0), startCrew(2)}
	for _, team := range teams {
		defer team.stop()
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 16 {
		b := puzzle.SolvedBoard(size, puzzle.GoalLast)
		for range 40 {
			b, _, _ = b.Move(puzzle.Move(rng.IntN(4)))
		}
		res := run(worker(b), 1, 0)
		length := res.Length()
		for _, bound := range []int{length - 2, length, length + 2, length + 4} {
			seq := worker(b)
			found, it := seq.iteration(bound)
			want := seq.path[:seq.length]
			for _, depth := range []int{1, 2, 3, 5, 8, 13, bound - 1} {
				for _, team := range teams {
					par := worker(b)
					par.cutDepth = depth
					pfound, pit := par.parallelIteration(bound, team, nil)
					where := fmt.Sprintf("%v, bound %d, cut at %d, %d goroutines", b, bound, depth, team.size+1)
					switch got := par.path[:par.length]; {
					case pfound != found || !slices.Equal(got, want):
						t.Errorf("%s: found %v %v, sequential %v %v", where, pfound, puzzle.FormatMoves(got), found, puzzle.FormatMoves(want))
					case !found && (pit != it || par.next != seq.next):
						t.Errorf("%s: %+v and next %d, sequential %+v and %d", where, pit, par.next, it, seq.next)
					}
				}
			}
		}
	}
}
