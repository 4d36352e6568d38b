package solver_test

import (
	"testing"

	"fifteen/puzzle"
	"fifteen/solver"
)

// TestFits checks which board sizes a Config's databases serve: its
// partition's size, or, without one, every size.
func TestFits(t *testing.T) {
	four, five, three := puzzle.Size{Rows: 4, Cols: 4}, puzzle.Size{Rows: 5, Cols: 5}, puzzle.Size{Rows: 3, Cols: 3}
	for _, c := range []struct {
		partition string
		size      puzzle.Size
		fits      bool
	}{
		{"", four, true}, {"", three, true}, {"663x2", four, true}, {"6666", five, true}, {"6666", four, false},
		{"1,2,3,4,5,6,7/8,9,10,11,12,13,14,15", four, true}, {"1,2,3,4/5,6,7,8", three, true}, {"1,2,3,4/5,6,7,8", four, false},
		{"766", puzzle.Size{Rows: 4, Cols: 5}, true}, {"766", four, false}, // the rule's 4x5 default, by name
	} {
		cfg := solver.Config{Partition: c.partition}
		if got := cfg.Fits(c.size); got != c.fits {
			t.Errorf("partition %q: Fits(%v) = %v", c.partition, c.size, got)
		}
	}
}
