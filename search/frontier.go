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
// the tasks of the next (rank).
//
// The moves are kept a byte each in chunks of a fixed number of nodes,
// so that a frontier grows without copying what it holds, and the memory
// it takes depends on its nodes alone: a resumed search, which cuts its
// frontiers again, makes the very choices that the search it resumes
// made where the budget binds (room).
type frontier struct {
	depth  int
	bound  int // the iteration's
	n      int // the nodes
	per    int // nodes a chunk
	chunks [][]puzzle.Move
	sizes  []uint64 // by task, once searched
	// room is the most bytes the frontier may take, with nodeExtra bytes
	// a node for what the round keeps of each beside its moves; 0 if any.
	room int
}

// chunkBytes is the memory of a chunk of a frontier's moves; a frontier
// with little room takes smaller ones. sliceBytes is a chunk's header.
const (
	chunkBytes = 4 << 10
	sliceBytes = 2 * 24 // and as much again in the list's growth
)

// nodeExtra is what a round keeps of each task beside its moves: its
// size (8 bytes), its place in the order (4), and the weight rank gives
// it (8).
const nodeExtra = 20

// reset empties f for the iteration of bound, cut at depth, to take at
// most room bytes (0: any), in chunks of chunkBytes, or an eighth of
// budget if that is less (0: chunkBytes). It lets go of what f held.
// The search's frontiers share its budget, and so the chunks of a depth
// are alike in every cut of it.
func (f *frontier) reset(bound, depth, room, budget int) {
	per := max(chunkBytes/depth, 1)
	if budget > 0 {
		per = max(min(per, budget/(8*(depth+nodeExtra))), 1)
	}
	*f = frontier{bound: bound, depth: depth, per: per, room: room}
}

func (f *frontier) len() int { return f.n }

func (f *frontier) path(i int) []puzzle.Move {
	c := f.chunks[i/f.per]
	j := i % f.per * f.depth
	return c[j : j+f.depth]
}

// add appends a node, reached by path, unless f would then take more
// than its room.
func (f *frontier) add(path []puzzle.Move) bool {
	chunks := len(f.chunks)
	if f.n%f.per == 0 {
		chunks++
	}
	if f.room > 0 && chunks*(f.per*f.depth+sliceBytes)+nodeExtra*(f.n+1) > f.room {
		return false
	}
	if chunks > len(f.chunks) {
		f.chunks = append(f.chunks, make([]puzzle.Move, 0, f.per*f.depth))
	}
	c := &f.chunks[chunks-1]
	*c = append(*c, path...)
	f.n++
	return true
}

// memory returns the bytes f holds, 0 if f is nil: its chunks, and its
// sizes once it has them.
func (f *frontier) memory() uint64 {
	if f == nil {
		return 0
	}
	return uint64(len(f.chunks)*(f.per*f.depth+sliceBytes) + 8*cap(f.sizes))
}

// nodeBytes is the memory a frontier node of depth moves takes while the
// next frontier is cut and ranked beside it: its moves and size in both,
// and its place and weight in the order. The rounds plan their cut
// depths by it; the cut itself counts what it takes (frontier.add).
func nodeBytes(depth int) int { return 2*(depth+8) + 12 }

// rank returns the order in which the round takes f's tasks: by the nodes
// their subtrees generated in the iteration before, prev, the largest
// first, and in depth-first order where they tie. The iteration before
// searched the same tree to a smaller bound, so a subtree's size there
// foretells where the solution lies better than the heuristic does
// (docs/experiments.md, 2026-11-27). A node weighs its size in prev;
// cut deeper than prev, what its ancestor there weighed; cut shallower,
// what its descendants there weighed together; and a node new to the
// frontier, nothing. With prev nil, the order is depth-first.
func (w *worker) rank(f, prev *frontier) []int32 {
	n := f.len()
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
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
