// Package search finds optimal solutions of sliding-tile puzzles with
// iterative-deepening A* (Korf, 1985) over packed boards, guided by an
// additive heuristic (Manhattan distance or pattern databases) and pruned
// by a finite-state machine of redundant move sequences. One puzzle can be
// searched by several goroutines at once, or split among the independent
// tasks of a cluster's job (Split, SolveShare, Join, NextPlan: the split
// protocol is defined here alone).
//
// With package pdb, search is fifteen's research API: heuristics, node
// counts, iterations, checkpoints and the split protocol, for programs
// that study or extend the search. A program that only solves puzzles
// uses package solver, whose options and results embed this package's.
package search

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync/atomic"
	"time"

	"fifteen/puzzle"
)

// Solve finds an optimal solution of start under the goal convention goal.
// A board of the other convention than h's is rotated (puzzle.Board.Rotate)
// and its solution rotated back. When ctx ends first, Solve returns the
// partial result (Solved false, the counts so far) and ctx's error.
func Solve(ctx context.Context, start puzzle.Board, goal puzzle.Goal, h *Heuristic, opts Options) (Result, error) {
	s, err := open(ctx, start, goal, h, &opts, nil)
	if err != nil {
		return Result{}, err
	}
	defer s.close()
	res, _ := s.run(0)
	if !res.Solved && ctx.Err() == nil {
		return res, ErrNoSolution
	}
	return finish(ctx, res, s.rotated)
}

// searcher is one puzzle's search, as Solve, Split and SolveShare run it:
// the calling goroutine's worker, and what the search needs once beside
// it. It is set up by open, and then owned by the calling goroutine, but
// for what its workers share (shared) and what they call (reports, saves,
// share: each guarded by its own lock).
type searcher struct {
	w      *worker // the calling goroutine's: it cuts the rounds, and takes their tasks too
	shared *shared // w's, and its copies'
	team   *crew   // the goroutines beside w in a round: threads − 1 of them

	// plan plans the rounds, and which iterations are rounds
	// (planner.isRound); produce makes their tasks: plan, or a split
	// search's share.
	plan    *planner
	produce producer
	contour *contour // produce, if the rounds are cut at a contour; else nil
	hooks   hooks    // the rounds' calls to the checkpoints

	reports *reporter     // nil without progress reports
	saves   *checkpointer // nil without checkpoints
	share   *sharer       // nil but in a split search's task

	threads int
	limit   int  // the largest bound: f of a path of MaxLength moves (limitOf)
	rotated bool // whether the board was turned to h's goal (prepare)
	t0      time.Time
	halt    func() bool // stops the watch on ctx
}

// limitOf returns the largest bound a search of f = gw·g + hw·h takes: f
// of a path of MaxLength moves to the goal, weighted by W in a weighted
// search, whose solution it bounds at W times the optimum. maxBound is
// the largest of all.
func limitOf(hw int) int { return MaxLength * hw }

