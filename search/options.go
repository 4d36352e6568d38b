package search

import (
	"cmp"
	"fmt"
	"math"
	"time"

	"fifteen/pdb"
	"fifteen/puzzle"
)

// Options tune a search. The zero value is the best measured search, the
// commands' default, on one thread: each large iteration cut into tasks
// at a frontier of DefaultFrontier, where the board's measured best cut
// puts it (DefaultCut: at a contour, the least estimate first, or at a
// fixed depth, ranked by their sizes in the iteration before). Issue 79
// made it so: it was plain IDA*, which a program had to know to ask
// otherwise. Plain IDA* is asked for by name: Frontier DepthFirst.
type Options struct {
	// Threads is the number of goroutines searching the puzzle, at most
	// MaxThreads; 0 or 1 searches sequentially.
	Threads int
	// PruneDepth is the length of the longest redundant move sequence the
	// search rejects: 0 means DefaultPruneDepth, PruneInverse only rejects
	// a move that undoes the last.
	PruneDepth int
	// Order, if set, is the order in which the blank's moves are tried at
	// every node, such as Korf's (1985): up, left, right, down. The zero
	// value goes up, left, right, down, but on boards of up to 16 cells
	// tries first, near the root, the moves that take their tile nearer
	// its home. Only the last iteration depends on the order, as it stops
	// at the first solution.
	Order [4]puzzle.Move
	// Weight, if not 0, makes the search weighted IDA*: f = g + Weight·h,
	// from 1.01 to MaxWeight in hundredths (ValidWeight). It finds
	// solutions faster, no longer than Weight times the optimum but not
	// optimal. 0 searches optimally.
	Weight float64
	// Progress, if not nil, is told how a long search goes: once it has
	// run for ProgressEvery (0 means DefaultProgressEvery), at the end of
	// each iteration and every ProgressEvery within one. It is called
	// from the search's goroutines, one call at a time, and should return
	// promptly: the search waits for it.
	Progress      func(Progress)
	ProgressEvery time.Duration
	// Checkpoint, if not nil, is given the search's state when an
	// iteration ends, every CheckpointEvery within one (0 means
	// DefaultCheckpointEvery), and when ctx ends the search, so that a
	// search of hours can be resumed (Resume). Like Progress, it is
	// called from the search's goroutines, one call at a time. With it,
	// every iteration large enough is cut into tasks, even on one thread.
	Checkpoint      func(*Checkpoint)
	CheckpointEvery time.Duration
	// Resume, if not nil, continues the search a checkpoint was made of:
	// of the same board, goal, heuristic, pruning, order, weight and
	// frontier (the threads may differ).
	Resume *Checkpoint
	// Frontier is the memory, in MiB, of the frontier at which the search
	// cuts each large iteration into tasks, and which it keeps to rank
	// the next iteration's: the subtrees that were largest first, as the
	// solution most often lies there (docs/design.md). 0 is the measured
	// default, DefaultFrontier. DepthFirst takes them depth-first, as
	// plain IDA* does (solve --frontier 0), and so do a search with a
	// fixed Order and a weighted one.
	Frontier int
	// Cut chooses where a ranked frontier (Frontier not DepthFirst) cuts
	// each round: at a contour, the least estimate first, or at a fixed
	// depth, ranked by the round before. The zero value takes the board's
	// measured best (DefaultCut), or, resuming, the checkpoint's.
	Cut Cut
}

// A Cut is where a search with a ranked frontier cuts each round
// (Options.Cut).
type Cut int8

const (
	// CutDefault is the board's measured best, DefaultCut.
	CutDefault Cut = iota
	// CutContour cuts where the iteration leaves the contour of a smaller
	// bound, and takes the nodes of least estimate first, the deep ones
	// near the goal: A*+IDA*'s order (Bu and Korf 2019) at IDA*'s cost a
	// node (docs/design.md, "The contour").
	CutContour
	// CutFixed cuts at a fixed depth, and takes the subtrees that were
	// largest in the round before first.
	CutFixed
)

