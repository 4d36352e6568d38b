package search

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"fifteen/puzzle"
)

// Checkpoint is the state of a search under way, from which
// Options.Resume continues it: the iterations done and, of the one under
// way, the tasks (the subtrees its round is cut into) searched to the
// end, with their counts. A resumed search searches the rest, and so finds
// the same solution and, with one thread, the same counts as a search
// never stopped; with more, the iterations before the last count the
// same.
type Checkpoint struct {
	// Version is the checkpoint's format, CheckpointVersion: a resume
	// refuses another.
	Version int `json:"version"`
	// Search describes the search: the board, goal, heuristic, pruning,
	// move order, weight and frontier, which a resumed search must share.
	Search     string      `json:"search"`
	Iterations []Iteration `json:"iterations"`
	Bound      int         `json:"bound"`               // of the iteration under way, as f counts it (Options.Weight)
	CutDepth   int         `json:"cut_depth,omitempty"` // the depth its round is cut at, or planned to be; 0 if none
	// Contour, in a search cut at a contour (Options.Cut), is how far
	// below the bound, in moves of 2, the contour of its round under way
	// lies, or of its next round: that round's tasks, listed again, are
	// the same, in the same order. 0 in a search cut at fixed depths.
	Contour int   `json:"contour,omitempty"`
	Done    *Done `json:"done,omitempty"` // its tasks searched to the end
	// Previous is the round of the last iteration, which the search
	// planned the one under way from, and whose frontier ranks its tasks;
	// nil if that iteration was not cut.
	Previous *Round        `json:"previous_round,omitempty"`
	Elapsed  time.Duration `json:"elapsed_ns"` // the search's time so far
}

// CheckpointVersion is the format of the checkpoints this package writes:
// 4 since a search cut at a contour takes checkpoints (Contour). A resume
// reads version 3 too, whose searches were all cut at fixed depths; 3
// keeps the tasks done as columns (Done), whose size the frontier's
// budget bounds (MaxCheckpointSize), and 2 listed them one by one, and
// could outgrow what a resume reads.
const CheckpointVersion = 4

// oldestCheckpoint is the oldest format that a resume reads.
const oldestCheckpoint = 3

// TasksDone returns the number of tasks the checkpoint holds as searched
// in the iteration under way.
func (cp *Checkpoint) TasksDone() int {
	if cp.Done == nil {
		return 0
	}
	return len(cp.Done.Generated)
}

// Done is what the tasks of an iteration searched to the end found, by
// their positions in the order their round takes them in (which a
// resumed search computes again). Tasks are taken in that order, so the
// positions come as runs, nearly all of them one run from the first:
// Runs holds the first position of each run and the one after its last.
// The columns hold each task's counts, position by position, and Next
// its smallest f above the bound, less the bound: 0 if it met none.
type Done struct {
	Runs      []int64  `json:"runs"`
	Expanded  []uint64 `json:"expanded"`
	Generated []uint64 `json:"generated"`
	Next      []int    `json:"next"`
}

// Round is an iteration's round as far as the next iteration plans its
// own from it (nextCutDepth): the iteration's bound, the depth it was cut
// at (which gives its tasks again) and the number of its tasks, and the
// goroutines that searched them; with a ranked frontier, the nodes
// generated below each task, by task number, which rank the next round's.
type Round struct {
	Bound    int      `json:"bound"`
	CutDepth int      `json:"cut_depth"`
	Tasks    int      `json:"tasks"`
	Threads  int      `json:"threads"`
	Sizes    []uint64 `json:"sizes,omitempty"`
}

// record returns the Round of prev, nil if prev is, with the sizes of
// its frontier front, if it has one.
func record(prev *Round, front *frontier) *Round {
	if prev == nil {
		return nil
	}
	r := *prev
	if front != nil {
		r.Sizes = slices.Clone(front.sizes)
	}
	return &r
}

// Task is a subtree of an iteration searched to the end, numbered in the
// iteration's depth-first order, without a solution: its counts, and the
// smallest f above the bound it met (math.MaxInt if none).
type Task struct {
	Number    int64  `json:"task"`
	Expanded  uint64 `json:"expanded"`
	Generated uint64 `json:"generated"`
	Next      int    `json:"next"`
	// Path is the subtree's root, as the blank's moves from the start: in
	// a split search's parts only (Part), for the next plan.
	Path string `json:"path,omitempty"`
}

// ErrOtherSearch is the error of a resume from a checkpoint of another
// search: another board, goal, heuristic, pruning, order, weight or
// frontier, another version, another task's share of a split search, or
// a ranking or tasks of another round.
var ErrOtherSearch = errors.New("the checkpoint is of another search")

// ErrCheckpoint is the error of a resume from a checkpoint that no search
// writes: its tasks done malformed, or a negative time.
var ErrCheckpoint = errors.New("a malformed checkpoint")

// ResumeError is a search's error when it cannot resume from
// Options.Resume: Err says why (ErrOtherSearch, ErrIterations,
// ErrCheckpoint). The search has not begun, nor saved a checkpoint.
type ResumeError struct{ Err error }

