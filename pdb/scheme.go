package pdb

import (
	"fifteen/internal/pdbcore"
	"fifteen/puzzle"
)

// Scheme is the way a pattern's tile cells map to a table index.
type Scheme = pdbcore.Scheme

const (
	// Sparse indexes by the cells themselves, 4 bits a tile: 16^k
	// entries, many unused, but a move changes one tile's bits of the
	// index, and a search's successive lookups stay near one another.
	// It serves boards of up to 16 cells.
	Sparse = pdbcore.Sparse
	// Ranked indexes by the lexicographic rank of the cells as a
	// k-permutation of the n cells: n!/(n-k)! entries, none unused.
	Ranked = pdbcore.Ranked
)

// maxSparseTiles is the largest pattern indexed sparsely by default: 16^6
// bytes is 16 MiB, and 16^7 would be 256 MiB, mostly unused.
const maxSparseTiles = 6

// DefaultScheme returns the scheme chosen for a pattern of k tiles on a
// board of the size: a sparse index serves boards of up to 16 cells.
func DefaultScheme(size puzzle.Size, k int) Scheme {
	if k <= maxSparseTiles && size.Cells() <= pdbcore.MaxSparseCells {
		return Sparse
	}
	return Ranked
}
