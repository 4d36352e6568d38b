package puzzle_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"fifteen/internal/bfs"
	. "fifteen/puzzle"
)

// permutations calls f with every arrangement of 0..n-1.
func permutations(n int, f func([]int)) {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			f(p)
			return
		}
		for i := k; i < n; i++ {
			p[k], p[i] = p[i], p[k]
			rec(k + 1)
			p[k], p[i] = p[i], p[k]
		}
	}
	rec(0)
}

func TestSolvableExhaustive(t *testing.T) {
	for _, size := range []Size{{2, 2}, {2, 3}, {3, 2}, {2, 4}, {3, 3}} {
		for _, g := range []Goal{GoalFirst, GoalLast} {
			reach := map[Board]bool{}
			for _, p := range bfs.All(size, g) {
				reach[p.Board] = true
			}
			total, solvable := 0, 0
			permutations(size.Cells(), func(tiles []int) {
				b, err := NewBoard(size, tiles)
				if err != nil {
					t.Fatal(err)
				}
				want := reach[b]
				if got := b.Solvable(g); got != want {
					t.Fatalf("%v goal %v: %v Solvable = %v, BFS says %v", size, g, b, got, want)
				}
				total++
				if want {
					solvable++
				}
			})
			if 2*solvable != total {
				t.Errorf("%v goal %v: %d of %d solvable, want half", size, g, solvable, total)
			}
		}
	}
}

// TestSolvableSamples checks larger boards: random walks from the goal are
// solvable, and swapping two tiles of a solvable board makes it unsolvable.
func TestSolvableSamples(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []Size{{3, 4}, {4, 3}, {4, 4}, {2, 8}, {3, 5}} {
		for _, g := range []Goal{GoalFirst, GoalLast} {
			for range 200 {
				b := SolvedBoard(size, g)
				for range rng.IntN(200) {
					b, _, _ = b.Move(Move(rng.IntN(4)))
				}
				if !b.Solvable(g) {
					t.Fatalf("%v goal %v: random walk %v called unsolvable", size, g, b)
				}
				tiles := b.Puzzle().Tiles
				i, j := 0, 1
				for tiles[i] == 0 || tiles[j] == 0 {
					i, j = i+1, j+1
				}
				tiles[i], tiles[j] = tiles[j], tiles[i]
				if swapped, _ := NewBoard(size, tiles); swapped.Solvable(g) {
					t.Fatalf("%v goal %v: %v with two tiles swapped called solvable", size, g, swapped)
				}
			}
		}
	}
}

// TestSolvableKorf guards against the negative-remainder bug that called
// 53 of Korf's 100 unsolvable: instance 1 is solvable under Korf's goal.
func TestSolvableKorf(t *testing.T) {
	b, err := NewBoard(Size{4, 4}, []int{14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3})
	if err != nil {
		t.Fatal(err)
	}
	if !b.Solvable(GoalFirst) || b.Solvable(GoalLast) {
		t.Errorf("Korf 1: solvable first %v, last %v; want true, false", b.Solvable(GoalFirst), b.Solvable(GoalLast))
	}
}

func TestRotate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, size := range []Size{{3, 3}, {4, 4}, {3, 4}, {2, 5}} {
		if got := SolvedBoard(size, GoalFirst).Rotate(); got != SolvedBoard(size, GoalLast) {
			t.Errorf("%v: rotated first goal %v, want the last goal", size, got)
		}
		for range 100 {
			b := SolvedBoard(size, GoalFirst)
			var moves []Move
			for range 30 {
				m := Move(rng.IntN(4))
				if next, _, ok := b.Move(m); ok {
					b = next
					moves = append(moves, m.Opposite())
				}
			}
			if b.Rotate().Rotate() != b {
				t.Fatalf("%v: rotating twice changed the board", b)
			}
			// moves, reversed, solve b under the first goal; rotated they
			// solve b.Rotate() under the last goal.
			slices.Reverse(moves)
			rotated := make([]Move, len(moves))
			for i, m := range moves {
				rotated[i] = m.Opposite()
			}
			if end, err := b.Apply(moves); err != nil || end != SolvedBoard(size, GoalFirst) {
				t.Fatalf("%v: solution does not reach the first goal (%v)", b, err)
			}
			if end, err := b.Rotate().Apply(rotated); err != nil || end != SolvedBoard(size, GoalLast) {
				t.Fatalf("%v: rotated solution does not reach the last goal (%v)", b, err)
			}
		}
	}
}

