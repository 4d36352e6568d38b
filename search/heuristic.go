package search

import (
	"errors"
	"fmt"

	"fifteen/internal/pdbcore"
	"fifteen/pdb"
	"fifteen/puzzle"
)

// Heuristic is an additive heuristic: the sum, over disjoint patterns that
// cover every tile, of each pattern's table value — or the maximum of up to
// sixteen such sums, over views of the board: the board reflected about
// its main diagonal, or other partitions of the tiles into patterns (Max). The
// sums of linear conflict's two views, the rows' patterns and the columns',
// are added instead. Manhattan distance is the case of one-tile patterns.
// The search updates the sums incrementally: a move changes one tile, so
// one table index of each view, and the blank stays in its region of every
// other pattern's free cells.
type Heuristic struct {
	name  string
	size  puzzle.Size
	goal  puzzle.Goal
	views [maxViews]view
	n     int  // the views in use
	add   bool // whether the views' sums are added, rather than maximised
	// unreflected is a square board's tables looked up without their
	// reflection: the same name, but other counts (see describe).
	unreflected bool
	// swing is the most the estimate changes by at a move, which bounds
	// how far an iteration's next bound lies (checkBounds): 1 for Manhattan
	// distance and misplaced tiles, 3 for linear conflict, whose tile may
	// also join or leave a conflict; 0, unknown, for databases, whose
	// value is the best over the blank's places, and rose by up to 5 at a
	// move on a 3×3 board.
	swing int
}

// maxViews bounds the views of a heuristic: a catalogue's partitions,
// each with its reflection.
const maxViews = 2 * pdb.MaxPartitions

// view is one additive sum: tile t on cell c counts as tile ttile[t] on
// cell tcell[c], in the table of pattern group[ttile[t]] at place
// shift[ttile[t]]/pdb.CellBits. tcell is its own inverse.
type view struct {
	tables []*pdb.Table
	values [puzzle.MaxBoardCells]string // pattern → its table's entries (read-only), one load from the view
	group  [puzzle.MaxBoardCells]uint8  // tile → its pattern's place in tables
	shift  [puzzle.MaxBoardCells]uint8  // tile → pdb.CellBits × its place in its pattern
	weight [puzzle.MaxBoardCells]uint64 // tile → its digit's weight in its table's ranked index
	ranked [puzzle.MaxBoardCells]bool   // pattern → whether its table is ranked
	// pattern → its entries' value bits, and the place of region 0's flag
	// (pdb.Table)
	low, flags [puzzle.MaxBoardCells]uint8
	regions    *regionNumbers // shared by the views of a size
	// grow finds the blank's region on boards too large for regions, and
	// is nil on the others (see value).
	grow  *pdbcore.Geometry
	tcell [puzzle.MaxBoardCells]uint8
	ttile [puzzle.MaxBoardCells]uint8

	// The same composed with the relabelling, for the search's loop: per
	// tile and cell of the board, the pattern and the tile's share of its
	// index there (pdbcore.Indexer.Place; for a ranked index, the cell's
	// weight, see passed); per cell of the board, the bit of its cell in
	// the view. Indexes of up to 7 tiles, and a ranked digit's weight
	// times a cell in a table of at most 2^32 entries, fit 32 bits.
	boardGroup [puzzle.MaxBoardCells]uint8
	boardPlace [puzzle.MaxBoardCells][puzzle.MaxBoardCells]uint32
	boardBit   [puzzle.MaxBoardCells]uint32
	boardPass  [puzzle.MaxBoardCells][puzzle.MaxBoardCells]uint64

	// Read only by compose, and so last, away from what the loop reads:
	// tile t → tile u → the change in the ranked index of t's pattern
	// when t passes u, 0 unless u is in the pattern (passed).
	pass [puzzle.MaxBoardCells][puzzle.MaxBoardCells]uint64
}

