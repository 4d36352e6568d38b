package puzzle_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"fifteen/puzzle"
)

// wideSizes are boards beyond the 16 cells of the pattern databases, up to
// puzzle.MaxBoardCells.
var wideSizes = []puzzle.Size{{Rows: 4, Cols: 5}, {Rows: 5, Cols: 5}, {Rows: 4, Cols: 8}, {Rows: 5, Cols: 6}}

// TestWideBoards checks boards of more than 16 cells: packing and
// unpacking, the packed board's moves against the puzzle's, solvability
// of random walks from the goal (solvable) and of the same with two tiles
// swapped (not), and the rotation between the goal conventions.
func TestWideBoards(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 0))
	for _, size := range wideSizes {
		t.Run(size.String(), func(t *testing.T) {
			for _, goal := range []puzzle.Goal{puzzle.GoalLast, puzzle.GoalFirst} {
				solved := puzzle.Solved(size, goal)
				if b := puzzle.SolvedBoard(size, goal); !slices.Equal(b.Puzzle().Tiles, solved.Tiles) || b.Rotate() != puzzle.SolvedBoard(size, 1-goal) {
					t.Errorf("%v: the goal %v is %v", size, goal, b)
				}
				for range 100 {
					// A walk on the board, then a move that may leave it.
					var moves []puzzle.Move
					for blank := solved.Blank(); len(moves) < 50; {
						m := puzzle.Move(rng.IntN(4))
						if next := size.Neighbor(blank, m); next >= 0 {
							moves, blank = append(moves, m), next
						}
					}
					moves = append(moves, puzzle.Move(rng.IntN(4)))
					p, slid, err := solved.Apply(moves)
					b, berr := puzzle.SolvedBoard(size, goal).Apply(moves)
					if (err == nil) != (berr == nil) || err == nil && (!slices.Equal(b.Puzzle().Tiles, p.Tiles) || len(slid) != len(moves)) {
						t.Fatalf("%v after %s: %v (%v), packed: %v (%v)", solved, puzzle.FormatMoves(moves), p, err, b, berr)
					}
					if err != nil {
						continue
					}
					if back, err := p.Board(); err != nil || back != b || b.Size() != size || b.Tile(b.Blank()) != 0 {
						t.Fatalf("%v packs as %v, %v", p, back, err)
					}
					if !p.Solvable(goal) || !b.Solvable(goal) || p.Rotate().Rotate().String() != p.String() || !b.Rotate().Solvable(1-goal) {
						t.Fatalf("%v: a walk from the goal %v is unsolvable, or its rotation", p, goal)
					}
					one, two := slices.Index(p.Tiles, 1), slices.Index(p.Tiles, 2)
					p.Tiles[one], p.Tiles[two] = 2, 1
					if err := p.Check(goal); !errors.Is(err, puzzle.ErrUnsolvable) {
						t.Fatalf("%v (two tiles swapped): Check says %v", p, err)
					}
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
		seen := map[puzzle.Board]bool{}
		for _, goal := range []puzzle.Goal{puzzle.GoalLast, puzzle.GoalFirst} {
			for range 100 {
				p, err := puzzle.Random(rng, size, goal)
				b, berr := p.Board()
				if err != nil || berr != nil || b.Size() != size || !b.Solvable(goal) || seen[b] {
					t.Fatalf("%v: Random gives %v, %v, or again", size, p, err)
				}
				seen[b] = true
			}
		}
	}
}

// TestRankLimit numbers positions of the largest rankable board, 20 cells,
// and refuses larger ones.
func TestRankLimit(t *testing.T) {
	size := puzzle.Size{Rows: 4, Cols: 5}
	if got, want := puzzle.Positions(size), uint64(1216451004088320000); got != want {
		t.Fatalf("Positions(4x5) = %d, want 20!/2 = %d", got, want)
	}
	rng := rand.New(rand.NewPCG(20, 0))
	for _, r := range []uint64{0, puzzle.Positions(size) - 1, rng.Uint64N(puzzle.Positions(size))} {
		b, err := puzzle.Unrank(size, puzzle.GoalFirst, r)
		if err != nil {
			t.Fatal(err)
		}
		if back, err := b.Rank(puzzle.GoalFirst); err != nil || back != r {
			t.Errorf("rank %d: %v ranks as %d, %v", r, b, back, err)
		}
	}
	five := puzzle.Size{Rows: 5, Cols: 5}
	if puzzle.Positions(five) != 0 {
		t.Errorf("Positions(5x5) = %d, want 0: 25!/2 does not fit", puzzle.Positions(five))
	}
	if _, err := puzzle.Unrank(five, puzzle.GoalFirst, 0); !errors.Is(err, puzzle.ErrRank) {
		t.Errorf("Unrank on 5x5: %v, want ErrRank", err)
	}
	if _, err := puzzle.SolvedBoard(five, puzzle.GoalFirst).Rank(puzzle.GoalFirst); !errors.Is(err, puzzle.ErrRank) {
		t.Errorf("Rank on 5x5: %v, want ErrRank", err)
	}
}