// open checks the options and the board, and returns the search, which
// stops when ctx ends: a split search's task's, with its share, if sh is
// not nil (the task and its plan are then part of what its checkpoints
// describe). A resume is checked before it returns (resume.go).
func open(ctx context.Context, start puzzle.Board, goal puzzle.Goal, h *Heuristic, opts *Options, sh *sharer) (*searcher, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	start, rotated, err := prepare(start, goal, h)
	if err != nil {
		return nil, err
	}
	opts.PruneDepth = cmp.Or(opts.PruneDepth, DefaultPruneDepth)
	prune, err := prunerFor(opts.PruneDepth)
	if err != nil {
		return nil, err
	}
	fixed := opts.Order != [4]puzzle.Move{}
	if !fixed {
		opts.Order = puzzle.Moves
	}
	s := &searcher{rotated: rotated, t0: time.Now(), threads: max(opts.Threads, 1), share: sh}
	s.duties(opts, s.plans(start, goal, h, opts, fixed))
	s.w = newWorker(h, prune, opts.Order, fixed, start, s.shared)
	s.w.gw, s.w.hw = weights(opts.Weight)
	s.limit = limitOf(s.w.hw)
	if s.w.gw > 1 && !fixed {
		s.w.orderDepth, s.w.byEstimate = math.MaxInt, new(state)
	}
	if sh != nil && (sh.plan.CutDepth*s.w.gw >= sh.plan.Bound || sh.plan.Bound > s.limit) {
		return nil, fmt.Errorf("%w: cut at depth %d of an iteration of bound %d", ErrPlan, sh.plan.CutDepth, sh.plan.Bound/s.w.gw)
	}
	stop := &s.shared.stop
	s.halt = context.AfterFunc(ctx, func() { stop.Store(true) })
	if opts.Resume != nil {
		if err := resume(ctx, resumption{s.w, s.plan, s.saves, s.share, s.contour, s.limit, opts.Resume}); err != nil {
			s.halt()
			return nil, err
		}
	}
	s.team = startCrew(s.threads - 1)
	return s, nil
}

// plans sets up the rounds' planning: their frontiers' budget, the cut
// that makes their tasks (a split search's task's share of its plan's
// iteration, a contour, or a fixed depth), and returns what the
// checkpoints name as the search (Checkpoint.Search): the board, goal,
// heuristic and options, and the share's task and plan.
func (s *searcher) plans(start puzzle.Board, goal puzzle.Goal, h *Heuristic, opts *Options, fixed bool) string {
	s.plan = &planner{budget: frontierBytes(opts, fixed), cutDepth: firstCutDepth}
	s.plan.rounds = s.threads > 1 || opts.Checkpoint != nil || opts.Resume != nil || s.plan.ranked()
	s.produce = s.plan
	atContour := s.plan.ranked() && s.share == nil && opts.cutFor(start.Size().Cells()) == CutContour
	search := describe(start, goal, h, opts, fixed, atContour)
	switch sh := s.share; {
	case sh != nil:
		// A share takes its subtrees depth-first, cut where its plan says.
		s.plan.budget, s.plan.planned, s.plan.cutDepth = 0, true, sh.plan.CutDepth
		sh.cutter, s.produce = s.plan, sh
		search += sh.plan.describe(sh.task)
	case atContour:
		s.contour = &contour{budget: s.plan.budget, steps: contourSteps}
		s.produce = s.contour
	}
	return search
}

// duties sets up the progress reports and the checkpoints, if the
// options ask for them, and what the workers share: the check-ins, and
// the hooks of the rounds.
func (s *searcher) duties(opts *Options, search string) {
	var live *atomic.Uint64
	var checkIns []func()
	if opts.Progress != nil {
		s.reports = newReporter(opts.Progress, cmp.Or(opts.ProgressEvery, DefaultProgressEvery), s.t0)
		live, checkIns = &s.reports.live, append(checkIns, s.reports.checkIn)
	}
	s.hooks = hooks{resumed: func(int64) (doneTask, bool) { return doneTask{}, false }, finished: func(doneTask) {}}
	if opts.Checkpoint != nil || opts.Resume != nil || s.share != nil {
		save := opts.Checkpoint
		if save == nil {
			save = func(*Checkpoint) {}
		}
		s.saves = newCheckpointer(save, cmp.Or(opts.CheckpointEvery, DefaultCheckpointEvery), s.t0, search)
		checkIns = append(checkIns, s.saves.checkIn)
		s.hooks = hooks{resumed: s.saves.resumedTask, finished: s.saves.finished}
	}
	if s.share != nil {
		checkIns = append(checkIns, s.share.checkIn)
	}
	s.shared = newShared(live, checkIns)
}

// close stops the search's crew and its watch on ctx.
func (s *searcher) close() {
	s.team.release()
	s.halt()
}

