package puzzle

import (
	"slices"
	"testing"
)

// TestGoalsOfRowOrder checks the goals with the blank on each cell: one
// value each (the conventions at either end), Home and TileOn inverse,
// and Rotate taking each goal to its Other.
func TestGoalsOfRowOrder(t *testing.T) {
	for _, size := range []Size{{3, 3}, {4, 4}, {4, 5}} {
		n := size.Cells()
		seen := map[Goal]bool{}
		for c := range n {
			g := BlankAt(c, n)
			if g.Blank(n) != c || seen[g] || !g.Fits(n) || g.Convention() != (c == 0 || c == n-1) {
				t.Fatalf("%v, blank on %d: goal %v, blank %d", size, c, g, g.Blank(n))
			}
			seen[g] = true
			for cell := range n {
				if g.Home(g.TileOn(cell, n), n) != cell {
					t.Fatalf("%v goal %v: cell %d's tile's home is not the cell", size, g, cell)
				}
			}
			if !slices.Equal(Solved(size, g).Rotate().Tiles, Solved(size, g.Other(n)).Tiles) {
				t.Fatalf("%v goal %v: its rotation is not goal %v", size, g, g.Other(n))
			}
		}
		if BlankAt(0, n) != GoalFirst || BlankAt(n-1, n) != GoalLast || BlankAt(n, n).Fits(n) {
			t.Fatalf("%v: the conventions are not the blank on the first and last cells", size)
		}
	}
	if got := BlankAt(5, 16).String(); got != "blank5" {
		t.Errorf("String: %s, want blank5", got)
	}
}
