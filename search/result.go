package search

import (
	"context"
	"fmt"
	"time"

	"fifteen/puzzle"
)

// MaxLength bounds the length of the optimal solutions the search looks
// for. A weighted search's solution may be longer: up to W times the
// optimum.
const MaxLength = 255

// MaxWeight bounds Options.Weight.
const MaxWeight = 100

// maxBound bounds any search's bound, and so what a file may claim of
// one: f of MaxLength moves in a search of MaxWeight (limitOf).
const maxBound = MaxLength * 100 * MaxWeight

// ErrNoSolution is the error of a search that found no solution within
// MaxLength moves: the heuristic or the pruning is wrong, as every
// solvable board of up to puzzle.MaxBoardCells cells has one.
var ErrNoSolution = fmt.Errorf("no solution within %d moves", MaxLength)

// Iteration holds the counts of one IDA* iteration.
type Iteration struct {
	Bound     int    `json:"bound"`
	Expanded  uint64 `json:"expanded"`
	Generated uint64 `json:"generated"`
}

// Result is a search's outcome. Nodes are counted as Korf (1985) did: a
// node is generated when a move produces it (and the root once, in the
// first iteration), and expanded when its moves are tried.
type Result struct {
	Moves      []puzzle.Move // an optimal solution, if Solved
	Solved     bool
	H0         int
	Iterations []Iteration
	Expanded   uint64
	Generated  uint64
	Elapsed    time.Duration
}

// Length returns the solution's length.
func (r *Result) Length() int { return len(r.Moves) }

// NodesPerSecond returns generated nodes per second.
func (r *Result) NodesPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Generated) / r.Elapsed.Seconds()
}

// finish turns a solution of a rotated board back, and returns ctx's error
// with a search it cut short.
func finish(ctx context.Context, res Result, rotated bool) (Result, error) {
	if rotated {
		turnBack(res.Moves)
	}
	if !res.Solved {
		return res, ctx.Err()
	}
	return res, nil
}

// turnBack turns the moves of a solution of a rotated board
// (puzzle.Board.Rotate) into those of the board: each its opposite.
func turnBack(moves []puzzle.Move) {
	for i, m := range moves {
		moves[i] = m.Opposite()
	}
}

// prepare checks that start fits h and can be solved, and turns it to h's
// goal if need be (puzzle.Board.Rotate): goal is h's, or its rotation.
func prepare(start puzzle.Board, goal puzzle.Goal, h *Heuristic) (puzzle.Board, bool, error) {
	if start.Size() != h.size {
		return start, false, fmt.Errorf("a %v board for a %v heuristic", start.Size(), h.size)
	}
	if !start.Solvable(goal) {
		return start, false, start.Puzzle().Check(goal) // puzzle.ErrUnsolvable, saying if the other goal is in reach
	}
	switch n := h.size.Cells(); goal {
	case h.goal:
		return start, false, nil
	case h.goal.Other(n):
		return start.Rotate(), true, nil
	}
	return start, false, fmt.Errorf("a goal with the blank on cell %d for a heuristic of the blank on cell %d", goal.Blank(h.size.Cells()), h.goal.Blank(h.size.Cells()))
}
