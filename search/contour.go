package search

import "math"

// contour makes a round's tasks as Bu and Korf's A*+IDA* (2019) takes its
// last iteration's from A*'s open list, but at IDA*'s cost a node: its
// frontier is where the iteration of bound leaves the contour of a
// smaller bound, inner, steps moves of 2 below it: the children, above
// inner and within the bound, of the nodes within inner. They lie at
// every depth, and the round takes them by their estimates, the smallest
// first: deep nodes near the goal, where the last iteration's solution
// most often lies (docs/experiments.md, 2026-11-29). The iterations
// before the last search them all, in any order. Unlike A*'s list, the
// frontier keeps the duplicates the pruning machine leaves, and is
// listed again each round, as the fixed-depth cut is.
type contour struct {
	budget int // the frontier's memory in bytes (Options.Frontier)
	// steps is how far below the bound the contour lies, in moves of 2,
	// while its frontier fits the budget; further below where it does
	// not, and from there on, as the iterations only grow.
	steps int
	// listed is the nodes of the last frontier listed, which foretells
	// the next's: an iteration's is some times larger than the last's.
	listed int
	// While a frontier is listed (walk): the frontier, and the bound of
	// its contour.
	listing *frontier
	inner   int
}

// contourGrowth is how many times larger than the last round's a
// frontier's room is made at once (resetContour); a larger one grows. A
// 24-puzzle's iterations grow about seven times each.
const contourGrowth = 8

// contourSteps is the contour's distance below the bound, in moves of
// 2, measured best on the 5×5 (docs/experiments.md, 2026-11-29): two
// list frontiers whose walks and entries cost more than the nodes they
// save, four take far more nodes before the last iteration's solution.
const contourSteps = 3

// produce lists the frontier of the contour steps below the bound, or
// further if it does not fit the budget, and orders it by estimate.
func (c *contour) produce(w *worker, f *frontier, bound int) ([]int32, int, int, bool) {
	for ; ; c.steps++ {
		found := c.list(w, f, bound, bound-2*c.steps*w.gw)
		if !f.full {
			c.listed = f.count()
			return f.byEstimate(), 0, f.count(), found
		}
		w.begin(bound)
	}
}

// learn learns nothing: the contour's order is its nodes' estimates.
// Ranking the ties by the round before's sizes, as the fixed-depth cut
// ranks its tasks, saved 1% of the ten easiest 24-puzzles' nodes (6% of
// their last iterations') and cost more time in the pairing and the sort
// than that (docs/experiments.md).
func (c *contour) learn(*frontier, int, uint64, bool) {}

// list lists in f, with w at the root, the frontier of the iteration of
// bound at the contour of inner: the root alone if it lies above inner,
// whatever the room. It reports whether it met a solution within inner,
// which only a bound above the optimum holds.
func (c *contour) list(w *worker, f *frontier, bound, inner int) bool {
	w.bound, w.next = bound, math.MaxInt
	if h := w.h.combine(&w.st.sums); w.hw*h > inner {
		f.resetContour(bound, 0, 1)
		f.addContour(nil, h)
		return false
	}
	f.resetContour(bound, c.budget, max(contourGrowth*c.listed, 1<<10))
	c.listing, c.inner = f, inner
	found := c.walk(w, 0, &w.st.sums, 0)
	c.listing = nil
	return found
}

// walk lists in c.listing, with w, the contour's frontier below w's
// node, depth moves from the root, whose views' sums are sums and whose
// pruning state is fs: each child within the bound is walked if within
// inner, else listed. It counts nodes as dfs does, stops as dfs does, or
// when the frontier is full, and reports whether it met the goal, as dfs
// does. Unlike dfs it looks up every view of a child, and so it is
// slower a node; the nodes within inner are about a hundredth of a
// round's.
func (c *contour) walk(w *worker, depth int, sums *[maxViews]int, fs int32) bool {
	if w.board == w.goal {
		w.length = depth
		return true
	}
	w.expanded++
	if w.expanded%stopCheck == 0 && w.checkIn() {
		w.unwind = true
	}
	if w.unwind {
		return false
	}
	heur, b := w.h, w.blank
	var (
		pats  [maxViews]uint8
		idx   [maxViews]uint64
		occ   [maxViews]uint32
		vals  [maxViews]uint8
		child [maxViews]int
	)
	for _, m := range w.order {
		q, next := int(w.nbr[b][m]), w.fsm[fs][m]
		if q < 0 || next < 0 {
			continue
		}
		w.generated++
		t := int(w.board[q])
		for v := range heur.n {
			pats[v], idx[v], occ[v], vals[v], child[v] = heur.views[v].child(&w.st.views[v], &w.board, t, q, b, sums[v], w.regions)
		}
		h := heur.combine(&child)
		w.path[depth] = m
		switch f := w.gw*(depth+1) + w.hw*h; {
		case f > w.bound:
			w.next = min(w.next, f)
		case f > c.inner:
			if !c.listing.addContour(w.path[:depth+1], h) {
				w.unwind = true
				return false
			}
		default:
			if c.walkChild(w, depth, &child, next, t, q, &pats, &idx, &occ, &vals) {
				return true
			}
			if w.unwind {
				return false
			}
		}
	}
	return false
}

// walkChild walks, with w, the child of w's node in which tile t moves
// from cell q onto the blank's, with its views' sums, pruning state, and
// each view's moved pattern and that pattern's index, cells and value
// there; and back, unless it met the goal.
func (c *contour) walkChild(w *worker, depth int, sums *[maxViews]int, fs int32, t, q int, pats *[maxViews]uint8, idx *[maxViews]uint64, occ *[maxViews]uint32, vals *[maxViews]uint8) bool {
	n, b := w.h.n, w.blank
	w.board[b], w.board[q] = uint8(t), 0
	w.blank = q
	for v := range n {
		idx[v], occ[v], vals[v] = w.st.views[v].set(pats[v], idx[v], occ[v], vals[v])
	}
	if c.walk(w, depth+1, sums, fs) {
		return true
	}
	w.board[b], w.board[q] = 0, uint8(t)
	w.blank = b
	for v := range n {
		w.st.views[v].set(pats[v], idx[v], occ[v], vals[v])
	}
	return false
}
