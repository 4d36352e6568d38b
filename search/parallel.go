package search

import (
	"math"
	"sync"
	"sync/atomic"

	"fifteen/bitboard"
)

// task is a node at the split depth whose subtree one goroutine searches.
type task struct {
	cells     uint64
	blank     int
	st        state
	fs        int32
	g         int
	sum, rsum int
	path      [MaxLength]bitboard.Move
}

// tasksPerThread is how many subtrees an iteration is cut into per
// goroutine: enough that the last ones to finish are small.
const tasksPerThread = 64

// parallelIteration runs one iteration with threads goroutines. It cuts the
// tree at the shallowest depth that yields tasksPerThread tasks a goroutine
// and hands them out in depth-first order. Every solution at this bound is
// optimal; the one in the first task that has any wins, so the answer is
// the one the sequential search finds, and goroutines searching later tasks
// stop as soon as it is known.
func (w *worker) parallelIteration(bound, threads int) (bool, Iteration) {
	it := Iteration{Bound: bound}
	w.bound, w.next = bound, math.MaxInt
	for split := 1; ; split++ {
		w.split, w.tasks = split, w.tasks[:0]
		w.expanded, w.generated = 0, 0
		found := w.dfs(0, w.st.sum, w.st.rsum, 0)
		it.Expanded += w.expanded
		it.Generated += w.generated
		if found || w.aborted || len(w.tasks) == 0 {
			w.split = -1
			return found, it
		}
		if len(w.tasks) >= tasksPerThread*threads || split >= bound {
			break
		}
	}
	w.split = -1
	tasks := w.tasks

	var (
		nextTask atomic.Int64
		best     atomic.Int64 // the first task known to hold a solution
		wg       sync.WaitGroup
		mu       sync.Mutex
	)
	best.Store(math.MaxInt64)
	for range threads {
		c := *w
		c.best, c.tasks = &best, nil
		wg.Go(func() {
			for {
				i := nextTask.Add(1) - 1
				if i >= int64(len(tasks)) || i > best.Load() || c.stop.Load() {
					break
				}
				t := &tasks[i]
				c.cells, c.blank, c.st, c.path, c.task = t.cells, t.blank, t.st, t.path, i
				c.expanded, c.generated = 0, 0
				found := c.dfs(t.g, t.sum, t.rsum, t.fs)
				mu.Lock()
				it.Expanded += c.expanded
				it.Generated += c.generated
				w.next = min(w.next, c.next)
				if found && i < best.Load() {
					best.Store(i)
					w.path = c.path
				}
				mu.Unlock()
				c.aborted = false
			}
		})
	}
	wg.Wait()
	found := best.Load() != math.MaxInt64
	w.aborted = !found && w.stop.Load()
	return found, it
}

// halted reports whether the search must stop: the caller gave up, or a
// task before this one holds a solution.
func (w *worker) halted() bool {
	return w.stop.Load() || (w.best != nil && w.best.Load() < w.task)
}
