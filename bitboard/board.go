// Package bitboard represents sliding-tile puzzles of up to 32 cells
// (the 24-puzzle's 5×5 among them) as compact boards, a byte a cell, and
// provides the moves, goal conventions, solvability test, ranking,
// parsing and formatting that the solver and the pattern databases build
// on.
//
// Cells are numbered in row-major order from 0. Tile 0 is the blank. A move
// names the direction in which the blank travels: Up moves the blank one row
// up, so the tile above it slides down.
package bitboard

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MaxCells is the largest number of cells a Board holds, and so the
// largest board the optimal search serves: a set of its cells fits a
// 32-bit mask.
const MaxCells = 32

// MaxGridCells is the largest board any solver takes, by its tiles rather
// than as a Board: the constructive solver's, whose cell numbers fit a
// byte.
const MaxGridCells = 255

// Size is a board's shape.
type Size struct {
	Rows, Cols int
}

// Cells returns the number of cells, Rows×Cols.
func (s Size) Cells() int { return s.Rows * s.Cols }

// String formats the size as ROWSxCOLS, for example "4x4".
func (s Size) String() string { return fmt.Sprintf("%dx%d", s.Rows, s.Cols) }

// Valid reports whether a Board can be of this size: at least 2 rows and
// 2 columns, and at most MaxCells cells.
func (s Size) Valid() error { return s.validUpTo(MaxCells) }

func (s Size) validUpTo(maxCells int) error {
	// Each side is checked alone first, so that their product cannot overflow.
	if s.Rows < 2 || s.Cols < 2 || s.Rows > maxCells || s.Cols > maxCells || s.Cells() > maxCells {
		return fmt.Errorf("unsupported size %v: need at least 2 rows and 2 columns and at most %d cells", s, maxCells)
	}
	return nil
}

// ParseSize parses "ROWSxCOLS" ("3x4") or a single number N for N×N ("4")
// of a size a Board can be.
func ParseSize(s string) (Size, error) { return ParseSizeUpTo(s, MaxCells) }

// ParseSizeUpTo parses a size as ParseSize does, of at least 2×2 and at
// most maxCells cells, for callers that handle boards bigger than a
// Board (by their tiles).
func ParseSizeUpTo(s string, maxCells int) (Size, error) {
	r, c, found := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if !found {
		c = r
	}
	rows, err1 := strconv.Atoi(r)
	cols, err2 := strconv.Atoi(c)
	if err1 != nil || err2 != nil {
		return Size{}, fmt.Errorf("bad size %q: want ROWSxCOLS or N", s)
	}
	size := Size{rows, cols}
	return size, size.validUpTo(maxCells)
}

