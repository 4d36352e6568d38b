// Package puzzle is the model of the sliding-tile puzzles: a board's size,
// the goals (the conventions, and a frame for any goal board), the
// blank's moves, and the Puzzle, a position of any size up to MaxCells
// cells with its label, with the rules every solver shares (well formed, solvable, the moves' effect, the rotation
// between the goals), a reader of puzzle files, and random positions.
//
// Board is the same position packed into a fixed array, a byte a cell, for
// boards of up to MaxBoardCells cells: comparable, free to copy, and
// rankable. The optimal search and the pattern databases work on Boards;
// everything else takes Puzzles.
//
// Cells are numbered in row-major order from 0. Tile 0 is the blank. A move
// names the direction in which the blank travels: Up moves the blank one row
// up, so the tile above it slides down.
package puzzle

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The size limits, each for one purpose.
const (
	// MaxCells is the largest puzzle any solver takes: the constructive
	// solver's, whose cell numbers fit a byte.
	MaxCells = 255
	// MaxBoardCells is the largest number of cells a Board holds, and so
	// the largest puzzle the optimal search serves: a set of its cells
	// fits a 32-bit mask.
	MaxBoardCells = 32
)

// Size is a board's shape.
type Size struct {
	Rows, Cols int
}

// Cells returns the number of cells, Rows×Cols.
func (s Size) Cells() int { return s.Rows * s.Cols }

// String formats the size as ROWSxCOLS, for example "4x4".
func (s Size) String() string { return fmt.Sprintf("%dx%d", s.Rows, s.Cols) }

// Valid reports whether a puzzle can be of this size: at least 2 rows and
// 2 columns, and at most MaxCells cells.
func (s Size) Valid() error { return s.validUpTo(MaxCells) }

// ValidBoard reports whether a packed Board, and so the optimal search,
// can be of this size: a valid size of at most MaxBoardCells cells.
func (s Size) ValidBoard() error { return s.validUpTo(MaxBoardCells) }

func (s Size) validUpTo(maxCells int) error {
	// Each side is checked alone first, so that their product cannot overflow.
	if s.Rows < 2 || s.Cols < 2 || s.Rows > maxCells || s.Cols > maxCells || s.Cells() > maxCells {
		if maxCells == MaxBoardCells && s.validUpTo(MaxCells) == nil {
			// Issue 76: the way to larger boards was not named.
			return fmt.Errorf("unsupported size %v: the optimal and weighted searches take at most %d cells; the constructive mode, not optimal, takes up to %d", s, maxCells, MaxCells)
		}
		return fmt.Errorf("unsupported size %v: need at least 2 rows and 2 columns and at most %d cells", s, maxCells)
	}
	return nil
}

// ParseSize parses "ROWSxCOLS" ("3x4") or a single number N for N×N ("4")
// of a size a packed Board can be.
func ParseSize(s string) (Size, error) { return ParseSizeUpTo(s, MaxBoardCells) }

// ParseSizeUpTo parses a size as ParseSize does, of at least 2×2 and at
// most maxCells cells (MaxCells at most), for callers that take puzzles
// bigger than a Board.
func ParseSizeUpTo(s string, maxCells int) (Size, error) {
	size, ok := parseSize(s)
	if !ok {
		return Size{}, errBadSize(s)
	}
	return size, size.validUpTo(min(maxCells, MaxCells))
}

// errBadSize is the error of s, which is not the syntax of a size.
func errBadSize(s string) error { return fmt.Errorf("bad size %q: want ROWSxCOLS or N", s) }

// parseSize parses the syntax of a size, ROWSxCOLS or N, of any positive
// sides, without checking that a puzzle can be of it.
func parseSize(s string) (Size, bool) {
	r, c, found := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if !found {
		c = r
	}
	rows, err1 := strconv.Atoi(r)
	cols, err2 := strconv.Atoi(c)
	return Size{rows, cols}, err1 == nil && err2 == nil && rows > 0 && cols > 0
}