// run searches the iterations from the start's estimate, or the resumed
// search's bound, to the first that finds a solution, or, if until is
// not 0, that generates until nodes or more. It returns their result and
// what the last left.
func (s *searcher) run(until uint64) (Result, outcome) {
	w := s.w
	res := Result{H0: w.h.combine(&w.st.sums)}
	bound := w.hw * res.H0
	if s.saves != nil && s.saves.cp.Bound > 0 { // resumed: the round planned (resume)
		res.Iterations = s.saves.cp.Iterations
		for _, it := range res.Iterations {
			res.Expanded += it.Expanded
			res.Generated += it.Generated
		}
		bound = s.saves.cp.Bound
	}
	var last outcome
	for bound <= s.limit {
		last = s.iterate(bound, res.Iterations)
		if len(res.Iterations) == 0 {
			last.it.Generated++ // the root, counted once as Korf (1985) did
		}
		if !last.stopped {
			s.reports.end(last.it) // an iteration cut short is not reported done
		}
		res.Iterations = append(res.Iterations, last.it)
		res.Expanded += last.it.Expanded
		res.Generated += last.it.Generated
		if last.found {
			res.Solved, res.Moves = true, slices.Clone(w.path[:w.length])
			break
		}
		if last.stopped {
			s.saves.saveNow() // the iteration's tasks so far
			break
		}
		if last.next == math.MaxInt || until > 0 && last.it.Generated >= until {
			break
		}
		bound = last.next
		s.saves.end(res.Iterations, bound, s.mark(s.plan.cutDepth), s.plan.prev, s.plan.front)
	}
	res.Elapsed = time.Since(s.t0) + s.saves.resumedTime()
	return res, last
}

// iterate searches the iteration of bound, with the iterations done
// before it, whole or as a round.
func (s *searcher) iterate(bound int, done []Iteration) outcome {
	s.reports.begin(bound/s.w.gw, done)
	if s.plan.isRound(done) {
		return s.round(bound, done)
	}
	s.saves.begin(bound, s.mark(0), done, nil, nil)
	w := s.w
	w.begin(bound)
	found := w.descend(0, &w.st.sums, 0)
	return outcome{Iteration{Bound: bound / w.gw, Expanded: w.expanded, Generated: w.generated}, w.next, found, -1, w.unwind && !found}
}

// mark returns where the search cuts a round, as its checkpoints say: at
// its contour, or at depth (0: not cut).
func (s *searcher) mark(depth int) cutMark {
	if s.contour != nil {
		return cutMark{below: s.contour.steps}
	}
	return cutMark{depth: depth}
}

// round searches the iteration of bound as a round: its tasks made by
// the producer, then searched by the crew and the caller, in the order
// the producer chose. The round searched whole plans the next.
func (s *searcher) round(bound int, done []Iteration) outcome {
	w := s.w
	root, blank := w.board, w.blank // the cut leaves a solution it meets
	w.begin(bound)
	w.task = math.MaxInt64 // the cut stops once a task holds a solution
	s.shared.best.Store(math.MaxInt64)
	f := new(frontier)
	order, lo, hi, cutFound := s.produce.produce(w, f, bound)
	s.saves.begin(bound, s.mark(f.depth), done, s.plan.prev, s.plan.front)
	s.reports.cut(f.count(), f.memory()+s.plan.front.memory()+uint64(4*len(order)))
	r := newRound(bound/w.gw, f, order, lo, hi, &root, blank, &s.hooks, &s.shared.best)
	// A solution the cut met above its depth comes after every task it
	// listed, which is all of them: it stopped there.
	n := int64(f.count())
	r.record(w, n, n, cutFound)
	if !s.shared.stop.Load() {
		s.team.search(r, w)
	}
	o := outcome{it: r.it, next: r.next, found: r.found >= 0, task: r.found}
	if o.found {
		w.length = copy(w.path, r.solution)
	}
	o.stopped = !o.found && s.shared.stop.Load()
	s.produce.learn(f, s.threads, r.it.Generated, !o.found && !o.stopped)
	return o
}
