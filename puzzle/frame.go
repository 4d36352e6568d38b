package puzzle

import (
	"fmt"
	"slices"
	"strings"
)

// A Frame carries positions toward any goal board onto positions toward a
// goal of row order (Goal), by a symmetry of the board and a relabelling
// of the tiles, neither of which changes a distance. The symmetry takes
// the goal's blank to the first cell of its orbit (a corner, on every
// board, is taken to cell 0), so that one set of databases serves every
// goal whose blank lies in the orbit: on 4×4, three sets serve every
// goal, and those of Korf's goal serve any goal with the blank in a
// corner. A solution of the framed position, taken back move by move
// (Back), solves the position.
type Frame struct {
	target Puzzle // the goal board
	goal   Goal   // the goal of row order that target is framed as

	// The maps, indexed by cell, tile and move of the board as given.
	cell [MaxBoardCells]uint8 // where each cell goes
	tile [MaxBoardCells]uint8 // what each tile is called
	move [4]Move              // the framed move of each move
}

// symmetry is one of the board's symmetries: a transposition (square
// boards only) followed by flips of the rows and of the columns.
type symmetry struct{ transpose, flipRows, flipCols bool }

// apply returns where the symmetry takes cell c of a board of the size.
func (s symmetry) apply(size Size, c int) int {
	r, col := c/size.Cols, c%size.Cols
	if s.transpose {
		r, col = col, r
	}
	if s.flipRows {
		r = size.Rows - 1 - r
	}
	if s.flipCols {
		col = size.Cols - 1 - col
	}
	return r*size.Cols + col
}

// turn returns the direction that move m takes under the symmetry.
func (s symmetry) turn(m Move) Move {
	if s.transpose {
		m = [4]Move{Left, Up, Down, Right}[m]
	}
	if s.flipRows && (m == Up || m == Down) || s.flipCols && (m == Left || m == Right) {
		m = m.Opposite()
	}
	return m
}

// symmetries returns the board's symmetries, the identity first: four,
// and on a square board eight.
func symmetries(size Size) []symmetry {
	var all []symmetry
	for _, t := range []bool{false, true} {
		if t && size.Rows != size.Cols {
			break
		}
		for _, fr := range []bool{false, true} {
			for _, fc := range []bool{false, true} {
				all = append(all, symmetry{t, fr, fc})
			}
		}
	}
	return all
}

// NewFrame returns the frame of the goal board, a well-formed position of
// at most MaxBoardCells cells: of the symmetries that take its blank to
// the least cell they can, the first in the order symmetries lists.
func NewFrame(target Puzzle) (Frame, error) {
	if err := target.Valid(); err != nil {
		return Frame{}, fmt.Errorf("goal: %w", err)
	}
	size, n := target.Size, len(target.Tiles)
	if err := size.ValidBoard(); err != nil {
		return Frame{}, fmt.Errorf("goal: %w", err)
	}
	var best symmetry
	for _, s := range symmetries(size)[1:] {
		if s.apply(size, target.Blank()) < best.apply(size, target.Blank()) {
			best = s
		}
	}
	f := Frame{target: Puzzle{Size: size, Tiles: slices.Clone(target.Tiles)}}
	f.goal = BlankAt(best.apply(size, target.Blank()), n)
	for c, t := range target.Tiles {
		f.cell[c] = uint8(best.apply(size, c))
		f.tile[t] = uint8(f.goal.TileOn(int(f.cell[c]), n))
	}
	for _, m := range Moves {
		f.move[m] = best.turn(m)
	}
	return f, nil
}

// Goal returns the goal of row order that the frame takes its goal board
// to.
func (f Frame) Goal() Goal { return f.goal }

// Target returns the goal board.
func (f Frame) Target() Puzzle { return f.target }

// Check reports whether p is a well-formed position of the goal board's
// size that can reach it: ErrUnsolvable, naming the goal, if not.
func (f Frame) Check(p Puzzle) error {
	if err := p.Valid(); err != nil {
		return err
	}
	if p.Size != f.target.Size {
		return fmt.Errorf("a %v puzzle for a %v goal", p.Size, f.target.Size)
	}
	if !f.Puzzle(p).Solvable(f.goal) {
		return fmt.Errorf("%w (goal %s)", ErrUnsolvable, strings.TrimPrefix(f.target.Line(), ": "))
	}
	return nil
}

// Puzzle returns the framed position of p, a well-formed position of the
// goal board's size, with p's label and known optimum.
func (f Frame) Puzzle(p Puzzle) Puzzle {
	framed := p
	framed.Tiles = make([]int, len(p.Tiles))
	for c, t := range p.Tiles {
		framed.Tiles[f.cell[c]] = int(f.tile[t])
	}
	return framed
}

// Unframe returns the position whose framed position is framed: Puzzle's
// inverse.
func (f Frame) Unframe(framed Puzzle) Puzzle {
	var cellOf, tileOf [MaxBoardCells]int
	for c := range framed.Tiles {
		cellOf[f.cell[c]], tileOf[f.tile[c]] = c, c
	}
	p := framed
	p.Tiles = make([]int, len(framed.Tiles))
	for c, t := range framed.Tiles {
		p.Tiles[cellOf[c]] = tileOf[t]
	}
	return p
}

// Back turns the moves of the framed position, in place, into the same
// moves of the position as given.
func (f Frame) Back(moves []Move) {
	var back [4]Move
	for _, m := range Moves {
		back[f.move[m]] = m
	}
	for i, m := range moves {
		moves[i] = back[m]
	}
}
