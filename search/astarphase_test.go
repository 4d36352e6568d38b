package search

import (
	"math/bits"

	"fifteen/puzzle"
)

// astar is the A* phase of A*+IDA*, as TestAStarCeiling measures it: it
// keeps each board once, with the least g it has met, and expands the open
// boards by f ascending, ties by g descending (the deepest first, as Bu
// and Korf do), reopening a closed board met again with a smaller g, as
// the blank-aware tables may be inconsistent. A child's estimate is
// computed from its parent's, as dfs does, and the boards are found in an
// open-addressed table of their nodes' numbers.
type astar struct {
	w     *worker // the root, the moves, the goal and the heuristic
	st    state   // the heuristic's state of the board being expanded
	nodes []astarBoard
	// slots holds each board's node number + 1 (0: empty), at the slot
	// its hash gives or the next free one; mask is len(slots)-1.
	slots []int32
	mask  uint64
	// buckets[f][g] holds the open nodes of f and g, some stale (a node
	// since reached with a smaller g, or closed); top[f] bounds the g of
	// the non-empty buckets of f, and minF the f of all.
	buckets [][][]int32
	top     []int
	minF    int

	generated, expanded, reopened uint64
	solved                        bool // the goal was popped
}

// astarBoard is one board of the A* phase.
type astarBoard struct {
	key    [2]uint64 // the board, five bits a cell (astar.pack)
	parent int32     // -1 at the root
	move   puzzle.Move
	g, h   uint8
	open   bool
}

// newAStar returns the A* phase from the worker's board, with room for
// budget boards.
func newAStar(w *worker, budget int) *astar {
	n := 1 << bits.Len(uint(2*budget))
	a := &astar{w: w, nodes: make([]astarBoard, 0, budget+4), slots: make([]int32, n), mask: uint64(n - 1), minF: 1 << 30}
	board := w.board
	key := a.pack(&board)
	slot, _ := a.find(key)
	a.add(slot, key, -1, 0, 0, w.h.estimate(&a.st, &board, w.blank))
	return a
}

// find returns the slot of the board key, and its node's number, or the
// free slot for it and -1.
func (a *astar) find(key [2]uint64) (uint64, int32) {
	k := (key[0]*0x9e3779b97f4a7c15 ^ key[1]*0xc2b2ae3d27d4eb4f) >> 20 & a.mask
	for ; a.slots[k] != 0; k = (k + 1) & a.mask {
		if j := a.slots[k] - 1; a.nodes[j].key == key {
			return k, j
		}
	}
	return k, -1
}

// childEstimate returns the estimate of the child of board, whose state
// a.st holds, in which tile t moves from cell q onto the blank's cell b:
// in each view only the moved tile's pattern changes, as in dfs.
func (a *astar) childEstimate(board *tiles, t, q, b int) int {
	h := a.w.h
	var sums [maxViews]int
	for i := range h.n {
		_, _, _, _, sums[i] = h.views[i].child(&a.st.views[i], board, t, q, b, a.st.sums[i], a.w.regions)
	}
	return h.combine(&sums)
}

// run expands boards until budget are stored, no board is open, or the
// goal is popped.
func (a *astar) run(budget int) {
	for len(a.nodes) < budget {
		i, ok := a.pop()
		if !ok {
			return
		}
		n := a.nodes[i]
		board, blank := a.unpack(n.key)
		if board == a.w.goal {
			a.solved = true
			return
		}
		a.nodes[i].open = false
		a.expanded++
		a.w.h.load(&a.st, &board, blank)
		for m := range puzzle.Move(4) {
			q := int(a.w.nbr[blank][m])
			if q < 0 {
				continue
			}
			a.generated++
			child := board
			child[blank], child[q] = child[q], 0
			key, g := a.pack(&child), int(n.g)+1
			slot, j := a.find(key)
			if j >= 0 {
				c := &a.nodes[j]
				if g >= int(c.g) {
					continue
				}
				if !c.open {
					a.reopened++
				}
				c.g, c.parent, c.move, c.open = uint8(g), i, m, true
				a.push(j)
				continue
			}
			a.add(slot, key, i, m, g, a.childEstimate(&board, int(board[q]), q, blank))
		}
	}
}

// add stores a new open board in the free slot.
func (a *astar) add(slot uint64, key [2]uint64, parent int32, m puzzle.Move, g, h int) {
	j := int32(len(a.nodes))
	a.nodes = append(a.nodes, astarBoard{key: key, parent: parent, move: m, g: uint8(g), h: uint8(h), open: true})
	a.slots[slot] = j + 1
	a.push(j)
}

func (a *astar) push(j int32) {
	n := &a.nodes[j]
	f, g := int(n.g)+int(n.h), int(n.g)
	for len(a.buckets) <= f {
		a.buckets = append(a.buckets, nil)
		a.top = append(a.top, -1)
	}
	for len(a.buckets[f]) <= g {
		a.buckets[f] = append(a.buckets[f], nil)
	}
	a.buckets[f][g] = append(a.buckets[f][g], j)
	a.top[f], a.minF = max(a.top[f], g), min(a.minF, f)
}

// pop returns the open board of least f, and of greatest g among those.
func (a *astar) pop() (int32, bool) {
	for f := a.minF; f < len(a.buckets); f, a.minF = f+1, f+1 {
		for g := a.top[f]; g >= 0; g, a.top[f] = g-1, g-1 {
			b := a.buckets[f][g]
			for len(b) > 0 {
				j := b[len(b)-1]
				b = b[:len(b)-1]
				a.buckets[f][g] = b
				if n := a.nodes[j]; n.open && int(n.g) == g && int(n.g)+int(n.h) == f {
					return j, true
				}
			}
		}
	}
	return 0, false
}

// path returns the moves from the root to node j.
func (a *astar) path(j int32) []puzzle.Move {
	var moves []puzzle.Move
	for ; a.nodes[j].parent >= 0; j = a.nodes[j].parent {
		moves = append(moves, a.nodes[j].move)
	}
	for i, k := 0, len(moves)-1; i < k; i, k = i+1, k-1 {
		moves[i], moves[k] = moves[k], moves[i]
	}
	return moves
}

// pack keeps a board of up to 25 cells in two words: twelve cells each,
// the 25th being the tile the others leave out.
func (a *astar) pack(b *tiles) [2]uint64 {
	var key [2]uint64
	for c := range min(a.w.h.size.Cells(), 24) {
		key[c/12] |= uint64(b[c]) << (5 * (c % 12))
	}
	return key
}

func (a *astar) unpack(key [2]uint64) (tiles, int) {
	var b tiles
	cells := a.w.h.size.Cells()
	sum, blank := 0, 0
	for c := range min(cells, 24) {
		b[c] = uint8(key[c/12] >> (5 * (c % 12)) & 31)
		sum += int(b[c])
	}
	if cells == 25 {
		b[24] = uint8(24*25/2 - sum)
	}
	for c := range cells {
		if b[c] == 0 {
			blank = c
		}
	}
	return b, blank
}
