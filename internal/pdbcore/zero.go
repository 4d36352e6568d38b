package pdbcore

import (
	"fmt"
	"math/bits"
	"sync"

	"fifteen/puzzle"
)

// Zero is the index of a zero-aware table (Clausecker and Reinefeld,
// 2019): one entry per placement of a pattern's k tiles and region of the
// free cells holding the blank. The index of a placement with the blank
// on a cell is order · Regions() + offset(set) + region: order is the rank
// of the tiles' order on their cells; set the set of cells they occupy,
// ranked among the n-choose-k sets in colexicographic order, and
// offset(set) the regions of the sets ranked before it; region the number
// of the blank's region among the set's, in the order of their lowest
// cells (Geometry.Number). Clausecker's tables put the order last; first,
// as it changes only when a tile passes another, a search's lookups stay
// within one order's entries (a quarter of a megabyte with 6 tiles on 5×5)
// while it moves tiles, which changes only the set.
type Zero struct {
	k       int
	orders  uint64     // k!
	regions uint64     // Regions()
	fact    [16]uint64 // fact[i] = (k-1-i)!, the weight of tile i's digit in order (16 ≥ MaxTiles)
	// low[m] ranks the cells of the low 13-bit half m among the sets;
	// high[m][j] adds the cells of the high half m, as if j cells lay in
	// the low half (the colex rank: the sum, over the set's cells c_i in
	// increasing order, of C(c_i, i+1)).
	low  []uint32
	high [][16]uint32
	sets []zeroSet // by the set's rank
	// orders16[key] is Order's rank of the tiles' places among the occupied
	// cells, tile i's in bits 3i of key, for the first k-1 tiles (the last
	// takes the place left): with up to maxTabledOrder tiles.
	orders16 []uint16
}

// maxTabledOrder bounds the patterns whose orders Zero ranks by a table:
// 8^5 entries, 64 KiB.
const maxTabledOrder = 6

// zeroSet is one set of occupied cells: the region number of every free
// cell, 4 bits a cell from cell 0 (cells 16 and up in the second word),
// and in the second word's top 28 bits the place of the set's first
// region among all sets' regions.
type zeroSet [2]uint64

const (
	offsetShift = 36 // the place of zeroSet's offset in its second word
	maxRegions  = 16 // regions a zeroSet numbers
)

// MaxZeroCells bounds the boards a zero-aware index serves: the sets of
// cells are ranked by halves of 13 and 12 bits.
const MaxZeroCells = 25

const halfBits = 13 // the low half of a MaxZeroCells mask

// NewZero returns the zero-aware index of k tiles on a board of the size,
// made once per size and k and shared: its tables take a few megabytes.
func NewZero(size puzzle.Size, k int) (*Zero, error) {
	key := zeroKey{size, k}
	if z, ok := zeros.Load(key); ok {
		return z.(*Zero), nil
	}
	z, err := newZero(size, k)
	if err != nil {
		return nil, err
	}
	actual, _ := zeros.LoadOrStore(key, z)
	return actual.(*Zero), nil
}

type zeroKey struct {
	size puzzle.Size
	k    int
}

var zeros sync.Map // zeroKey → *Zero