// sizeForTiles returns the square size with a cell for each of the
// tiles (9 → 3×3, 16 → 4×4) of at most maxCells cells. For a count that is
// no such square, it names the square board that the tiles fit best, how
// many it has, and which tiles are missing or extra.
func sizeForTiles(tiles []string, maxCells int) (Size, error) {
	n := len(tiles)
	k := int(math.Sqrt(float64(n)))
	if k*k == n && k >= 2 {
		return Size{k, k}, Size{k, k}.validUpTo(maxCells)
	}
	var best Size // the square board the tiles fit best
	var missing, extra []string
	for _, k := range []int{k, k + 1} {
		size := Size{k, k}
		if size.validUpTo(maxCells) != nil {
			continue
		}
		m, e := misfits(tiles, size)
		if best == (Size{}) || len(m)+len(e) < len(missing)+len(extra) {
			best, missing, extra = size, m, e
		}
	}
	if best == (Size{}) {
		return Size{}, fmt.Errorf("%d tiles: want a square number of at most %d", n, maxCells)
	}
	return Size{}, fmt.Errorf("%d tiles: a %v board has %d, 0 to %d%s%s (other shapes use a ROWSxCOLS block header)",
		n, best, best.Cells(), best.Cells()-1, listTiles(missing, "missing"), listTiles(extra, "extra"))
}

// misfits returns the tiles of a board of size that tiles lack, and
// those of tiles that are not its or repeat one.
func misfits(tiles []string, size Size) (missing, extra []string) {
	seen := make([]bool, size.Cells())
	for _, t := range tiles {
		v, err := strconv.Atoi(t)
		if err != nil || v < 0 || v >= len(seen) || seen[v] {
			extra = append(extra, t)
			continue
		}
		seen[v] = true
	}
	for v, ok := range seen {
		if !ok {
			missing = append(missing, strconv.Itoa(v))
		}
	}
	return missing, extra
}

// listTiles returns "; T is what" or "; T, U are what" for a few tiles, "; N
// tiles are what" for more, and "" for none.
func listTiles(tiles []string, what string) string {
	switch n := len(tiles); {
	case n == 0:
		return ""
	case n == 1:
		return fmt.Sprintf("; %s is %s", tiles[0], what)
	case n <= 3:
		return fmt.Sprintf("; %s are %s", strings.Join(tiles, ", "), what)
	default:
		return fmt.Sprintf("; %d tiles are %s", n, what)
	}
}

// Move is a direction in which the blank travels.
type Move uint8

// The four moves. Their order is Korf's (1985) order of trying them.
const (
	Up Move = iota
	Left
	Right
	Down
)

// Moves lists the four moves in Korf's order.
var Moves = [4]Move{Up, Left, Right, Down}

// String returns the move's letter: U, L, R or D.
func (m Move) String() string { return "ULRD"[m : m+1] }

// Opposite returns the move that undoes m. It is also m as seen on the board
// rotated by 180°.
func (m Move) Opposite() Move { return 3 - m }

// ParseMoves parses a string of move letters such as "ULLDR".
func ParseMoves(s string) ([]Move, error) {
	moves := make([]Move, 0, len(s))
	for i, c := range []byte(s) {
		k := strings.IndexByte("ULRD", c)
		if k < 0 {
			return nil, fmt.Errorf("bad move %q at %d: want U, L, R or D", c, i)
		}
		moves = append(moves, Move(k))
	}
	return moves, nil
}

// FormatMoves returns the moves' letters as one string.
func FormatMoves(moves []Move) string {
	var sb strings.Builder
	for _, m := range moves {
		sb.WriteString(m.String())
	}
	return sb.String()
}

