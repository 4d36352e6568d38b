package search

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"fifteen/puzzle"
)

// A producer makes a round's tasks: the fixed-depth cut, of a search
// (planner) or of a split search's task (sharer), or a contour's frontier
// (contour).
type producer interface {
	// produce lists in f, cut with w, the tasks of the iteration of
	// bound, and returns the order in which the round takes them, the run
	// of them it searches (lo to hi, excluded), and whether the cut met a
	// solution above them.
	produce(w *worker, f *frontier, bound int) (order []int32, lo, hi int, found bool)
	// learn tells it how its round went: cut into f, searched by threads,
	// it generated nodes, and was searched whole if it ended without a
	// solution or a stop.
	learn(f *frontier, threads int, nodes uint64, whole bool)
}

// hooks are a round's calls to the search's checkpoints, which the search
// sets once: without checkpoints, they do nothing.
type hooks struct {
	resumed  func(pos int64) (doneTask, bool) // a task searched before a resume, which the round skips
	finished func(doneTask)                   // a task searched to the end
}

// round is one iteration searched as tasks: the frontier cut whole by the
// calling goroutine, then its subtrees searched by the crew and the
// caller, in the order the producer chose. Every solution at the bound
// is optimal; the one in the first task in that order to hold any wins,
// so the answer does not depend on the threads, and goroutines searching
// later tasks stop as soon as it is known. The tasks are numbered in
// depth-first order, and so checkpoints and a split search's plans name
// them.
type round struct {
	// Read-only once the round begins.
	tasks  *frontier
	order  []int32 // task numbers, in the order they are searched
	root   tiles   // the board the paths start from, and its blank
	blank  int
	lo, hi int       // the run of tasks this search takes
	copies []*worker // a copy of the worker for each goroutine
	hooks  *hooks

	claimed  atomic.Int64  // positions in order claimed
	resolved atomic.Int64  // claims searched or given up
	best     *atomic.Int64 // the first position known to hold a solution (shared.best)

	// What the tasks found, guarded by mu.
	mu       sync.Mutex
	it       Iteration
	next     int
	solution []puzzle.Move
	found    int64 // the task number holding solution, or -1
}

// newRound returns the round of the iteration of bound (as Iteration
// counts it) whose tasks are f's, taken in order, lo to hi, from the
// board root and its blank; best is the search's, reset.
func newRound(bound int, f *frontier, order []int32, lo, hi int, root *tiles, blank int, h *hooks, best *atomic.Int64) *round {
	f.sizes = make([]uint64, f.count())
	return &round{tasks: f, order: order, root: *root, blank: blank, lo: lo, hi: hi, hooks: h, best: best,
		it: Iteration{Bound: bound}, next: math.MaxInt, found: -1}
}

// work claims the round's tasks in order and searches them, until a
// claim fails.
func (r *round) work(c *worker) {
	for {
		k := r.claimed.Add(1) - 1
		if k >= int64(len(r.order)) || k > r.best.Load() || c.shared.stop.Load() {
			r.resolved.Add(1)
			return
		}
		r.take(c, k)
		r.resolved.Add(1)
	}
}

// wait waits until the claims made so far are resolved. Once the
// caller's claim has failed, every later one fails too (its position is
// past the tasks or the best, or the search is stopping), touching
// nothing but resolved: so the caller waits for those, not for the crew.
// The wait spins, as parking would cost a wake-up (see crew).
func (r *round) wait() {
	for r.resolved.Load() != r.claimed.Load() {
		runtime.Gosched()
	}
}

// take searches the task at position k of the order, unless a resumed
// search has, or it is outside the search's run.
func (r *round) take(c *worker, k int64) {
	i := int(r.order[k])
	if i < r.lo || i >= r.hi {
		return
	}
	f := r.tasks
	if t, ok := r.hooks.resumed(k); ok {
		f.sizes[i] = t.generated
		r.mu.Lock()
		r.it.Expanded += t.expanded
		r.it.Generated += t.generated
		r.next = min(r.next, t.next)
		r.mu.Unlock()
		return
	}
	path := f.path(i)
	fs := c.enter(&r.root, r.blank, path)
	c.task = k
	c.begin(c.bound)
	found := c.descend(len(path), &c.st.sums, fs)
	r.record(c, k, int64(i), found)
	if !found && !c.unwind {
		f.sizes[i] = c.generated
		r.hooks.finished(doneTask{pos: k, expanded: c.expanded, generated: c.generated, next: c.next})
	}
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

// An outcome is what an iteration, searched whole or as a round, left.
type outcome struct {
	it      Iteration
	next    int   // the least f above its bound that it met (math.MaxInt if none)
	found   bool  // whether it found a solution: in the worker's path
	task    int64 // the number of the round's task that holds it, or -1
	stopped bool  // whether the search stopped before the iteration's end
}
