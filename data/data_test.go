package data

import (
	"testing"

	"fifteen/bitboard"
)

func TestKorf100(t *testing.T) {
	set := Korf100()
	if len(set) != 100 {
		t.Fatalf("%d instances, want 100", len(set))
	}
	sum := 0
	for _, in := range set {
		sum += in.Optimal
		if !in.Board.Solvable(bitboard.GoalFirst) {
			t.Errorf("%s is unsolvable under Korf's goal", in.ID)
		}
	}
	// The file's header: the optimal lengths sum to 5305; instance 1 is 57 moves.
	if sum != 5305 || set[0].Optimal != 57 || set[0].ID != "korf1" {
		t.Errorf("lengths sum to %d, instance 1 is %s with %d moves", sum, set[0].ID, set[0].Optimal)
	}
}

func TestParseSetErrors(t *testing.T) {
	for _, text := range []string{"1 57 1 2 3\n", "1 x 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n", "1 57 14 14 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n"} {
		if _, err := parseSet(text); err == nil {
			t.Errorf("parseSet(%q) accepted", text)
		}
	}
}