func newZero(size puzzle.Size, k int) (*Zero, error) {
	n := size.Cells()
	if n < 4 || n > MaxZeroCells || k < 1 || k >= n-1 || k > MaxTiles {
		return nil, fmt.Errorf("pdbcore: %d tiles on %d cells cannot be indexed by region", k, n)
	}
	z := &Zero{k: k, orders: 1}
	for i := k - 1; i >= 0; i-- {
		z.fact[i] = z.orders
		z.orders *= uint64(k - i)
	}
	var choose [puzzle.MaxBoardCells + 1][MaxTiles + 2]uint32
	for c := range choose {
		choose[c][0] = 1
		for j := 1; j < len(choose[c]) && c > 0; j++ {
			choose[c][j] = choose[c-1][j-1] + choose[c-1][j]
		}
	}
	z.low = make([]uint32, 1<<halfBits)
	for m := range z.low {
		i := 0
		for c := uint32(m); c != 0; c &= c - 1 {
			if i < k {
				z.low[m] += choose[bits.TrailingZeros32(c)][i+1]
			}
			i++
		}
	}
	z.high = make([][16]uint32, 1<<max(n-halfBits, 0))
	for m := range z.high {
		for j := 0; j <= k; j++ {
			i := j
			for c := uint32(m); c != 0 && i < k; c &= c - 1 {
				z.high[m][j] += choose[halfBits+bits.TrailingZeros32(c)][i+1]
				i++
			}
		}
	}
	if k <= maxTabledOrder {
		z.orders16 = make([]uint16, 1<<(3*(k-1)))
		for key := range z.orders16 {
			var cells uint64
			var occupied uint32
			for i := range k - 1 {
				cells |= uint64(key>>(3*i)&7) << (CellBits * i)
				occupied |= 1 << (key >> (3 * i) & 7)
			}
			if bits.OnesCount32(occupied) == k-1 && occupied < 1<<k {
				last := uint64(bits.TrailingZeros32(^occupied))
				z.orders16[key] = uint16(z.lehmer(cells|last<<(CellBits*(k-1)), occupied|1<<last))
			}
		}
	}
	geo := NewGeometry(size)
	z.sets = make([]zeroSet, choose[n][k])
	counts := make([]uint32, len(z.sets))
	for occupied := range combinations(n, k) {
		r := z.set(occupied)
		for region := range geo.regions(geo.All &^ occupied) {
			if counts[r] == maxRegions {
				return nil, fmt.Errorf("pdbcore: %d tiles on %d cells leave more than %d regions", k, n, maxRegions)
			}
			for c := region; c != 0; c &= c - 1 {
				c := bits.TrailingZeros32(c)
				z.sets[r][c/16] |= uint64(counts[r]) << (4 * (c % 16))
			}
			counts[r]++
		}
	}
	var offset uint64
	for r, count := range counts {
		if offset >= 1<<(64-offsetShift) {
			return nil, fmt.Errorf("pdbcore: %d tiles on %d cells have too many regions to index", k, n)
		}
		z.sets[r][1] |= offset << offsetShift
		offset += uint64(count)
	}
	z.regions = offset
	return z, nil
}

// combinations yields every set of k of n cells, as masks, for k ≥ 1.
func combinations(n, k int) func(yield func(uint32) bool) {
	return func(yield func(uint32) bool) {
		// Gosper's hack: the next larger mask with as many bits.
		for m := uint32(1)<<k - 1; m < 1<<n; {
			if !yield(m) {
				return
			}
			low := m & -m
			ripple := m + low
			m = ripple | (m^ripple)>>2/low
		}
	}
}

// Len returns the number of entries of a table so indexed.
func (z *Zero) Len() int { return int(z.regions * z.orders) }

// Regions returns the number of regions summed over every set of cells:
// a table has Regions() · k! entries.
func (z *Zero) Regions() int { return int(z.regions) }

// set returns the rank of the set of cells occupied.
func (z *Zero) set(occupied uint32) uint32 {
	lo := occupied & (1<<halfBits - 1)
	return z.low[lo] + z.high[occupied>>halfBits&uint32(len(z.high)-1)][bits.OnesCount32(lo)&15]
}

// Index returns the index of the placement whose tile i is on the cell in
// bits CellBits·i of cells, which occupy the cells of occupied, with the
// blank on cell blank, which they leave free.
func (z *Zero) Index(cells uint64, occupied uint32, blank int) uint64 {
	return z.IndexOf(occupied, blank, z.Order(cells, occupied))
}

// IndexOf returns Index from the order of the tiles (Order), which a
// search keeps while no tile passes another.
func (z *Zero) IndexOf(occupied uint32, blank int, order uint64) uint64 {
	s := &z.sets[z.set(occupied)]
	region := s[blank>>4&1] >> (4 * (blank & 15)) & (maxRegions - 1)
	return order*z.regions + s[1]>>offsetShift + region
}

// Order returns the rank of the order of the tiles on their cells
// (lehmer): it changes only when a tile moves past another in the order
// of the cells.
func (z *Zero) Order(cells uint64, occupied uint32) uint64 {
	if z.orders16 == nil {
		return z.lehmer(cells, occupied)
	}
	var key uint32
	for i := range z.k - 1 {
		key |= uint32(bits.OnesCount32(occupied&(1<<Cell(cells, i)-1))) << (3 * i)
	}
	return uint64(z.orders16[key&uint32(len(z.orders16)-1)])
}

// lehmer returns the rank of the order of the tiles on their cells: tile
// i's digit is the place of its cell among the occupied cells, less the
// places of the tiles before it that are lower.
func (z *Zero) lehmer(cells uint64, occupied uint32) uint64 {
	var seen uint32
	var r uint64
	for i := range z.k {
		place := uint32(bits.OnesCount32(occupied & (1<<Cell(cells, i) - 1)))
		r += uint64(place-uint32(bits.OnesCount32(seen&(1<<place-1)))) * z.fact[i&15]
		seen |= 1 << place
	}
	return r
}
