// Package pdbcore is what pdb's tables and search's incremental lookups
// share: the index schemes of a pattern's placements, and the board's
// geometry with the numbering of the blank's regions. It is internal so
// that pdb's API stays what a user of the databases needs.
package pdbcore

import (
	"fmt"
	"math/bits"

	"fifteen/puzzle"
)

// Scheme is the way a pattern's tile cells map to a table index.
type Scheme uint8

const (
	// Sparse indexes by the cells themselves, 4 bits a tile: 16^k entries,
	// many unused, but a move changes one tile's bits of the index. The
	// tiles' bits are interleaved (see Place), so that a search's
	// successive lookups stay near one another. It serves boards of up to
	// MaxSparseCells cells.
	Sparse Scheme = iota + 1
	// Ranked indexes by the lexicographic rank of the cells as a
	// k-permutation of the n cells: n!/(n-k)! entries, none unused.
	Ranked
)

func (s Scheme) String() string {
	switch s {
	case Sparse:
		return "sparse"
	case Ranked:
		return "ranked"
	}
	return fmt.Sprintf("Scheme(%d)", uint8(s))
}

// MaxSparseCells bounds the boards a sparse index serves: 4 bits a cell.
const MaxSparseCells = 16

// MaxTiles bounds a pattern's tiles: their cells, packed, fit a word.
const MaxTiles = 64 / CellBits

// Indexer maps the cells of a pattern's k tiles on a board of n cells to a
// table index. The cells come packed in a word, tile i's cell in bits
// CellBits·i (Cell).
type Indexer struct {
	scheme Scheme
	n, k   int
	mul    [16]uint64             // Ranked: mul[i] = (n-1-i)!/(n-k)!, the weight of digit i
	spread [MaxSparseCells]uint64 // Sparse: tile 0's share of the index on each cell
	// Ranked with fewer than 2^32 entries: recip[i] = ⌈2^64/mul[i]⌉, so that
	// dividing by mul[i] is a multiplication (Lemire, Kaser and Kurz, "Faster
	// remainder by direct computation", 2019: exact for 32-bit operands).
	recip [16]uint64
}

// The digits' arrays have 16 places, at least MaxTiles, so that an index
// masked to 4 bits needs no bounds check.

// NewIndexer returns the indexer of k tiles on n cells.
func NewIndexer(scheme Scheme, n, k int) (Indexer, error) {
	if n < 4 || n > puzzle.MaxBoardCells || k < 1 || k >= n || k > MaxTiles {
		return Indexer{}, fmt.Errorf("%d tiles on %d cells cannot be indexed", k, n)
	}
	x := Indexer{scheme: scheme, n: n, k: k}
	switch scheme {
	case Sparse:
		if k > 7 || n > MaxSparseCells {
			return Indexer{}, fmt.Errorf("%d tiles on %d cells cannot be indexed sparsely", k, n)
		}
		for c := range x.spread {
			for j, bit := range sparsePlanes {
				x.spread[c] |= uint64(c>>bit&1) << (j * k)
			}
		}
	case Ranked:
		w := uint64(1)
		for i := k - 1; i >= 0; i-- {
			x.mul[i] = w
			w *= uint64(n - i)
		}
		if w <= 1<<32 {
			for i := range k - 1 {
				x.recip[i] = ^uint64(0)/x.mul[i] + 1
			}
		}
	default:
		return Indexer{}, fmt.Errorf("unknown index scheme %d", scheme)
	}
	return x, nil
}

// Scheme returns the indexer's scheme.
func (x *Indexer) Scheme() Scheme { return x.scheme }

// Len returns the number of table entries.
func (x *Indexer) Len() int {
	if x.scheme == Sparse {
		return 1 << (4 * x.k)
	}
	return int(x.mul[0]) * x.n
}

// Index returns the table index of the packed cells.
func (x *Indexer) Index(cells uint64) uint64 {
	if x.scheme == Sparse {
		var index uint64
		for i := range x.k {
			index += x.Place(i, Cell(cells, i))
		}
		return index
	}
	return x.rank(cells)
}

// sparsePlanes orders a sparse index's bits: bit j·k+i is bit
// sparsePlanes[j] of tile i's cell. On a 4×4 board the lowest k bits say
// which of its column pair each tile is in, the next k which of its row
// pair: a 64-byte cache line holds every placement that differs from one
// another only by tiles' moves between columns 0 and 1 or 2 and 3 (with
// 6 tiles), and a 4 KiB page those whose tiles stay in their 2×2
// quarters. With the cells' nibbles side by side, only the first tile's
// moves, and the second's along its row, stayed within a line, which
// measured slower (docs/experiments.md).
var sparsePlanes = [4]uint{0, 2, 1, 3}

// Place returns, for a sparse index, tile i's share of it with the tile on
// cell: the index is the sum of its tiles' shares, so a move changes it by
// the moved tile's change of share, and a search updates it rather than
// computing it afresh. It returns 0 for a ranked index.
func (x *Indexer) Place(i, cell int) uint64 {
	if x.scheme != Sparse {
		return 0
	}
	return x.spread[cell&(MaxSparseCells-1)] << i
}

// Weight returns how much a ranked index grows when tile i's digit grows
// by one: the digit is the tile's cell counted among the cells tiles
// 0..i-1 leave free. With it a search updates an index for the one tile a
// move slides instead of computing the index afresh. It returns 0 for a
// sparse index (see Place).
func (x *Indexer) Weight(i int) uint64 {
	if x.scheme != Ranked {
		return 0
	}
	return x.mul[i&15]
}

// rank numbers k distinct cells lexicographically: digit i is tile i's cell
// among the cells that tiles 0..i-1 do not occupy.
func (x *Indexer) rank(cells uint64) uint64 {
	var used uint32
	var r uint64
	for i := range x.k {
		p := uint32(Cell(cells, i))
		d := p - uint32(bits.OnesCount32(used&(1<<p-1)))
		r += uint64(d) * x.mul[i&15]
		used |= 1 << p
	}
	return r
}

// Cells inverts Index: it returns the packed cells and the mask of occupied
// cells. A sparse index that repeats a cell (an unused entry) yields fewer
// than k occupied cells.
func (x *Indexer) Cells(index uint64) (cells uint64, occupied uint32) {
	for i := range x.k {
		var p uint32
		if x.scheme == Sparse {
			for j, bit := range sparsePlanes {
				p |= uint32(index>>(j*x.k+i)&1) << bit
			}
		} else {
			var d uint64
			switch {
			case i == x.k-1: // the weight is 1
				d = index
			case x.recip[i&15] != 0:
				d, _ = bits.Mul64(index, x.recip[i&15])
			default:
				d = index / x.mul[i&15]
			}
			index -= d * x.mul[i&15]
			p = SelectFree(occupied, uint32(d))
		}
		cells |= uint64(p) << (CellBits * i)
		occupied |= 1 << p
	}
	return cells, occupied
}

// SelectFree returns the d-th (from 0) cell not in occupied.
func SelectFree(occupied uint32, d uint32) uint32 {
	free := ^occupied
	for ; d > 0; d-- {
		free &= free - 1
	}
	return uint32(bits.TrailingZeros32(free))
}
