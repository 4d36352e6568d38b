package search

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"fifteen/puzzle"
)

// task is a node at the split depth whose subtree one goroutine searches.
type task struct {
	board tiles
	blank int
	st    state
	fs    int32
	depth int
	path  []puzzle.Move // to the task's node, in a buffer kept from one task to the next
	skip  bool          // another task's, in a split search
}

// parallelAbove is the size (nodes generated) of an iteration after which
// the next is searched in parallel; the iterations before are too small to
// be worth cutting up (measurements: docs/experiments.md).
const parallelAbove = 1 << 8

// An iteration is cut at a depth chosen so that it holds tasksPerThread to
// 4·tasksPerThread tasks a goroutine: enough that the last ones to finish
// are small. The depth starts at firstCutDepth and follows the count of
// the iteration before; the tasks' buffer holds 8·tasksPerThread a
// goroutine, and when it is full the cutting goroutine searches tasks
// until all have been taken out of it, and then fills it again.
const (
	tasksPerThread = 32
	firstCutDepth  = 6
)

// parallelIteration runs one iteration with the crew beside the calling
// goroutine. The caller cuts the tree into subtrees (tasks) at a fixed
// depth, in depth-first order, and the crew searches each task as soon as
// it is cut; the caller then joins them. Every solution at this bound is
// optimal; the one in the first task that has any wins, so the answer is
// the one the sequential search finds, and goroutines searching later
// tasks stop as soon as it is known. The tasks are numbered in
// depth-first order whatever the threads, and so checkpoints name them.
func (w *worker) parallelIteration(bound int, team *crew, done []Iteration) (bool, Iteration) {
	w.fit(bound)
	threads := team.size + 1
	if w.tasks == nil {
		w.tasks = getTasks(8 * tasksPerThread * threads)
	}
	tasks := w.tasks[:cap(w.tasks)] // the crew reads those published

	var (
		published atomic.Int64 // tasks cut so far
		first     atomic.Int64 // the number of the task in tasks[0]
		cut       atomic.Bool  // whether the cutting is over
		nextTask  atomic.Int64 // tasks claimed
		resolved  atomic.Int64 // claims searched or given up
		copied    atomic.Int64 // tasks taken out of the buffer (or skipped, resumed)
		best      atomic.Int64 // the first task known to hold a solution
		// What the tasks found, under mu: the caller's cut writes w's own
		// fields meanwhile.
		mu       sync.Mutex
		it       = Iteration{Bound: bound / w.gw}
		next     = math.MaxInt
		solution []puzzle.Move
		length   int
		ours     bool // whether solution holds one
	)
	best.Store(math.MaxInt64)
	if w.share != nil {
		w.share.best, w.share.published = &best, &published
	}
	w.bound, w.next = bound, math.MaxInt
	w.expanded, w.generated, w.flushed = 0, 0, 0
	// Each goroutine searches with its own copy of the worker, all made
	// before any starts.
	copies := make([]*worker, threads)
	for i := range copies {
		c := *w
		c.best, c.tasks = &best, nil
		c.regions = newRegionCache(&w.h.views[0])
		c.path, c.wide = newPath(w.h, len(w.path)-1)
		if w.byEstimate != nil {
			c.byEstimate = new(state) // the weighted order's, written at every node
		}
		copies[i] = &c
	}
	// record adds a search's counts, and its solution if it is the first.
	record := func(c *worker, i int64, found bool) {
		c.flush()
		mu.Lock()
		it.Expanded += c.expanded
		it.Generated += c.generated
		next = min(next, c.next)
		if found && i < best.Load() {
			best.Store(i)
			solution, length, ours = append(solution[:0], c.path[:c.length]...), c.length, true
			if w.share != nil {
				w.share.found = i
			}
		}
		mu.Unlock()
	}
	// search searches task i, unless a resumed search has.
	search := func(c *worker, i int64) {
		if r, ok := w.saves.resumedTask(i); ok {
			copied.Add(1)
			mu.Lock()
			it.Expanded += r.Expanded
			it.Generated += r.Generated
			next = min(next, r.Next)
			mu.Unlock()
			return
		}
		t := &tasks[i-first.Load()]
		if t.skip {
			copied.Add(1)
			return
		}
		c.board, c.blank, c.task = t.board, t.blank, i
		copy(c.path, t.path)
		c.st.copyOf(&t.st, c.h.n)
		depth, fs := t.depth, t.fs
		copied.Add(1) // the slot may be refilled
		c.expanded, c.generated, c.flushed, c.next = 0, 0, 0, math.MaxInt
		found := c.descend(depth, &c.st.sums, fs)
		record(c, i, found)
		if !found && !c.aborted && w.saves != nil {
			t := Task{Number: i, Expanded: c.expanded, Generated: c.generated, Next: c.next}
			if w.share != nil {
				t.Path = puzzle.FormatMoves(c.path[:depth]) // the plan of the next iteration names it
			}
			w.saves.done(t)
		}
		c.aborted = false
	}
	work := func(c *worker) {
		for {
			i := nextTask.Add(1) - 1
			for i >= published.Load() && !cut.Load() {
				runtime.Gosched()
			}
			if i >= published.Load() || i > best.Load() || c.stop.Load() {
				resolved.Add(1)
				return
			}
			search(c, i)
			resolved.Add(1)
		}
	}
	team.round.Store(&round{copies: copies, work: work})

	// The cut. When the buffer is full, this goroutine searches the tasks
	// no one has claimed, waits until the others have taken theirs out,
	// and then refills it; it gives up once a solution is known or the
	// search stops. A solution it finds above the split depth comes after
	// every task published so far: it is numbered as the next task, and
	// it stops once any task holds a solution, as do its searches of the
	// tasks after that one.
	w.drain = func() bool {
		for i := nextTask.Load(); i < published.Load() && i <= best.Load(); i = nextTask.Load() {
			if nextTask.CompareAndSwap(i, i+1) {
				search(copies[0], i)
				resolved.Add(1)
			}
		}
		for copied.Load() != published.Load() && best.Load() == math.MaxInt64 && !w.stop.Load() {
			runtime.Gosched()
		}
		if best.Load() != math.MaxInt64 || w.stop.Load() {
			return false
		}
		first.Store(published.Load())
		return true
	}
	depth := max(min(w.cutDepth, (bound-1)/w.gw), 1)
	if w.saves != nil {
		w.saves.begin(bound, depth, done)
	}
	w.split, w.tasks, w.published = depth, w.tasks[:0], &published
	w.best, w.task = &best, math.MaxInt64
	// Alone, the cutting goroutine searches each subtree as soon as it
	// cuts it, as a depth-first search would: so it never cuts past the
	// solution's subtree, and counts what a search that does not cut
	// counts (one that saves checkpoints cuts its iterations).
	w.eager = threads == 1
	found := w.descend(0, &w.st.sums, 0)
	if w.share != nil {
		w.share.cut = Iteration{Expanded: w.expanded, Generated: w.generated}
	}
	record(w, published.Load(), found)
	switch n := published.Load(); {
	case n > 4*tasksPerThread*int64(threads):
		w.cutDepth = depth - 1
	case n < tasksPerThread*int64(threads):
		w.cutDepth = depth + 1
	}
	w.split, w.best, w.published, w.drain, w.aborted, w.eager = -1, nil, nil, nil, false, false
	cut.Store(true)

	// The crew works on the tasks beside this goroutine. Once its claim
	// has failed, every later one fails too (its index is past the tasks
	// or the best, or the search is stopping), touching nothing but
	// resolved: so it waits only until the claims made so far are
	// resolved, not for the crew. The wait spins, as parking would cost a
	// wake-up (see crew).
	work(copies[0])
	for resolved.Load() != nextTask.Load() {
		runtime.Gosched()
	}
	w.next = next
	found = ours
	if found {
		w.length = copy(w.path, solution[:length])
	}
	w.aborted = !found && w.stop.Load()
	return found, it
}

