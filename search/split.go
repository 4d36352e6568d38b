package search

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"sync/atomic"
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

// maxBound bounds a plan's bound: a search of MaxWeight's (worker.maxBound).
const maxBound = MaxLength * 100 * MaxWeight

// MaxTasks bounds the tasks of a split search: every task lists the
// first shared iteration's subtrees, subtreesPerTask a task, and a plan
// names a start for each.
const MaxTasks = 1 << 14

// checkTasks reports a number of tasks out of bounds.
func checkTasks(tasks int) error {
	if tasks < 1 || tasks > MaxTasks {
		return fmt.Errorf("a split among %d tasks: want 1 to %d", tasks, MaxTasks)
	}
	return nil
}

// subtreesPerTask is how many subtrees the first shared iteration holds a
// task, at least: enough that runs of them balance.
const subtreesPerTask = 256

// pollEvery is how often a task asks whether another found a solution in
// an earlier subtree (Share.Known).
const pollEvery = time.Second

// Plan shares an iteration among len(Starts) tasks.
type Plan struct {
	Bound    int `json:"bound"`     // the iteration's, as f counts it (Options.Weight)
	CutDepth int `json:"cut_depth"` // the depth of its subtrees' roots
	// Starts[k] is the first subtree of task k's run, named by the blank's
	// moves from the root (Starts[0] is ""). A start that the iteration
	// does not reach, such as "", gives that task no subtree.
	Starts []string `json:"starts"`
}

// parse checks the plan and returns its starts as moves.
func (p *Plan) parse() ([][]puzzle.Move, error) {
	if len(p.Starts) == 0 || len(p.Starts) > MaxTasks || p.Starts[0] != "" || p.CutDepth < 1 || p.CutDepth >= p.Bound || p.CutDepth >= MaxLength || p.Bound > maxBound {
		return nil, fmt.Errorf("%w: bound %d, cut depth %d, %d tasks", ErrPlan, p.Bound, p.CutDepth, len(p.Starts))
	}
	starts := make([][]puzzle.Move, len(p.Starts))
	for k, s := range p.Starts {
		moves, err := puzzle.ParseMoves(s)
		if err != nil || len(moves) != p.CutDepth && s != "" {
			return nil, fmt.Errorf("%w: the start of task %d, %q: want %d moves", ErrPlan, k, s, p.CutDepth)
		}
		starts[k] = moves
	}
	return starts, nil
}

// describe names the plan in a share's checkpoints.
func (p *Plan) describe(task int) string {
	h := fnv.New64a()
	for _, s := range p.Starts {
		fmt.Fprintln(h, s)
	}
	return fmt.Sprintf(", task %d of %d at bound %d cut at %d (plan %016x)", task, len(p.Starts), p.Bound, p.CutDepth, h.Sum64())
}

// Share makes a search one task of a split search (SolveShare).
type Share struct {
	Plan
	Task int // this task's number, below len(Starts)
	// Known, if not nil, is asked about once a second for the number of
	// the first subtree in which another task of the iteration found a
	// solution (math.MaxInt64 if none is known): the task gives up its
	// subtrees after it, which cannot hold the answer. It is called from
	// the search's goroutines, one call at a time.
	Known func() int64
}

// Part is what one task of a split search found in its run of an
// iteration's subtrees.
type Part struct {
	Plan Plan `json:"plan"`
	// Iteration counts the nodes the task generated and expanded: those
	// of its subtrees, and those above the cut, which every task walks
	// (Cut) and which Join counts once.
	Iteration Iteration `json:"iteration"`
	Cut       Iteration `json:"cut"`
	Tasks     []Task    `json:"tasks"` // the subtrees it searched to the end without a solution
	// Subtrees is the number of subtrees the plan cuts the iteration
	// into, as far as the task cut it: every task that met no solution
	// counts them all alike, and then the parts' tasks are all of them.
	Subtrees int `json:"subtrees"`
	// Found is the number of the subtree in which it found Moves, the
	// first solution of its run, or -1.
	Found   int64         `json:"found"`
	Moves   []puzzle.Move `json:"-"`
	Next    int           `json:"next"` // the smallest f above the bound that it saw; math.MaxInt if none
	Elapsed time.Duration `json:"elapsed_ns"`
	// Heeded is the subtree in which, as Share.Known said, another task
	// found a solution, if the task gave up its subtrees after it; nil if
	// it searched its whole run. Join checks that a part holds that
	// solution, so that a mark no task made cannot hide the answer.
	Heeded *int64 `json:"heeded,omitempty"`
}

// ErrPlan is the error of a malformed plan or share, or of parts of
// several plans.
var ErrPlan = errors.New("a malformed plan")

// ErrUnreported is Join's error when a task gave up its subtrees after
// one that Share.Known said holds a solution, and no part holds it: the
// iteration is not searched whole, and must be searched again.
var ErrUnreported = errors.New("a task gave up its subtrees after a solution that no task reports")

