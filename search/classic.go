package search

import (
	"fmt"
	"slices"

	"fifteen/internal/pdbcore"
	"fifteen/pdb"
	"fifteen/puzzle"
)

// The classic heuristics are additive tables too, so the search runs them
// as fast as it runs the databases.

// Manhattan returns the Manhattan-distance heuristic: the sum of every
// tile's row and column distance from its home.
func Manhattan(size puzzle.Size, goal puzzle.Goal) (*Heuristic, error) {
	return perTile("manhattan", size, goal, func(c, home int) byte { return byte(size.Distance(c, home)) })
}

// Misplaced returns the misplaced-tiles heuristic: the number of tiles off
// their home cell.
func Misplaced(size puzzle.Size, goal puzzle.Goal) (*Heuristic, error) {
	return perTile("misplaced", size, goal, func(c, home int) byte {
		if c == home {
			return 0
		}
		return 1
	})
}

// perTile returns the heuristic that sums value(cell, home) over the tiles.
func perTile(name string, size puzzle.Size, goal puzzle.Goal, value func(c, home int) byte) (*Heuristic, error) {
	if err := pdbcore.CheckSize(size); err != nil {
		return nil, err
	}
	n := size.Cells()
	tables := make([]*pdb.Table, 0, n-1)
	for t := 1; t < n; t++ {
		table, values, err := pdb.NewTable(size, goal, []int{t}, pdb.DefaultScheme(size, 1))
		if err != nil {
			return nil, err
		}
		home := goal.Home(t, n)
		for c := range n {
			values[table.Index(uint64(c))] = value(c, home)
		}
		tables = append(tables, table)
	}
	// Both are the same on the reflected board: no second view.
	h, err := newHeuristic(name, tables, false)
	if h != nil {
		h.swing = 1 // one tile moves one cell
	}
	return h, err
}

// maxLineTiles bounds the tiles of a row or column that LinearConflict
// tabulates: 16^5 entries a table.
const maxLineTiles = 5

// LinearConflict returns Manhattan distance plus two moves for each tile
// that must leave its goal row or column to let the others of that line
// pass (Hansson, Mayer and Yung 1992; Korf and Taylor 1996): in each line,
// of the tiles that are in their goal line, all but a longest sequence
// already in goal order. It is admissible and never less than Manhattan
// distance. The rows' patterns carry the Manhattan distance and the row
// conflicts, the columns' patterns the column conflicts, and the two sums
// are added; rows and columns of at most 5 tiles.
func LinearConflict(size puzzle.Size, goal puzzle.Goal) (*Heuristic, error) {
	if err := pdbcore.CheckSize(size); err != nil {
		return nil, err
	}
	if size.Rows > maxLineTiles || size.Cols > maxLineTiles {
		return nil, fmt.Errorf("linear conflict tabulates lines of up to %d cells, not %v", maxLineTiles, size)
	}
	rows, err := lineTables(size, goal, size.Rows, func(c int) int { return c / size.Cols }, func(c int) int { return c % size.Cols }, true)
	if err != nil {
		return nil, err
	}
	cols, err := lineTables(size, goal, size.Cols, func(c int) int { return c % size.Cols }, func(c int) int { return c / size.Cols }, false)
	if err != nil {
		return nil, err
	}
	h, err := newHeuristic("linear-conflict", rows, false)
	if err != nil {
		return nil, err
	}
	if h.views[1], err = newView(size, goal, cols); err != nil {
		return nil, err
	}
	h.n, h.add, h.swing = 2, true, 3
	return h, nil
}

// lineTables returns a table for each of the lines (rows, or columns) of
// the board: the pattern of the tiles whose home is on the line, valued at
// twice its conflicts, plus their Manhattan distance if withDistance. line
// gives a cell's line, along its place along the line.
func lineTables(size puzzle.Size, goal puzzle.Goal, lines int, line, along func(c int) int, withDistance bool) ([]*pdb.Table, error) {
	n := size.Cells()
	var tables []*pdb.Table
	for l := range lines {
		var tiles []int
		for t := 1; t < n; t++ {
			if line(goal.Home(t, n)) == l {
				tiles = append(tiles, t)
			}
		}
		table, values, err := pdb.NewTable(size, goal, tiles, pdb.DefaultScheme(size, len(tiles)))
		if err != nil {
			return nil, err
		}
		ranks, err := pdbcore.NewIndexer(pdbcore.Ranked, n, len(tiles))
		if err != nil {
			return nil, err
		}
		for r := range uint64(ranks.Len()) {
			cells, _ := ranks.Cells(r)
			v := 0
			// The tiles on their goal line, in the order they stand on it,
			// by their goal places: all but a longest increasing run conflict.
			var order []int
			for i, t := range tiles {
				c := pdbcore.Cell(cells, i)
				home := goal.Home(t, n)
				if withDistance {
					v += size.Distance(c, home)
				}
				if line(c) == l {
					order = append(order, along(c)<<8|along(home))
				}
			}
			slices.Sort(order) // by the place on the line now
			v += 2 * (len(order) - longestIncreasing(order))
			values[table.Index(cells)] = byte(v)
		}
		tables = append(tables, table)
	}
	return tables, nil
}

// longestIncreasing returns the length of a longest strictly increasing
// subsequence of the goal places (the low byte of each entry).
func longestIncreasing(order []int) int {
	best := make([]int, len(order)) // best[i]: the longest ending at i
	longest := 0
	for i := range order {
		best[i] = 1
		for j := range i {
			if order[j]&0xff < order[i]&0xff {
				best[i] = max(best[i], best[j]+1)
			}
		}
		longest = max(longest, best[i])
	}
	return longest
}

// Classic returns the classic heuristic of the given name — "misplaced",
// "manhattan" or "linear-conflict" — for the board size and goal.
func Classic(name string, size puzzle.Size, goal puzzle.Goal) (*Heuristic, error) {
	switch name {
	case "misplaced":
		return Misplaced(size, goal)
	case "manhattan":
		return Manhattan(size, goal)
	case "linear-conflict":
		return LinearConflict(size, goal)
	}
	return nil, fmt.Errorf("unknown heuristic %q: want misplaced, manhattan or linear-conflict", name)
}
