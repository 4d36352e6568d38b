// Package search finds optimal solutions of sliding-tile puzzles with
// iterative-deepening A* (Korf, 1985) over packed boards, guided by an
// additive heuristic (Manhattan distance or pattern databases) and pruned
// by a finite-state machine of redundant move sequences. One puzzle can be
// searched by several goroutines at once, or split among the independent
// tasks of a cluster's job (Split, SolveShare, Join, NextPlan: the split
// protocol is defined here alone).
//
// With package pdb, search is fifteen's research API: heuristics, node
// counts, iterations, checkpoints and the split protocol, for programs
// that study or extend the search. A program that only solves puzzles
// uses package solver, whose options and results embed this package's.
package search

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"fifteen/pdb"
	"fifteen/puzzle"
)

// MaxLength bounds the length of the optimal solutions the search looks
// for. A weighted search's solution may be longer: up to W times the
// optimum.
const MaxLength = 255

// ErrNoSolution is the error of a search that found no solution within
// MaxLength moves: the heuristic or the pruning is wrong, as every
// solvable board of up to puzzle.MaxBoardCells cells has one.
var ErrNoSolution = fmt.Errorf("no solution within %d moves", MaxLength)

// Options tune a search. The zero value is the default.
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
	// solution most often lies there (docs/design.md). 0 means
	// DefaultFrontier; NoFrontier takes them depth-first, as plain IDA*
	// does, and so do a search with a fixed Order and a weighted one.
	Frontier int
}

// DefaultFrontier is Options.Frontier's default, in MiB (its measurement:
// docs/experiments.md), and MaxFrontier its largest value.
const (
	DefaultFrontier = 256
	MaxFrontier     = 1 << 16
	NoFrontier      = -1
)

// MaxWeight bounds Options.Weight.
const MaxWeight = 100

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
	case o.Frontier < NoFrontier || o.Frontier > MaxFrontier:
		return fmt.Errorf("a frontier of %d MiB: want 1 to %d, 0 for the default or %d for none", o.Frontier, MaxFrontier, NoFrontier)
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

// Iteration holds the counts of one IDA* iteration.
type Iteration struct {
	Bound     int    `json:"bound"`
	Expanded  uint64 `json:"expanded"`
	Generated uint64 `json:"generated"`
}

// Result is a search's outcome. Nodes are counted as Korf (1985) did: a
// node is generated when a move produces it (and the root once, in the
// first iteration), and expanded when its moves are tried.
type Result struct {
	Moves      []puzzle.Move // an optimal solution, if Solved
	Solved     bool
	H0         int
	Iterations []Iteration
	Expanded   uint64
	Generated  uint64
	Elapsed    time.Duration
}

// Length returns the solution's length.
func (r *Result) Length() int { return len(r.Moves) }

// NodesPerSecond returns generated nodes per second.
func (r *Result) NodesPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Generated) / r.Elapsed.Seconds()
}

// Solve finds an optimal solution of start under the goal convention goal.
// A board of the other convention than h's is rotated (puzzle.Board.Rotate)
// and its solution rotated back. When ctx ends first, Solve returns the
// partial result (Solved false, the counts so far) and ctx's error.
func Solve(ctx context.Context, start puzzle.Board, goal puzzle.Goal, h *Heuristic, opts Options) (Result, error) {
	s, err := open(ctx, start, goal, h, &opts, nil)
	if err != nil {
		return Result{}, err
	}
	defer s.close()
	res := run(s.w, opts.Threads, 0)
	s.timed(&res)
	if !res.Solved && ctx.Err() == nil {
		return res, ErrNoSolution
	}
	return finish(ctx, res, s.rotated)
}

// session is a search's worker with what surrounds it.
type session struct {
	w       *worker
	rotated bool // whether the board was turned to h's goal (prepare)
	t0      time.Time
	close   func() // stops the watch on ctx
}