// String names the cut: "default", "contour" or "fixed".
func (c Cut) String() string {
	switch c {
	case CutDefault:
		return "default"
	case CutContour:
		return "contour"
	case CutFixed:
		return "fixed"
	}
	return fmt.Sprintf("Cut(%d)", int8(c))
}

// DefaultCut returns the cut of a board of cells cells under CutDefault,
// the one place that chooses it, by measured time (docs/performance.md,
// "The cut"): the contour up to contourCells, where its order saves more
// nodes in the last iteration than its walks, entries and scattered
// tasks cost (3×4, 4×4, 4×5; as fast on 3×5 and 3×6); the fixed depth
// above, where the 5×5's iterations before the last hold most nodes and
// the contour's order, taking tasks far apart in the tree, costs more a
// node.
func DefaultCut(cells int) Cut {
	if cells <= contourCells {
		return CutContour
	}
	return CutFixed
}

// contourCells is the largest board, in cells, that DefaultCut cuts at a
// contour: the 4×5's. The boards between it and the 5×5 were not
// measured, and take the 5×5's cut.
const contourCells = 20

// cutFor returns the cut a search of a board of cells cells takes: the
// options', or the board's default; resuming, the checkpoint's, so that
// a checkpoint resumes under the default that wrote it.
func (o *Options) cutFor(cells int) Cut {
	switch {
	case o.Cut != CutDefault:
		return o.Cut
	case o.Resume != nil && o.Resume.Contour > 0:
		return CutContour
	case o.Resume != nil:
		return CutFixed
	}
	return DefaultCut(cells)
}

// DefaultFrontier is the frontier's memory, in MiB, of Options.Frontier
// 0 (its measurement: docs/experiments.md); MaxFrontier is its largest
// value, and DepthFirst the Frontier of plain IDA*, whose rounds take
// their tasks depth-first.
const (
	DefaultFrontier = 256
	MaxFrontier     = 1 << 16
	DepthFirst      = -1
)

// MaxThreads bounds Options.Threads, as it does a database build's
// (pdb.MaxThreads): each goroutine of a round searches with a copy of the
// worker, about ten kilobytes, so a mistyped count would exhaust memory.
const MaxThreads = pdb.MaxThreads

// Validate reports the first option out of its bounds. Solve calls it;
// a program that takes options from its user can call it as they are set.
func (o *Options) Validate() error {
	switch {
	case o.Threads < 0 || o.Threads > MaxThreads:
		return fmt.Errorf("%d threads: want 0 to %d", o.Threads, MaxThreads)
	case o.PruneDepth != 0 && (o.PruneDepth < PruneInverse || o.PruneDepth > MaxPruneDepth):
		return fmt.Errorf("pruning depth %d: want %d to %d", o.PruneDepth, PruneInverse, MaxPruneDepth)
	case o.Weight != 0 && !ValidWeight(o.Weight):
		return fmt.Errorf("weight %v: want 1.01 to %d, in hundredths (0 searches optimally)", o.Weight, MaxWeight)
	case o.ProgressEvery < 0:
		return fmt.Errorf("progress every %v: want above 0, or 0 for the default", o.ProgressEvery)
	case o.Frontier < DepthFirst || o.Frontier > MaxFrontier:
		return fmt.Errorf("a frontier of %d MiB: want 1 to %d, 0 for the default (%d), or DepthFirst", o.Frontier, MaxFrontier, DefaultFrontier)
	case o.Cut < CutDefault || o.Cut > CutFixed:
		return fmt.Errorf("cut %d: want CutDefault, CutContour or CutFixed", o.Cut)
	case o.CheckpointEvery < 0:
		return fmt.Errorf("checkpoint every %v: want above 0, or 0 for the default", o.CheckpointEvery)
	case o.Order != [4]puzzle.Move{}:
		return checkOrder(o.Order)
	}
	return nil
}

