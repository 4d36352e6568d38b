// Package search finds optimal solutions of sliding-tile puzzles with
// iterative-deepening A* (Korf, 1985) over packed boards, guided by an
// additive heuristic (Manhattan distance or pattern databases) and pruned
// by a finite-state machine of redundant move sequences. One puzzle can be
// searched by several goroutines at once.
package search

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"fifteen/bitboard"
)

// MaxLength bounds the solution length the search looks for.
const MaxLength = 255

// ErrUnsolvable is returned for a board whose goal is out of reach.
var ErrUnsolvable = errors.New("unsolvable: permutation parity does not match the blank's position")

// Options tune a search. The zero value is the default.
type Options struct {
	// Threads is the number of goroutines searching the puzzle; 0 or 1
	// searches sequentially.
	Threads int
	// PruneDepth is the length of the longest redundant move sequence the
	// search rejects: 0 means DefaultPruneDepth, PruneInverse only rejects
	// a move that undoes the last.
	PruneDepth int
	// Order, if set, is the order in which the blank's moves are tried at
	// every node, such as Korf's (1985): up, left, right, down. The zero
	// value tries first, near the root, the moves that take their tile
	// nearer its home, and otherwise goes up, left, right, down. Only the
	// last iteration depends on the order, as it stops at the first
	// solution.
	Order [4]bitboard.Move
	// Weight, if above 1, makes the search weighted IDA*: f = g + Weight·h,
	// to hundredths. It finds solutions faster, no longer than Weight
	// times the optimum but not optimal. 0 and 1 search optimally.
	Weight float64
}

// MaxWeight bounds Options.Weight.
const MaxWeight = 100

