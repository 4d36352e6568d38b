package search

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"fifteen/puzzle"
)

// A split search is one search shared by independent processes, such as
// the tasks of a cluster's job array, that meet only in files. Each task
// begins alike (Split): it searches whole the iterations too small to be
// worth sharing, and plans the first one that is. An iteration is shared
// by a Plan: it is cut at a fixed depth into subtrees, numbered in
// depth-first order as the parallel search numbers its tasks, and each
// task searches a contiguous run of them (SolveShare). Joined, the parts
// give the iteration's counts, and its first solution in subtree order,
// the one a search on one machine finds; or, without one, the plan of the
// next iteration (NextPlan), whose runs are balanced by each subtree's
// count in this one.

// DefaultSplitAbove is the iteration size, in nodes generated, from which
// Split shares the next iteration among the tasks, unless told otherwise.
const DefaultSplitAbove = 1 << 20

// Split begins a split search of start among tasks tasks, as each of them
// does alike: it searches whole the iterations up to the first that
// generates above nodes or more (0 means DefaultSplitAbove), as Solve
// would with Options.Frontier DepthFirst, as its tasks take their subtrees
// depth-first. It returns their result, solved if one of them held a solution,
// and otherwise the plan of the next iteration, whose runs give each task
// as many subtrees. It neither saves nor resumes
// checkpoints: the iterations it searches are small.
func Split(ctx context.Context, start puzzle.Board, goal puzzle.Goal, h *Heuristic, opts Options, tasks int, above uint64) (Result, Plan, error) {
	if err := checkTasks(tasks); err != nil {
		return Result{}, Plan{}, err
	}
	switch {
	case opts.Checkpoint != nil || opts.Resume != nil:
		return Result{}, Plan{}, errors.New("Split neither saves nor resumes checkpoints")
	}
	// The tasks share subtrees in depth-first order, and so the search
	// before them takes its subtrees so too.
	opts.Frontier = DepthFirst
	s, err := open(ctx, start, goal, h, &opts, nil)
	if err != nil {
		return Result{}, Plan{}, err
	}
	defer s.close()
	res, last := s.run(cmp.Or(above, DefaultSplitAbove))
	if res.Solved || last.stopped || last.next == math.MaxInt {
		if !res.Solved && ctx.Err() == nil {
			return res, Plan{}, ErrNoSolution
		}
		res, err = finish(ctx, res, s.rotated)
		return res, Plan{}, err
	}
	depth, paths := s.plan.split(s.w, last.next, tasks, nextSize(res.Iterations))
	return res, planRuns(last.next, depth, paths, nil, tasks), nil
}

// SolveShare searches the task's run of subtrees in the iteration its
// share's plan describes, with opts (Threads, checkpoints of the run, and
// Resume of one). When ctx ends first, it returns the part so far and
// ctx's error.
func SolveShare(ctx context.Context, start puzzle.Board, goal puzzle.Goal, h *Heuristic, opts Options, share Share) (Part, error) {
	starts, err := share.parse()
	if err != nil {
		return Part{}, err
	}
	switch {
	case share.Task < 0 || share.Task >= len(starts):
		return Part{}, fmt.Errorf("%w: task %d of a plan for %d", ErrPlan, share.Task, len(starts))
	case opts.Cut == CutContour:
		return Part{}, errors.New("a split search's tasks cut at their plan's depth: not at a contour (Options.Cut)")
	}
	sh := &sharer{plan: share.Plan, task: share.Task, starts: starts, known: share.Known, t0: time.Now()}
	sh.heeded.Store(math.MaxInt64)
	s, err := open(ctx, start, goal, h, &opts, sh)
	if err != nil {
		return Part{}, err
	}
	defer s.close()
	t0 := time.Now()
	s.reports.begin(share.Bound/s.w.gw, nil)
	o := s.round(share.Bound, nil)
	part := sh.part(o, s.saves.finishedTasks())
	part.Elapsed = time.Since(t0) + s.saves.resumedTime()
	if o.stopped {
		s.saves.saveNow()
		return part, ctx.Err()
	}
	s.reports.end(o.it)
	if o.found {
		part.Moves = slices.Clone(s.w.path[:s.w.length])
		if s.rotated {
			turnBack(part.Moves)
		}
	}
	return part, nil
}

// nextSize estimates the nodes the iteration after these generates, from
// the growth of the last two.
func nextSize(its []Iteration) uint64 {
	last := its[len(its)-1].Generated
	growth := uint64(4)
	if len(its) > 1 && its[len(its)-2].Generated > 0 {
		growth = max(last/its[len(its)-2].Generated, 1)
	}
	return last * growth
}