func (e *ResumeError) Error() string { return e.Err.Error() }
func (e *ResumeError) Unwrap() error { return e.Err }

// DefaultCheckpointEvery is the period of a search's checkpoints within
// an iteration unless Options.CheckpointEvery says otherwise.
const DefaultCheckpointEvery = time.Minute

// doneTask is a task searched to the end, by its position in its round's
// order.
type doneTask struct {
	pos                 int64
	expanded, generated uint64
	next                int
}

// checkpointer makes the search's checkpoints: when an iteration ends,
// when a worker checking in (as for reports) finds one due within an
// iteration, and when the search stops. A nil *checkpointer's begin,
// end, saveNow and resumedTime do nothing, or return 0.
type checkpointer struct {
	save  func(*Checkpoint)
	every time.Duration
	t0    time.Time
	prior time.Duration // the resumed search's time; set before the search, then read-only
	due   deadline      // of the next checkpoint within an iteration

	mu sync.Mutex // serializes the saves, and guards the fields below
	cp Checkpoint // the state, but for Done and Elapsed
	// done are the tasks of the iteration under way searched to the end,
	// in the order they ended; resumed, the positions of those searched
	// before the resume, which its round skips.
	done    []doneTask
	resumed map[int64]int // index in done
}

func newCheckpointer(save func(*Checkpoint), every time.Duration, t0 time.Time, search string) *checkpointer {
	c := &checkpointer{save: save, every: every, t0: t0, cp: Checkpoint{Version: CheckpointVersion, Search: search}}
	c.due.set(math.MaxInt64) // until an iteration begins
	return c
}

// restore starts from a checkpoint, if it is of the same search and well
// formed; the search checks the rest (resume.go).
func (c *checkpointer) restore(from *Checkpoint) error {
	switch {
	case from.Version < oldestCheckpoint || from.Version > CheckpointVersion:
		return fmt.Errorf("%w: its format is version %d, and this search resumes versions %d to %d: start the search again", ErrOtherSearch, max(from.Version, 1), oldestCheckpoint, CheckpointVersion)
	case from.Version < CheckpointVersion && from.Contour != 0:
		return fmt.Errorf("%w: a contour in a checkpoint of version %d, which knew none", ErrCheckpoint, from.Version)
	case from.Search != c.cp.Search:
		return fmt.Errorf("%w (%s), not %s", ErrOtherSearch, puzzle.Escape(from.Search), c.cp.Search) // the file's text, as it may have been edited
	case from.Elapsed < 0:
		return fmt.Errorf("%w: a time of %v", ErrCheckpoint, from.Elapsed)
	}
	done, err := from.Done.tasks(from.Bound)
	if err != nil {
		return err
	}
	if !countable(from.Iterations, done) {
		return fmt.Errorf("%w: its counts sum to %d nodes or more, which no search reaches", ErrCheckpoint, uint64(maxCount))
	}
	c.cp.Iterations = slices.Clone(from.Iterations)
	c.cp.Bound, c.cp.CutDepth, c.cp.Contour, c.cp.Previous = from.Bound, from.CutDepth, from.Contour, from.Previous
	c.prior = from.Elapsed
	c.done, c.resumed = done, make(map[int64]int, len(done))
	for i, t := range done {
		c.resumed[t.pos] = i
	}
	return nil
}

// maxCount bounds the nodes that a resumed search's counts may sum to,
// expanded and generated alike: far above what any search generates (146
// years at a billion nodes a second), and far enough below 2^64 that the
// sums that follow do not wrap around (issue 76: an edited checkpoint's
// did, silently).
const maxCount = 1 << 62

// countable reports whether the counts of the iterations and tasks done
// sum to less than maxCount.
func countable(its []Iteration, done []doneTask) bool {
	var expanded, generated uint64
	add := func(e, g uint64) bool {
		expanded, generated = expanded+min(e, maxCount), generated+min(g, maxCount)
		return expanded < maxCount && generated < maxCount
	}
	for _, it := range its {
		if !add(it.Expanded, it.Generated) {
			return false
		}
	}
	for _, t := range done {
		if !add(t.expanded, t.generated) {
			return false
		}
	}
	return true
}

// tasks returns the tasks d holds, nil if d is, in order of position,
// once it has checked that its columns agree, its runs rise and its next
// bounds lie above the bound.
func (d *Done) tasks(bound int) ([]doneTask, error) {
	if d == nil {
		return nil, nil
	}
	n := len(d.Generated)
	if len(d.Runs)%2 != 0 || len(d.Expanded) != n || len(d.Next) != n {
		return nil, fmt.Errorf("%w: its tasks done have %d run bounds, and %d, %d and %d counts", ErrCheckpoint, len(d.Runs), len(d.Expanded), n, len(d.Next))
	}
	done := make([]doneTask, 0, n)
	last := int64(-1)
	for r := 0; r < len(d.Runs); r += 2 {
		first, end := d.Runs[r], d.Runs[r+1]
		if first <= last || end <= first || end-first > int64(n-len(done)) {
			return nil, fmt.Errorf("%w: its tasks done run from %d to %d, after %d, with %d counts left", ErrCheckpoint, first, end, last, n-len(done))
		}
		for pos := first; pos < end; pos++ {
			i := len(done)
			next := math.MaxInt
			switch {
			case d.Next[i] < 0 || d.Next[i] > maxBound:
				return nil, fmt.Errorf("%w: the next bound of the task at position %d lies %d above its bound, which it must exceed", ErrIterations, pos, d.Next[i])
			case d.Next[i] > 0:
				next = bound + d.Next[i]
			}
			done = append(done, doneTask{pos, d.Expanded[i], d.Generated[i], next})
		}
		last = end
	}
	if len(done) != n {
		return nil, fmt.Errorf("%w: its tasks done have %d counts for %d positions", ErrCheckpoint, n, len(done))
	}
	return done, nil
}

