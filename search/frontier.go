package search

import (
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
	// full says a node was refused for want of it: the cut is given up.
	room int
	full bool
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

// count returns the nodes f holds.
func (f *frontier) count() int { return f.n }

// path returns the moves that reach node i.
func (f *frontier) path(i int) []puzzle.Move {
	c := f.chunks[i/f.per]
	j := i % f.per * f.depth
	return c[j : j+f.depth]
}

// add appends a node, reached by path, unless f would then take more
// than its room: then f is full.
func (f *frontier) add(path []puzzle.Move) bool {
	chunks := len(f.chunks)
	if f.n%f.per == 0 {
		chunks++
	}
	if f.room > 0 && chunks*(f.per*f.depth+sliceBytes)+nodeExtra*(f.n+1) > f.room {
		f.full = true
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

// depthFirstRoom bounds the frontier of a round that takes its tasks
// depth-first, which plans for 32 to 128 tasks a goroutine
// (tasksPerThread): far more than any such round lists, and so a bound on
// what a checkpoint of one holds.
const depthFirstRoom = 64 << 20