// Join returns the counts of an iteration from the parts of its tasks, one
// each in task order, and the task whose part holds the iteration's
// solution (the first in subtree order), or -1. It checks that the parts
// are of one plan, and that a solution a task gave up its subtrees for is
// there (ErrUnreported).
func Join(parts []Part) (Iteration, int, error) {
	if len(parts) == 0 {
		return Iteration{}, -1, errors.New("no parts to join")
	}
	plan := &parts[0].Plan
	it := parts[0].Cut
	it.Bound = parts[0].Iteration.Bound
	first := -1
	heeded, heeder := int64(math.MaxInt64), -1
	for k := range parts {
		p := &parts[k]
		if p.Plan.Bound != plan.Bound || p.Plan.CutDepth != plan.CutDepth || !slices.Equal(p.Plan.Starts, plan.Starts) || len(plan.Starts) != len(parts) {
			return Iteration{}, -1, fmt.Errorf("%w: part %d is of another plan", ErrPlan, k)
		}
		it.Expanded += p.Iteration.Expanded - p.Cut.Expanded
		it.Generated += p.Iteration.Generated - p.Cut.Generated
		if p.Found >= 0 && (first < 0 || p.Found < parts[first].Found) {
			first = k
		}
		if p.Heeded != nil && *p.Heeded < heeded {
			heeded, heeder = *p.Heeded, k
		}
	}
	if heeded != math.MaxInt64 && (first < 0 || parts[first].Found > heeded) {
		return Iteration{}, -1, fmt.Errorf("%w: task %d gave up its subtrees after subtree %d", ErrUnreported, heeder, heeded)
	}
	return it, first, nil
}

// NextPlan plans the iteration after the one the parts searched, among
// tasks tasks: its bound is the smallest f above this one's, and each
// task's run of subtrees is expected to generate as many nodes as the
// others', a subtree growing as every other does. The parts are one per
// task, as for Join, and must hold no solution.
func NextPlan(parts []Part, tasks int) (Plan, error) {
	if err := checkTasks(tasks); err != nil {
		return Plan{}, err
	}
	if len(parts) == 0 {
		return Plan{}, errors.New("no parts to plan from")
	}
	next := math.MaxInt
	var all []Task
	for k, p := range parts {
		if p.Found >= 0 || p.Heeded != nil {
			return Plan{}, errors.New("no plan after an iteration that holds a solution")
		}
		if p.Subtrees != parts[0].Subtrees {
			return Plan{}, fmt.Errorf("%w: part %d counts %d subtrees, part 0 %d", ErrPlan, k, p.Subtrees, parts[0].Subtrees)
		}
		// A part's next bound is the least f above the bound that its
		// task met, in its subtrees or above the cut: above the bound, and
		// no more than any of its subtrees' (issue 57: a part's next
		// raised alone planned a bound past the answer).
		for _, t := range p.Tasks {
			if p.Next > t.Next {
				return Plan{}, fmt.Errorf("%w: part %d's next bound %d lies above its subtree %d's, %d", ErrIterations, k, p.Next, t.Number, t.Next)
			}
		}
		if p.Next <= p.Plan.Bound {
			return Plan{}, fmt.Errorf("%w: part %d's next bound %d is not above its bound %d", ErrIterations, k, p.Next, p.Plan.Bound)
		}
		next = min(next, p.Next)
		all = append(all, p.Tasks...)
	}
	slices.SortFunc(all, func(a, b Task) int { return cmp.Compare(a.Number, b.Number) })
	// Without a solution, the parts searched every subtree (issue 66: a
	// part whose solution was cut out of its file left its run unsearched
	// from the solution's subtree on).
	for i, t := range all {
		if t.Number != int64(i) {
			return Plan{}, fmt.Errorf("%w: no part lists subtree %d of the %d, and none holds a solution", ErrIterations, i, parts[0].Subtrees)
		}
	}
	if len(all) != parts[0].Subtrees {
		return Plan{}, fmt.Errorf("%w: the parts list %d subtrees of the %d, and none holds a solution", ErrIterations, len(all), parts[0].Subtrees)
	}
	if next == math.MaxInt {
		return Plan{}, ErrNoSolution
	}
	paths := make([]string, len(all))
	weights := make([]uint64, len(all))
	for i, t := range all {
		paths[i], weights[i] = t.Path, t.Generated
	}
	return planRuns(next, parts[0].Plan.CutDepth, paths, weights, tasks), nil
}

// planRuns shares the iteration of bound, cut at depth into the subtrees
// named by paths, in order, among tasks tasks: runs of about equal
// weight, each subtree weighing weights[i] (1 if weights is nil).
func planRuns(bound, depth int, paths []string, weights []uint64, tasks int) Plan {
	weight := func(i int) uint64 {
		if weights == nil {
			return 1
		}
		return weights[i]
	}
	var total uint64
	for i := range paths {
		total += weight(i)
	}
	plan := Plan{Bound: bound, CutDepth: depth, Starts: make([]string, tasks)}
	k := 1
	var sum uint64
	for i, path := range paths {
		for ; k < tasks && sum*uint64(tasks) >= uint64(k)*total; k++ {
			plan.Starts[k] = path
		}
		sum += weight(i)
	}
	return plan
}