// weights returns f's integer weights of g and h for the weight: (1, 1)
// searching optimally, else (100, Weight to hundredths).
func weights(weight float64) (gw, hw int, err error) {
	switch {
	case weight == 0 || weight == 1:
		return 1, 1, nil
	case !(weight >= 1 && weight <= MaxWeight): // NaN too
		return 0, 0, fmt.Errorf("search: weight %v: want 1 to %d", weight, MaxWeight)
	}
	return 100, int(math.Round(weight * 100)), nil
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
	Moves      []bitboard.Move // an optimal solution, if Solved
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
// A board of the other convention than h's is rotated (bitboard.Board.Rotate)
// and its solution rotated back. When ctx ends first, Solve returns the
// partial result (Solved false, the counts so far) and ctx's error.
func Solve(ctx context.Context, start bitboard.Board, goal bitboard.Goal, h *Heuristic, opts Options) (Result, error) {
	start, rotated, err := prepare(start, goal, h)
	if err != nil {
		return Result{}, err
	}
	if opts.PruneDepth == 0 {
		opts.PruneDepth = DefaultPruneDepth
	}
	prune, err := prunerFor(opts.PruneDepth)
	if err != nil {
		return Result{}, err
	}
	fixed := opts.Order != [4]bitboard.Move{}
	if !fixed {
		opts.Order = bitboard.Moves
	}
	if err := checkOrder(opts.Order); err != nil {
		return Result{}, err
	}
	gw, hw, err := weights(opts.Weight)
	if err != nil {
		return Result{}, err
	}

	t0 := time.Now()
	var stop atomic.Bool
	halt := context.AfterFunc(ctx, func() { stop.Store(true) })
	defer halt()
	w := newWorker(h, prune, opts.Order, fixed, start, &stop)
	w.gw, w.hw = gw, hw
	res := run(w, opts.Threads)
	res.Elapsed = time.Since(t0)
	if !res.Solved && ctx.Err() == nil {
		return res, fmt.Errorf("search: no solution within %d moves", MaxLength)
	}
	return finish(ctx, res, rotated)
}

// prepare checks that start fits h and can be solved, and turns it to h's
// goal convention if need be (bitboard.Board.Rotate).
func prepare(start bitboard.Board, goal bitboard.Goal, h *Heuristic) (bitboard.Board, bool, error) {
	if start.Size() != h.size {
		return start, false, fmt.Errorf("search: a %v board for a %v heuristic", start.Size(), h.size)
	}
	if !start.Solvable(goal) {
		return start, false, ErrUnsolvable
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
func ParseOrder(s string) ([4]bitboard.Move, error) {
	moves, err := bitboard.ParseMoves(s)
	if err != nil || len(moves) != 4 || checkOrder([4]bitboard.Move(moves)) != nil {
		return [4]bitboard.Move{}, fmt.Errorf("search: move order %q: want the four moves once each, such as ULRD", s)
	}
	return [4]bitboard.Move(moves), nil
}

func checkOrder(order [4]bitboard.Move) error {
	seen := 0
	for _, m := range order {
		if m > bitboard.Down {
			return fmt.Errorf("search: bad move %d in order", m)
		}
		seen |= 1 << m
	}
	if seen != 15 {
		return fmt.Errorf("search: order %v does not name each move once", order)
	}
	return nil
}

// worker is one goroutine's search state. Everything the inner loop reads
// is copied into it, so that it touches no shared cache lines but the
// tables.
type worker struct {
	// Read-only after newWorker.
	h     *Heuristic
	nbr   [bitboard.MaxCells][4]int8 // cell the blank reaches by a move, or -1
	order [4]bitboard.Move
	// At depths g < orderDepth (0 with a fixed order), the moves are
	// tried in orders[the set of places in order whose moves take their
	// tile nearer its home], which puts those first; distance[tile][cell]
	// is the tile's distance from its home.
	orderDepth int
	orders     [1 << 4][4]bitboard.Move
	distance   [bitboard.MaxCells][bitboard.MaxCells]uint8
	fsm        [][4]int32
	goal       uint64
	stop       *atomic.Bool
	// f = gw·g + hw·h: (1, 1) searching optimally, else weighted.
	gw, hw int

	// The node being searched.
	cells uint64
	blank int
	st    state

	// The iteration.
	split     int       // the depth at which nodes become tasks (parallel.go)
	tasks     []task    // the tasks collected at depth split
	levels    [2][]task // buffers for the levels of tasks (parallel.go)
	task      int64     // the task being searched
	best      *atomic.Int64
	bound     int
	next      int // the smallest f above bound seen
	aborted   bool
	expanded  uint64
	generated uint64
	path      [MaxLength + 1]bitboard.Move // one spare, so that an index masked to 8 bits needs no check
	length    int                          // of the solution in path, once found
}

func newWorker(h *Heuristic, prune *pruner, order [4]bitboard.Move, fixed bool, start bitboard.Board, stop *atomic.Bool) *worker {
	w := &worker{
		h:     h,
		order: order,
		fsm:   prune.next,
		goal:  bitboard.Solved(h.size, h.goal).Packed(),
		stop:  stop,
		split: -1,
		cells: start.Packed(),
		blank: start.Blank(),
	}
	n := h.size.Cells()
	for c := range n {
		for m := range 4 {
			w.nbr[c][m] = int8(h.size.Neighbor(c, bitboard.Move(m)))
		}
		for t := range n {
			w.distance[t][c] = uint8(h.size.Distance(c, h.goal.Home(t, n)))
		}
	}
	if !fixed {
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
	h.init(&w.st, start)
	return w
}

// run searches sequentially or, with threads > 1, in parallel.
func run(w *worker, threads int) Result {
	res := Result{H0: w.h.combine(w.st.sum, w.st.rsum)}
	var team *crew
	if threads > 1 {
		team = startCrew(threads - 1)
		defer team.stop()
	}
	for bound := w.hw * res.H0; bound <= MaxLength*w.gw; {
		var it Iteration
		var found bool
		// An iteration is searched in parallel once the last one was big
		// enough that cutting it up pays.
		if team != nil && len(res.Iterations) > 0 && res.Iterations[len(res.Iterations)-1].Generated >= parallelAbove {
			found, it = w.parallelIteration(bound, team)
		} else {
			found, it = w.iteration(bound)
		}
		if len(res.Iterations) == 0 {
			it.Generated++ // the root, counted once as Korf (1985) did
		}
		res.Iterations = append(res.Iterations, it)
		res.Expanded += it.Expanded
		res.Generated += it.Generated
		if found {
			res.Solved = true
			res.Moves = append([]bitboard.Move(nil), w.path[:w.length]...)
			break
		}
		if w.aborted || w.next == math.MaxInt {
			break
		}
		bound = w.next
	}
	return res
}

// iteration runs one depth-first iteration from the worker's node.
func (w *worker) iteration(bound int) (bool, Iteration) {
	w.bound, w.next = bound, math.MaxInt
	w.expanded, w.generated = 0, 0
	found := w.dfs(0, w.st.sum, w.st.rsum, 0)
	return found, Iteration{Bound: bound / w.gw, Expanded: w.expanded, Generated: w.generated}
}

// At depths g < orderDepth the search tries first the moves that take
// their tile nearer its home. In the last iteration, which stops at the
// first solution, that finds it sooner; the subtrees it skips are large
// only near the root, and deeper the ordering cost more than it saved.
// On Korf's 100 with 6-6-3, ordering down to depths 1, 2, 4, 8 and every
// depth took the nodes from 16,680,270 to 16,159,440, 15,700,262,
// 15,282,468, 15,229,747 and 15,205,751, the last in 15% more time.
const orderDepth = 8

// nearer returns the set of places in order whose moves take their tile
// nearer its home, with the blank on cell b.
func (w *worker) nearer(b int) int {
	set := 0
	for i, m := range w.order {
		if q := int(w.nbr[b&15][m&3]); q >= 0 {
			d := &w.distance[w.cells>>(4*q&63)&15]
			if d[b&15] < d[q&15] {
				set |= 1 << i
			}
		}
	}
	return set
}

// collect records the node as a task of the parallel search. It is kept
// out of dfs, whose stack frame would otherwise hold a whole task: the
// recursion's frames stay small and its stack in the first-level cache.
//
//go:noinline
func (w *worker) collect(g, sum, rsum int, fs int32) {
	w.tasks = append(w.tasks, task{cells: w.cells, blank: w.blank, st: w.st, fs: fs, g: g, sum: sum, rsum: rsum, path: w.path})
}

// stopCheck is how many expansions pass between looks at the stop flags.
// The look costs next to nothing, and a goroutine of the parallel search
// whose task lies after a found solution should stop within microseconds:
// at 1<<14 it went on for milliseconds, longer than most 7-8 searches.
const stopCheck = 1 << 8

// dfs searches below the worker's node, g moves from the root, whose
// heuristic sums are sum and rsum and whose pruning state is fs. It leaves
// the node as it found it, and records the path when it finds the goal.
func (w *worker) dfs(g, sum, rsum int, fs int32) bool {
	if w.cells == w.goal {
		// At depth bound, unless the heuristic overestimates.
		w.length = g
		return true
	}
	if g == w.split {
		w.collect(g, sum, rsum, fs)
		return false
	}
	w.expanded++
	if w.expanded%stopCheck == 0 && w.halted() {
		w.aborted = true
	}
	if w.aborted {
		return false
	}
	h := w.h
	b := w.blank
	order := &w.order
	if g < w.orderDepth {
		order = &w.orders[w.nearer(b)]
	}
	for _, m := range order {
		q := int(w.nbr[b&15][m&3])
		next := w.fsm[fs][m&3]
		if q < 0 || next < 0 {
			continue
		}
		w.generated++
		// Shift amounts masked to 6 bits and indexes to 4 spare the
		// compiler's checks: cells and tiles are below 16.
		t := int(w.cells>>(4*q&63)) & 15

		// The tile moves from q to b: one pattern's index changes, and
		// the blank's region only within that pattern.
		gi := h.first.group[t] & 15
		oldIndex, oldOccupied, oldVal := w.st.first.index[gi], w.st.first.occupied[gi], w.st.first.vals[gi]
		index := oldIndex + uint64(h.first.place[t][b&15]) - uint64(h.first.place[t][q&15])
		if h.first.ranked[gi] {
			index = oldIndex + h.first.rankStep(w.cells, uint8(t), q, b)
		}
		occupied := oldOccupied ^ (1<<(q&15) | 1<<(b&15))
		val := h.first.value(gi, h.first.values[gi][index], occupied, q)
		nsum := sum - int(oldVal) + int(val)
		f := w.gw*(g+1) + w.hw*nsum
		if f >= w.next {
			// Pruned, as next > bound, and the second view's sum could only
			// raise f, which would not lower next: skip its lookup.
			continue
		}
		nrsum, rgi := rsum, uint8(0)
		var rindex uint64
		var roccupied uint16
		var rval uint8
		if o := &h.other; h.second {
			rt := o.ttile[t] & 15
			rgi = o.group[rt] & 15
			from, to := int(o.tcell[q&15]), int(o.tcell[b&15])
			rindex = w.st.other.index[rgi] + uint64(o.place[rt][to&15]) - uint64(o.place[rt][from&15])
			if o.ranked[rgi] {
				rindex = w.st.other.index[rgi] + o.rankStep(w.cells, rt, from, to)
			}
			roccupied = w.st.other.occupied[rgi] ^ (1<<(from&15) | 1<<(to&15))
			rval = o.value(rgi, o.values[rgi][rindex], roccupied, from)
			nrsum = rsum - int(w.st.other.vals[rgi]) + int(rval)
			if h.addSecond {
				f += w.hw * nrsum
			} else {
				f = max(f, w.gw*(g+1)+w.hw*nrsum)
			}
		}
		if f > w.bound {
			w.next = min(w.next, f)
			continue
		}

		delta := uint64(t)<<(4*q&63) | uint64(t)<<(4*b&63)
		w.cells ^= delta
		w.blank = q
		w.st.first.index[gi], w.st.first.occupied[gi], w.st.first.vals[gi] = index, occupied, val
		r, rgi := &w.st.other, rgi&15
		oldRIndex, oldROccupied, oldRVal := r.index[rgi], r.occupied[rgi], r.vals[rgi]
		r.index[rgi], r.occupied[rgi], r.vals[rgi] = rindex, roccupied, rval
		w.path[g&0xff] = m // on the way down: the parallel search's tasks copy it
		if w.dfs(g+1, nsum, nrsum, next) {
			return true
		}
		w.cells ^= delta
		w.blank = b
		w.st.first.index[gi], w.st.first.occupied[gi], w.st.first.vals[gi] = oldIndex, oldOccupied, oldVal
		r.index[rgi], r.occupied[rgi], r.vals[rgi] = oldRIndex, oldROccupied, oldRVal
	}
	return false
}