// open checks the options and the board, and returns the search's
// worker, which stops when ctx ends: a split search's task's, with its
// share, if sh is not nil (the task and its plan are then part of what
// its checkpoints describe). A resume is checked before it returns
// (worker.resume).
func open(ctx context.Context, start puzzle.Board, goal puzzle.Goal, h *Heuristic, opts *Options, sh *sharer) (*session, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	start, rotated, err := prepare(start, goal, h)
	if err != nil {
		return nil, err
	}
	if opts.PruneDepth == 0 {
		opts.PruneDepth = DefaultPruneDepth
	}
	prune, err := prunerFor(opts.PruneDepth)
	if err != nil {
		return nil, err
	}
	fixed := opts.Order != [4]puzzle.Move{}
	if !fixed {
		opts.Order = puzzle.Moves
	}

	t0 := time.Now()
	stop := new(atomic.Bool)
	halt := context.AfterFunc(ctx, func() { stop.Store(true) })
	w := newWorker(h, prune, opts.Order, fixed, start, stop)
	w.gw, w.hw = weights(opts.Weight)
	w.budget = budget(opts, fixed)
	if w.gw > 1 && !fixed {
		w.orderDepth, w.byEstimate = math.MaxInt, new(state)
	}
	if opts.Progress != nil {
		w.reports = newReporter(opts.Progress, cmp.Or(opts.ProgressEvery, DefaultProgressEvery), t0)
	}
	search := describe(start, goal, h, opts, fixed)
	if sh != nil {
		if sh.plan.CutDepth*w.gw >= sh.plan.Bound || sh.plan.Bound > w.maxBound() {
			halt()
			return nil, fmt.Errorf("%w: cut at depth %d of an iteration of bound %d", ErrPlan, sh.plan.CutDepth, sh.plan.Bound/w.gw)
		}
		w.share, w.cutDepth = sh, sh.plan.CutDepth
		search += sh.plan.describe(sh.task)
	}
	if opts.Checkpoint != nil || opts.Resume != nil || sh != nil {
		save := opts.Checkpoint
		if save == nil {
			save = func(*Checkpoint) {}
		}
		w.saves = newCheckpointer(save, cmp.Or(opts.CheckpointEvery, DefaultCheckpointEvery), t0, search)
	}
	if opts.Resume != nil {
		if err := w.resume(ctx, opts.Resume); err != nil {
			halt()
			return nil, err
		}
	}
	return &session{w: w, rotated: rotated, t0: t0, close: func() { halt() }}, nil
}

// budget returns the frontiers' memory in bytes, 0 if the rounds take
// their tasks depth-first: with Options.Frontier NoFrontier, and in the
// searches that ask for an order of their own, a fixed move order at
// every node or a weighted search's, which orders every node by its
// estimate.
func budget(opts *Options, fixed bool) int {
	if opts.Frontier == NoFrontier || fixed || opts.Weight != 0 {
		return 0
	}
	return cmp.Or(testBudget, cmp.Or(opts.Frontier, DefaultFrontier)<<20)
}

// timed sets the result's time: the session's, and the resumed search's
// before it.
func (s *session) timed(res *Result) {
	res.Elapsed = time.Since(s.t0)
	if s.w.saves != nil {
		res.Elapsed += s.w.saves.prior
	}
}

// prepare checks that start fits h and can be solved, and turns it to h's
// goal convention if need be (puzzle.Board.Rotate).
func prepare(start puzzle.Board, goal puzzle.Goal, h *Heuristic) (puzzle.Board, bool, error) {
	if start.Size() != h.size {
		return start, false, fmt.Errorf("a %v board for a %v heuristic", start.Size(), h.size)
	}
	if !start.Solvable(goal) {
		return start, false, start.Puzzle().Check(goal) // puzzle.ErrUnsolvable, saying if the other goal is in reach
	}
	if goal != h.goal {
		return start.Rotate(), true, nil
	}
	return start, false, nil
}

