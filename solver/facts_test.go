package solver_test

import (
	"slices"
	"testing"

	"fifteen/puzzle"
	"fifteen/solver"
)

// TestFacts checks what solver tells the commands of the databases: the
// sizes with databases, each one's partitions with its default first, and
// which partitions a size takes.
func TestFacts(t *testing.T) {
	four, five := puzzle.Size{Rows: 4, Cols: 4}, puzzle.Size{Rows: 5, Cols: 5}
	if sizes := solver.DatabaseSizes(); !slices.Equal(sizes, []puzzle.Size{four, five}) {
		t.Errorf("sizes with databases: %v", sizes)
	}
	for size, want := range map[puzzle.Size][]string{four: {"771", "555", "663", "663x2", "78"}, five: {"6666", "6666x2", "6666x7"}} {
		if got := solver.Partitions(size); !slices.Equal(got, want) {
			t.Errorf("%v: partitions %v, want %v", size, got, want)
		}
	}
	for _, c := range []struct {
		partition string
		size      puzzle.Size
		ok        bool
	}{
		{"663x2", four, true}, {"6666", five, true}, {"6666", four, false}, {"1,2,3,4,5,6,7/8,9,10,11,12,13,14,15", four, true}, {"nope", five, false},
	} {
		if err := solver.CheckPartition(c.partition, c.size); (err == nil) != c.ok {
			t.Errorf("CheckPartition(%q, %v): %v", c.partition, c.size, err)
		}
	}
	if order, err := solver.ParseOrder("DRLU"); err != nil || order != [4]puzzle.Move{puzzle.Down, puzzle.Right, puzzle.Left, puzzle.Up} {
		t.Errorf("ParseOrder: %v, %v", order, err)
	}
}
