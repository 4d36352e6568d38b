package pdbcore

import (
	"fmt"
	"iter"
	"math/bits"
	"sync"

	"fifteen/puzzle"
)

// CellBits is the width of a cell in a placement packed in a word: tile
// i's cell is in bits CellBits·i.
const CellBits = 5

// cellMask is a packed cell's bits.
const cellMask = 1<<CellBits - 1

// Cell returns tile i's cell in the packed placement cells.
func Cell(cells uint64, i int) int { return int(cells>>(CellBits*i)) & cellMask }

// CheckSize reports a size that the databases and the search do not serve.
func CheckSize(size puzzle.Size) error {
	if err := size.Valid(); err != nil {
		return err
	}
	if size.Cells() > puzzle.MaxBoardCells {
		return fmt.Errorf("a %v board: the pattern databases and the optimal search serve boards of up to %d cells", size, puzzle.MaxBoardCells)
	}
	return nil
}

// maxTabled is the largest board whose regions Geometry looks up in tables
// indexed by a set of cells: 2^16 entries. Beyond, it grows them.
const maxTabled = 16

// Geometry holds a board's cell masks and the regions its free cells
// form.
type Geometry struct {
	All         uint32 // every cell
	cols        uint
	notFirstCol uint32                       // cells a shift by one cell right may land on
	notLastCol  uint32                       // cells a shift by one cell left may land on
	Adjacent    [puzzle.MaxBoardCells]uint32 // the cells next to each cell
	// On boards of up to maxTabled cells, leaders[free] holds, in 4 bits
	// a cell, the lowest cell of the region of free that each cell of
	// free belongs to, and numbers[occupied] the region's number (see
	// Number); nil on larger boards.
	leaders, numbers []uint64
}

// Shared returns the geometry of a board of the size, made once per size
// and shared: the caller must not modify it.
func Shared(size puzzle.Size) *Geometry {
	if g, ok := shared.Load(size); ok {
		return g.(*Geometry)
	}
	g := NewGeometry(size)
	actual, _ := shared.LoadOrStore(size, &g)
	return actual.(*Geometry)
}

var shared sync.Map // puzzle.Size → *Geometry

// NewGeometry returns the geometry of a board of the size.
func NewGeometry(size puzzle.Size) Geometry {
	g := Geometry{All: uint32(1<<size.Cells() - 1), cols: uint(size.Cols)}
	for c := range size.Cells() {
		if c%size.Cols != 0 {
			g.notFirstCol |= 1 << c
		}
		if c%size.Cols != size.Cols-1 {
			g.notLastCol |= 1 << c
		}
		for _, m := range puzzle.Moves {
			if q := size.Neighbor(c, m); q >= 0 {
				g.Adjacent[c] |= 1 << q
			}
		}
	}
	if size.Cells() > maxTabled {
		return g
	}
	g.leaders = make([]uint64, 1<<size.Cells())
	g.numbers = make([]uint64, 1<<size.Cells())
	for free := range g.leaders {
		number := uint64(0)
		for r := range g.regions(uint32(free)) {
			lowest := uint64(bits.TrailingZeros32(r))
			for c := r; c != 0; c &= c - 1 {
				g.leaders[free] |= lowest << (4 * bits.TrailingZeros32(c))
				g.numbers[g.All&^uint32(free)] |= number << (4 * bits.TrailingZeros32(c))
			}
			number++
		}
	}
	return g
}

// regions yields the regions of free in the order of their lowest cells.
func (g *Geometry) regions(free uint32) iter.Seq[uint32] {
	return func(yield func(uint32) bool) {
		for free != 0 {
			r := g.Region(bits.TrailingZeros32(free), free)
			if !yield(r) {
				return
			}
			free &^= r
		}
	}
}

// Numbers returns Number of every cell that occupied leaves free, 2 bits
// a cell from bit 0, for a limit of at most 3: all of a board's regions
// at once, for a search that keeps them (occupied cells read 0).
func (g *Geometry) Numbers(occupied uint32, limit int) uint64 {
	var numbers uint64
	if g.numbers != nil { // 4 bits a cell, cut to 2
		for c, n := 0, g.numbers[occupied]; n != 0; c, n = c+1, n>>4 {
			numbers |= uint64(min(int(n&15), limit)) << (2 * c)
		}
		return numbers
	}
	number := uint64(0)
	for r := range g.regions(g.All &^ occupied) {
		for c := r; number > 0 && c != 0; c &= c - 1 {
			numbers |= number << (2 * bits.TrailingZeros32(c))
		}
		number = min(number+1, uint64(limit))
	}
	return numbers
}

// Leader returns the lowest cell of the region of free that holds cell c.
func (g *Geometry) Leader(free uint32, c int) int {
	if g.leaders != nil {
		return int(g.leaders[free] >> (4 * c) & 15)
	}
	return bits.TrailingZeros32(g.Region(c, free))
}

// Number returns the number of the region of the cells occupied leaves
// free that holds cell c, or limit if that is larger: the regions are
// numbered from 0 in the order of their lowest cells. A table's entry
// tells a few of the blank's regions apart (pdb.Table.Regions), and on a
// large board each region counted costs a walk through it.
func (g *Geometry) Number(occupied uint32, c, limit int) int {
	if g.numbers != nil {
		return min(int(g.numbers[occupied]>>(4*c)&15), limit)
	}
	free := g.All &^ occupied
	below := free & (1<<g.Leader(free, c) - 1)
	n := 0
	for ; below != 0 && n < limit; n++ {
		below &^= g.Region(bits.TrailingZeros32(below), free)
	}
	return n
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
