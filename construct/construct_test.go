package construct

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"fifteen/bitboard"
)

// replay plays the moves on the grid and reports whether they reach the
// goal.
func replay(g Grid, goal bitboard.Goal, moves []bitboard.Move) bool {
	end, _, err := g.Play(moves)
	return err == nil && slices.Equal(end.Tiles, Solved(g.Rows, g.Cols, goal).Tiles)
}

// TestSolve solves random positions of many sizes, both goals, and checks
// every answer by replaying it.
func TestSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, size := range [][2]int{{2, 2}, {2, 3}, {3, 2}, {3, 3}, {4, 4}, {2, 7}, {6, 2}, {5, 5}, {3, 8}, {8, 8}, {10, 10}} {
		for _, goal := range []bitboard.Goal{bitboard.GoalLast, bitboard.GoalFirst} {
			for range 20 {
				g, err := Random(rng, size[0], size[1], goal)
				if err != nil {
					t.Fatal(err)
				}
				moves, err := Solve(g, goal)
				if err != nil {
					t.Fatalf("%dx%d %v %v: %v", size[0], size[1], goal, g.Tiles, err)
				}
				if !replay(g, goal, moves) {
					t.Fatalf("%dx%d %v %v: the moves do not solve it", size[0], size[1], goal, g.Tiles)
				}
			}
		}
	}
}

// TestSolvableAgrees checks the grid's parity rule against bitboard's on
// every 3×3 position and random 4×4 ones, and that unsolvable grids are
// refused.
func TestSolvableAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for range 2000 {
		tiles := rng.Perm(16)
		b, _ := bitboard.New(bitboard.Size{Rows: 4, Cols: 4}, tiles)
		g := Grid{Rows: 4, Cols: 4, Tiles: tiles}
		for _, goal := range []bitboard.Goal{bitboard.GoalFirst, bitboard.GoalLast} {
			if g.Solvable(goal) != b.Solvable(goal) {
				t.Fatalf("%v %v: parity rules disagree", goal, tiles)
			}
			if _, err := Solve(g, goal); !g.Solvable(goal) && !errors.Is(err, bitboard.ErrUnsolvable) {
				t.Fatalf("%v %v: unsolvable, but %v", goal, tiles, err)
			}
		}
	}
	for _, bad := range []Grid{{Rows: 1, Cols: 4, Tiles: []int{0, 1, 2, 3}}, {Rows: 2, Cols: 2, Tiles: []int{0, 1, 2}}, {Rows: 2, Cols: 2, Tiles: []int{0, 1, 1, 3}}, {Rows: 16, Cols: 16, Tiles: make([]int, 256)}} {
		if _, err := Solve(bad, bitboard.GoalLast); err == nil {
			t.Errorf("%+v accepted", bad)
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
				g, _ := Random(rng, n, n, bitboard.GoalLast)
				m, err := Solve(g, bitboard.GoalLast)
				if err != nil {
					b.Fatal(err)
				}
				moves += len(m)
			}
			b.ReportMetric(float64(moves)/float64(b.N), "moves/op")
		})
	}
}

func TestPlay(t *testing.T) {
	g := Grid{Rows: 2, Cols: 3, Tiles: []int{1, 2, 3, 4, 0, 5}}
	end, slid, err := g.Play([]bitboard.Move{bitboard.Right, bitboard.Up})
	if err != nil || !slices.Equal(end.Tiles, []int{1, 2, 0, 4, 5, 3}) || !slices.Equal(slid, []int{5, 3}) {
		t.Errorf("got %v, slid %v, %v", end.Tiles, slid, err)
	}
	if _, _, err := g.Play([]bitboard.Move{bitboard.Down}); err == nil {
		t.Error("a move off the board was played")
	}
}
