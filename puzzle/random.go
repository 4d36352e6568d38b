package puzzle

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// MaxRanked is the largest board Rank and Unrank number: its N!/2
// positions are the most that fit 64 bits.
const MaxRanked = 20

// Positions returns the number of solvable positions of a board of the
// given size under either goal: N!/2 for N cells, up to MaxRanked cells;
// 0 for larger boards, whose count does not fit.
func Positions(size Size) uint64 {
	if size.Cells() > MaxRanked {
		return 0
	}
	p := uint64(1)
	for k := uint64(3); k <= uint64(size.Cells()); k++ {
		p *= k
	}
	return p
}

// ErrRank is returned by Unrank for a number out of range, and by Rank and
// Unrank for a board too large to rank.
var ErrRank = errors.New("rank out of range")

// Rank returns the number of position b among the solvable positions of its
// size under goal g, from 0 to Positions−1: the blank's cell, then the
// lexicographic rank of the order of the tiles on the other cells (read in
// row-major order) among the orders that are solvable with the blank there,
// which are half of them. Unrank inverts it.
func (b Board) Rank(g Goal) (uint64, error) {
	if !b.Solvable(g) {
		return 0, errors.New("unsolvable positions have no rank")
	}
	if err := rankable(b.Size()); err != nil {
		return 0, err
	}
	n := b.Size().Cells()
	m := n - 1 // tiles
	var used uint32
	var r uint64
	weight := Positions(b.Size()) / uint64(n) / uint64(m) // (m−1)!/2, the weight of the first tile's digit
	i := 0
	for c := range n {
		t := b.Tile(c)
		if t == 0 {
			continue
		}
		if i < m-2 {
			// The tile's digit: how many unused tiles are smaller.
			d := t - 1 - bits.OnesCount32(used&(1<<t-1))
			r += uint64(d) * weight
			weight = nextWeight(weight, m, i)
		}
		used |= 1 << t
		i++
	}
	return uint64(b.blank)*(Positions(b.Size())/uint64(n)) + r, nil
}

// Unrank returns the solvable position of the given number (see Rank).
func Unrank(size Size, g Goal, rank uint64) (Board, error) {
	if err := size.Valid(); err != nil {
		return Board{}, err
	}
	if err := rankable(size); err != nil {
		return Board{}, err
	}
	total := Positions(size)
	if rank >= total {
		return Board{}, fmt.Errorf("%w: %d of %d positions of a %v board", ErrRank, rank, total, size)
	}
	n := size.Cells()
	m := n - 1
	perBlank := total / uint64(n) // m!/2
	blank := int(rank / perBlank)
	r := rank % perBlank
	tiles := make([]int, 0, m)
	var used uint32
	weight := perBlank / uint64(m) // (m−1)!/2
	for i := range m {
		d := 0 // the last two digits: 0, and the parity fixes the pair's order below
		if i < m-2 {
			d = int(r / weight)
			r %= weight
			weight = nextWeight(weight, m, i)
		}
		t := nthUnused(used, d, n)
		used |= 1 << t
		tiles = append(tiles, t)
	}
	cells := make([]int, 0, n)
	cells = append(cells, tiles[:blank]...)
	cells = append(cells, 0)
	cells = append(cells, tiles[blank:]...)
	p := Puzzle{Size: size, Tiles: cells}
	if !p.Solvable(g) {
		// The other order of the last two tiles has the other parity.
		cell := func(j int) int { return j + boolInt(j >= blank) }
		a, z := cell(m-2), cell(m-1)
		cells[a], cells[z] = cells[z], cells[a]
	}
	return p.Board()
}

// rankable reports a size whose positions are too many to number in 64
// bits.
func rankable(size Size) error {
	if size.Cells() > MaxRanked {
		return fmt.Errorf("%w: a %v board has more positions than 64 bits number", ErrRank, size)
	}
	return nil
}

// nextWeight returns the weight of digit i+1 given digit i's: digit i
// weighs (m−1−i)!/2 (the last two digits are dropped, as the parity fixes
// them).
func nextWeight(w uint64, m, i int) uint64 {
	if i < m-3 {
		return w / uint64(m-1-i)
	}
	return w
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// nthUnused returns the d-th (from 0) tile 1..n−1 not in used.
func nthUnused(used uint32, d, n int) int {
	for t := 1; t < n; t++ {
		if used&(1<<t) == 0 {
			if d == 0 {
				return t
			}
			d--
		}
	}
	panic("puzzle: digit out of range")
}

// Random returns a position drawn uniformly from the solvable positions of
// the given size under goal g: the position of a uniformly drawn number
// (Unrank), or on boards too large to rank, a shuffle of the tiles with
// tiles 1 and 2 swapped if it is unsolvable (the swap pairs each
// unsolvable position with one solvable one). (A random walk from the
// goal, by contrast, favours positions near it.) A nil rng draws from a
// source seeded at random.
func Random(rng *rand.Rand, size Size, g Goal) (Puzzle, error) {
	if err := size.Valid(); err != nil {
		return Puzzle{}, err
	}
	if rng == nil {
		rng = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	if size.Cells() <= MaxRanked {
		b, err := Unrank(size, g, rng.Uint64N(Positions(size)))
		return b.Puzzle(), err
	}
	p := Puzzle{Size: size, Tiles: rng.Perm(size.Cells())}
	if !p.Solvable(g) {
		one, two := slices.Index(p.Tiles, 1), slices.Index(p.Tiles, 2)
		p.Tiles[one], p.Tiles[two] = 2, 1
	}
	return p, nil
}