// finish turns a solution of a rotated board back, and returns ctx's error
// with a search it cut short.
func finish(ctx context.Context, res Result, rotated bool) (Result, error) {
	if rotated {
		for i, m := range res.Moves {
			res.Moves[i] = m.Opposite()
		}
	}
	if !res.Solved {
		return res, ctx.Err()
	}
	return res, nil
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

// tiles is a board as the search holds it: the tile on each cell, a byte
// each. It measured as fast as the board packed in a word
// (docs/experiments.md), and, unlike the word, widens to larger boards.
type tiles [puzzle.MaxBoardCells]uint8

// worker is one goroutine's search state: what the node loops (dfs.go)
// read and write, and, apart, its duties beyond them.
// Everything the loops read is copied into it, so that they touch no
// shared cache lines but the tables.
type worker struct {
	// Read-only after newWorker.
	h     *Heuristic
	nbr   [puzzle.MaxBoardCells][4]int8 // cell the blank reaches by a move, or -1
	order [4]puzzle.Move
	// At depths below orderDepth (0 with a fixed order), the moves are
	// tried in orders[the set of places in order whose moves take their
	// tile nearer its home], which puts those first; distance[tile][cell]
	// is the tile's distance from its home.
	orderDepth int
	orders     [1 << 4][4]puzzle.Move
	// A weighted search orders the moves at every depth, those that lower
	// the estimate first (lower), with byEstimate to compute it in; nil in
	// the others.
	byEstimate *state
	distance   [puzzle.MaxBoardCells][puzzle.MaxBoardCells]uint8
	fsm        [][4]int32
	goal       tiles
	stop       *atomic.Bool
	// f = gw·g + hw·h: (1, 1) searching optimally, else weighted.
	gw, hw int

	// The node being searched.
	board tiles
	blank int
	st    state

	// The iteration.
	bound     int
	next      int // the smallest f above bound seen
	aborted   bool
	expanded  uint64
	generated uint64
	path      []puzzle.Move // the moves to the node, as long as the iteration's longest path (fit)
	length    int           // of the solution in path, once found

	// regions numbers the blank's regions on boards too large for the
	// table of regions; nil on the others. Toward the struct's end, away
	// from the fields dfs reads at every node.
	regions *regionCache

	// With more than maxUnrolled views, dfsWide's
	// sums at each depth of the path (nil otherwise: dfs passes its own),
	// and the view that last cut a child off.
	wide    [][maxViews]int
	cutView int

	duties
}

// duties are a worker's part in the search beyond its own loop: the
// rounds' cut and tasks (parallel.go), progress reports, checkpoints and
// a split search's share. The loops read only split, at the cut's depth.
type duties struct {
	split    int       // the depth at which the cut lists nodes, or -1
	cut      *frontier // the frontier the cut lists them in
	full     bool      // whether it gave up, past the frontier's room
	cutDepth int       // planned for the next round
	// budget is the frontiers' memory in bytes, 0 if the rounds take
	// their tasks depth-first (Options.Frontier). prev is the last round
	// searched whole, which the next is planned from, and front its
	// frontier, with its sizes, which ranks the next round's tasks (nil
	// if the rounds are not ranked).
	budget int
	prev   *Round
	front  *frontier
	// task is the position of the task being searched in its round's
	// order, and best the first known to hold a solution.
	task int64
	best *atomic.Int64

	// With progress reports, the iterations are told to reports, and
	// every stopCheck expansions the worker adds the nodes it generated
	// since flushed to the reports' count, and checks in with them.
	reports *reporter
	flushed uint64
	// With checkpoints, saves makes them; the tasks searched to the end
	// are told to it.
	saves *checkpointer
	// In a split search, the task's share of the iteration (split.go).
	share *sharer
}

func newWorker(h *Heuristic, prune *pruner, order [4]puzzle.Move, fixed bool, start puzzle.Board, stop *atomic.Bool) *worker {
	w := &worker{
		h:      h,
		order:  order,
		fsm:    prune.next,
		stop:   stop,
		gw:     1,
		hw:     1,
		blank:  start.Blank(),
		duties: duties{split: -1, cutDepth: firstCutDepth},
	}
	n := h.size.Cells()
	goal := puzzle.SolvedBoard(h.size, h.goal)
	for c := range n {
		w.board[c], w.goal[c] = uint8(start.Tile(c)), uint8(goal.Tile(c))
		for m := range 4 {
			w.nbr[c][m] = int8(h.size.Neighbor(c, puzzle.Move(m)))
		}
		for t := range n {
			w.distance[t][c] = uint8(h.size.Distance(c, h.goal.Home(t, n)))
		}
	}
	if !fixed && n <= maxOrderedCells {
		w.orderDepth = orderDepth
	}
	for nearer := range w.orders {
		// The moves whose places are in nearer, then the others, each in
		// order: four appends, in place.
		o := w.orders[nearer][:0]
		for _, first := range []bool{true, false} {
			for i, m := range order {
				if (nearer>>i&1 == 1) == first {
					o = append(o, m)
				}
			}
		}
	}
	w.regions = newRegionCache(&h.views[0])
	w.path, w.wide = newPath(h, MaxLength)
	h.init(&w.st, start)
	return w
}

// newPath returns a path of up to length moves, and the sums at each of
// its depths that dfsWide needs for the heuristic (nil if dfs serves it).
func newPath(h *Heuristic, length int) ([]puzzle.Move, [][maxViews]int) {
	path := make([]puzzle.Move, length+1)
	if h.n <= maxUnrolled && !testWide {
		return path, nil
	}
	return path, make([][maxViews]int, length+2)
}

// maxBound returns the largest bound the search takes: f of a path of
// MaxLength moves to the goal, weighted by W in a weighted search, whose
// solution it bounds at W times the optimum.
func (w *worker) maxBound() int { return MaxLength * w.hw }

// fit makes the worker's path as long as the longest of the iteration of
// bound: a weighted search's grows with its bound, past MaxLength.
func (w *worker) fit(bound int) {
	if n := bound / w.gw; n >= len(w.path) {
		path, wide := newPath(w.h, n)
		copy(path, w.path)
		w.path, w.wide = path, wide
	}
}

// run searches sequentially or, with threads > 1 or checkpoints, in
// parallel; if until is not 0, it stops after the first iteration that
// generates until nodes or more, with the next bound in w.next.
func run(w *worker, threads int, until uint64) Result {
	res := Result{H0: w.h.combine(&w.st.sums)}
	bound := w.hw * res.H0
	var team *crew
	if threads > 1 || w.saves != nil || w.ranked() {
		team = startCrew(max(threads, 1) - 1)
		defer team.stop()
	}
	if w.saves != nil && w.saves.cp.Bound > 0 { // resumed: w.cutDepth is planned (worker.resume)
		res.Iterations = w.saves.cp.Iterations
		for _, it := range res.Iterations {
			res.Expanded += it.Expanded
			res.Generated += it.Generated
		}
		bound = w.saves.cp.Bound
	}
	for bound <= w.maxBound() {
		var it Iteration
		var found bool
		if w.reports != nil {
			w.reports.begin(bound/w.gw, res.Iterations)
		}
		// An iteration is searched in parallel once the last one was big
		// enough that cutting it up pays.
		if team != nil && len(res.Iterations) > 0 && res.Iterations[len(res.Iterations)-1].Generated >= parallelAbove {
			found, it = w.parallelIteration(bound, team, res.Iterations)
		} else {
			if w.saves != nil {
				w.saves.begin(bound, 0, res.Iterations, nil, nil)
			}
			found, it = w.iteration(bound)
		}
		if len(res.Iterations) == 0 {
			it.Generated++ // the root, counted once as Korf (1985) did
		}
		if w.reports != nil && !w.aborted {
			w.reports.end(it) // an iteration cut short is not reported done
		}
		res.Iterations = append(res.Iterations, it)
		res.Expanded += it.Expanded
		res.Generated += it.Generated
		if found {
			res.Solved = true
			res.Moves = append([]puzzle.Move(nil), w.path[:w.length]...)
			break
		}
		if w.aborted {
			if w.saves != nil {
				w.saves.saveNow() // the iteration's tasks so far
			}
			break
		}
		if w.next == math.MaxInt || until > 0 && it.Generated >= until {
			break
		}
		bound = w.next
		if w.saves != nil {
			w.saves.end(res.Iterations, bound, w.cutDepth, w.prev, w.front)
		}
	}
	return res
}

// iteration runs one depth-first iteration from the worker's node.
func (w *worker) iteration(bound int) (bool, Iteration) {
	w.fit(bound)
	w.bound, w.next = bound, math.MaxInt
	w.expanded, w.generated, w.flushed = 0, 0, 0
	found := w.descend(0, &w.st.sums, 0)
	return found, Iteration{Bound: bound / w.gw, Expanded: w.expanded, Generated: w.generated}
}

// At depths below orderDepth the search tries first the moves that take
// their tile nearer its home. In the last iteration, which stops at the
// first solution, that finds it sooner; the subtrees it skips are large
// only near the root, and deeper the ordering cost more than it saved
// (docs/experiments.md).
const orderDepth = 8

// maxOrderedCells bounds the boards whose moves are ordered near the root
// by default. On the ten easiest of Korf and Felner's 24-puzzles it met
// the solution sooner in the last iteration of five, but far later in two,
// and doubled their nodes in all (docs/experiments.md).
const maxOrderedCells = 16

// nearer returns the set of places in order whose moves take their tile
// nearer its home, with the blank on cell b; in a weighted search, those
// whose moves lower the estimate (lower).
func (w *worker) nearer(b int) int {
	if w.byEstimate != nil {
		return w.lower(b)
	}
	set := 0
	for i, m := range w.order {
		if q := int(w.nbr[b&31][m&3]); q >= 0 {
			d := &w.distance[w.board[q&31]&31]
			if d[b&31] < d[q&31] {
				set |= 1 << i
			}
		}
	}
	return set
}

// lower returns the set of places in order whose moves lower the
// heuristic's estimate, with the blank on cell b. A weighted search tries
// those first at every depth: in the order alone, it spent the slack
// that the weight gives on moves away from the goal first, and wandered
// down paths up to W times the optimum long; with a perfect 8-puzzle
// table and W = 100 it never ended (issue 57). It costs an estimate of
// the node and of each child, in the weighted search only.
func (w *worker) lower(b int) int {
	here := w.h.estimate(w.byEstimate, &w.board, b)
	set := 0
	for i, m := range w.order {
		if q := int(w.nbr[b&31][m&3]); q >= 0 {
			w.board[b&31], w.board[q&31] = w.board[q&31], 0
			if w.h.estimate(w.byEstimate, &w.board, q) < here {
				set |= 1 << i
			}
			w.board[q&31], w.board[b&31] = w.board[b&31], 0
		}
	}
	return set
}

// stopCheck is how many expansions pass between looks at the stop flags.
// The look costs next to nothing, and a goroutine of the parallel search
// whose task lies after a found solution should stop within microseconds:
// at 1<<14 it went on for milliseconds, longer than most 7-8 searches.
const stopCheck = 1 << 8

// The node loops, dfs and dfsWide, are written from one template.
//go:generate go run ./internal/gendfs

// descend searches below the worker's node, depth moves from the root,
// whose views' sums are sums and whose pruning state is fs, with the loop
// written for the heuristic's views.
func (w *worker) descend(depth int, sums *[maxViews]int, fs int32) bool {
	if w.wide != nil {
		w.wide[depth] = *sums
		return w.dfsWide(depth, fs)
	}
	return w.dfs(depth, sums[0], sums[1], sums[2], sums[3], fs)
}

// maxUnrolled bounds the views dfs looks up, each in code of its own.
const maxUnrolled = 4

// testBudget, if not 0, is every frontier's budget in bytes, for the
// tests that cut frontiers of a few nodes.
var testBudget = 0

// testWide has every search take dfsWide, for the test that the two loops
// search alike.
var testWide = false

// set sets pattern g's index, cells and value, and returns the old ones.
func (p *patterns) set(g uint8, index uint64, occupied uint32, val uint8) (uint64, uint32, uint8) {
	g &= 31
	p.index[g], index = index, p.index[g]
	p.occupied[g], occupied = occupied, p.occupied[g]
	p.vals[g], val = val, p.vals[g]
	return index, occupied, val
}
