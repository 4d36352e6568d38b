package search

import (
	"cmp"
	"math"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"fifteen/puzzle"
)

// parallelAbove is the size (nodes generated) of an iteration after which
// the next is searched in rounds; the iterations before are too small to
// be worth cutting up (measurements: docs/experiments.md).
const parallelAbove = 1 << 8

// A round's cut depth starts at firstCutDepth and follows the frontier
// of the round before. Searching depth-first, it holds tasksPerThread to
// 4·tasksPerThread tasks a goroutine: enough that the last ones to finish
// are small. Ranked, it holds as many as the frontier's budget allows,
// up to one for nodesPerTask nodes of the iteration before, and at least
// minRanked: a finer frontier ranks better (docs/experiments.md), and a
// task costs a replay of its path and a load of the heuristic's state.
const (
	tasksPerThread = 32
	firstCutDepth  = 6
	nodesPerTask   = 256
	minRanked      = 256
)

// round is one iteration searched as tasks: the frontier cut whole by the
// calling goroutine, then its subtrees searched by the crew and the
// caller, in the order rank chose. Every solution at the bound is
// optimal; the one in the first task in that order to hold any wins, so
// the answer does not depend on the threads, and goroutines searching
// later tasks stop as soon as it is known. The tasks are numbered in
// depth-first order, and so checkpoints and a split search's plans name
// them.
type round struct {
	tasks  *frontier
	order  []int32 // task numbers, in the order they are searched
	root   tiles   // the board the paths start from, and its blank
	blank  int
	copies []*worker // a copy of the worker for each goroutine
	// A split search's task searches the tasks from lo to hi alone.
	lo, hi int

	claimed  atomic.Int64 // positions in order claimed
	resolved atomic.Int64 // claims searched or given up
	best     atomic.Int64 // the first position known to hold a solution

	// What the tasks found, under mu.
	mu       sync.Mutex
	it       Iteration
	next     int
	solution []puzzle.Move
	found    int64 // the task number holding solution, or -1
}

// parallelIteration runs one iteration as a round, with the crew beside
// the calling goroutine. Ranked, it takes its tasks in the order rank
// gives from the frontier of the last round searched whole, and keeps
// its own for the next when it ends without a solution.
func (w *worker) parallelIteration(bound int, team *crew, done []Iteration) (bool, Iteration) {
	w.fit(bound)
	threads := team.size + 1
	r := &round{it: Iteration{Bound: bound / w.gw}, next: math.MaxInt, found: -1}
	r.best.Store(math.MaxInt64)
	r.root, r.blank = w.board, w.blank
	w.bound, w.next = bound, math.MaxInt
	w.expanded, w.generated, w.flushed = 0, 0, 0
	w.best, w.task = &r.best, math.MaxInt64
	defer func() { w.best = nil }()

	f := new(frontier)
	if w.share != nil {
		w.share.best, w.share.tasks = &r.best, f
	}
	depth, cutFound := w.cutRound(f, bound, w.cutDepth)
	if w.share != nil {
		w.share.cut = Iteration{Expanded: w.expanded, Generated: w.generated}
		r.lo, r.hi = w.share.run(f)
	} else {
		r.lo, r.hi = 0, f.len()
	}
	if w.saves != nil {
		w.saves.begin(bound, depth, done, w.prev, w.front)
	}
	n := f.len()
	r.tasks = f
	r.order = w.rank(f, w.front)
	f.sizes = make([]uint64, n)
	if w.reports != nil {
		w.reports.cut(n, f.memory()+w.front.memory()+uint64(4*len(r.order)))
	}
	// A solution the cut met above its depth comes after every task it
	// listed, which is all of them: it stopped there.
	r.record(w, int64(n), int64(n), cutFound)
	// A split search's cut stops once another task is known to have found
	// a solution in a subtree it has cut: the ones before are searched.
	w.aborted = false

	if !w.stop.Load() {
		r.searchWith(w, team)
	}

	w.next = r.next // the cut's among them (record)
	found := r.found >= 0
	if found {
		w.length = copy(w.path, r.solution)
		if w.share != nil {
			w.share.found = r.found
		}
	}
	w.aborted = !found && w.stop.Load()
	// The round searched whole plans the next, and its frontier ranks the
	// next round's tasks.
	if !found && !w.aborted {
		w.prev = &Round{Bound: bound, CutDepth: depth, Tasks: n, Threads: threads}
		if w.ranked() {
			w.front = f
		}
	}
	w.cutDepth = nextCutDepth(depth, n, threads, w.ranked(), w.budget, r.it.Generated)
	return found, r.it
}