// A cutMark says where a round is cut, as a checkpoint records it: at a
// depth, or at a contour so many moves of 2 below its bound; zero if the
// iteration is not cut.
type cutMark struct{ depth, below int }

// begin starts the iteration of the bound, with its tasks cut as at says
// (zero if not cut), planned from the round prev and ranked by its
// frontier front (nil if none), and the ones before it done. The tasks
// done of a resumed iteration are kept.
func (c *checkpointer) begin(bound int, at cutMark, done []Iteration, prev *Round, front *frontier) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if bound != c.cp.Bound || at != (cutMark{c.cp.CutDepth, c.cp.Contour}) {
		c.done, c.resumed = nil, nil
	}
	if c.cp.Previous == nil || prev == nil || c.cp.Previous.Bound != prev.Bound {
		c.cp.Previous = record(prev, front)
	}
	c.cp.Iterations, c.cp.Bound, c.cp.CutDepth, c.cp.Contour = done, bound, at.depth, at.below
	c.due.set(time.Since(c.t0) + c.every)
}

// resumedTask returns the task at position k if the search resumed had
// searched it.
func (c *checkpointer) resumedTask(k int64) (doneTask, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i, ok := c.resumed[k]
	if !ok {
		return doneTask{}, false
	}
	return c.done[i], true
}

// finished records a task searched to the end.
func (c *checkpointer) finished(t doneTask) {
	c.mu.Lock()
	c.done = append(c.done, t)
	c.mu.Unlock()
}

// finishedTasks returns the tasks done so far, in order of position.
func (c *checkpointer) finishedTasks() []doneTask {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sorted()
}

// sorted sorts the tasks done by position, and returns them; c.mu is
// held.
func (c *checkpointer) sorted() []doneTask {
	slices.SortFunc(c.done, func(a, b doneTask) int { return cmp.Compare(a.pos, b.pos) })
	for i, t := range c.done {
		if c.resumed != nil {
			c.resumed[t.pos] = i
		}
	}
	return c.done
}

// checkIn saves a checkpoint if one is due, and no other worker took it.
func (c *checkpointer) checkIn() {
	if !c.due.take(time.Since(c.t0)) {
		return
	}
	c.saveNow()
	c.due.set(time.Since(c.t0) + c.every)
}

// end saves the checkpoint of the search between iterations: those done,
// and the next one's bound, the cut planned for it (at), the round it
// was planned from and the frontier that ranks its tasks (nil if none).
func (c *checkpointer) end(done []Iteration, next int, at cutMark, prev *Round, front *frontier) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.cp.Iterations, c.cp.Bound, c.cp.CutDepth, c.cp.Contour = done, next, at.depth, at.below
	c.done, c.resumed = nil, nil
	c.cp.Previous = record(prev, front)
	c.mu.Unlock()
	c.saveNow()
}

// saveNow saves a checkpoint.
func (c *checkpointer) saveNow() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	cp := c.cp
	cp.Iterations = slices.Clone(cp.Iterations)
	cp.Done = pack(c.sorted(), cp.Bound)
	cp.Elapsed = c.prior + time.Since(c.t0)
	c.save(&cp)
}

// resumedTime returns the time of the search resumed, 0 if none.
func (c *checkpointer) resumedTime() time.Duration {
	if c == nil {
		return 0
	}
	return c.prior
}

// pack returns the Done of tasks in order of position, nil if there are
// none.
func pack(tasks []doneTask, bound int) *Done {
	if len(tasks) == 0 {
		return nil
	}
	n := len(tasks)
	d := &Done{Expanded: make([]uint64, n), Generated: make([]uint64, n), Next: make([]int, n)}
	for i, t := range tasks {
		if i == 0 || t.pos != tasks[i-1].pos+1 {
			if i > 0 {
				d.Runs = append(d.Runs, tasks[i-1].pos+1)
			}
			d.Runs = append(d.Runs, t.pos)
		}
		d.Expanded[i], d.Generated[i] = t.expanded, t.generated
		if t.next != math.MaxInt {
			d.Next[i] = t.next - bound
		}
	}
	d.Runs = append(d.Runs, tasks[n-1].pos+1)
	return d
}

// ErrIterations is the error of iterations that no search of the start
// makes: a result or checkpoint that was edited, or is of another start.
var ErrIterations = errors.New("iterations that no search of this start makes")