func TestNewErrors(t *testing.T) {
	size := Size{3, 3}
	for _, tiles := range [][]int{
		{1, 2, 3, 4, 5, 6, 7, 8},
		{1, 2, 3, 4, 5, 6, 7, 8, 8},
		{1, 2, 3, 4, 5, 6, 7, 8, 9},
		{-1, 2, 3, 4, 5, 6, 7, 8, 0},
	} {
		if _, err := NewBoard(size, tiles); err == nil {
			t.Errorf("NewBoard(%v) accepted", tiles)
		}
	}
	if _, err := NewBoard(Size{5, 5}, make([]int, 25)); err == nil {
		t.Error("a 5x5 board accepted")
	}
}

func TestMoveAndGrid(t *testing.T) {
	b := SolvedBoard(Size{2, 2}, GoalLast) // 1 2 / 3 0
	b, tile, ok := b.Move(Up)
	if !ok || tile != 2 || b.String() != "1 0 3 2" {
		t.Fatalf("Up: %v tile %d ok %v", b, tile, ok)
	}
	if _, _, ok := b.Move(Right); ok {
		t.Error("move off the board allowed")
	}
	want := "+----+----+\n|  1 |    |\n+----+----+\n|  3 |  2 |\n+----+----+\n"
	if got := b.Grid(); got != want {
		t.Errorf("Grid:\n%s\nwant\n%s", got, want)
	}
	moves, err := ParseMoves("ULRD")
	if err != nil || FormatMoves(moves) != "ULRD" {
		t.Errorf("ParseMoves round trip: %v %v", moves, err)
	}
	if _, err := ParseMoves("UX"); err == nil {
		t.Error("ParseMoves accepted X")
	}
}

func TestParseSize(t *testing.T) {
	for s, want := range map[string]Size{"4": {4, 4}, "3x4": {3, 4}, "2X8": {2, 8}, "5": {5, 5}, "4x8": {4, 8}} {
		if got, err := ParseSize(s); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %v, %v", s, got, err)
		}
	}
	// The last two overflow rows×cols to 0 and 16.
	for _, s := range []string{"6", "1x9", "x", "3x", "33", "4611686018427387904x4", "4611686018427387905x16"} {
		if _, err := ParseSize(s); err == nil {
			t.Errorf("ParseSize(%q) accepted", s)
		}
	}
	if (Size{Rows: 1 << 62, Cols: 4}).Valid() == nil {
		t.Error("a size of 2^64 cells, 0 modulo 2^64, accepted")
	}
}

// TestRandomUniform draws many 2×3 positions (360 solvable) and checks by a
// chi-square test that each is about equally likely, and that every draw
// is solvable.
func TestRandomUniform(t *testing.T) {
	size := Size{Rows: 2, Cols: 3}
	for _, goal := range []Goal{GoalFirst, GoalLast} {
		rng := rand.New(rand.NewPCG(7, uint64(goal)))
		const draws = 360 * 200
		counts := map[Board]int{}
		for range draws {
			p, err := Random(rng, size, goal)
			if err != nil {
				t.Fatal(err)
			}
			b, err := p.Board()
			if err != nil || !b.Solvable(goal) {
				t.Fatalf("%v: unsolvable draw %v", goal, b)
			}
			counts[b]++
		}
		if len(counts) != 360 {
			t.Fatalf("%v: %d distinct positions drawn, want all 360", goal, len(counts))
		}
		expected := float64(draws) / 360
		var chi2 float64
		for _, c := range counts {
			d := float64(c) - expected
			chi2 += d * d / expected
		}
		// 359 degrees of freedom: the 0.999 quantile is about 447.
		if chi2 > 447 {
			t.Errorf("%v: chi-square %.1f over 359 degrees of freedom: not uniform", goal, chi2)
		}
	}
}