// searchWith searches the round's tasks with the crew beside the calling
// goroutine, each with its own copy of the worker w, all made before any
// starts.
func (r *round) searchWith(w *worker, team *crew) {
	r.copies = make([]*worker, team.size+1)
	for i := range r.copies {
		c := *w
		c.regions = newRegionCache(&w.h.views[0])
		c.path, c.wide = newPath(w.h, len(w.path)-1)
		if w.byEstimate != nil {
			c.byEstimate = new(state) // the weighted order's, written at every node
		}
		r.copies[i] = &c
	}
	team.round.Store(r)
	// Once the caller's claim has failed, every later one fails too (its
	// position is past the tasks or the best, or the search is stopping),
	// touching nothing but resolved: so it waits only until the claims
	// made so far are resolved, not for the crew. The wait spins, as
	// parking would cost a wake-up (see crew).
	r.work(r.copies[0])
	for r.resolved.Load() != r.claimed.Load() {
		runtime.Gosched()
	}
}

// cutRound cuts the iteration of bound into f, at the depth planned if
// the frontier fits its room there, else a move shallower each time, and
// returns the depth, and whether the cut met a solution above it. The
// nodes of a cut given up are not counted.
func (w *worker) cutRound(f *frontier, bound, planned int) (depth int, found bool) {
	depth = max(min(planned, (bound-1)/w.gw), 1)
	for {
		found = w.cutAt(f, bound, depth, w.room(depth))
		if !w.full {
			return depth, found
		}
		w.full, w.aborted = false, false
		w.expanded, w.generated = 0, 0
		depth--
	}
}

// room returns the bytes a round's frontier cut at depth may take, 0 if
// any: ranked, the budget less the frontier that ranks it; depth-first,
// depthFirstRoom. A split search's task cuts at its plan's depth, and a
// cut at depth 1 lists four nodes at most: theirs take what they need.
func (w *worker) room(depth int) int {
	switch {
	case depth <= 1 || w.share != nil:
		return 0
	case w.ranked():
		return max(w.budget-int(w.front.memory()), 1)
	}
	return depthFirstRoom
}

// depthFirstRoom bounds the frontier of a round that takes its tasks
// depth-first, which plans for 32 to 128 tasks a goroutine
// (tasksPerThread): far more than any such round lists, and so a bound on
// what a checkpoint of one holds.
const depthFirstRoom = 64 << 20

// cutAt lists in f the nodes that the iteration of bound reaches at
// depth, in depth-first order, within room bytes (0: any); past them, it
// gives up, and sets full. It reports whether it met a solution above
// depth. The nodes above depth count in the worker's.
func (w *worker) cutAt(f *frontier, bound, depth, room int) bool {
	f.reset(bound, depth, room, cmp.Or(w.budget, depthFirstRoom))
	w.bound, w.next = bound, math.MaxInt
	w.cut, w.split = f, depth
	found := w.descend(0, &w.st.sums, 0)
	w.cut, w.split = nil, -1
	return found
}

// nextCutDepth returns the cut depth of the round after one cut at depth
// into n tasks, which generated nodes. A move deeper about doubles the
// tasks, and so does the next iteration at the same depth. Ranked, the
// depth does not depend on the threads, so that neither does the order,
// nor the answer.
func nextCutDepth(depth, n, threads int, ranked bool, budget int, nodes uint64) int {
	lo, hi := tasksPerThread*threads, 4*tasksPerThread*threads
	if ranked {
		hi = max(min(budget/nodeBytes(depth), max(minRanked, int(min(nodes/nodesPerTask, math.MaxInt32)))), 1)
		lo = hi / 8
	}
	switch {
	case n > hi:
		return max(depth-bits.Len(uint(n/hi)), 1)
	case n < lo:
		return depth + max(bits.Len(uint(hi/(4*max(n, 1))))-1, 1)
	}
	return depth
}

