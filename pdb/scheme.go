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
	// ZeroAware indexes by the tiles' order on their cells, the ranked set
	// of cells they occupy and the region of the free cells that holds the
	// blank (Clausecker and Reinefeld, 2019): a table so indexed holds each
	// placement's exact value with the blank in each of its regions, and
	// so changes by exactly 1 a move of one of its tiles. It serves boards
	// of up to 25 cells, patterns of fewer tiles than the board's less
	// one.
	ZeroAware = pdbcore.ZeroAware
)

// MaxSparseTiles is the largest pattern indexed sparsely by default: 16^6
// bytes is 16 MiB, and 16^7 would be 256 MiB, mostly unused.
const MaxSparseTiles = 6

// DefaultScheme returns the scheme chosen for a pattern of k tiles on a
// board of the size: a sparse index serves boards of up to 16 cells. A
// zero-aware table is built only on request (BuildOptions.Scheme,
// StoreOptions.ZeroAware): on 5×5 it measured slower than the ranked
// table with flagged regions, for about 1% fewer nodes
// (docs/experiments.md).
func DefaultScheme(size puzzle.Size, k int) Scheme {
	if k <= MaxSparseTiles && size.Cells() <= pdbcore.MaxSparseCells {
		return Sparse
	}
	return Ranked
}

// newIndex returns the index of k tiles on a board of the size under
// scheme: an Indexer, or a zero-aware index.
func newIndex(scheme Scheme, size puzzle.Size, k int) (pdbcore.Indexer, *pdbcore.Zero, error) {
	if scheme == ZeroAware {
		z, err := pdbcore.NewZero(size, k)
		return pdbcore.Indexer{}, z, err
	}
	x, err := pdbcore.NewIndexer(scheme, size.Cells(), k)
	return x, nil, err
}

// MaxZeroCells bounds the boards of zero-aware tables.
const MaxZeroCells = pdbcore.MaxZeroCells
