package search

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"
)

// Checkpoint is the state of a search under way, from which
// Options.Resume continues it: the iterations done and, of the one under
// way, the tasks (subtrees at the depth the parallel search cuts it at,
// numbered in depth-first order) searched to the end, with their counts.
// A resumed search searches the rest, and so finds the same solution and,
// with one thread, the same counts as a search never stopped; with more,
// the iterations before the last count the same.
type Checkpoint struct {
	// Search describes the search: the board, goal, heuristic, pruning,
	// move order and weight, which a resumed search must share.
	Search     string        `json:"search"`
	Iterations []Iteration   `json:"iterations"`
	Bound      int           `json:"bound"`               // of the iteration under way, as f counts it (Options.Weight)
	CutDepth   int           `json:"cut_depth,omitempty"` // the depth its tasks are cut at, 0 if it is not cut
	Tasks      []Task        `json:"tasks,omitempty"`     // its tasks searched to the end
	Elapsed    time.Duration `json:"elapsed_ns"`          // the search's time so far
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
// search: another board, goal, heuristic, pruning, order or weight, or
// another task's share of a split search.
var ErrOtherSearch = errors.New("search: the checkpoint is of another search")

// DefaultCheckpointEvery is the period of a search's checkpoints within
// an iteration unless Options.CheckpointEvery says otherwise.
const DefaultCheckpointEvery = time.Minute

// describe returns Checkpoint.Search for a search of start.
func describe(start fmt.Stringer, goal fmt.Stringer, h *Heuristic, opts *Options, fixed bool) string {
	order := "nearer first"
	if fixed {
		order = fmt.Sprint(opts.Order)
	}
	name := h.name
	if h.unreflected {
		name += " unreflected"
	}
	return fmt.Sprintf("%v, goal %v, %s, pruning %d, order %s, weight %v", start, goal, name, opts.PruneDepth, order, max(opts.Weight, 1))
}

// checkpointer makes the search's checkpoints: when an iteration ends,
// when a worker checking in (as for reports) finds one due within an
// iteration, and when the search stops.
type checkpointer struct {
	save  func(*Checkpoint)
	every time.Duration
	t0    time.Time
	due   deadline   // of the next checkpoint within an iteration
	mu    sync.Mutex // serializes the saves, and guards the fields below
	cp    Checkpoint // the state, but for Elapsed
	prior time.Duration
	// resumed are the tasks of the first iteration searched before the
	// resume, by number; the iteration skips them.
	resumed map[int64]Task
}

func newCheckpointer(save func(*Checkpoint), every time.Duration, t0 time.Time, search string) *checkpointer {
	c := &checkpointer{save: save, every: every, t0: t0, cp: Checkpoint{Search: search}}
	c.due.set(math.MaxInt64) // until an iteration begins
	return c
}

// resume starts from a checkpoint, which must be of the same search.
func (c *checkpointer) resume(from *Checkpoint) error {
	if from.Search != c.cp.Search {
		return fmt.Errorf("%w (%s), not %s", ErrOtherSearch, from.Search, c.cp.Search)
	}
	c.cp.Iterations = append([]Iteration(nil), from.Iterations...)
	c.cp.Bound, c.cp.CutDepth = from.Bound, from.CutDepth
	c.cp.Tasks = append([]Task(nil), from.Tasks...)
	c.prior = from.Elapsed
	c.resumed = map[int64]Task{}
	for _, t := range from.Tasks {
		c.resumed[t.Number] = t
	}
	return nil
}

// begin starts the iteration of the bound, with the tasks cut at
// cutDepth (0 if none), and the ones before it done.
func (c *checkpointer) begin(bound, cutDepth int, done []Iteration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if bound != c.cp.Bound || cutDepth != c.cp.CutDepth {
		c.resumed, c.cp.Tasks = nil, nil
	}
	c.cp.Iterations, c.cp.Bound, c.cp.CutDepth = done, bound, cutDepth
	c.due.set(time.Since(c.t0) + c.every)
}

// resumedTask returns task i if the search resumed had searched it.
func (c *checkpointer) resumedTask(i int64) (Task, bool) {
	if c == nil {
		return Task{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.resumed[i]
	return t, ok
}

// done records a task searched to the end.
func (c *checkpointer) done(t Task) {
	c.mu.Lock()
	c.cp.Tasks = append(c.cp.Tasks, t)
	c.mu.Unlock()
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
// and the next one's bound and cut depth.
func (c *checkpointer) end(done []Iteration, next, cutDepth int) {
	c.mu.Lock()
	c.cp.Iterations, c.cp.Bound, c.cp.CutDepth, c.cp.Tasks, c.resumed = done, next, cutDepth, nil, nil
	c.mu.Unlock()
	c.saveNow()
}

func (c *checkpointer) saveNow() {
	c.mu.Lock()
	defer c.mu.Unlock()
	cp := c.cp
	cp.Iterations = append([]Iteration(nil), cp.Iterations...)
	cp.Tasks = append([]Task(nil), cp.Tasks...)
	cp.Elapsed = c.prior + time.Since(c.t0)
	c.save(&cp)
}