// Split begins a split search of start among tasks tasks, as each of them
// does alike: it searches whole the iterations up to the first that
// generates above nodes or more (0 means DefaultSplitAbove), as Solve
// would with Options.Frontier NoFrontier, as its tasks take their subtrees
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
	opts.Frontier = NoFrontier
	s, err := open(ctx, start, goal, h, &opts, nil)
	if err != nil {
		return Result{}, Plan{}, err
	}
	defer s.close()
	w := s.w
	res := run(w, opts.Threads, cmp.Or(above, DefaultSplitAbove))
	s.timed(&res)
	if res.Solved || w.aborted || w.next == math.MaxInt {
		if !res.Solved && ctx.Err() == nil {
			return res, Plan{}, ErrNoSolution
		}
		res, err = finish(ctx, res, s.rotated)
		return res, Plan{}, err
	}
	bound := w.next
	depth, paths := w.cutFor(bound, tasks, nextSize(res.Iterations))
	return res, planRuns(bound, depth, paths, nil, tasks), nil
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
	if share.Task < 0 || share.Task >= len(starts) {
		return Part{}, fmt.Errorf("%w: task %d of a plan for %d", ErrPlan, share.Task, len(starts))
	}
	sh := &sharer{plan: share.Plan, task: share.Task, starts: starts, known: share.Known, t0: time.Now()}
	sh.heeded.Store(math.MaxInt64)
	s, err := open(ctx, start, goal, h, &opts, sh)
	if err != nil {
		return Part{}, err
	}
	defer s.close()
	w := s.w
	team := startCrew(max(opts.Threads, 1) - 1)
	defer team.stop()
	t0 := time.Now()
	if w.reports != nil {
		w.reports.begin(share.Bound/w.gw, nil)
	}
	part := w.shareIteration(team)
	part.Elapsed = time.Since(t0) + w.saves.prior
	if w.aborted {
		w.saves.saveNow()
		return part, ctx.Err()
	}
	if w.reports != nil {
		w.reports.end(part.Iteration)
	}
	if s.rotated {
		for i, m := range part.Moves {
			part.Moves[i] = m.Opposite()
		}
	}
	return part, nil
}

// shareIteration searches the task's run of its share's iteration.
func (w *worker) shareIteration(team *crew) Part {
	sh := w.share
	found, it := w.parallelIteration(sh.plan.Bound, team, nil)
	part := Part{Plan: sh.plan, Iteration: it, Cut: sh.cut, Subtrees: sh.tasks.len(), Found: -1, Next: w.next}
	if j := sh.heeded.Load(); j != math.MaxInt64 {
		part.Heeded = &j
	}
	// A share takes its subtrees depth-first: a task's position is its
	// number.
	for _, t := range w.saves.tasks() {
		part.Tasks = append(part.Tasks, Task{Number: t.pos, Expanded: t.expanded, Generated: t.generated, Next: t.next, Path: puzzle.FormatMoves(sh.tasks.path(int(t.pos)))})
	}
	if found {
		part.Found, part.Moves = sh.found, slices.Clone(w.path[:w.length])
	}
	return part
}

// sharer is a task's share of the iteration being searched.
type sharer struct {
	plan   Plan
	task   int
	starts [][]puzzle.Move
	known  func() int64
	t0     time.Time
	due    deadline // of the next call of known
	// The round's: the first task known to hold a solution, and the
	// frontier cut so far (see parallelIteration).
	best  *atomic.Int64
	tasks *frontier
	// What the iteration leaves: the cut's counts, the subtree holding
	// the solution found, and the first that known named and the task
	// gave up the subtrees after (math.MaxInt64 if none).
	cut    Iteration
	found  int64
	heeded atomic.Int64
}

// run returns the numbers of the subtrees in the task's run, lo to hi
// (excluded), of the frontier f: from the one its start names to the
// next task's.
func (s *sharer) run(f *frontier) (lo, hi int) {
	owner := 0
	lo, hi = -1, f.len()
	for i := range f.len() {
		for owner+1 < len(s.starts) && slices.Equal(f.path(i), s.starts[owner+1]) {
			owner++
		}
		if owner == s.task && lo < 0 {
			lo = i
		}
		if owner > s.task {
			hi = i
			break
		}
	}
	if lo < 0 {
		lo = hi
	}
	return lo, hi
}

// checkIn asks, when due, for the first subtree another task found a
// solution in, and gives up the subtrees after it once the cut is past
// it: the subtrees before must all be searched.
func (s *sharer) checkIn() {
	if s.known == nil || s.tasks == nil || !s.due.take(time.Since(s.t0)) {
		return // no round yet: a resume's check cuts the iteration first
	}
	wait := pollEvery
	if j := s.known(); j < int64(s.tasks.len()) {
		for b := s.best.Load(); j < b; b = s.best.Load() {
			if s.best.CompareAndSwap(b, j) {
				s.heeded.Store(j) // the only caller: one call at a time
				break
			}
		}
	} else if j != math.MaxInt64 {
		wait = pollEvery / 100 // soon, as the cut goes on
	}
	s.due.set(time.Since(s.t0) + wait)
}

// cutFor returns the depth at which to cut the iteration of bound among
// tasks tasks, and the subtrees' paths there in depth-first order. Every
// task searches the iteration above the cut to find its subtrees, so the
// cut is the first depth that holds subtreesPerTask subtrees a task, or,
// in an iteration too small for that, the depth whose cut and share of
// the subtrees below it cost a task least, the iteration expected to
// generate about total nodes. Tasks beyond the subtrees get none.
func (w *worker) cutFor(bound, tasks int, total uint64) (int, []string) {
	want := subtreesPerTask * tasks
	bestDepth, bestCost := 1, math.Inf(1)
	var best []string
	var f frontier
	w.fit(bound)
	for depth := 1; depth < MaxLength && depth*w.gw < bound; depth++ {
		w.expanded, w.generated = 0, 0
		w.cutAt(&f, bound, depth, 0)
		above := float64(w.generated)
		if above >= bestCost {
			break // a deeper cut alone costs more
		}
		n := f.len()
		if cost := above + max(float64(total)-above, 0)/float64(max(min(n, tasks), 1)); cost < bestCost || n >= want {
			bestDepth, bestCost = depth, cost
			best = best[:0]
			for i := range n {
				best = append(best, puzzle.FormatMoves(f.path(i)))
			}
		}
		if n >= want || n == 0 {
			break
		}
	}
	w.aborted = false
	w.expanded, w.generated = 0, 0
	return bestDepth, best
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