// compose fills the board-indexed tables from the view's own.
func (v *view) compose(n int) {
	indexers := make([]pdbcore.Indexer, len(v.tables))
	for g, table := range v.tables {
		indexers[g] = indexerOf(table)
	}
	for t := range n {
		vt := v.ttile[t]
		v.boardGroup[t] = v.group[vt]
		for c := range n {
			share := uint64(v.tcell[c]) * v.weight[vt]
			if !v.ranked[v.group[vt]] {
				share = indexers[v.group[vt]].Place(int(v.shift[vt]/pdb.CellBits), int(v.tcell[c]))
			}
			v.boardPlace[t][c] = uint32(share)
		}
		for u := range n {
			v.boardPass[t][u] = v.pass[vt][v.ttile[u]]
		}
	}
	for c := range n {
		v.boardBit[c] = 1 << v.tcell[c]
	}
}

// regionNumbers holds, on boards of up to 16 cells, the number of the
// region of free cells each cell lies in (pdbcore.Geometry.Number) for
// every set of occupied cells, 2 bits a cell: half the size of 4 bits,
// and so more often in cache. Numbers above pdb.MaxRegions, which no
// entry flags, are cut to it.
type regionNumbers [1 << 16]uint32

// maxRegionCells bounds the boards whose regions are tabulated. On larger
// ones, whose sets of cells are too many, the search grows the blank's
// region from the pattern's cells, only for an entry that flags a region.
const maxRegionCells = 16

// noRegions stands in for the table on boards over maxRegionCells.
var noRegions regionNumbers

func newRegionNumbers(size puzzle.Size) *regionNumbers {
	if size.Cells() > maxRegionCells {
		return &noRegions
	}
	r := new(regionNumbers)
	geo := pdbcore.Shared(size)
	for occupied := range uint32(1) << size.Cells() {
		r[occupied] = uint32(geo.Numbers(occupied, pdb.MaxRegions))
	}
	return r
}

// value decodes pattern g's entry e with the pattern on the cells of
// occupied and the blank on cell blank: a move that changes the blank's
// region changes the pattern's placement, so only the moved tile's
// pattern needs it. On a board too large for the table of regions, an
// entry that flags a region needs grown instead: the caller tests
// flagged, as value, inlined in the search's loop, must call nothing.
func (v *view) value(g uint8, e uint8, occupied uint32, blank int) uint8 {
	return v.decode(g, e, uint8(v.regions[occupied&0xffff]>>(2*blank&31))&3)
}

// decode returns pattern g's value in entry e with the blank in the
// region of the given number.
func (v *view) decode(g uint8, e uint8, region uint8) uint8 {
	return e&v.low[g&31] + e>>(v.flags[g&31]+region)&1<<1
}

// lookup returns pattern g's value at index i, with the pattern on the
// cells of occupied and the blank on cell blank.
func (v *view) lookup(g uint8, i uint64, occupied uint32, blank int) uint8 {
	e := v.values[g][i]
	if v.flagged(g, e) {
		return v.grown(g, e, occupied, blank, nil)
	}
	return v.value(g, e, occupied, blank)
}

// flagged reports whether entry e of pattern g needs grown: whether it
// flags a region, on a board too large for the table of regions.
func (v *view) flagged(g uint8, e uint8) bool { return v.grow != nil && e > v.low[g&31] }

// grown is value on a board too large for the table of regions: it finds
// the blank's region in the cache rc, or without one (nil) grows it from
// the pattern's cells.
func (v *view) grown(g uint8, e uint8, occupied uint32, blank int, rc *regionCache) uint8 {
	if rc == nil {
		return v.decode(g, e, uint8(v.grow.Number(occupied, blank, pdb.MaxRegions)))
	}
	return v.decode(g, e, rc.number(occupied, blank))
}

// regionCache keeps, for the sets of cells that patterns occupied lately
// on a board too large for the table of regions, the number of every free
// cell's region (pdbcore.Geometry.Numbers): a search meets the same sets
// again and again, and growing their regions anew is slow.
type regionCache struct {
	geo     *pdbcore.Geometry
	tags    [regionCacheSize]uint32 // the set + 1; 0 in an empty slot
	numbers [regionCacheSize]uint64
}

const regionCacheBits = 12
const regionCacheSize = 1 << regionCacheBits

// newRegionCache returns an empty cache for the views' board, or nil on a
// board with a table of regions.
func newRegionCache(v *view) *regionCache {
	if v.grow == nil {
		return nil
	}
	return &regionCache{geo: v.grow}
}

