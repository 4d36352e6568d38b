package search

import (
	"errors"
	"fmt"

	"fifteen/bitboard"
	"fifteen/pdb"
)

// Heuristic is an additive heuristic: the sum, over disjoint patterns that
// cover every tile, of each pattern's table value — optionally combined
// with a second such sum over another view of the board: the board
// reflected about its main diagonal, whose sum is maximised with the first,
// or another partition, whose sum is added. Manhattan distance is the case
// of one-tile patterns, linear conflict that of the rows' patterns plus
// the columns'. The search updates the sums incrementally: a move changes
// one tile, so one table index of each, and the blank stays in its region
// of every other pattern's free cells.
type Heuristic struct {
	name  string
	size  bitboard.Size
	goal  bitboard.Goal
	first view
	// The second view, if any, and whether its sum is added to the first's
	// (else the larger is taken).
	second    bool
	addSecond bool
	other     view
}

// view is one additive sum: tile t on cell c counts as tile ttile[t] on
// cell tcell[c], in the table of pattern group[ttile[t]] at place
// shift[ttile[t]]/4. tcell is its own inverse.
type view struct {
	tables []*pdb.Table
	values [bitboard.MaxCells][]uint8 // pattern → its table's entries, one load from the view
	group  [bitboard.MaxCells]uint8   // tile → its pattern's place in tables
	shift  [bitboard.MaxCells]uint8   // tile → 4 × its place in its pattern
	weight [bitboard.MaxCells]uint64  // tile → its digit's weight in its table's ranked index
	ranked [bitboard.MaxCells]bool    // pattern → whether its table is ranked
	// tile → cell → the tile's share of its table's sparse index there
	// (pdb.Indexer.Place); indexes of up to 7 tiles fit 32 bits
	place [bitboard.MaxCells][bitboard.MaxCells]uint32
	// tile t → tile u → the change in the ranked index of t's pattern when
	// t passes u, 0 unless u is in the pattern (rankStep)
	pass [bitboard.MaxCells][bitboard.MaxCells]uint64
	// pattern → its entries' value bits, and the place of region 0's flag
	// (pdb.Table)
	low, flags [bitboard.MaxCells]uint8
	regions    *regionNumbers // shared by the views
	tcell      [bitboard.MaxCells]uint8
	ttile      [bitboard.MaxCells]uint8
}

// regionNumbers is pdb.RegionNumbers for every set of cells a board may
// have, so that indexing it by 16 bits needs no bounds check, in 2 bits a
// cell: half the size of 4 bits, and so more often in cache. Numbers
// above pdb.MaxRegions, which no entry flags, are cut to it.
type regionNumbers [1 << bitboard.MaxCells]uint32

func newRegionNumbers(size bitboard.Size) *regionNumbers {
	r := new(regionNumbers)
	for occupied, numbers := range pdb.RegionNumbers(size) {
		for c := range size.Cells() {
			r[occupied] |= uint32(min(numbers>>(4*c)&15, pdb.MaxRegions)) << (2 * c)
		}
	}
	return r
}

// value decodes pattern g's entry e with the pattern on the cells of
// occupied and the blank on cell blank: a move that changes the blank's
// region changes the pattern's placement, so only the moved tile's
// pattern needs it.
func (v *view) value(g uint8, e uint8, occupied uint16, blank int) uint8 {
	region := uint8(v.regions[occupied]>>(2*blank&31)) & 3
	return e&v.low[g&15] + e>>(v.flags[g&15]+region)&1<<1
}

// Name returns the heuristic's name, such as "manhattan" or "pdb:663".
func (h *Heuristic) Name() string { return h.name }

// Size returns the board size the heuristic serves.
func (h *Heuristic) Size() bitboard.Size { return h.size }

// Goal returns the goal convention the heuristic's tables are built for.
// Search serves boards of the other convention through bitboard.Board.Rotate.
func (h *Heuristic) Goal() bitboard.Goal { return h.goal }

// Additive returns the heuristic that sums the tables, which must be of one
// size and goal and partition the tiles. With reflect (square boards only)
// it takes the maximum with the sum on the reflected board.
func Additive(name string, tables []*pdb.Table, reflect bool) (*Heuristic, error) {
	if len(tables) == 0 {
		return nil, errors.New("search: no tables")
	}
	return newHeuristic(name, tables, reflect)
}

func newHeuristic(name string, tables []*pdb.Table, reflect bool) (*Heuristic, error) {
	size, goal := tables[0].Size, tables[0].Goal
	first, err := newView(size, goal, tables)
	if err != nil {
		return nil, err
	}
	h := &Heuristic{name: name, size: size, goal: goal, first: first, second: reflect, other: first}
	if reflect {
		if size.Rows != size.Cols {
			return nil, fmt.Errorf("search: reflection needs a square board, not %v", size)
		}
		// The goal is symmetric about the diagonal: tile t is relabelled
		// as the tile whose home is the reflection of t's home.
		n := size.Cells()
		var tileAt [bitboard.MaxCells]uint8
		for t := range n {
			tileAt[goal.Home(t, n)] = uint8(t)
		}
		for c := range n {
			h.other.tcell[c] = uint8(c%size.Cols*size.Cols + c/size.Cols)
		}
		for t := range n {
			h.other.ttile[t] = tileAt[h.other.tcell[goal.Home(t, n)]]
		}
	}
	return h, nil
}