// work claims the round's tasks in order and searches them, until a
// claim fails.
func (r *round) work(c *worker) {
	for {
		k := r.claimed.Add(1) - 1
		if k >= int64(len(r.order)) || k > r.best.Load() || c.stop.Load() {
			r.resolved.Add(1)
			return
		}
		r.search(c, k)
		r.resolved.Add(1)
	}
}

// search searches the task at position k of the order, unless a resumed
// search has, or it is another split task's.
func (r *round) search(c *worker, k int64) {
	i := int(r.order[k])
	if i < r.lo || i >= r.hi {
		return
	}
	if t, ok := c.saves.resumedTask(k); ok {
		r.tasks.sizes[i] = t.generated
		r.mu.Lock()
		r.it.Expanded += t.expanded
		r.it.Generated += t.generated
		r.next = min(r.next, t.next)
		r.mu.Unlock()
		return
	}
	f := r.tasks
	fs := c.enter(&r.root, r.blank, f.path(i))
	c.task = k
	c.expanded, c.generated, c.flushed, c.next = 0, 0, 0, math.MaxInt
	found := c.descend(f.depth, &c.st.sums, fs)
	r.record(c, k, int64(i), found)
	if !found && !c.aborted {
		f.sizes[i] = c.generated
		if c.saves != nil {
			c.saves.finished(doneTask{pos: k, expanded: c.expanded, generated: c.generated, next: c.next})
		}
	}
	c.aborted = false
}

// record adds a search's counts, and its solution, found in task number i
// at position k of the order, if it is the first in that order.
func (r *round) record(c *worker, k, i int64, found bool) {
	c.flush()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.it.Expanded += c.expanded
	r.it.Generated += c.generated
	r.next = min(r.next, c.next)
	if found && k < r.best.Load() {
		r.best.Store(k)
		r.solution, r.found = append(r.solution[:0], c.path[:c.length]...), i
	}
}

// ranked reports whether the worker's rounds rank their tasks by the
// frontier before (budget): a split search's tasks take theirs
// depth-first.
func (w *worker) ranked() bool { return w.budget > 0 && w.share == nil }

// collect lists the node at the cut's depth in the frontier, or gives up
// the cut (aborted, full) when the frontier has no room for it. It is
// kept out of dfs, whose stack frame stays small and in the first-level
// cache.
//
//go:noinline
func (w *worker) collect(depth int) {
	if !w.cut.add(w.path[:depth]) {
		w.aborted, w.full = true, true
	}
}

// checkIn publishes the worker's nodes for the progress reports, if any,
// makes a report or a checkpoint if one is due, and reports whether the
// search must stop: the caller gave up, or a task before this one holds a
// solution.
func (w *worker) checkIn() bool {
	if w.reports != nil {
		w.flush()
		w.reports.checkIn()
	}
	if w.saves != nil {
		w.saves.checkIn()
	}
	if w.share != nil {
		w.share.checkIn()
	}
	return w.stop.Load() || (w.best != nil && w.best.Load() < w.task)
}

// flush adds the nodes generated since the last flush to the reports'
// count.
func (w *worker) flush() {
	if w.reports != nil {
		w.reports.live.Add(w.generated - w.flushed)
		w.flushed = w.generated
	}
}

// crew is the goroutines that search a round's tasks beside the caller.
// They live as long as the search and spin between its iterations: a
// goroutine started for each iteration took longer to run than most
// iterations take (docs/experiments.md).
type crew struct {
	size  int
	round atomic.Pointer[round] // the latest
	done  atomic.Bool
}

func startCrew(size int) *crew {
	team := &crew{size: size}
	for i := 1; i <= size; i++ {
		go team.help(i)
	}
	return team
}

// help joins each round once, as the worker copy numbered i. One that
// joins late claims nothing: its claims fail, touching only the round's
// counters.
func (team *crew) help(i int) {
	var last *round
	for !team.done.Load() {
		if r := team.round.Load(); r != last {
			last = r
			r.work(r.copies[i])
		}
		runtime.Gosched()
	}
}

// stop sends the crew home.
func (team *crew) stop() { team.done.Store(true) }
