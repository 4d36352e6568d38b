package search

import (
	"errors"
	"fmt"
	"math"
	"slices"
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
	// Version is the checkpoint's format, CheckpointVersion: a resume
	// refuses another, as it would not rank the tasks as the search did.
	Version int `json:"version"`
	// Search describes the search: the board, goal, heuristic, pruning,
	// move order and weight, which a resumed search must share.
	Search     string      `json:"search"`
	Iterations []Iteration `json:"iterations"`
	Bound      int         `json:"bound"`               // of the iteration under way, as f counts it (Options.Weight)
	CutDepth   int         `json:"cut_depth,omitempty"` // the depth its tasks are cut at, 0 if it is not cut
	Tasks      []Task      `json:"tasks,omitempty"`     // its tasks searched to the end
	// Ranking is the frontier of the last iteration that was cut and
	// searched whole, which ranks the tasks of the one under way (nil if
	// none does).
	Ranking *Ranking      `json:"ranking,omitempty"`
	Elapsed time.Duration `json:"elapsed_ns"` // the search's time so far
}

// CheckpointVersion is the format of the checkpoints this package writes
// and resumes: 2 since the rounds rank their tasks (version 1, which had
// no field for it, nor for the version, had no ranking).
const CheckpointVersion = 2

// Ranking is an iteration's frontier, the nodes it was cut at, as far as
// the next iteration needs it to rank its tasks: the iteration's bound
// and cut depth, which give the nodes again, and the nodes generated below
// each, by task number.
type Ranking struct {
	Bound    int      `json:"bound"`
	CutDepth int      `json:"cut_depth"`
	Sizes    []uint64 `json:"sizes"`
}

// ranking returns f's Ranking, nil if f is.
func ranking(f *frontier) *Ranking {
	if f == nil {
		return nil
	}
	return &Ranking{Bound: f.bound, CutDepth: f.depth, Sizes: slices.Clone(f.sizes)}
}

// recut returns the frontier a Ranking describes, cut again from the
// worker's node.
func (w *worker) recut(r *Ranking) (*frontier, error) {
	if r.CutDepth < 1 || r.CutDepth*w.gw >= r.Bound || r.Bound > w.maxBound() {
		return nil, fmt.Errorf("%w: a ranking cut at depth %d of bound %d", ErrOtherSearch, r.CutDepth, r.Bound)
	}
	f := new(frontier)
	w.fit(r.Bound)
	found := w.cutAt(f, r.Bound, r.CutDepth, len(r.Sizes)+1)
	w.expanded, w.generated = 0, 0
	if found || w.full || f.len() != len(r.Sizes) {
		w.full, w.aborted = false, false
		return nil, fmt.Errorf("%w: its ranking lists %d tasks at depth %d of bound %d, not the search's", ErrOtherSearch, len(r.Sizes), r.CutDepth, r.Bound)
	}
	f.sizes = slices.Clone(r.Sizes)
	return f, nil
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
	frontier := "depth-first"
	if b := budget(opts, fixed); b > 0 {
		frontier = fmt.Sprintf("%d MiB", b>>20)
		if b%(1<<20) != 0 {
			frontier = fmt.Sprintf("%d B", b) // a test's
		}
	}
	return fmt.Sprintf("%v, goal %v, %s, pruning %d, order %s, weight %v, frontier %s", start, goal, name, opts.PruneDepth, order, max(opts.Weight, 1), frontier)
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
	c := &checkpointer{save: save, every: every, t0: t0, cp: Checkpoint{Version: CheckpointVersion, Search: search}}
	c.due.set(math.MaxInt64) // until an iteration begins
	return c
}

// resume starts from a checkpoint, which must be of the same search.
func (c *checkpointer) resume(from *Checkpoint) error {
	if from.Version != CheckpointVersion {
		return fmt.Errorf("%w: its format is version %d, and this search resumes version %d only: start the search again", ErrOtherSearch, max(from.Version, 1), CheckpointVersion)
	}
	if from.Search != c.cp.Search {
		return fmt.Errorf("%w (%s), not %s", ErrOtherSearch, from.Search, c.cp.Search)
	}
	c.cp.Iterations = append([]Iteration(nil), from.Iterations...)
	c.cp.Bound, c.cp.CutDepth, c.cp.Ranking = from.Bound, from.CutDepth, from.Ranking
	c.cp.Tasks = append([]Task(nil), from.Tasks...)
	c.prior = from.Elapsed
	c.resumed = map[int64]Task{}
	for _, t := range from.Tasks {
		c.resumed[t.Number] = t
	}
	return nil
}

// begin starts the iteration of the bound, with the tasks cut at
// cutDepth (0 if none) and ranked by the frontier prev (nil if none),
// and the ones before it done.
func (c *checkpointer) begin(bound, cutDepth int, done []Iteration, prev *frontier) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if bound != c.cp.Bound || cutDepth != c.cp.CutDepth {
		c.resumed, c.cp.Tasks = nil, nil
	}
	if c.cp.Ranking == nil || prev == nil || c.cp.Ranking.Bound != prev.bound {
		c.cp.Ranking = ranking(prev)
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
// and the next one's bound and cut depth, and the frontier that ranks its
// tasks (nil if none).
func (c *checkpointer) end(done []Iteration, next, cutDepth int, front *frontier) {
	c.mu.Lock()
	c.cp.Iterations, c.cp.Bound, c.cp.CutDepth, c.cp.Tasks, c.resumed = done, next, cutDepth, nil, nil
	c.cp.Ranking = ranking(front)
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