// number returns the number of the region that holds cell c among the
// cells that occupied leaves free, at most pdb.MaxRegions.
func (rc *regionCache) number(occupied uint32, c int) uint8 {
	k := occupied * 0x9e3779b1 >> (32 - regionCacheBits) // Fibonacci hashing
	if rc.tags[k] != occupied+1 {
		rc.tags[k], rc.numbers[k] = occupied+1, rc.geo.Numbers(occupied, pdb.MaxRegions)
	}
	return uint8(rc.numbers[k]>>(2*c&63)) & 3
}

// Name returns the heuristic's name, such as "manhattan" or "pdb:663".
func (h *Heuristic) Name() string { return h.name }

// Size returns the board size the heuristic serves.
func (h *Heuristic) Size() puzzle.Size { return h.size }

// Goal returns the goal convention the heuristic's tables are built for.
// Search serves boards of the other convention through puzzle.Board.Rotate.
func (h *Heuristic) Goal() puzzle.Goal { return h.goal }

// Additive returns the heuristic that sums the tables, which must be of one
// size and goal and partition the tiles. With reflect (where Reflects)
// it takes the maximum with the sum on the reflected board. The heuristic
// borrows the tables' entries, read-only: their owner (a pdb.Store's
// caller, say) keeps them open while the heuristic is in use, and closes
// them after.
func Additive(name string, tables []*pdb.Table, reflect bool) (*Heuristic, error) {
	if len(tables) == 0 {
		return nil, errors.New("no tables")
	}
	return newHeuristic(name, tables, reflect)
}

// Reflects reports whether the tables of a board of the size built for
// goal serve the board reflected about its diagonal too: where the board
// is square and the reflection keeps the goal's blank in place, so that
// the reflected goal is the goal, relabelled.
func Reflects(size puzzle.Size, goal puzzle.Goal) bool {
	b := goal.Blank(size.Cells())
	return size.Rows == size.Cols && b/size.Cols == b%size.Cols
}

func newHeuristic(name string, tables []*pdb.Table, reflect bool) (*Heuristic, error) {
	size, goal := tables[0].Size, tables[0].Goal
	first, err := newView(size, goal, tables)
	if err != nil {
		return nil, err
	}
	h := &Heuristic{name: name, size: size, goal: goal, n: 1, unreflected: !reflect && Reflects(size, goal)}
	h.views[0] = first
	if reflect {
		if !Reflects(size, goal) {
			return nil, fmt.Errorf("reflection needs a square board with the goal's blank on its diagonal, not %v with the goal %v", size, goal)
		}
		// The goal is symmetric about the diagonal: tile t is relabelled
		// as the tile whose home is the reflection of t's home.
		n := size.Cells()
		r := first
		var tileAt [puzzle.MaxBoardCells]uint8
		for t := range n {
			tileAt[goal.Home(t, n)] = uint8(t)
		}
		for c := range n {
			r.tcell[c] = uint8(c%size.Cols*size.Cols + c/size.Cols)
		}
		for t := range n {
			r.ttile[t] = tileAt[r.tcell[goal.Home(t, n)]]
		}
		r.compose(n)
		h.views[1], h.n = r, 2
	}
	return h, nil
}

// Max returns the heuristic whose value is the largest of the heuristics'
// values: the databases of several partitions, say, each with its
// reflection. They must be of one size and goal, none linear conflict
// (whose views are added), with at most sixteen views (table sums) in all.
func Max(name string, hs ...*Heuristic) (*Heuristic, error) {
	if len(hs) == 0 {
		return nil, errors.New("no heuristics")
	}
	m := &Heuristic{name: name, size: hs[0].size, goal: hs[0].goal}
	unknown := false // whether a heuristic's swing is
	for _, h := range hs {
		switch {
		case h.size != m.size || h.goal != m.goal:
			return nil, fmt.Errorf("%s is for %v/%v, %s for %v/%v", h.name, h.size, h.goal, hs[0].name, m.size, m.goal)
		case h.add:
			return nil, fmt.Errorf("%s adds its views; it cannot be maximised with others", h.name)
		case m.n+h.n > maxViews:
			return nil, fmt.Errorf("the maximum of %d views at most", maxViews)
		}
		m.unreflected = m.unreflected || h.unreflected
		m.swing = max(m.swing, h.swing)
		unknown = unknown || h.swing == 0
		for _, v := range h.views[:h.n] {
			v.regions = hs[0].views[0].regions // one table for every view, kept in cache
			m.views[m.n] = v
			m.n++
		}
	}
	if unknown {
		m.swing = 0
	}
	return m, nil
}

