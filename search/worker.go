package search

import (
	"cmp"
	"math"
	"slices"
	"sync/atomic"

	"fifteen/puzzle"
)

// worker is one goroutine's search state: what the node loops (dfs.go)
// read and write, and the task it searches. Everything the loops read is
// copied into it, so that they touch no shared cache lines but the
// tables, and what all the copies of a search share lies behind one
// pointer (shared). The fields the loops read at every node come first,
// but listDepth, which stays beside the cut's listing, where it was
// before the worker was split (issue 68).
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
	// the others. Each copy has its own.
	byEstimate *state
	distance   [puzzle.MaxBoardCells][puzzle.MaxBoardCells]uint8
	fsm        [][4]int32
	goal       tiles
	shared     *shared // never nil; the same for every copy
	// f = gw·g + hw·h: (1, 1) searching optimally, else weighted.
	gw, hw int

	// The node being searched.
	board tiles
	blank int
	st    state

	// The iteration, or the task of one (begin).
	bound int
	next  int // the smallest f above bound seen
	// unwind makes the loops return: the search stops (checkIn), or the
	// frontier they list is full (collect).
	unwind    bool
	expanded  uint64
	generated uint64
	path      []puzzle.Move // the moves to the node, as long as the iteration's longest path (fit)
	length    int           // of the solution in path, once found

	// regions numbers the blank's regions on boards too large for the
	// table of regions; nil on the others. Toward the struct's end, away
	// from the fields dfs reads at every node. Each copy has its own.
	regions *regionCache

	// With more than maxUnrolled views, dfsWide's
	// sums at each depth of the path (nil otherwise: dfs passes its own),
	// and the view that last cut a child off. Each copy has its own.
	wide    [][maxViews]int
	cutView int

	// A cut lists the nodes at depth listDepth (-1 if none) in listing.
	listDepth int
	listing   *frontier
	// task is the position in its round's order of the task being
	// searched (math.MaxInt64 while the round is cut), and flushed the
	// nodes generated that checkIn has published.
	task    int64
	flushed uint64
}

// shared is what every copy of a search's worker shares, read through
// one pointer: set up before the search begins, and read-only but for
// its atomics.
type shared struct {
	stop atomic.Bool // set when the search must stop: its ctx ended
	// best is the position, in the order of the round under way, of the
	// first task known to hold a solution; math.MaxInt64 if none, and
	// outside rounds. The round resets it.
	best atomic.Int64
	// live counts the nodes the workers publish (flush): the reports' own
	// counter, or one no one reads.
	live *atomic.Uint64
	// checkIns are what a worker checking in does besides: a report, a
	// checkpoint, a share's look at the other tasks, as the search has.
	checkIns []func()
}

func newShared(live *atomic.Uint64, checkIns []func()) *shared {
	if live == nil {
		live = new(atomic.Uint64)
	}
	s := &shared{live: live, checkIns: checkIns}
	s.best.Store(math.MaxInt64)
	return s
}

// newWorker returns the worker of a search of start, guided by h, pruned
// by prune, with the moves in order (fixed: at every node), sharing sh
// with its copies.
func newWorker(h *Heuristic, prune *pruner, order [4]puzzle.Move, fixed bool, start puzzle.Board, sh *shared) *worker {
	w := &worker{
		h:         h,
		order:     order,
		fsm:       prune.next,
		shared:    sh,
		gw:        1,
		hw:        1,
		blank:     start.Blank(),
		listDepth: -1,
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

// fit makes the worker's path as long as the longest of the iteration of
// bound: a weighted search's grows with its bound, past MaxLength.
func (w *worker) fit(bound int) {
	if n := bound / w.gw; n >= len(w.path) {
		path, wide := newPath(w.h, n)
		copy(path, w.path)
		w.path, w.wide = path, wide
	}
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

// maxUnrolled bounds the views dfs looks up, each in code of its own.
const maxUnrolled = 4

// testWide has every search take dfsWide, for the test that the two loops
// search alike.
var testWide = false

// compareDFS compares two paths of equal length from the root by the
// order in which the search meets their ends.
func (w *worker) compareDFS(a, b []puzzle.Move) int {
	for k := range a {
		if a[k] != b[k] {
			o := w.orderAt(a[:k])
			return cmp.Compare(slices.Index(o[:], a[k]), slices.Index(o[:], b[k]))
		}
	}
	return 0
}

// orderAt returns the order in which the search tries the moves of the
// node that path reaches from the worker's node.
func (w *worker) orderAt(path []puzzle.Move) *[4]puzzle.Move {
	if len(path) >= w.orderDepth {
		return &w.order
	}
	board, blank := w.board, w.blank
	for _, m := range path {
		w.play(m)
	}
	o := &w.orders[w.nearer(w.blank)]
	w.board, w.blank = board, blank
	return o
}

// play moves the blank.
func (w *worker) play(m puzzle.Move) {
	q := int(w.nbr[w.blank][m])
	w.board[w.blank], w.board[q] = w.board[q], 0
	w.blank = q
}

// enter sets the worker to the node that path reaches from root, a board
// and its blank: its board, the moves in its path, and the heuristic's
// state. It returns the pruning machine's state there.
func (w *worker) enter(root *tiles, blank int, path []puzzle.Move) int32 {
	w.board, w.blank = *root, blank
	var fs int32
	for k, m := range path {
		w.play(m)
		fs = w.fsm[fs][m]
		w.path[k] = m
	}
	w.h.load(&w.st, &w.board, w.blank)
	return fs
}

// clone returns a copy of the worker for another goroutine of a round,
// with what each copy writes of its own.
func (w *worker) clone() *worker {
	c := *w
	c.regions = newRegionCache(&w.h.views[0])
	c.path, c.wide = newPath(w.h, len(w.path)-1)
	if w.byEstimate != nil {
		c.byEstimate = new(state) // the weighted order's, written at every node
	}
	return &c
}

// begin readies the worker for an iteration of bound, or a task of it:
// the counts zeroed, the next bound unknown. The counts are zeroed here
// alone.
func (w *worker) begin(bound int) {
	w.fit(bound)
	w.bound, w.next = bound, math.MaxInt
	w.expanded, w.generated, w.flushed = 0, 0, 0
	w.unwind = false
}

// collect lists the node at the cut's depth in the frontier, or, when
// the frontier has no room for it (and so is full), unwinds the cut. It
// is kept out of dfs, whose stack frame stays small and in the
// first-level cache.
//
//go:noinline
func (w *worker) collect(depth int) {
	if !w.listing.add(w.path[:depth]) {
		w.unwind = true
	}
}

// checkIn publishes the worker's nodes (flush), does what the search
// does at a check-in (a report, a checkpoint, a share's look at the
// other tasks, when due), and reports whether the search must stop: the
// caller gave up, or a task before this one holds a solution.
func (w *worker) checkIn() bool {
	w.flush()
	for _, f := range w.shared.checkIns {
		f()
	}
	return w.shared.stop.Load() || w.shared.best.Load() < w.task
}

// flush publishes the nodes generated since the last flush.
func (w *worker) flush() {
	w.shared.live.Add(w.generated - w.flushed)
	w.flushed = w.generated
}

// The node loops, dfs and dfsWide, and descend, which takes the one
// written for the heuristic, are written from one template (dfs.go).
//go:generate go run ./internal/gendfs