// Neighbor returns the cell that the blank reaches from cell p by move m on
// a board of the given size, or -1 where m leaves the board.
func (s Size) Neighbor(p int, m Move) int {
	r, c := p/s.Cols, p%s.Cols
	switch m {
	case Up:
		r--
	case Down:
		r++
	case Left:
		c--
	case Right:
		c++
	}
	if r < 0 || r >= s.Rows || c < 0 || c >= s.Cols {
		return -1
	}
	return r*s.Cols + c
}

// Distance returns the taxicab distance between cells a and b.
func (s Size) Distance(a, b int) int {
	return abs(a/s.Cols-b/s.Cols) + abs(a%s.Cols-b%s.Cols)
}

// Puzzle is a position to solve: a board of any valid size, its tiles in
// row-major order, 0 the blank, with a label and, where known, the optimal
// solution's length. Its methods read Tiles and never change them.
type Puzzle struct {
	ID    string // a label for results and profiles; may be empty
	Size  Size
	Tiles []int
	// Optimal, if not 0, is the known optimal length: a solver reports a
	// solution that contradicts it as a wrong answer.
	Optimal int
}

// Errors that Valid reports, wrapped with details.
var (
	ErrTileCount = errors.New("wrong number of tiles")
	ErrTile      = errors.New("bad tile")
)

// ErrUnsolvable is the error of every package of the module for a
// position whose goal is out of reach (see Puzzle.Solvable).
var ErrUnsolvable = errors.New("unsolvable: permutation parity does not match the blank's position")

// Valid reports whether the puzzle is well formed: a valid size, and every
// tile 0..Cells-1 exactly once.
func (p Puzzle) Valid() error {
	if err := p.Size.Valid(); err != nil {
		return err
	}
	n := p.Size.Cells()
	if len(p.Tiles) != n {
		return fmt.Errorf("%w: %d tiles for a %v board, want %d", ErrTileCount, len(p.Tiles), p.Size, n)
	}
	var seen [MaxCells]bool
	for _, t := range p.Tiles {
		if t < 0 || t >= n {
			return fmt.Errorf("%w: tile %d out of range 0..%d", ErrTile, t, n-1)
		}
		if seen[t] {
			return fmt.Errorf("%w: tile %d appears twice", ErrTile, t)
		}
		seen[t] = true
	}
	return nil
}

// Check reports whether the puzzle is well formed (Valid) and solvable
// toward goal g: ErrUnsolvable if not, as an *OtherGoalError where the
// other goal is in reach.
func (p Puzzle) Check(g Goal) error {
	if err := p.Valid(); err != nil {
		return err
	}
	switch {
	case p.Solvable(g):
		return nil
	case g.Convention() && p.Solvable(g.Other(len(p.Tiles))):
		return &OtherGoalError{Goal: g.Other(len(p.Tiles))}
	}
	return ErrUnsolvable
}

// OtherGoalError is Check's error for a puzzle out of reach of its goal
// but not of the other convention's, such as Korf's instances, which are
// given toward the blank first, solved toward the blank last: the
// commands name what would take the puzzle there (issue 67).
type OtherGoalError struct {
	Goal Goal // the goal in reach
}

func (e *OtherGoalError) Error() string {
	return fmt.Sprintf("%v; it is solvable toward goal %v", ErrUnsolvable, e.Goal)
}

func (e *OtherGoalError) Unwrap() error { return ErrUnsolvable }

// Solvable reports whether goal g can be reached from
// the well-formed puzzle p. Every move swaps the blank with a tile, so it
// flips both the parity of the permutation that takes the board to the
// goal and the parity of the blank's taxicab distance from its home; the
// two parities are equal exactly on the solvable half of the positions,
// for any width and height.
func (p Puzzle) Solvable(g Goal) bool {
	n := len(p.Tiles)
	// Parity of the permutation cell → home cell of the tile on it, from its
	// cycle count (no subtraction of indices, so no negative remainders).
	var seen [MaxCells]bool
	cycles := 0
	for i := range n {
		if seen[i] {
			continue
		}
		cycles++
		for j := i; !seen[j]; j = g.Home(p.Tiles[j], n) {
			seen[j] = true
		}
	}
	return (n-cycles)%2 == p.Size.Distance(p.Blank(), g.Home(0, n))%2
}

