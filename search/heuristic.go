package search

import (
	"errors"
	"fmt"

	"fifteen/bitboard"
	"fifteen/pdb"
)

// Heuristic is an additive heuristic: the sum, over disjoint patterns that
// cover every tile, of each pattern's table value, optionally maximised with
// the same sum on the board reflected about its main diagonal. Manhattan
// distance is the case of one-tile patterns. The search updates it
// incrementally: a move changes one tile, so one table index of the sum
// and one of the reflected sum.
type Heuristic struct {
	name    string
	size    bitboard.Size
	goal    bitboard.Goal
	tables  []*pdb.Table
	reflect bool

	group [bitboard.MaxCells]uint8 // tile → its pattern's place in tables
	shift [bitboard.MaxCells]uint8 // tile → 4 × its place in its pattern
	// The reflection: cell c of a board is cell tcell[c] of the reflected
	// board, and tile t is tile ttile[t] there.
	tcell [bitboard.MaxCells]uint8
	ttile [bitboard.MaxCells]uint8
}

// Name returns the heuristic's name, such as "manhattan" or "pdb:663".
func (h *Heuristic) Name() string { return h.name }

// Size returns the board size the heuristic serves.
func (h *Heuristic) Size() bitboard.Size { return h.size }

// Goal returns the goal convention the heuristic's tables are built for.
// Search serves boards of the other convention through bitboard.Board.Rotate.
func (h *Heuristic) Goal() bitboard.Goal { return h.goal }

// Reflects reports whether the heuristic takes the maximum with the
// reflected board.
func (h *Heuristic) Reflects() bool { return h.reflect }

// Manhattan returns the Manhattan-distance heuristic: the sum of every
// tile's row and column distance from its home.
func Manhattan(size bitboard.Size, goal bitboard.Goal) (*Heuristic, error) {
	if err := size.Valid(); err != nil {
		return nil, err
	}
	n := size.Cells()
	tables := make([]*pdb.Table, 0, n-1)
	for t := 1; t < n; t++ {
		table, err := pdb.NewTable(size, goal, []int{t}, pdb.Sparse)
		if err != nil {
			return nil, err
		}
		home := goal.Home(t, n)
		for c := range n {
			table.Values[c] = byte(size.Distance(c, home))
		}
		tables = append(tables, table)
	}
	// Manhattan distance is the same on the reflected board.
	return newHeuristic("manhattan", tables, false)
}

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
	n := size.Cells()
	h := &Heuristic{name: name, size: size, goal: goal, tables: tables, reflect: reflect}
	covered := 1 // the blank
	for g, table := range tables {
		if table.Size != size || table.Goal != goal {
			return nil, fmt.Errorf("search: table %d is for %v/%v, table 0 for %v/%v", g, table.Size, table.Goal, size, goal)
		}
		for i, t := range table.Tiles {
			if t <= 0 || t >= n || covered&(1<<t) != 0 {
				return nil, fmt.Errorf("search: tile %d is outside the board or in two patterns", t)
			}
			covered |= 1 << t
			h.group[t], h.shift[t] = uint8(g), uint8(4*i)
		}
	}
	if covered != 1<<n-1 {
		return nil, fmt.Errorf("search: the patterns do not cover every tile of a %v board", size)
	}
	if reflect {
		if size.Rows != size.Cols {
			return nil, fmt.Errorf("search: reflection needs a square board, not %v", size)
		}
		// The goal is symmetric about the diagonal: tile t is relabelled
		// as the tile whose home is the reflection of t's home.
		var tileAt [bitboard.MaxCells]uint8
		for t := range n {
			tileAt[goal.Home(t, n)] = uint8(t)
		}
		for c := range n {
			h.tcell[c] = uint8(c%size.Cols*size.Cols + c/size.Cols)
		}
		for t := range n {
			h.ttile[t] = tileAt[h.tcell[goal.Home(t, n)]]
		}
	}
	return h, nil
}

// Estimate returns the heuristic's value on board b, which must be of the
// heuristic's size and goal convention.
func (h *Heuristic) Estimate(b bitboard.Board) int {
	var s state
	h.init(&s, b)
	return max(s.sum, s.rsum)
}

// state is the heuristic's incremental state for one board.
type state struct {
	words, rwords [bitboard.MaxCells]uint64 // per pattern, tile cells packed 4 bits each
	vals, rvals   [bitboard.MaxCells]uint8  // per pattern, its table value
	sum, rsum     int
}

func (h *Heuristic) init(s *state, b bitboard.Board) {
	*s = state{}
	for c := range h.size.Cells() {
		t := b.Tile(c)
		if t == 0 {
			continue
		}
		s.words[h.group[t]] |= uint64(c) << h.shift[t]
		if h.reflect {
			rt := h.ttile[t]
			s.rwords[h.group[rt]] |= uint64(h.tcell[c]) << h.shift[rt]
		}
	}
	for g, table := range h.tables {
		s.vals[g] = table.Values[table.Index(s.words[g])]
		s.sum += int(s.vals[g])
		if h.reflect {
			s.rvals[g] = table.Values[table.Index(s.rwords[g])]
			s.rsum += int(s.rvals[g])
		}
	}
}
