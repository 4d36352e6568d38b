package bench

import (
	"context"
	"errors"
	"fmt"
	"runtime/pprof"
	"sync"
	"time"

	"fifteen/bitboard"
	"fifteen/data"
	"fifteen/search"
)

// Result is one instance solved under one configuration.
type Result struct {
	ID      string
	Optimal int // the known optimal length, 0 where unknown
	search.Result
	Err error // why the instance is unsolved or its answer wrong; nil if checked
}

// Run is one configuration's results on a set, in the set's order.
type Run struct {
	Config  Config
	Results []Result
	Wall    time.Duration // the whole run's, with cfg.Jobs puzzles at once
}

// ErrWrongAnswer marks an answer that does not replay to the goal or is
// longer or shorter than the known optimum.
var ErrWrongAnswer = errors.New("wrong answer")

// Options tune Solve. The zero value is the default.
type Options struct {
	Timeout  time.Duration  // per instance; 0 means none
	Progress func(done int) // called after each instance, if not nil
}

// Solve solves every instance of set under cfg with the heuristic h, which
// must match cfg, and checks each answer: it must replay to the goal and
// have the known optimal length where one is known. Each search runs under
// the pprof labels config and puzzle, so that a CPU profile can be split
// by either. Its error names every instance that failed; the run holds all
// results.
func Solve(ctx context.Context, set data.Set, cfg Config, h *search.Heuristic, opts Options) (*Run, error) {
	run := &Run{Config: cfg, Results: make([]Result, len(set.Instances))}
	t0 := time.Now()
	var (
		mu   sync.Mutex
		next int
		done int
		wg   sync.WaitGroup
	)
	for range max(cfg.Jobs, 1) {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(set.Instances) || ctx.Err() != nil {
					return
				}
				in := set.Instances[i]
				r := Result{ID: in.ID, Optimal: in.Optimal}
				pprof.Do(ctx, pprof.Labels("config", cfg.Name, "puzzle", in.ID), func(ctx context.Context) {
					if opts.Timeout > 0 {
						var cancel context.CancelFunc
						ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
						defer cancel()
					}
					r.Result, r.Err = search.Solve(ctx, in.Board, set.Goal, h, cfg.Options)
				})
				if r.Err == nil {
					r.Err = check(in, set.Goal, r.Moves)
				}
				mu.Lock()
				run.Results[i] = r
				done++
				if opts.Progress != nil {
					opts.Progress(done)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	run.Wall = time.Since(t0)
	var errs []error
	for _, r := range run.Results {
		if r.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %s: %w", cfg.Name, r.ID, r.Err))
		}
	}
	if err := ctx.Err(); err != nil {
		errs = append(errs, err)
	}
	return run, errors.Join(errs...)
}

// check replays the moves and compares their number with the known
// optimum.
func check(in data.Instance, goal bitboard.Goal, moves []bitboard.Move) error {
	end, err := in.Board.Apply(moves)
	switch {
	case err != nil:
		return fmt.Errorf("%w: %v", ErrWrongAnswer, err)
	case end != bitboard.Solved(end.Size(), goal):
		return fmt.Errorf("%w: the moves do not reach the goal", ErrWrongAnswer)
	case in.Optimal > 0 && len(moves) != in.Optimal:
		return fmt.Errorf("%w: %d moves, the optimum is %d", ErrWrongAnswer, len(moves), in.Optimal)
	}
	return nil
}

// Agree checks that the runs, all over one set, found solutions of the
// same lengths: every configuration is optimal, so any difference is a
// wrong answer (and catches one on sets with no known optima).
func Agree(runs []*Run) error {
	if len(runs) < 2 {
		return nil
	}
	var errs []error
	for _, run := range runs[1:] {
		for i, r := range run.Results {
			first := runs[0].Results[i]
			if r.Err == nil && first.Err == nil && r.Length() != first.Length() {
				errs = append(errs, fmt.Errorf("%w: %s: %s found %d moves, %s %d", ErrWrongAnswer,
					r.ID, run.Config.Name, r.Length(), runs[0].Config.Name, first.Length()))
			}
		}
	}
	return errors.Join(errs...)
}