// ValidWeight reports whether w is a weight that the weighted search
// takes: 1.01 to MaxWeight in hundredths, as f counts it. A weight between
// hundredths would be rounded, and one that rounds to 1 searched
// optimally, labelled otherwise (issue 57).
func ValidWeight(w float64) bool {
	h := math.Round(w * 100)
	return w > 1 && w <= MaxWeight && math.Abs(w*100-h) < 1e-6 // NaN fails
}

// weights returns f's integer weights of g and h for a valid weight: (1, 1)
// searching optimally, else (100, the weight to hundredths).
func weights(weight float64) (gw, hw int) {
	if weight == 0 {
		return 1, 1
	}
	return 100, int(math.Round(weight * 100))
}

// frontierBytes returns the frontiers' memory in bytes, 0 if the rounds take
// their tasks depth-first: with Options.Frontier DepthFirst, and in the
// searches that ask for an order of their own, a fixed move order at
// every node or a weighted search's, which orders every node by its
// estimate.
func frontierBytes(opts *Options, fixed bool) int {
	if opts.Frontier == DepthFirst || fixed || opts.Weight != 0 {
		return 0
	}
	return cmp.Or(testBudget, cmp.Or(opts.Frontier, DefaultFrontier)<<20)
}

// ParseOrder parses a move order for Options.Order: the four moves once
// each, such as "ULRD".
func ParseOrder(s string) ([4]puzzle.Move, error) {
	moves, err := puzzle.ParseMoves(s)
	if err != nil || len(moves) != 4 || checkOrder([4]puzzle.Move(moves)) != nil {
		return [4]puzzle.Move{}, fmt.Errorf("move order %q: want the four moves once each, such as ULRD", s)
	}
	return [4]puzzle.Move(moves), nil
}

func checkOrder(order [4]puzzle.Move) error {
	seen := 0
	for _, m := range order {
		if m > puzzle.Down {
			return fmt.Errorf("bad move %d in order", m)
		}
		seen |= 1 << m
	}
	if seen != 15 {
		return fmt.Errorf("order %v does not name each move once", order)
	}
	return nil
}

// testBudget, if not 0, is every frontier's budget in bytes, for the
// tests that cut frontiers of a few nodes.
var testBudget = 0

// MaxCheckpointSize returns the most bytes a checkpoint of a search with
// opts takes as JSON (encoding/json), so that a program that keeps them
// can read back every one: 1 MiB, and four bytes for each byte of the
// rounds' frontiers (Options.Frontier; a round taken depth-first has
// 64 MiB). A round's frontier holds at most a task for every 21 bytes
// (frontier.add), and a checkpoint at most 80 bytes of each task: its
// size in the ranking, and its position, counts and next bound once done.
func MaxCheckpointSize(opts Options) int64 {
	room := frontierBytes(&opts, opts.Order != [4]puzzle.Move{})
	if room == 0 {
		room = depthFirstRoom
	}
	return 1<<20 + 4*int64(room)
}

// describe returns Checkpoint.Search for a search of start.
// A search cut at a contour says so after its frontier; one cut at fixed
// depths says nothing, as before there was a contour (checkpoint version
// 3), so that its checkpoints of then resume.
func describe(start fmt.Stringer, goal fmt.Stringer, h *Heuristic, opts *Options, fixed, atContour bool) string {
	order := "nearer first"
	if fixed {
		order = fmt.Sprint(opts.Order)
	}
	name := h.name
	if h.unreflected {
		name += " unreflected"
	}
	frontier := "depth-first"
	if b := frontierBytes(opts, fixed); b > 0 {
		frontier = fmt.Sprintf("%d MiB", b>>20)
		if b%(1<<20) != 0 {
			frontier = fmt.Sprintf("%d B", b) // a test's
		}
		if atContour {
			frontier += " at a contour"
		}
	}
	return fmt.Sprintf("%v, goal %v, %s, pruning %d, order %s, weight %v, frontier %s", start, goal, name, opts.PruneDepth, order, max(opts.Weight, 1), frontier)
}
