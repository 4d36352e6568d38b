package puzzle

import (
	"errors"
	"slices"
	"testing"
)

// TestCheck checks puzzles of the packed board's sizes and larger
// ones alike: well formed, and solvable toward the goal.
func TestCheck(t *testing.T) {
	six := Size{Rows: 6, Cols: 6}
	solved6 := make([]int, 36)
	for i := range solved6 {
		solved6[i] = (i + 1) % 36
	}
	swapped6 := slices.Clone(solved6)
	swapped6[0], swapped6[1] = swapped6[1], swapped6[0]
	for _, c := range []struct {
		name string
		p    Puzzle
		want error
	}{
		{"3x3", Puzzle{Size: Size{Rows: 3, Cols: 3}, Tiles: []int{1, 2, 3, 4, 5, 6, 7, 0, 8}}, nil},
		{"3x3 unsolvable", Puzzle{Size: Size{Rows: 3, Cols: 3}, Tiles: []int{2, 1, 3, 4, 5, 6, 7, 8, 0}}, ErrUnsolvable},
		{"3x3 repeated tile", Puzzle{Size: Size{Rows: 3, Cols: 3}, Tiles: []int{1, 1, 3, 4, 5, 6, 7, 8, 0}}, ErrTile},
		{"6x6", Puzzle{Size: six, Tiles: solved6}, nil},
		{"6x6 unsolvable", Puzzle{Size: six, Tiles: swapped6}, ErrUnsolvable},
	} {
		if err := c.p.Check(GoalLast); !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if err := (Puzzle{Size: six, Tiles: solved6[1:]}).Check(GoalLast); err == nil {
		t.Error("35 tiles on a 6x6 board: no error")
	}
	// Korf's first instance is solvable toward the blank first: toward the
	// blank last, the error says so (issue 67); a 3x3 puzzle's goals share
	// their parity, and neither is in reach of the one above.
	korf1 := Puzzle{Size: Size{Rows: 4, Cols: 4}, Tiles: []int{14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3}}
	var og *OtherGoalError
	if err := korf1.Check(GoalLast); !errors.Is(err, ErrUnsolvable) || !errors.As(err, &og) || og.Goal != GoalFirst {
		t.Errorf("Korf's first toward the blank last: %v", err)
	}
	if err := (Puzzle{Size: Size{Rows: 3, Cols: 3}, Tiles: []int{2, 1, 3, 4, 5, 6, 7, 8, 0}}).Check(GoalLast); errors.As(err, &og) {
		t.Errorf("a 3x3 puzzle out of reach of both goals: %v", err)
	}
}
