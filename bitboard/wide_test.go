package bitboard_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"fifteen/bitboard"
	"fifteen/construct"
)

// wideSizes are boards beyond the 16 cells of the pattern databases, up to
// bitboard.MaxCells.
var wideSizes = []bitboard.Size{{Rows: 4, Cols: 5}, {Rows: 5, Cols: 5}, {Rows: 4, Cols: 8}, {Rows: 5, Cols: 6}}

// TestWideBoards checks boards of more than 16 cells against construct's
// grids, which hold any size as plain slices: random moves, solvability
// of random positions of both parities, and the rotation between the goal
// conventions.
func TestWideBoards(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 0))
	for _, size := range wideSizes {
		t.Run(size.String(), func(t *testing.T) {
			for range 200 {
				g := construct.Grid{Rows: size.Rows, Cols: size.Cols, Tiles: rng.Perm(size.Cells())}
				b, err := bitboard.New(size, g.Tiles)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(b.Tiles(), g.Tiles) || b.Size() != size || b.Tile(b.Blank()) != 0 {
					t.Fatalf("%v: New gives %v", g.Tiles, b)
				}
				for _, goal := range []bitboard.Goal{bitboard.GoalLast, bitboard.GoalFirst} {
					if b.Solvable(goal) != g.Solvable(goal) {
						t.Fatalf("%v: Solvable(%v) = %v, construct says %v", b, goal, b.Solvable(goal), g.Solvable(goal))
					}
				}
				if r := b.Rotate(); r.Rotate() != b || r.Solvable(bitboard.GoalFirst) != b.Solvable(bitboard.GoalLast) {
					t.Fatalf("%v: rotated %v", b, r)
				}
				moves := make([]bitboard.Move, 50)
				for i := range moves {
					moves[i] = bitboard.Move(rng.IntN(4))
				}
				end, err := b.Apply(moves)
				want, _, werr := g.Play(moves)
				if (err == nil) != (werr == nil) || err == nil && !slices.Equal(end.Tiles(), want.Tiles) {
					t.Fatalf("%v after %s: %v (%v), construct: %v (%v)", b, bitboard.FormatMoves(moves), end, err, want.Tiles, werr)
				}
			}
			for _, goal := range []bitboard.Goal{bitboard.GoalLast, bitboard.GoalFirst} {
				solved := bitboard.Solved(size, goal)
				if !slices.Equal(solved.Tiles(), construct.Solved(size.Rows, size.Cols, goal).Tiles) || solved.Rotate() != bitboard.Solved(size, 1-goal) {
					t.Errorf("%v: the goal %v is %v", size, goal, solved)
				}
			}
		})
	}
}

// TestWideRandom draws random positions of wide boards: valid, solvable,
// and different, also on boards too large to rank.
func TestWideRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 0))
	for _, size := range wideSizes {
		seen := map[bitboard.Board]bool{}
		for _, goal := range []bitboard.Goal{bitboard.GoalLast, bitboard.GoalFirst} {
			for range 100 {
				b, err := bitboard.Random(rng, size, goal)
				if err != nil || b.Size() != size || !b.Solvable(goal) || seen[b] {
					t.Fatalf("%v: Random gives %v, %v, or again", size, b, err)
				}
				seen[b] = true
			}
		}
	}
}

// TestRankLimit numbers positions of the largest rankable board, 20 cells,
// and refuses larger ones.
func TestRankLimit(t *testing.T) {
	size := bitboard.Size{Rows: 4, Cols: 5}
	if got, want := bitboard.Positions(size), uint64(1216451004088320000); got != want {
		t.Fatalf("Positions(4x5) = %d, want 20!/2 = %d", got, want)
	}
	rng := rand.New(rand.NewPCG(20, 0))
	for _, r := range []uint64{0, bitboard.Positions(size) - 1, rng.Uint64N(bitboard.Positions(size))} {
		b, err := bitboard.Unrank(size, bitboard.GoalFirst, r)
		if err != nil {
			t.Fatal(err)
		}
		if back, err := b.Rank(bitboard.GoalFirst); err != nil || back != r {
			t.Errorf("rank %d: %v ranks as %d, %v", r, b, back, err)
		}
	}
	five := bitboard.Size{Rows: 5, Cols: 5}
	if bitboard.Positions(five) != 0 {
		t.Errorf("Positions(5x5) = %d, want 0: 25!/2 does not fit", bitboard.Positions(five))
	}
	if _, err := bitboard.Unrank(five, bitboard.GoalFirst, 0); !errors.Is(err, bitboard.ErrRank) {
		t.Errorf("Unrank on 5x5: %v, want ErrRank", err)
	}
	if _, err := bitboard.Solved(five, bitboard.GoalFirst).Rank(bitboard.GoalFirst); !errors.Is(err, bitboard.ErrRank) {
		t.Errorf("Rank on 5x5: %v, want ErrRank", err)
	}
}
