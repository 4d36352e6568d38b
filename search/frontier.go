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
//
// A contour's frontier (contour.go) has depth 0: its nodes lie at depths
// of their own. Their paths lie back to back in chunks of chunkBytes,
// none across two; ends holds where each node's ends, as its chunk's
// number times endStride plus its end there, and hs its estimate.
type frontier struct {
	depth  int
	bound  int // the iteration's
	n      int // the nodes
	per    int // nodes a chunk
	chunks [][]puzzle.Move
	ends   []uint32
	hs     []uint8
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
	if f.depth == 0 {
		return f.contourPath(i)
	}
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
	switch {
	case f == nil:
		return 0
	case f.depth == 0:
		return uint64(len(f.chunks)*(chunkBytes+sliceBytes) + contourNodeBytes*f.n + 8*cap(f.sizes))
	}
	return uint64(len(f.chunks)*(f.per*f.depth+sliceBytes) + 8*cap(f.sizes))
}

// resetContour empties f for the iteration of bound, to list a contour's
// frontier of about nodes nodes in at most room bytes (0: any). Its ends
// and estimates are made room for at once, as growing them copied them
// at a cost measured in tenths of a round: for at most a fifth of room
// more than its nodes take.
func (f *frontier) resetContour(bound, room, nodes int) {
	if room > 0 {
		nodes = min(nodes, room/contourNodeBytes)
	}
	*f = frontier{bound: bound, room: room, ends: make([]uint32, 0, nodes), hs: make([]uint8, 0, nodes)}
}

// contourNodeBytes is what a contour's frontier keeps of each node
// beside its moves: where they end (4 bytes), its estimate (1), and what
// the round keeps (nodeExtra).
const contourNodeBytes = 5 + nodeExtra

// endStride numbers a contour's chunks in ends, and maxContourChunks
// bounds them, as ends has 32 bits: 4 GiB of moves.
const (
	endStride        = chunkBytes + 1
	maxContourChunks = 1 << 32 / endStride
)

// addContour appends a node of a contour's frontier, reached by path, of
// estimate h, unless f would then take more than its room: then f is
// full.
func (f *frontier) addContour(path []puzzle.Move, h int) bool {
	chunks := len(f.chunks)
	if chunks == 0 || len(f.chunks[chunks-1])+len(path) > chunkBytes {
		chunks++
	}
	if chunks > maxContourChunks || f.room > 0 && chunks*(chunkBytes+sliceBytes)+contourNodeBytes*(f.n+1) > f.room {
		f.full = true
		return false
	}
	if chunks > len(f.chunks) {
		f.chunks = append(f.chunks, make([]puzzle.Move, 0, chunkBytes))
	}
	c := &f.chunks[chunks-1]
	*c = append(*c, path...)
	f.ends = append(f.ends, uint32((chunks-1)*endStride+len(*c)))
	f.hs = append(f.hs, uint8(h))
	f.n++
	return true
}

// contourPath returns the moves that reach node i of a contour's
// frontier: from the end of the node before, if in the same chunk.
func (f *frontier) contourPath(i int) []puzzle.Move {
	c, end := f.ends[i]/endStride, f.ends[i]%endStride
	start := uint32(0)
	if i > 0 && f.ends[i-1]/endStride == c {
		start = f.ends[i-1] % endStride
	}
	return f.chunks[c][start:end]
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

// byEstimate returns the order of a contour's frontier: by estimate, the
// smallest first, and in depth-first order where they tie.
func (f *frontier) byEstimate() []int32 {
	var next [1 << 8]int32 // the next position of each estimate
	for _, h := range f.hs {
		if h < 1<<8-1 {
			next[h+1]++
		}
	}
	for h := 1; h < len(next); h++ {
		next[h] += next[h-1]
	}
	order := make([]int32, f.n)
	for i, h := range f.hs {
		order[next[h]] = int32(i)
		next[h]++
	}
	return order
}