// taskBuffers recycles the tasks' buffers from one search to the next. A
// buffer holds hundreds of kilobytes, which allocating (zeroed, its pages
// faulted in) for each puzzle measurably slowed batches of small searches
// (docs/experiments.md).
var taskBuffers sync.Pool // of *[]task

// getTasks returns an empty buffer for n tasks.
func getTasks(n int) []task {
	if b, ok := taskBuffers.Get().(*[]task); ok && cap(*b) >= n {
		return (*b)[:0]
	}
	return make([]task, 0, n)
}

// putTasks recycles the worker's buffer, once the search is over: a
// goroutine of the crew that joins a round late never reads it (see
// parallelIteration).
func (w *worker) putTasks() {
	if b := w.tasks; b != nil {
		taskBuffers.Put(&b)
		w.tasks = nil
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

// crew is the goroutines that search a parallel iteration's tasks beside
// the caller. They live as long as the search and spin between its
// iterations: a goroutine started for each iteration took longer to run
// than most iterations take (docs/experiments.md).
type crew struct {
	size  int
	round atomic.Pointer[round] // the latest parallel iteration
	done  atomic.Bool
}

// round is what a parallel iteration hands its crew: the work loop, and a
// copy of the worker for each goroutine.
type round struct {
	copies []*worker
	work   func(c *worker)
}

func startCrew(size int) *crew {
	team := &crew{size: size}
	for i := 1; i <= size; i++ {
		go team.help(i)
	}
	return team
}

// help joins each round once, as the worker copy numbered i.
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
