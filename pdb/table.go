// Package pdb builds, stores and loads additive pattern databases for
// sliding-tile puzzles (Korf & Felner, "Disjoint pattern database
// heuristics", 2002).
//
// A pattern is a set of tiles. Its database holds, for every placement of
// those tiles, the fewest moves of pattern tiles that bring them home, the
// blank tracked but its moves free. Because only pattern tiles' moves are
// counted, the values of disjoint patterns add up to an admissible
// heuristic.
package pdb

import (
	"fmt"

	"fifteen/bitboard"
)

// Table is one pattern's database: Values[Index(cells)] is the value of the
// placement whose tile Tiles[i] is on the cell in bits 4i of cells.
type Table struct {
	Size  bitboard.Size
	Goal  bitboard.Goal
	Tiles []int
	Indexer
	Values []byte

	release func() error // unmaps Values, if mapped
}

// Close releases the table's memory if it is mapped; the table must not be
// used after.
func (t *Table) Close() error {
	if t.release == nil {
		return nil
	}
	err := t.release()
	t.release, t.Values = nil, nil
	return err
}

// NewTable returns a table of the pattern with zeroed values.
func NewTable(size bitboard.Size, goal bitboard.Goal, tiles []int, scheme Scheme) (*Table, error) {
	x, err := NewIndexer(scheme, size.Cells(), len(tiles))
	if err != nil {
		return nil, err
	}
	return &Table{Size: size, Goal: goal, Tiles: tiles, Indexer: x, Values: make([]byte, x.Len())}, nil
}

// Value returns the value of the pattern's placement on board b.
func (t *Table) Value(b bitboard.Board) int {
	var cells uint64
	for i, tile := range t.Tiles {
		cells |= uint64(cellOf(b, tile)) << (4 * i)
	}
	return int(t.Values[t.Index(cells)])
}

// cellOf returns the cell holding tile t.
func cellOf(b bitboard.Board, t int) int {
	for i := range b.Size().Cells() {
		if b.Tile(i) == t {
			return i
		}
	}
	panic(fmt.Sprintf("pdb: tile %d not on board", t))
}

// Placements returns the number of distinct placements of the pattern,
// which a sparse table has fewer of than entries.
func (t *Table) Placements() int {
	p := 1
	for i := range t.Tiles {
		p *= t.Size.Cells() - i
	}
	return p
}

// Stats returns the largest value and the mean over the placements (a
// sparse table's unused entries hold 0).
func (t *Table) Stats() (maxValue int, mean float64) {
	var sum uint64
	var m byte
	for _, v := range t.Values {
		sum += uint64(v)
		m = max(m, v)
	}
	return int(m), float64(sum) / float64(t.Placements())
}
