// Package pdb builds, stores and loads additive pattern databases for
// sliding-tile puzzles (Korf & Felner, "Disjoint pattern database
// heuristics", 2002).
//
// A pattern is a set of tiles. Its database holds, for every placement of
// those tiles and region of the other cells holding the blank, the fewest
// moves of pattern tiles that bring them home, the blank tracked but its
// moves free. Because only pattern tiles' moves are counted, the values of
// disjoint patterns add up to an admissible heuristic.
//
// With package search, pdb is fifteen's research API: the databases'
// files, partitions and tables, for programs that build, inspect or
// search with them. A program that only solves puzzles uses package
// solver, which opens the databases through a Store.
package pdb

import (
	"fmt"
	"unsafe"

	"fifteen/internal/pdbcore"
	"fifteen/puzzle"
)

// Table is one pattern's database: Values()[Index(cells, blank)] is the
// entry of the placement whose tile Tiles[i] is on the cell in bits
// CellBits·i of cells, with the blank on cell blank. Its users borrow its
// entries, read-only: a loaded table maps its file read-only, and one
// process's tables are shared by all its searches.
//
// An entry's low
// 8−Regions bits hold the placement's value with the blank in its best
// region of the cells the pattern leaves free. Bit 8−Regions+j adds 2
// moves with the blank in region j (the regions of free cells numbered in
// the order of their lowest cells): there the pattern's tiles must let
// the blank by. Regions beyond the flagged ones add nothing, which is
// admissible. Korf and Felner's
// databases, which ignore the blank, have Regions 0.
type Table struct {
	Size    puzzle.Size
	Goal    puzzle.Goal
	Tiles   []int
	index   pdbcore.Indexer
	values  []byte
	Regions int

	release func() error // unmaps values, if mapped
}

// Close releases the table's memory if it is mapped; the table must not be
// used after.
func (t *Table) Close() error {
	if t.release == nil {
		return nil
	}
	err := t.release()
	t.release, t.values = nil, nil
	return err
}

// NewTable returns a table of the pattern, and its entries, zeroed, for
// the caller to fill before it lends the table to others.
func NewTable(size puzzle.Size, goal puzzle.Goal, tiles []int, scheme Scheme) (*Table, []byte, error) {
	x, err := pdbcore.NewIndexer(scheme, size.Cells(), len(tiles))
	if err != nil {
		return nil, nil, err
	}
	t := &Table{Size: size, Goal: goal, Tiles: tiles, index: x}
	t.values = make([]byte, x.Len())
	return t, t.values, nil
}

// Values returns the table's entries, read-only: a string over its memory,
// not a copy, valid until Close.
func (t *Table) Values() string {
	return unsafe.String(unsafe.SliceData(t.values), len(t.values))
}

// CellBits is the width of a cell in a packed placement (Table.Index).
const CellBits = pdbcore.CellBits

// Index returns the index in Values() of the placement whose tile Tiles[i]
// is on the cell in bits CellBits·i of cells.
func (t *Table) Index(cells uint64) uint64 { return t.index.Index(cells) }

// Scheme returns the table's index scheme.
func (t *Table) Scheme() Scheme { return t.index.Scheme() }

// MaxRegions bounds Table.Regions, leaving an entry at least 5 bits for
// the value: the fourth and later regions of the blank rarely raise it.
const MaxRegions = 3

// Value returns the value of the pattern's placement on board b.
func (t *Table) Value(b puzzle.Board) int {
	var cells uint64
	var occupied uint32
	for i, tile := range t.Tiles {
		c := cellOf(b, tile)
		cells |= uint64(c) << (CellBits * i)
		occupied |= 1 << c
	}
	region := pdbcore.Shared(t.Size).Number(occupied, b.Blank(), MaxRegions)
	return t.valueAt(t.Index(cells), region)
}

// valueAt returns the value at index with the blank in region number
// region.
func (t *Table) valueAt(index uint64, region int) int {
	e := t.values[index]
	return int(e&(0xff>>t.Regions)) + 2*int(e>>(8-t.Regions)>>region&1)
}

// cellOf returns the cell holding tile t.
func cellOf(b puzzle.Board, t int) int {
	for i := range b.Size().Cells() {
		if b.Tile(i) == t {
			return i
		}
	}
	panic(fmt.Sprintf("tile %d not on board", t))
}

// placements returns the number of distinct placements of the pattern,
// which a sparse table has fewer of than entries.
func (t *Table) placements() int {
	p := 1
	for i := range t.Tiles {
		p *= t.Size.Cells() - i
	}
	return p
}

// stats returns the largest value and the mean over the placements, with
// the blank in each one's best region (a sparse table's unused entries
// hold 0), and the share of placements whose value some region raises.
func (t *Table) stats() (maxValue int, mean, raised float64) {
	var sum, flagged uint64
	var m byte
	low := byte(0xff >> t.Regions)
	for _, e := range t.values {
		v := e & low
		sum += uint64(v)
		m = max(m, v)
		if e != v {
			flagged++
		}
	}
	n := float64(t.placements())
	return int(m), float64(sum) / n, float64(flagged) / n
}
