package search

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"fifteen/puzzle"
)

// maxGreedyNodes bounds the positions Greedy keeps: 1.3 GB at the peak on
// a 5×5 board (docs/experiments.md). At 50 million, Korf's eighth
// 24-puzzle under misplaced tiles passed 4 GB and the process died
// (issue 57).
const maxGreedyNodes = 6_000_000

// greedyLimit is maxGreedyNodes, but in the test of the bound.
var greedyLimit = maxGreedyNodes

// ErrGreedyMemory is Greedy's error when it gives up at its bound of 6
// million positions kept (maxGreedyNodes).
var ErrGreedyMemory = errors.New("greedy search gave up at its memory bound")

// Greedy finds a solution by greedy best-first search: of the positions
// generated and not yet expanded it always expands one with the smallest
// heuristic value (the oldest among equals), and it never keeps a position
// twice. With the databases it solves a 15-puzzle in milliseconds, far from
// optimally; with weaker heuristics it may keep millions of positions, so
// it gives up at 6 million (ErrGreedyMemory). Nodes are counted as for
// Solve.
func Greedy(ctx context.Context, start puzzle.Board, goal puzzle.Goal, h *Heuristic) (Result, error) {
	start, rotated, err := prepare(start, goal, h)
	if err != nil {
		return Result{}, err
	}
	t0 := time.Now()
	target := puzzle.SolvedBoard(h.size, h.goal)
	res := Result{H0: h.Estimate(start), Generated: 1, Iterations: []Iteration{}}
	nodes := []greedyNode{{board: start, parent: -1}}
	seen := map[puzzle.Board]bool{start: true}
	open := &greedyQueue{{h: res.H0, node: 0}}
	for open.Len() > 0 {
		if res.Expanded%4096 == 0 && ctx.Err() != nil {
			break
		}
		i := heap.Pop(open).(greedyEntry).node
		res.Expanded++
		if nodes[i].board == target {
			res.Solved = true
			for ; nodes[i].parent >= 0; i = nodes[i].parent {
				res.Moves = append(res.Moves, nodes[i].move)
			}
			slices.Reverse(res.Moves)
			break
		}
		for _, m := range puzzle.Moves {
			next, _, ok := nodes[i].board.Move(m)
			if !ok || seen[next] {
				continue
			}
			if len(nodes) == greedyLimit {
				res.Elapsed = time.Since(t0)
				return res, fmt.Errorf("%w, %d positions: a stronger heuristic keeps fewer", ErrGreedyMemory, len(nodes))
			}
			res.Generated++
			seen[next] = true
			nodes = append(nodes, greedyNode{board: next, parent: i, move: m})
			heap.Push(open, greedyEntry{h: h.Estimate(next), node: len(nodes) - 1})
		}
	}
	res.Elapsed = time.Since(t0)
	return finish(ctx, res, rotated)
}

// greedyNode is a kept position and the move that reached it.
type greedyNode struct {
	board  puzzle.Board
	parent int
	move   puzzle.Move
}

type greedyEntry struct{ h, node int }

// greedyQueue is a min-heap by heuristic value, then age.
type greedyQueue []greedyEntry

func (q greedyQueue) Len() int { return len(q) }
func (q greedyQueue) Less(i, j int) bool {
	return q[i].h < q[j].h || q[i].h == q[j].h && q[i].node < q[j].node
}
func (q greedyQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *greedyQueue) Push(x any)   { *q = append(*q, x.(greedyEntry)) }
func (q *greedyQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}
