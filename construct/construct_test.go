package construct

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"fifteen/puzzle"
)

// replay plays the moves on the puzzle and reports whether they reach the
// goal.
func replay(p puzzle.Puzzle, goal puzzle.Goal, moves []puzzle.Move) bool {
	end, _, err := p.Apply(moves)
	return err == nil && slices.Equal(end.Tiles, puzzle.Solved(p.Size, goal).Tiles)
}

// TestSolve solves random positions of many sizes, both goals, and checks
// every answer by replaying it.
func TestSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, rc := range [][2]int{{2, 2}, {2, 3}, {3, 2}, {3, 3}, {4, 4}, {2, 7}, {6, 2}, {5, 5}, {3, 8}, {8, 8}, {10, 10}} {
		size := puzzle.Size{Rows: rc[0], Cols: rc[1]}
		for _, goal := range []puzzle.Goal{puzzle.GoalLast, puzzle.GoalFirst} {
			for range 20 {
				p, err := puzzle.Random(rng, size, goal)
				if err != nil {
					t.Fatal(err)
				}
				moves, err := Solve(p, goal)
				if err != nil {
					t.Fatalf("%v %v %v: %v", size, goal, p, err)
				}
				if !replay(p, goal, moves) {
					t.Fatalf("%v %v %v: the moves do not solve it", size, goal, p)
				}
			}
		}
	}
}

// TestRefused checks that malformed and unsolvable puzzles are refused.
func TestRefused(t *testing.T) {
	for _, bad := range []puzzle.Puzzle{
		{Size: puzzle.Size{Rows: 1, Cols: 4}, Tiles: []int{0, 1, 2, 3}},
		{Size: puzzle.Size{Rows: 2, Cols: 2}, Tiles: []int{0, 1, 2}},
		{Size: puzzle.Size{Rows: 2, Cols: 2}, Tiles: []int{0, 1, 1, 3}},
		{Size: puzzle.Size{Rows: 16, Cols: 16}, Tiles: make([]int, 256)},
	} {
		if _, err := Solve(bad, puzzle.GoalLast); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	unsolvable := puzzle.Puzzle{Size: puzzle.Size{Rows: 3, Cols: 3}, Tiles: []int{2, 1, 3, 4, 5, 6, 7, 8, 0}}
	for _, goal := range []puzzle.Goal{puzzle.GoalFirst, puzzle.GoalLast} {
		if _, err := Solve(unsolvable, goal); !errors.Is(err, puzzle.ErrUnsolvable) {
			t.Errorf("%v toward %v: %v, want ErrUnsolvable", unsolvable, goal, err)
		}
	}
}

// BenchmarkSolve solves random boards of growing size; moves/op is the
// solutions' mean length.
func BenchmarkSolve(b *testing.B) {
	for _, n := range []int{4, 5, 8, 10} {
		b.Run(fmt.Sprintf("%dx%d", n, n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, uint64(n)))
			var moves int
			for b.Loop() {
				p, _ := puzzle.Random(rng, puzzle.Size{Rows: n, Cols: n}, puzzle.GoalLast)
				m, err := Solve(p, puzzle.GoalLast)
				if err != nil {
					b.Fatal(err)
				}
				moves += len(m)
			}
			b.ReportMetric(float64(moves)/float64(b.N), "moves/op")
		})
	}
}
