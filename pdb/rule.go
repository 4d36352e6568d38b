package pdb

import (
	"slices"
	"strconv"

	"fifteen/puzzle"
)

// The rule that chooses the default partition of a board without a
// named one (docs/design.md, "Every board's databases"):
//
//   - as few patterns as fit, each of at most maxRuledTiles tiles, and all
//     their tables together of at most maxRuledEntries entries: the fewer
//     the patterns, the fewer the moves no table counts;
//   - of those, the patterns as large as fit, the first the largest;
//   - the tiles taken in a snake along the board's longer side, column by
//     column (down, then up) on a wide board, row by row on a tall one,
//     so that each pattern is a block of neighbouring cells.
const (
	// maxRuledEntries is the 5×5 set's 510 M entries, rounded up: a set
	// takes at most its memory, and builds in minutes.
	maxRuledEntries = 1 << 29
	// maxRuledTiles keeps a build's state bits (2 a state) within a few
	// gigabytes: 7 tiles on 20 cells take 1.3 GB.
	maxRuledTiles = 7
)

// Ruled returns the partition that the rule above chooses for a board of
// the size, of more than MaxPerfectCells cells, toward Korf's goal: tile
// t belongs on cell t.
func Ruled(size puzzle.Size) Partition {
	n := size.Cells()
	sizes := ruledSizes(n)
	order := snake(size)
	p := Partition{Size: size}
	for _, k := range sizes {
		p.Patterns = append(p.Patterns, slices.Sorted(slices.Values(order[:k])))
		order = order[k:]
		p.Name += strconv.Itoa(k)
	}
	return p
}

// ruledSizes returns the sizes of the rule's patterns on n cells.
func ruledSizes(n int) []int {
	tiles := n - 1
	parts := (tiles + maxRuledTiles - 1) / maxRuledTiles
	for leastEntries(n, tiles, parts) > maxRuledEntries {
		parts++
	}
	var sizes []int
	var used uint64
	for left := parts; left > 0; left-- {
		k := min(maxRuledTiles, tiles-(left-1)) // at least a tile for each after
		for k > 1 && used+placements(n, k)+leastEntries(n, tiles-k, left-1) > maxRuledEntries {
			k--
		}
		sizes = append(sizes, k)
		used += placements(n, k)
		tiles -= k
	}
	return sizes
}

// leastEntries returns the fewest entries that tables of parts patterns
// holding the tiles take on n cells: the patterns as even as can be, as a
// table grows faster than its tiles.
func leastEntries(n, tiles, parts int) uint64 {
	if parts == 0 {
		if tiles > 0 {
			return 1 << 63
		}
		return 0
	}
	var sum uint64
	for i := range parts {
		k := tiles / parts
		if i < tiles%parts {
			k++
		}
		if k > maxRuledTiles {
			return 1 << 63
		}
		sum += placements(n, k)
	}
	return sum
}

// placements returns the entries of a table of k tiles on n cells,
// n!/(n-k)!.
func placements(n, k int) uint64 {
	p := uint64(1)
	for i := range k {
		p *= uint64(n - i)
	}
	return p
}

// snake returns the tiles of Korf's goal in the rule's order: the cells
// but the blank's (cell 0), in a snake along the board's longer side.
func snake(size puzzle.Size) []int {
	wide := size.Cols >= size.Rows
	lines, along := size.Rows, size.Cols
	if wide {
		lines, along = size.Cols, size.Rows
	}
	var order []int
	for l := range lines {
		for a := range along {
			if l%2 == 1 {
				a = along - 1 - a
			}
			cell := l*size.Cols + a
			if wide {
				cell = a*size.Cols + l
			}
			if cell != 0 {
				order = append(order, cell)
			}
		}
	}
	return order
}
