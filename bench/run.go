package bench

import (
	"context"
	"errors"
	"fmt"
	"runtime/pprof"
	"time"

	"fifteen/data"
	"fifteen/puzzle"
	"fifteen/search"
	"fifteen/solver"
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
	Wall    time.Duration // the whole run's, with cfg.Jobs puzzles at once (Interleave: its instances' in all)
}

// errNotRun stands for the result of an instance that an interruption
// kept from its turn.
var errNotRun = errors.New("not run: interrupted")

// Options tune Solve. The zero value is the default.
type Options struct {
	Timeout  time.Duration  // per instance; 0 means none
	Progress func(done int) // called after each instance, if not nil
}

// Solve solves every instance of set under cfg with s, whose Config must
// be cfg's (Config.Solver), and checks each answer: it must replay to the
// goal and have the known optimal length where one is known
// (solver.ErrWrongAnswer). Each search runs under the pprof labels config
// and puzzle, so that a CPU profile can be split by either. Its error
// names every instance that failed; the run holds all results.
func Solve(ctx context.Context, s Solver, set data.Set, cfg Config, opts Options) (*Run, error) {
	run := &Run{Config: cfg, Results: make([]Result, len(set.Instances))}
	for i, in := range set.Instances {
		run.Results[i] = Result{ID: in.ID, Optimal: in.Optimal, Err: errNotRun}
	}
	instances := func(yield func(puzzle.Puzzle, error) bool) {
		for _, in := range set.Instances {
			if !yield(in, nil) {
				return
			}
		}
	}
	sopts := cfg.Options
	sopts.Goal, sopts.Timeout = set.Goal, opts.Timeout
	var errs []error
	t0 := time.Now()
	i, done := 0, 0
	pprof.Do(ctx, pprof.Labels("config", cfg.Name), func(ctx context.Context) {
		for r, err := range s.SolveAll(ctx, instances, cfg.Jobs, sopts) {
			for i < len(run.Results) && run.Results[i].ID != r.Puzzle.ID { // in order, past those not run
				i++
			}
			if i == len(run.Results) { // the run's own error, of no instance
				errs = append(errs, fmt.Errorf("%s: %w", cfg.Name, err))
				break
			}
			run.Results[i].Result, run.Results[i].Err = r.Result, err
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %s: %w", cfg.Name, r.Puzzle.ID, err))
			}
			done++
			if opts.Progress != nil {
				opts.Progress(done)
			}
		}
	})
	run.Wall = time.Since(t0)
	if err := ctx.Err(); err != nil {
		errs = append(errs, err)
	}
	return run, errors.Join(errs...)
}

// Interleave solves the set's instances one at a time, each under every
// configuration in turn, solvers[k] being cfgs[k]'s, and returns a run
// per configuration, checked as Solve checks them. Solve runs the whole
// set under one configuration before the next, so a drift in the
// machine's speed, on a shared machine, falls on one configuration more
// than on another; here the runs of an instance follow one another.
// The configurations' Jobs do not apply: an instance is solved alone.
// Progress, if set, is called after each instance.
func Interleave(ctx context.Context, solvers []Solver, set data.Set, cfgs []Config, opts Options) ([]*Run, error) {
	if len(solvers) != len(cfgs) {
		return nil, fmt.Errorf("%d solvers for %d configurations", len(solvers), len(cfgs))
	}
	runs := make([]*Run, len(cfgs))
	for k, cfg := range cfgs {
		runs[k] = &Run{Config: cfg, Results: make([]Result, 0, len(set.Instances))}
	}
	var errs []error
	for i, in := range set.Instances {
		one := set
		one.Instances = set.Instances[i : i+1]
		for k, cfg := range cfgs {
			if ctx.Err() != nil {
				runs[k].Results = append(runs[k].Results, Result{ID: in.ID, Optimal: in.Optimal, Err: errNotRun})
				continue
			}
			run, err := Solve(ctx, solvers[k], one, cfg, Options{Timeout: opts.Timeout})
			runs[k].Results = append(runs[k].Results, run.Results...)
			runs[k].Wall += run.Wall
			if err != nil && ctx.Err() == nil {
				errs = append(errs, err)
			}
		}
		if opts.Progress != nil && ctx.Err() == nil {
			opts.Progress(i + 1)
		}
	}
	if err := ctx.Err(); err != nil {
		errs = append(errs, err)
	}
	return runs, errors.Join(errs...)
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
				errs = append(errs, fmt.Errorf("%w: %s: %s found %d moves, %s %d", solver.ErrWrongAnswer,
					r.ID, run.Config.Name, r.Length(), runs[0].Config.Name, first.Length()))
			}
		}
	}
	return errors.Join(errs...)
}
