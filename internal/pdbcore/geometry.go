package pdbcore

import (
	"fmt"
	"math/bits"
	"sync"

	"fifteen/bitboard"
)

// MaxCells is the largest board the databases and the search serve: their
// placements pack a tile's cell in 4 bits.
const MaxCells = 16

// CheckSize reports a size that the databases and the search do not serve.
func CheckSize(size bitboard.Size) error {
	if err := size.Valid(); err != nil {
		return err
	}
	if size.Cells() > MaxCells {
		return fmt.Errorf("a %v board: the pattern databases and the optimal search serve boards of up to %d cells", size, MaxCells)
	}
	return nil
}

// Geometry holds a board's cell masks and the regions its free cells
// form.
type Geometry struct {
	All         uint32 // every cell
	cols        uint
	notFirstCol uint32           // cells a shift by one cell right may land on
	notLastCol  uint32           // cells a shift by one cell left may land on
	Adjacent    [MaxCells]uint32 // the cells next to each cell
	// leaders[free] holds, in 4 bits a cell, the lowest cell of the region
	// of free that each cell of free belongs to; Numbers[occupied] the
	// region's number (see RegionNumbers).
	leaders, Numbers []uint64
}

// RegionNumbers returns, for each set of occupied cells of a board of the
// given size (bit c for cell c), the number in 4 bits a cell of the region
// of free cells that each free cell lies in: the regions are numbered
// from 0 in the order of their lowest cells. A table's entry tells some
// of the blank's regions apart (pdb.Table.Regions). The slice is shared: the
// caller must not modify it.
func RegionNumbers(size bitboard.Size) []uint64 {
	if r, ok := regionNumbers.Load(size); ok {
		return r.([]uint64)
	}
	r, _ := regionNumbers.LoadOrStore(size, NewGeometry(size).Numbers)
	return r.([]uint64)
}

var regionNumbers sync.Map // bitboard.Size → []uint64

// NewGeometry returns the geometry of a board of the size.
func NewGeometry(size bitboard.Size) Geometry {
	g := Geometry{All: 1<<size.Cells() - 1, cols: uint(size.Cols)}
	for c := range size.Cells() {
		if c%size.Cols != 0 {
			g.notFirstCol |= 1 << c
		}
		if c%size.Cols != size.Cols-1 {
			g.notLastCol |= 1 << c
		}
		for _, m := range bitboard.Moves {
			if q := size.Neighbor(c, m); q >= 0 {
				g.Adjacent[c] |= 1 << q
			}
		}
	}
	g.leaders = make([]uint64, 1<<size.Cells())
	g.Numbers = make([]uint64, 1<<size.Cells())
	for free := range g.leaders {
		number := uint64(0)
		for rest := uint32(free); rest != 0; number++ {
			lowest := bits.TrailingZeros32(rest)
			r := g.Region(lowest, uint32(free))
			for c := r; c != 0; c &= c - 1 {
				g.leaders[free] |= uint64(lowest) << (4 * bits.TrailingZeros32(c))
				g.Numbers[g.All&^uint32(free)] |= number << (4 * bits.TrailingZeros32(c))
			}
			rest &^= r
		}
	}
	return g
}

// Leader returns the lowest cell of the region of free that holds cell c.
func (g *Geometry) Leader(free uint32, c int) uint64 {
	return g.leaders[free] >> (4 * c) & 15
}

// Region returns the cells of free connected to cell c, which is in free.
// It grows the whole region a step at a time with shifts of the mask.
func (g *Geometry) Region(c int, free uint32) uint32 {
	r := uint32(1) << c
	for {
		grown := (r | r<<1&g.notFirstCol | r>>1&g.notLastCol | r<<g.cols | r>>g.cols) & free
		if grown == r {
			return r
		}
		r = grown
	}
}