// newView returns the identity view of the tables, which must be of one
// size and goal and partition the tiles.
func newView(size puzzle.Size, goal puzzle.Goal, tables []*pdb.Table) (view, error) {
	n := size.Cells()
	v := view{tables: tables, regions: newRegionNumbers(size)}
	if n > maxRegionCells {
		v.grow = pdbcore.Shared(size)
	}
	covered := 1 // the blank
	for g, table := range tables {
		if table.Size != size || table.Goal != goal {
			return view{}, fmt.Errorf("table %d is for %v/%v, table 0 for %v/%v", g, table.Size, table.Goal, size, goal)
		}
		if uint64(len(table.Values())) > 1<<32 {
			return view{}, fmt.Errorf("table %d has %d entries; the search indexes at most 2^32", g, len(table.Values()))
		}
		x := indexerOf(table)
		for i, t := range table.Tiles {
			if t <= 0 || t >= n || covered&(1<<t) != 0 {
				return view{}, fmt.Errorf("tile %d is outside the board or in two patterns", t)
			}
			covered |= 1 << t
			v.group[t], v.shift[t], v.weight[t] = uint8(g), uint8(pdb.CellBits*i), x.Weight(i)
		}
		v.values[g] = table.Values()
		v.ranked[g] = table.Scheme() == pdb.Ranked
		if v.ranked[g] {
			for i, t := range table.Tiles {
				for j := i + 1; j < len(table.Tiles); j++ {
					// A later tile's digit changes when t passes it, and
					// by as much, the other way, when it passes t.
					u, weight := table.Tiles[j], x.Weight(j)
					v.pass[t][u], v.pass[u][t] = weight, -weight
				}
			}
		}
		v.low[g], v.flags[g] = 0xff>>table.Regions, uint8(8-table.Regions)
	}
	if covered != 1<<n-1 {
		return view{}, fmt.Errorf("the patterns do not cover every tile of a %v board", size)
	}
	for c := range n {
		v.tcell[c], v.ttile[c] = uint8(c), uint8(c)
	}
	v.compose(n)
	return v, nil
}

// indexerOf returns the indexer of a table's placements, which its scheme
// and size determine: the view updates indexes move by move with it.
func indexerOf(t *pdb.Table) pdbcore.Indexer {
	x, _ := pdbcore.NewIndexer(t.Scheme(), t.Size.Cells(), len(t.Tiles)) // valid, as the table's own is
	return x
}

// combine returns the estimate of the views' sums.
func (h *Heuristic) combine(sums *[maxViews]int) int {
	est := 0
	for _, sum := range sums[:h.n] {
		if h.add {
			est += sum
		} else {
			est = max(est, sum)
		}
	}
	return est
}

// Estimate returns the heuristic's value on board b, which must be of the
// heuristic's size and goal convention.
func (h *Heuristic) Estimate(b puzzle.Board) int {
	var s state
	h.init(&s, b)
	return h.combine(&s.sums)
}

// state is the heuristic's incremental state for one board: per view and
// pattern, the table index, the occupied cells and the value, and the
// views' sums.
type state struct {
	views [maxViews]patterns
	sums  [maxViews]int
}

// patterns is one view's per-pattern state.
type patterns struct {
	index    [puzzle.MaxBoardCells]uint64
	occupied [puzzle.MaxBoardCells]uint32
	vals     [puzzle.MaxBoardCells]uint8
}

func (h *Heuristic) init(s *state, b puzzle.Board) {
	*s = state{}
	var board tiles
	for c := range b.Size().Cells() {
		board[c] = uint8(b.Tile(c))
	}
	h.load(s, &board, b.Blank())
}

// load sets s to the state of the board, whose blank is on cell blank.
func (h *Heuristic) load(s *state, board *tiles, blank int) {
	for i := range h.n {
		s.sums[i] = h.views[i].load(&s.views[i], board, h.size.Cells(), blank)
	}
}