// sizeForCount returns the square size with n cells (9 → 3×3, 16 → 4×4) of
// at most maxCells cells.
func sizeForCount(n, maxCells int) (Size, error) {
	for k := 2; k*k <= maxCells; k++ {
		if k*k == n {
			return Size{k, k}, nil
		}
	}
	return Size{}, fmt.Errorf("%d tiles: want a square number of at most %d (other shapes use a ROWSxCOLS block header)", n, maxCells)
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

// Goal is a goal convention.
type Goal uint8

const (
	// GoalLast is 1 2 … N-1 with the blank last (bottom right): the goal
	// most people know.
	GoalLast Goal = iota
	// GoalFirst is 0 1 … N-1 with the blank first (top left): Korf's goal.
	GoalFirst
)

// String returns "last" or "first".
func (g Goal) String() string {
	if g == GoalFirst {
		return "first"
	}
	return "last"
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

// Home returns the cell where tile t belongs under goal g on n cells.
func (g Goal) Home(t, n int) int {
	if g == GoalFirst {
		return t
	}
	return (t + n - 1) % n
}

// Board is a puzzle position: the tile on each cell, a byte a cell, with
// its shape and the blank's cell kept beside it. Boards are comparable, so
// they can key maps. The zero Board is not a valid position; make one with
// New or Solved.
type Board struct {
	cells      [MaxCells]uint8
	rows, cols uint8
	blank      uint8
}

// Errors that New reports, wrapped with details.
var (
	ErrTileCount = errors.New("wrong number of tiles")
	ErrTile      = errors.New("bad tile")
)

// ErrUnsolvable is the error of every package of the module for a
// position whose goal is out of reach (see Board.Solvable).
var ErrUnsolvable = errors.New("unsolvable: permutation parity does not match the blank's position")

// New returns the board of the given size holding tiles in row-major order.
// Every tile 0..Cells-1 must appear exactly once.
func New(size Size, tiles []int) (Board, error) {
	if err := size.Valid(); err != nil {
		return Board{}, err
	}
	if err := checkTiles(size, tiles); err != nil {
		return Board{}, err
	}
	b := Board{rows: uint8(size.Rows), cols: uint8(size.Cols)}
	for i, t := range tiles {
		b.cells[i] = uint8(t)
		if t == 0 {
			b.blank = uint8(i)
		}
	}
	return b, nil
}

// checkTiles checks that tiles holds every tile of the size exactly once.
func checkTiles(size Size, tiles []int) error {
	n := size.Cells()
	if len(tiles) != n {
		return fmt.Errorf("%w: %d tiles for a %v board, want %d", ErrTileCount, len(tiles), size, n)
	}
	var seen [256]bool // sizes stop at 255 cells
	for _, t := range tiles {
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

// Solved returns the goal board of the given size under convention g.
func Solved(size Size, g Goal) Board {
	n := size.Cells()
	tiles := make([]int, n)
	for t := range n {
		tiles[g.Home(t, n)] = t
	}
	b, err := New(size, tiles)
	if err != nil {
		panic(err) // only an invalid size gets here: a programming error
	}
	return b
}

// Size returns the board's shape.
func (b Board) Size() Size { return Size{int(b.rows), int(b.cols)} }

// Blank returns the blank's cell.
func (b Board) Blank() int { return int(b.blank) }

// Tile returns the tile on cell i.
func (b Board) Tile(i int) int { return int(b.cells[i]) }

// Tiles returns the tiles in row-major order.
func (b Board) Tiles() []int {
	tiles := make([]int, b.Size().Cells())
	for i := range tiles {
		tiles[i] = b.Tile(i)
	}
	return tiles
}

// Move returns the board after the blank moves in direction m, and the tile
// that slid; ok is false when m would take the blank off the board.
func (b Board) Move(m Move) (next Board, tile int, ok bool) {
	q := b.Size().Neighbor(int(b.blank), m)
	if q < 0 {
		return b, 0, false
	}
	tile = b.Tile(q)
	b.cells[b.blank], b.cells[q] = uint8(tile), 0
	b.blank = uint8(q)
	return b, tile, true
}

// Apply plays the moves in order and returns the final board, or an error
// naming the first move that leaves the board.
func (b Board) Apply(moves []Move) (Board, error) {
	for i, m := range moves {
		var ok bool
		if b, _, ok = b.Move(m); !ok {
			return b, fmt.Errorf("move %d (%v) leaves the board", i+1, m)
		}
	}
	return b, nil
}

// Rotate returns the board turned by 180° with every tile t relabelled N−t
// (the blank stays 0). It maps the goal of one convention onto the other's,
// and a solution m1…mk of b onto the solution m1.Opposite()…mk.Opposite()
// of b.Rotate(), so one set of databases serves both conventions.
// Rotating twice gives the board back.
func (b Board) Rotate() Board {
	n := b.Size().Cells()
	r := Board{rows: b.rows, cols: b.cols, blank: uint8(n - 1 - int(b.blank))}
	for i := range n {
		if t := b.Tile(i); t != 0 {
			r.cells[n-1-i] = uint8(n - t)
		}
	}
	return r
}

// Solvable reports whether the goal of convention g can be reached. Every
// move swaps the blank with a tile, so it flips both the parity of the
// permutation that takes the board to the goal and the parity of the
// blank's taxicab distance from its home; the two parities are equal
// exactly on the solvable half of the positions, for any width and height.
func (b Board) Solvable(g Goal) bool {
	size := b.Size()
	n := size.Cells()
	// Parity of the permutation cell → home cell of the tile on it, from its
	// cycle count (no subtraction of indices, so no negative remainders).
	var seen uint32
	cycles := 0
	for i := range n {
		if seen&(1<<i) != 0 {
			continue
		}
		cycles++
		for j := i; seen&(1<<j) == 0; j = g.Home(b.Tile(j), n) {
			seen |= 1 << j
		}
	}
	return (n-cycles)%2 == size.Distance(int(b.blank), g.Home(0, n))%2
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// String returns the tiles in row-major order separated by spaces.
func (b Board) String() string {
	var sb strings.Builder
	for i := range b.Size().Cells() {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(strconv.Itoa(b.Tile(i)))
	}
	return sb.String()
}

// Grid returns the board drawn as boxes, one line per row and a border
// line between rows; the blank is an empty box.
//
//	+----+----+
//	|  1 |  2 |
//	+----+----+
//	|  3 |    |
//	+----+----+
func (b Board) Grid() string {
	size := b.Size()
	border := strings.Repeat("+----", size.Cols) + "+\n"
	var sb strings.Builder
	sb.WriteString(border)
	for r := range size.Rows {
		for c := range size.Cols {
			if t := b.Tile(r*size.Cols + c); t == 0 {
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
