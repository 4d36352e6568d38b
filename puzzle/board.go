package puzzle

import "fmt"

// Board is a well-formed position packed for the optimal search: the tile
// on each cell, a byte a cell, with its shape and the blank's cell kept
// beside it. Boards are comparable, so they can key maps. The zero Board is
// not a valid position; make one with Puzzle.Board, NewBoard or
// SolvedBoard.
type Board struct {
	cells      [MaxBoardCells]uint8
	rows, cols uint8
	blank      uint8
}

// NewBoard returns the packed board of the given size holding tiles in
// row-major order: Puzzle{Size: size, Tiles: tiles}.Board().
func NewBoard(size Size, tiles []int) (Board, error) {
	return Puzzle{Size: size, Tiles: tiles}.Board()
}

// pack packs a well-formed puzzle of at most MaxBoardCells cells.
func pack(p Puzzle) Board {
	b := Board{rows: uint8(p.Size.Rows), cols: uint8(p.Size.Cols)}
	for i, t := range p.Tiles {
		b.cells[i] = uint8(t)
		if t == 0 {
			b.blank = uint8(i)
		}
	}
	return b
}

// SolvedBoard returns the goal of convention g as a packed board of the
// given size, which must be one a Board can be.
func SolvedBoard(size Size, g Goal) Board {
	if err := size.ValidBoard(); err != nil {
		panic(err) // a programming error
	}
	return pack(Solved(size, g))
}

// Size returns the board's shape.
func (b Board) Size() Size { return Size{int(b.rows), int(b.cols)} }

// Blank returns the blank's cell.
func (b Board) Blank() int { return int(b.blank) }

// Tile returns the tile on cell i.
func (b Board) Tile(i int) int { return int(b.cells[i]) }

// Puzzle returns the position as a Puzzle (without a label).
func (b Board) Puzzle() Puzzle {
	p := Puzzle{Size: b.Size(), Tiles: make([]int, b.Size().Cells())}
	for i := range p.Tiles {
		p.Tiles[i] = b.Tile(i)
	}
	return p
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

// Rotate returns the board turned by 180° (see Puzzle.Rotate).
func (b Board) Rotate() Board { return pack(b.Puzzle().Rotate()) }

// Solvable reports whether the goal of convention g can be reached (see
// Puzzle.Solvable).
func (b Board) Solvable(g Goal) bool { return b.Puzzle().Solvable(g) }

// String returns the tiles in row-major order separated by spaces.
func (b Board) String() string { return b.Puzzle().String() }

// Grid returns the board drawn as boxes (see Puzzle.Grid).
func (b Board) Grid() string { return b.Puzzle().Grid() }
