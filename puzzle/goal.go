package puzzle

import "fmt"

// Goal is a goal of row order: the tiles 1 … N-1 in row-major order on
// every cell but the blank's. The two conventions put the blank last or
// first; BlankAt puts it on any cell. Any other goal board is one of these
// relabelled and turned by a symmetry of the board (Frame).
type Goal uint8

const (
	// GoalLast is 1 2 … N-1 with the blank last (bottom right): the goal
	// most people know.
	GoalLast Goal = iota
	// GoalFirst is 0 1 … N-1 with the blank first (top left): Korf's goal.
	GoalFirst
)

// The goal with the blank on cell c is Goal(c+1), except on the last
// cell, GoalLast: so GoalFirst is the blank on cell 0, and each goal has
// one value.

// BlankAt returns the goal of row order with the blank on cell c of a
// board of n cells: GoalFirst for cell 0, GoalLast for cell n-1.
func BlankAt(c, n int) Goal {
	if c == n-1 {
		return GoalLast
	}
	return Goal(c + 1)
}

// Blank returns the goal's blank cell on a board of n cells.
func (g Goal) Blank(n int) int {
	if g == GoalLast {
		return n - 1
	}
	return int(g) - 1
}

// Convention reports whether g is one of the two conventions, first or
// last.
func (g Goal) Convention() bool { return g <= GoalFirst }

// Fits reports whether g is a goal of a board of n cells: its blank
// lies on the board.
func (g Goal) Fits(n int) bool { return g.Blank(n) < n }

// String returns "last", "first", or "blankC" for the blank on cell C.
func (g Goal) String() string {
	switch g {
	case GoalLast:
		return "last"
	case GoalFirst:
		return "first"
	}
	return fmt.Sprintf("blank%d", int(g)-1)
}

// ParseGoal parses "first" or "last".
func ParseGoal(s string) (Goal, error) {
	switch s {
	case "first":
		return GoalFirst, nil
	case "last":
		return GoalLast, nil
	}
	return 0, fmt.Errorf("bad goal %q: want first or last", s)
}

// Other returns the other goal convention; of a goal with the blank
// elsewhere, the goal that Rotate maps it to.
func (g Goal) Other(n int) Goal { return BlankAt(n-1-g.Blank(n), n) }

// Home returns the cell where tile t belongs under goal g on n cells: the
// blank's cell for tile 0, else the t-th of the other cells.
func (g Goal) Home(t, n int) int {
	b := g.Blank(n)
	switch {
	case t == 0:
		return b
	case t-1 < b:
		return t - 1
	}
	return t
}

// TileOn returns the tile that belongs on cell c under goal g on n cells:
// Home's inverse.
func (g Goal) TileOn(c, n int) int {
	b := g.Blank(n)
	switch {
	case c == b:
		return 0
	case c < b:
		return c + 1
	}
	return c
}
