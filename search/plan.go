package search

// The split search's plans and parts (split.go).

import (
	"errors"
	"fmt"
	"hash/fnv"
	"time"

	"fifteen/puzzle"
)

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
