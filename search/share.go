package search

import (
	"math"
	"slices"
	"sync/atomic"
	"time"

	"fifteen/puzzle"
)

// sharer is a split search's task's share of its plan's iteration: the
// producer of its one round, which cuts the iteration where the plan
// says and takes the task's run of subtrees, in depth-first order.
type sharer struct {
	// Read-only once the search begins.
	plan   Plan
	task   int
	starts [][]puzzle.Move
	known  func() int64
	t0     time.Time
	cutter *planner // cuts at the plan's depth (planner.planned)

	// The round's, set as it begins: the first task known to hold a
	// solution (shared.best), and the frontier cut so far; nil before
	// (a resume's check cuts the iteration first).
	best  *atomic.Int64
	tasks *frontier

	// checkIn's, one call at a time: when known is next due, and the
	// first subtree it named that the task gave up the subtrees after
	// (math.MaxInt64 if none).
	due    deadline
	heeded atomic.Int64

	cut Iteration // the cut's counts, once cut
}

// produce cuts the iteration at the plan's depth, and takes the task's
// run of its subtrees, depth-first.
func (s *sharer) produce(w *worker, f *frontier, bound int) ([]int32, int, int, bool) {
	s.best, s.tasks = &w.shared.best, f
	order, _, _, found := s.cutter.produce(w, f, bound)
	s.cut = Iteration{Expanded: w.expanded, Generated: w.generated}
	lo, hi := s.span(f)
	return order, lo, hi, found
}

// learn does nothing: a share is one round.
func (s *sharer) learn(*frontier, int, uint64, bool) {}

// span returns the numbers of the subtrees in the task's run, lo to hi
// (excluded), of the frontier f: from the one its start names to the
// next task's.
func (s *sharer) span(f *frontier) (lo, hi int) {
	owner := 0
	lo, hi = -1, f.count()
	for i := range f.count() {
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
	if j := s.known(); j < int64(s.tasks.count()) {
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

// part returns the task's part of the iteration from the round's outcome
// and its tasks searched to the end, in order; the moves of a solution
// are the caller's to add.
func (s *sharer) part(o outcome, done []doneTask) Part {
	part := Part{Plan: s.plan, Iteration: o.it, Cut: s.cut, Subtrees: s.tasks.count(), Found: -1, Next: o.next}
	if j := s.heeded.Load(); j != math.MaxInt64 {
		part.Heeded = &j
	}
	// A share takes its subtrees depth-first: a task's position is its
	// number.
	for _, t := range done {
		part.Tasks = append(part.Tasks, Task{Number: t.pos, Expanded: t.expanded, Generated: t.generated, Next: t.next, Path: puzzle.FormatMoves(s.tasks.path(int(t.pos)))})
	}
	if o.found {
		part.Found = o.task
	}
	return part
}
