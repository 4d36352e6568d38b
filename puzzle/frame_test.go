package puzzle

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFrame checks, on every goal blank cell of boards square and not,
// that a frame takes its goal board to its goal of row order, with the
// blank on the first cell of the orbit, that Unframe undoes it, and that
// moves taken back replay on the board as given.
func TestFrame(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []Size{{3, 3}, {3, 4}, {4, 4}, {2, 5}, {5, 5}} {
		n := size.Cells()
		corners := []int{0, size.Cols - 1, n - size.Cols, n - 1}
		for blank := range n {
			target := Puzzle{Size: size, Tiles: rng.Perm(n)}
			i := slices.Index(target.Tiles, 0)
			target.Tiles[i], target.Tiles[blank] = target.Tiles[blank], 0
			f, err := NewFrame(target)
			if err != nil {
				t.Fatal(err)
			}
			b := f.Goal().Blank(n)
			if slices.Contains(corners, blank) != (b == 0) || b > blank || b > n-1-blank {
				t.Errorf("%v goal blank on %d: framed on %d", size, blank, b)
			}
			if got := f.Puzzle(target); !slices.Equal(got.Tiles, Solved(size, f.Goal()).Tiles) {
				t.Fatalf("%v goal %v framed as %v, want %v", size, target, got, Solved(size, f.Goal()))
			}
			// A walk from the goal, and the same walk framed.
			p := f.Unframe(Solved(size, f.Goal()))
			if !slices.Equal(p.Tiles, target.Tiles) {
				t.Fatalf("%v: Unframe of the framed goal is not the goal", size)
			}
			var walk []Move
			for range 60 {
				m := Moves[rng.IntN(4)]
				if q, _, err := p.Apply([]Move{m}); err == nil {
					p, walk = q, append(walk, m)
				}
			}
			if !slices.Equal(p.Tiles, f.Unframe(f.Puzzle(p)).Tiles) {
				t.Fatalf("%v: Unframe(Puzzle(p)) is not p", size)
			}
			framedEnd, _, err := f.Puzzle(target).Apply(framedMoves(f, walk))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(framedEnd.Tiles, f.Puzzle(p).Tiles) {
				t.Fatalf("%v goal blank %d: a framed walk does not end on the framed end", size, blank)
			}
			back := framedMoves(f, walk)
			f.Back(back)
			if !slices.Equal(back, walk) {
				t.Fatalf("%v: Back does not take framed moves back", size)
			}
			if err := f.Check(p); err != nil {
				t.Fatalf("%v: a walk from the goal: %v", size, err)
			}
			p.Tiles[slices.Index(p.Tiles, 1)], p.Tiles[slices.Index(p.Tiles, 2)] = 2, 1
			if err := f.Check(p); err == nil {
				t.Fatalf("%v: two tiles swapped, and still solvable", size)
			}
		}
	}
}

func framedMoves(f Frame, moves []Move) []Move {
	out := make([]Move, len(moves))
	for i, m := range moves {
		out[i] = f.move[m]
	}
	return out
}

func TestFrameRefuses(t *testing.T) {
	for _, target := range []Puzzle{
		{Size: Size{3, 3}, Tiles: []int{1, 2, 3, 4, 5, 6, 7, 8}},
		{Size: Size{3, 3}, Tiles: []int{1, 1, 3, 4, 5, 6, 7, 8, 0}},
		{Size: Size{6, 6}, Tiles: make([]int, 36)},
	} {
		if _, err := NewFrame(target); err == nil {
			t.Errorf("goal %v: no error", target.Tiles)
		}
	}
	f, err := NewFrame(Solved(Size{3, 3}, GoalFirst))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Check(Solved(Size{2, 4}, GoalFirst)); err == nil {
		t.Error("a 2x4 puzzle toward a 3x3 goal: no error")
	}
}
