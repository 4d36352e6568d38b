// Package bfs computes exact distances by breadth-first search, for tests
// that check the solver and the databases against the plain truth.
package bfs

import "fifteen/puzzle"

// Position is a board and its distance from the goal.
type Position struct {
	Board puzzle.Board
	Dist  int
}

// All returns every position of the size reachable from the goal of
// convention g, in breadth-first order. It is meant for small boards: 3×3
// has 181,440 positions.
func All(size puzzle.Size, g puzzle.Goal) []Position {
	return From(puzzle.SolvedBoard(size, g))
}

// From returns every position reachable from the goal board start, in
// breadth-first order.
func From(start puzzle.Board) []Position {
	seen := map[puzzle.Board]bool{start: true}
	all := []Position{{start, 0}}
	for i := 0; i < len(all); i++ {
		for _, m := range puzzle.Moves {
			if next, _, ok := all[i].Board.Move(m); ok && !seen[next] {
				seen[next] = true
				all = append(all, Position{next, all[i].Dist + 1})
			}
		}
	}
	return all
}