// BenchmarkMove plays random moves, the off-board ones refused.
func BenchmarkMove(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	moves := make([]Move, 1024)
	for i := range moves {
		moves[i] = Move(rng.IntN(4))
	}
	board := SolvedBoard(Size{Rows: 4, Cols: 4}, GoalFirst)
	i := 0
	for b.Loop() {
		if next, _, ok := board.Move(moves[i&1023]); ok {
			board = next
		}
		i++
	}
}

// TestRankAll ranks every 3×3 position (and the 2×2 and 2×3
// ones): the ranks are 0..N!/2−1, each once, and Unrank inverts Rank.
func TestRankAll(t *testing.T) {
	for _, size := range []Size{{Rows: 2, Cols: 2}, {Rows: 2, Cols: 3}, {Rows: 3, Cols: 3}} {
		for _, goal := range []Goal{GoalFirst, GoalLast} {
			positions := bfs.All(size, goal)
			if uint64(len(positions)) != Positions(size) {
				t.Fatalf("%v: %d positions, Positions says %d", size, len(positions), Positions(size))
			}
			seen := make([]bool, len(positions))
			for _, p := range positions {
				r, err := p.Board.Rank(goal)
				if err != nil || r >= uint64(len(seen)) || seen[r] {
					t.Fatalf("%v %v: rank %d, %v (repeated or out of range)", goal, p.Board, r, err)
				}
				seen[r] = true
				if b, err := Unrank(size, goal, r); err != nil || b != p.Board {
					t.Fatalf("%v: Unrank(%d) = %v, %v; want %v", goal, r, b, err, p.Board)
				}
			}
		}
	}
}

func TestRankRandom4x4(t *testing.T) {
	size := Size{Rows: 4, Cols: 4}
	rng := rand.New(rand.NewPCG(3, 4))
	if Positions(size) != 10461394944000 {
		t.Fatalf("Positions(4x4) = %d, want 16!/2", Positions(size))
	}
	for _, r := range []uint64{0, 1, Positions(size) - 1, rng.Uint64N(Positions(size))} {
		b, err := Unrank(size, GoalLast, r)
		if err != nil {
			t.Fatal(err)
		}
		if back, err := b.Rank(GoalLast); err != nil || back != r || !b.Solvable(GoalLast) {
			t.Errorf("rank %d → %v → %d, %v", r, b, back, err)
		}
	}
	for range 1000 {
		p, _ := Random(rng, size, GoalFirst)
		b, _ := p.Board()
		r, err := b.Rank(GoalFirst)
		if back, _ := Unrank(size, GoalFirst, r); err != nil || back != b {
			t.Fatalf("%v → %d → %v", b, r, back)
		}
	}
	if _, err := Unrank(size, GoalLast, Positions(size)); err == nil {
		t.Error("rank N!/2 accepted")
	}
	unsolvable, _ := NewBoard(Size{Rows: 2, Cols: 2}, []int{2, 1, 3, 0})
	if _, err := unsolvable.Rank(GoalLast); err == nil {
		t.Error("an unsolvable position was ranked")
	}
}

// TestRandomNilSource checks that a nil source draws puzzles too (issue
// 48: it panicked), on boards ranked and not.
func TestRandomNilSource(t *testing.T) {
	for _, size := range []Size{{3, 3}, {5, 5}} {
		p, err := Random(nil, size, GoalLast)
		if err != nil || p.Size != size || !p.Solvable(GoalLast) {
			t.Errorf("%v: %v, %v", size, p, err)
		}
	}
}