// Solved returns goal g on a board of the valid size.
func Solved(size Size, g Goal) Puzzle {
	p := Puzzle{Size: size, Tiles: make([]int, size.Cells())}
	for t := range p.Tiles {
		p.Tiles[g.Home(t, len(p.Tiles))] = t
	}
	return p
}

// Blank returns the blank's cell, or -1 if the puzzle has none.
func (p Puzzle) Blank() int { return slices.Index(p.Tiles, 0) }

// Apply plays the blank's moves on a copy of the well-formed puzzle and
// returns the position they reach and the tile each slid, or an error
// naming the first move that leaves the board.
func (p Puzzle) Apply(moves []Move) (Puzzle, []int, error) {
	p.Tiles = slices.Clone(p.Tiles)
	slid := make([]int, len(moves))
	blank := p.Blank()
	for i, m := range moves {
		q := p.Size.Neighbor(blank, m)
		if q < 0 {
			return Puzzle{}, nil, fmt.Errorf("move %d (%v) leaves the board", i+1, m)
		}
		slid[i] = p.Tiles[q]
		p.Tiles[blank], p.Tiles[q] = slid[i], 0
		blank = q
	}
	return p, slid, nil
}

// Rotate returns the puzzle turned by 180° with every tile t relabelled
// N−t (the blank stays 0). It maps the goal of one convention onto the
// other's, and a solution m1…mk of p onto the solution
// m1.Opposite()…mk.Opposite() of p.Rotate(), so one set of databases
// serves both conventions, and one way of placing tiles serves both.
// Rotating twice gives the puzzle back.
func (p Puzzle) Rotate() Puzzle {
	n := len(p.Tiles)
	r := p
	r.Tiles = make([]int, n)
	for i, t := range p.Tiles {
		if t != 0 {
			r.Tiles[n-1-i] = n - t
		}
	}
	return r
}

// Board returns the puzzle packed as a Board: an error if it is not well
// formed or has more than MaxBoardCells cells.
func (p Puzzle) Board() (Board, error) {
	if err := p.Size.ValidBoard(); err != nil {
		return Board{}, err
	}
	if err := p.Valid(); err != nil {
		return Board{}, err
	}
	return pack(p), nil
}

// String returns the tiles in row-major order separated by spaces.
func (p Puzzle) String() string {
	var sb strings.Builder
	for i, t := range p.Tiles {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(strconv.Itoa(t))
	}
	return sb.String()
}

// Line returns the puzzle as one line that a Reader reads back as the
// same puzzle: its label, then its size unless the board is square, then
// its tiles ("a: 1 2 3 4 5 6 7 0 8", "b: 2x3 1 2 3 4 0 5").
func (p Puzzle) Line() string {
	if p.Size.Rows == p.Size.Cols {
		return p.ID + ": " + p.String()
	}
	return p.ID + ": " + p.Size.String() + " " + p.String()
}

// Grid returns the board drawn as boxes, one line per row and a border
// line between rows; the blank is an empty box.
//
//	+----+----+
//	|  1 |  2 |
//	+----+----+
//	|  3 |    |
//	+----+----+
func (p Puzzle) Grid() string {
	border := strings.Repeat("+----", p.Size.Cols) + "+\n"
	var sb strings.Builder
	sb.WriteString(border)
	for r := range p.Size.Rows {
		for _, t := range p.Tiles[r*p.Size.Cols : (r+1)*p.Size.Cols] {
			if t == 0 {
				sb.WriteString("|    ")
			} else {
				fmt.Fprintf(&sb, "| %2d ", t)
			}
		}
		sb.WriteString("|\n")
		sb.WriteString(border)
	}
	return sb.String()
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
