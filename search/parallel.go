package search

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"fifteen/bitboard"
)

// task is a node at the split depth whose subtree one goroutine searches.
type task struct {
	cells uint64
	blank int
	st    state
	fs    int32
	g     int
	path  [MaxLength + 1]bitboard.Move
}

// parallelAbove is the size (nodes generated) of an iteration after which
// the next is searched in parallel; the iterations before are too small to
// be worth cutting up. On Korf's 100 with 2 threads, thresholds from 2^0
// to 2^12 were alike with 6-6-3 and 2^14 slower; with 7-8, whose nodes
// cost more, 2^6 to 2^8 were fastest.
const parallelAbove = 1 << 8

// tasksPerThread is how many subtrees an iteration is cut into per
// goroutine: enough that the last ones to finish are small.
const tasksPerThread = 32

// parallelIteration runs one iteration with threads goroutines. It cuts the
// tree into subtrees (tasks), a level at a time, until there are
// tasksPerThread a goroutine, and hands them out in depth-first order.
// Every solution at this bound is optimal; the one in the first task that
// has any wins, so the answer is the one the sequential search finds, and
// goroutines searching later tasks stop as soon as it is known.
func (w *worker) parallelIteration(bound int, team *crew) (bool, Iteration) {
	threads := team.size + 1
	it := Iteration{Bound: bound / w.gw}
	w.bound, w.next = bound, math.MaxInt
	w.expanded, w.generated = 0, 0
	// The levels' tasks go in two buffers kept from one iteration to the
	// next, so that a search allocates next to nothing.
	tasks := append(w.levels[0][:0], task{cells: w.cells, blank: w.blank, st: w.st, path: w.path})
	root := tasks[0]
	for len(tasks) < tasksPerThread*threads && w.gw*(tasks[0].g+1) < bound {
		// Replace each task by its children, in order.
		w.tasks = w.levels[1][:0]
		for i := range tasks {
			t := &tasks[i]
			w.cells, w.blank, w.st, w.path, w.split = t.cells, t.blank, t.st, t.path, t.g+1
			if w.dfs(t.g, t.st.sums[0], t.st.sums[1], t.st.sums[2], t.st.sums[3], t.fs) || w.aborted {
				w.split = -1
				it.Expanded, it.Generated = w.expanded, w.generated
				return !w.aborted, it
			}
		}
		w.levels[0], w.levels[1] = w.tasks, tasks
		tasks = w.tasks
		if len(tasks) == 0 {
			break
		}
	}
	w.split, w.tasks = -1, nil
	w.cells, w.blank, w.st = root.cells, root.blank, root.st
	it.Expanded, it.Generated = w.expanded, w.generated

	var (
		nextTask atomic.Int64 // tasks claimed
		resolved atomic.Int64 // claims searched or given up
		best     atomic.Int64 // the first task known to hold a solution
		mu       sync.Mutex
	)
	best.Store(math.MaxInt64)
	// Each goroutine searches with its own copy of the worker, all made
	// before any starts: they write w's result fields as they finish tasks.
	copies := make([]*worker, threads)
	for i := range copies {
		c := *w
		c.best, c.tasks, c.levels = &best, nil, [2][]task{}
		copies[i] = &c
	}
	work := func(c *worker) {
		for {
			i := nextTask.Add(1) - 1
			if i >= int64(len(tasks)) || i > best.Load() || c.stop.Load() {
				resolved.Add(1)
				return
			}
			t := &tasks[i]
			c.cells, c.blank, c.st, c.path, c.task = t.cells, t.blank, t.st, t.path, i
			c.expanded, c.generated = 0, 0
			found := c.dfs(t.g, t.st.sums[0], t.st.sums[1], t.st.sums[2], t.st.sums[3], t.fs)
			mu.Lock()
			it.Expanded += c.expanded
			it.Generated += c.generated
			w.next = min(w.next, c.next)
			if found && i < best.Load() {
				best.Store(i)
				w.path, w.length = c.path, c.length
			}
			mu.Unlock()
			c.aborted = false
			resolved.Add(1)
		}
	}
	// The crew works on the tasks beside the calling goroutine. Once this
	// goroutine's claim has failed, every later one fails too (its index
	// is past the tasks or the best, or the search is stopping), touching
	// nothing but resolved: so it waits only until the claims made so far
	// are resolved, not for the crew. The wait spins, as parking would
	// cost a wake-up (see crew).
	team.round.Store(&round{copies: copies, work: work})
	work(copies[0])
	for resolved.Load() != nextTask.Load() {
		runtime.Gosched()
	}
	found := best.Load() != math.MaxInt64
	w.aborted = !found && w.stop.Load()
	return found, it
}

// halted reports whether the search must stop: the caller gave up, or a
// task before this one holds a solution.
func (w *worker) halted() bool {
	return w.stop.Load() || (w.best != nil && w.best.Load() < w.task)
}

// crew is the goroutines that search a parallel iteration's tasks beside
// the caller. They live as long as the search and spin between its
// iterations: a goroutine started for each iteration took 0.12–0.15 ms on
// average to run on a 2-core VM, longer than most iterations.
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