// load sets p to the view's patterns of the board, of n cells, and
// returns their sum.
func (v *view) load(p *patterns, board *tiles, n, blank int) int {
	var cells [puzzle.MaxBoardCells]uint64
	var occupied [puzzle.MaxBoardCells]uint32
	for c := range n {
		if t := board[c]; t != 0 {
			vt := v.ttile[t]
			cells[v.group[vt]] |= uint64(v.tcell[c]) << v.shift[vt]
			occupied[v.group[vt]] |= 1 << v.tcell[c]
		}
	}
	sum := 0
	for g, table := range v.tables {
		p.occupied[g] = occupied[g]
		p.index[g] = table.Index(cells[g])
		p.vals[g] = v.lookup(uint8(g), p.index[g], p.occupied[g], int(v.tcell[blank]))
		sum += int(p.vals[g])
	}
	return sum
}

// estimate returns the heuristic's value on the board, whose blank is on
// cell blank, computed in s.
func (h *Heuristic) estimate(s *state, board *tiles, blank int) int {
	h.load(s, board, blank)
	return h.combine(&s.sums)
}

// move returns what the move of board tile t from board cell q to the
// adjacent cell b changes in the view, with p the view's patterns: the
// moved tile's pattern, and its index and cells after the move. A ranked
// index also needs passed. Small
// enough to be inlined, as the search's loop calls it for every view.
func (v *view) move(p *patterns, t, q, b int) (g uint8, index uint64, occupied uint32) {
	g = v.boardGroup[t&31] & 31
	index = p.index[g] + uint64(v.boardPlace[t&31][b&31]) - uint64(v.boardPlace[t&31][q&31])
	return g, index, p.occupied[g] ^ v.boardBit[q&31] ^ v.boardBit[b&31]
}

// passed returns the rest of the change in a ranked index that move makes,
// on the board cells: a ranked digit counts the free cells below it, so
// (as in pdb's builder.rankDelta) the moved tile's digit changes by the
// cells it passes (move counts those) less the pattern's earlier tiles
// among them, and each later tile among them gains or loses one free cell
// below it: pass holds those changes. Only a move across rows passes
// cells. Modulo 2^64 the sum is exact.
func (v *view) passed(board *tiles, t, q, b int) uint64 {
	from, to := int(v.tcell[q&31]), int(v.tcell[b&31])
	delta := uint64(0)
	for c := min(from, to) + 1; c < max(from, to); c++ {
		delta += v.boardPass[t&31][board[v.tcell[c&31]&31]&31]
	}
	if to < from {
		delta = -delta
	}
	return delta
}

// child returns what the move of board tile t from cell q onto the
// blank's cell b makes of the view, whose patterns are p: the moved
// tile's pattern, its index, cells and value in the child, and the
// view's sum there, from sum, the parent's. The node loops (dfs.go) do
// this inline, stopping at the first view that prunes; the others,
// which take every view, call it.
func (v *view) child(p *patterns, board *tiles, t, q, b, sum int, rc *regionCache) (g uint8, index uint64, occupied uint32, val uint8, childSum int) {
	g, index, occupied = v.move(p, t, q, b)
	if v.ranked[g] {
		index += v.passed(board, t, q, b)
	}
	e := v.values[g][index]
	val = v.value(g, e, occupied, int(v.tcell[q&31]))
	if v.flagged(g, e) {
		val = v.grown(g, e, occupied, int(v.tcell[q&31]), rc)
	}
	return g, index, occupied, val, sum - int(p.vals[g]) + int(val)
}

// set sets pattern g's index, cells and value, and returns the old ones.
func (p *patterns) set(g uint8, index uint64, occupied uint32, val uint8) (uint64, uint32, uint8) {
	g &= 31
	p.index[g], index = index, p.index[g]
	p.occupied[g], occupied = occupied, p.occupied[g]
	p.vals[g], val = val, p.vals[g]
	return index, occupied, val
}

// tiles is a board as the search holds it: the tile on each cell, a byte
// each. It measured as fast as the board packed in a word
// (docs/experiments.md), and, unlike the word, widens to larger boards.
type tiles [puzzle.MaxBoardCells]uint8