// newView returns the identity view of the tables, which must be of one
// size and goal and partition the tiles.
func newView(size bitboard.Size, goal bitboard.Goal, tables []*pdb.Table) (view, error) {
	n := size.Cells()
	v := view{tables: tables, regions: newRegionNumbers(size)}
	covered := 1 // the blank
	for g, table := range tables {
		if table.Size != size || table.Goal != goal {
			return view{}, fmt.Errorf("search: table %d is for %v/%v, table 0 for %v/%v", g, table.Size, table.Goal, size, goal)
		}
		for i, t := range table.Tiles {
			if t <= 0 || t >= n || covered&(1<<t) != 0 {
				return view{}, fmt.Errorf("search: tile %d is outside the board or in two patterns", t)
			}
			covered |= 1 << t
			v.group[t], v.shift[t], v.weight[t] = uint8(g), uint8(4*i), table.Weight(i)
			for c := range n {
				v.place[t][c] = uint32(table.Place(i, c))
			}
		}
		v.values[g] = table.Values
		v.ranked[g] = table.Scheme() == pdb.Ranked
		if v.ranked[g] {
			for i, t := range table.Tiles {
				for j := i + 1; j < len(table.Tiles); j++ {
					// A later tile's digit changes when t passes it, and
					// by as much, the other way, when it passes t.
					u, weight := table.Tiles[j], table.Weight(j)
					v.pass[t][u], v.pass[u][t] = weight, -weight
				}
			}
		}
		v.low[g], v.flags[g] = 0xff>>table.Regions, uint8(8-table.Regions)
	}
	if covered != 1<<n-1 {
		return view{}, fmt.Errorf("search: the patterns do not cover every tile of a %v board", size)
	}
	for c := range n {
		v.tcell[c], v.ttile[c] = uint8(c), uint8(c)
	}
	return v, nil
}

// combine returns the estimate of the two views' sums.
func (h *Heuristic) combine(sum, other int) int {
	switch {
	case !h.second:
		return sum
	case h.addSecond:
		return sum + other
	}
	return max(sum, other)
}

// Estimate returns the heuristic's value on board b, which must be of the
// heuristic's size and goal convention.
func (h *Heuristic) Estimate(b bitboard.Board) int {
	var s state
	h.init(&s, b)
	return h.combine(s.sum, s.rsum)
}

// state is the heuristic's incremental state for one board: per view and
// pattern, the table index, the occupied cells and the value, and the
// views' sums.
type state struct {
	first, other patterns
	sum, rsum    int
}

// patterns is one view's per-pattern state.
type patterns struct {
	index    [bitboard.MaxCells]uint64
	occupied [bitboard.MaxCells]uint16
	vals     [bitboard.MaxCells]uint8
}

func (h *Heuristic) init(s *state, b bitboard.Board) {
	*s = state{}
	s.sum = h.first.init(&s.first, b)
	if h.second {
		s.rsum = h.other.init(&s.other, b)
	}
}

func (v *view) init(p *patterns, b bitboard.Board) int {
	var cells [bitboard.MaxCells]uint64
	for c := range b.Size().Cells() {
		if t := b.Tile(c); t != 0 {
			vt := v.ttile[t]
			cells[v.group[vt]] |= uint64(v.tcell[c]) << v.shift[vt]
			p.occupied[v.group[vt]] |= 1 << v.tcell[c]
		}
	}
	sum := 0
	for g, table := range v.tables {
		p.index[g] = table.Index(cells[g])
		p.vals[g] = v.value(uint8(g), table.Values[p.index[g]], p.occupied[g], int(v.tcell[b.Blank()]))
		sum += int(p.vals[g])
	}
	return sum
}

// rankStep returns the change in the ranked index of view tile vt's pattern
// when vt slides from view cell from to the adjacent view cell to, on the
// board cells. (A sparse index changes by the moved tile's change of share,
// place, alone.) A ranked digit counts the free cells below it, so (as in
// pdb's builder.rankDelta) vt's digit changes by the cells it passes less
// the pattern's earlier tiles among them, and each later tile among them
// gains or loses one free cell below it: pass holds those changes. Only a
// move across rows passes cells. Modulo 2^64 the sum is exact. It is small
// enough to be inlined, which spares the search's loop a call and the
// spills around it: 7-8 searched 15% faster than with the call.
func (v *view) rankStep(cells uint64, vt uint8, from, to int) uint64 {
	lo, hi := min(from, to), max(from, to)
	delta := uint64(hi-lo) * v.weight[vt&15]
	for c := lo + 1; c < hi; c++ {
		delta += v.pass[vt&15][v.ttile[cells>>(4*v.tcell[c&15]&63)&15]&15]
	}
	if to < from {
		return -delta
	}
	return delta
}
