package solver

import (
	"context"
	"errors"
	"time"

	"fifteen/puzzle"
	"fifteen/search"
)

// A split search shares one puzzle's search among independent tasks, such
// as a cluster's job array (package search: Split, SolveShare, Join,
// NextPlan). These calls are the ones a task makes, with the Solver's
// heuristic; Joined completes the result.

// errSplitMode is the modes a split search takes.
var errSplitMode = errors.New("a split search, and the check of its iterations, are an IDA* search's: the optimal or weighted mode")

// errSplitGoal is the goals a split search takes.
var errSplitGoal = errors.New("a split search, and the check of a result read back, take the goal conventions, first or last, not a goal board")

// Split begins a split search of the puzzle among tasks tasks, as each of
// them does alike (search.Split): its result is solved if an iteration too
// small to share (under above nodes) held a solution, and otherwise
// holds those iterations, with the plan of the next.
func (s *Solver) Split(ctx context.Context, p puzzle.Puzzle, opts Options, tasks int, above uint64) (Result, search.Plan, error) {
	res := Result{Puzzle: p}
	var plan search.Plan
	err := s.ida(ctx, &res, opts, func(ctx context.Context, start puzzle.Board, h *search.Heuristic) (err error) {
		res.Result, plan, err = search.Split(ctx, start, opts.Goal, h, opts.search(p), tasks, above)
		return err
	})
	if err == nil && res.Solved {
		err = Verify(&res, opts)
	}
	return res, plan, err
}

// SolveShare searches the task's share of an iteration of the puzzle's
// split search (search.SolveShare), with opts's threads and checkpoints.
func (s *Solver) SolveShare(ctx context.Context, p puzzle.Puzzle, opts Options, share search.Share) (search.Part, error) {
	var part search.Part
	res := Result{Puzzle: p}
	err := s.ida(ctx, &res, opts, func(ctx context.Context, start puzzle.Board, h *search.Heuristic) (err error) {
		part, err = search.SolveShare(ctx, start, opts.Goal, h, opts.search(p), share)
		res.Iterations = []search.Iteration{part.Iteration} // the bound an error names
		return err
	})
	return part, err
}

// ida runs an IDA* search of res's puzzle that is not Solve's, with the
// checks and the heuristic that Solve has.
func (s *Solver) ida(ctx context.Context, res *Result, opts Options, run func(context.Context, puzzle.Board, *search.Heuristic) error) error {
	if err := opts.Validate(); err != nil {
		return err
	}
	if opts.Mode != Optimal && opts.Mode != Weighted {
		return errSplitMode
	}
	if opts.GoalBoard != nil {
		return errSplitGoal
	}
	ctx, done, err := s.enter(ctx)
	if err != nil {
		return err
	}
	defer done()
	start, h, err := s.open(ctx, res, opts.Goal)
	if err != nil {
		return err
	}
	return stopped(ctx, run(ctx, start, h), res, opts.Mode, 0)
}

// Joined returns the result of a split search: begun, Split's result
// (its counts are its iterations'), followed by the iterations its tasks
// shared (search.Join), the last of which holds the solution moves;
// elapsed is the tasks' time in all. Check checks it, as it is read from
// the tasks' files.
func Joined(begun Result, shared []search.Iteration, moves []puzzle.Move, elapsed time.Duration) Result {
	res := begun
	res.Iterations = append(append([]search.Iteration(nil), begun.Iterations...), shared...)
	res.Expanded, res.Generated = 0, 0
	for _, it := range res.Iterations {
		res.Expanded += it.Expanded
		res.Generated += it.Generated
	}
	res.Moves, res.Solved, res.Elapsed = moves, true, begun.Elapsed+elapsed
	return res
}
