package search

import (
	"cmp"
	"slices"

	"fifteen/puzzle"
)

// A frontier is the nodes that an iteration reaches at its cut depth, in
// depth-first order, each named by the moves that reach it: the roots of
// the round's tasks, numbered in that order. Once the iteration has been
// searched whole, sizes holds the nodes each task generated, which rank
// the tasks of the next (rank). A node costs its moves, a byte each, and
// its size: at depth 16 a million nodes take 24 MB.
type frontier struct {
	depth int
	bound int           // the iteration's
	paths []puzzle.Move // task i's root: paths[i*depth : (i+1)*depth]
	sizes []uint64      // by task, once searched
}

func (f *frontier) len() int {
	if f.depth == 0 {
		return 0
	}
	return len(f.paths) / f.depth
}

func (f *frontier) path(i int) []puzzle.Move { return f.paths[i*f.depth : (i+1)*f.depth] }

// memory returns the bytes f holds, 0 if f is nil.
func (f *frontier) memory() uint64 {
	if f == nil {
		return 0
	}
	return uint64(cap(f.paths) + 8*cap(f.sizes))
}

// reset empties f for the iteration of bound, cut at depth.
func (f *frontier) reset(bound, depth int) {
	f.bound, f.depth, f.paths, f.sizes = bound, depth, f.paths[:0], f.sizes[:0]
}

// nodeBytes is the memory a frontier node of depth moves takes while the
// next frontier is cut and ranked beside it: its moves and size in both,
// and its place in the order.
func nodeBytes(depth int) int { return 2*(depth+8) + 4 }

// rank returns the order in which the round takes f's tasks: by the nodes
// their subtrees generated in the iteration before, prev, the largest
// first, and in depth-first order where they tie. The iteration before
// searched the same tree to a smaller bound, so a subtree's size there
// foretells where the solution lies better than the heuristic does
// (docs/experiments.md, 2026-11-27). A node weighs its size in prev;
// cut deeper than prev, what its ancestor there weighed; cut shallower,
// what its descendants there weighed together; and a node new to the
// frontier, nothing. With prev nil, the order is depth-first.
func (w *worker) rank(f, prev *frontier, order []int32) []int32 {
	n := f.len()
	order = order[:0]
	for i := range n {
		order = append(order, int32(i))
	}
	if prev == nil || prev.len() == 0 {
		return order
	}
	// Both frontiers are in depth-first order, and so are the truncations
	// of their paths to the shallower depth: one pass pairs them.
	m := min(f.depth, prev.depth)
	weights := make([]uint64, n)
	j := 0
	for i := range n {
		p := f.path(i)[:m]
		for j < prev.len() && w.compareDFS(prev.path(j)[:m], p) < 0 {
			j++
		}
		for k := j; k < prev.len() && slices.Equal(prev.path(k)[:m], p); k++ {
			weights[i] += prev.sizes[k]
		}
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(weights[b], weights[a]) })
	return order
}

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
