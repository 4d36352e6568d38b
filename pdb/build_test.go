package pdb

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"fifteen/internal/bfs"
	"fifteen/internal/pdbcore"
	"fifteen/puzzle"
)

// slowValues computes a pattern database the plain way: a 0-1 breadth-first
// search over the pattern tiles' cells and the blank's exact cell, a move
// of a pattern tile costing 1 and any other move 0. It returns the
// distances keyed by the tiles' cells (as a string), per blank cell (-1
// where the blank cannot be).
func slowValues(size puzzle.Size, goal puzzle.Goal, tiles []int) map[string][]int {
	n := size.Cells()
	type state struct {
		cells string // cells[i]: tile i's cell
		blank int
	}
	start := state{blank: goal.Home(0, n)}
	for _, t := range tiles {
		start.cells += string(rune('a' + goal.Home(t, n)))
	}
	dist := map[state]int{start: 0}
	// The 0-1 BFS deque: its front is a stack, its back a queue.
	var front []state
	back := []state{start}
	for len(front)+len(back) > 0 {
		var s state
		if len(front) > 0 {
			s, front = front[len(front)-1], front[:len(front)-1]
		} else {
			s, back = back[0], back[1:]
		}
		for _, m := range puzzle.Moves {
			q := size.Neighbor(s.blank, m)
			if q < 0 {
				continue
			}
			next, cost := state{cells: s.cells, blank: q}, 0
			for i := range tiles {
				if int(s.cells[i]-'a') == q {
					b := []byte(s.cells)
					b[i] = byte('a' + s.blank)
					next.cells, cost = string(b), 1
				}
			}
			if d, seen := dist[next]; !seen || d > dist[s]+cost {
				dist[next] = dist[s] + cost
				if cost == 0 {
					front = append(front, next)
				} else {
					back = append(back, next)
				}
			}
		}
	}
	values := map[string][]int{}
	for s, d := range dist {
		if values[s.cells] == nil {
			values[s.cells] = slices.Repeat([]int{-1}, n)
		}
		values[s.cells][s.blank] = d
	}
	return values
}

// TestBuildAgainstSlowSearch checks every entry, with the blank on every
// cell, against slowValues: a zero-aware table's is the slow search's
// distance; the others' is the value with the blank in its best region,
// plus 2 where the blank's region is flagged, which it must be exactly
// when the blank there needs more moves. Blank-free tables hold the best
// region's value only.
func TestBuildAgainstSlowSearch(t *testing.T) {
	for _, c := range []struct {
		size    puzzle.Size
		goal    puzzle.Goal
		tiles   []int
		regions int
	}{
		{puzzle.Size{Rows: 3, Cols: 3}, puzzle.GoalLast, []int{1, 2, 3, 4}, 3},
		{puzzle.Size{Rows: 3, Cols: 3}, puzzle.GoalFirst, []int{5, 6, 7, 8}, 3},
		{puzzle.Size{Rows: 2, Cols: 3}, puzzle.GoalLast, []int{2, 4}, 2},
		{puzzle.Size{Rows: 4, Cols: 4}, puzzle.GoalFirst, []int{13, 14, 15}, 2},
		{puzzle.Size{Rows: 4, Cols: 4}, puzzle.GoalLast, []int{1, 6}, 2},
		{puzzle.Size{Rows: 4, Cols: 4}, puzzle.GoalLast, []int{9, 2, 6}, 2},
		{puzzle.Size{Rows: 3, Cols: 4}, puzzle.GoalFirst, []int{7, 1, 10, 4}, 3},
		{puzzle.Size{Rows: 5, Cols: 5}, puzzle.GoalFirst, []int{1, 5, 6}, 2},
		{puzzle.Size{Rows: 5, Cols: 5}, puzzle.GoalLast, []int{24, 7, 12}, 2},
	} {
		t.Run(fmt.Sprint(c.size, c.goal, c.tiles), func(t *testing.T) {
			want := slowValues(c.size, c.goal, c.tiles)
			geo := pdbcore.NewGeometry(c.size)
			for _, blankFree := range []bool{false, true} {
				for _, scheme := range []Scheme{Sparse, Ranked} {
					table, err := Build(context.Background(), c.size, c.goal, c.tiles, BuildOptions{Scheme: scheme, Threads: 3, BlankFree: blankFree})
					if refused := scheme == Sparse && c.size.Cells() > pdbcore.MaxSparseCells; refused || err != nil {
						if !refused || err == nil {
							t.Fatalf("%v: %v", scheme, err)
						}
						continue // a sparse index serves boards of up to 16 cells
					}
					if wantRegions := map[bool]int{false: c.regions, true: 0}[blankFree]; table.Regions != wantRegions {
						t.Errorf("%v %v blank-free %v: %d regions, want %d", c.size, c.tiles, blankFree, table.Regions, wantRegions)
					}
					if len(want) != table.placements() {
						t.Fatalf("%v: slow search reached %d placements, want %d", c.tiles, len(want), table.placements())
					}
					for cells, dist := range want {
						var packed uint64
						var occupied uint32
						for i := range c.tiles {
							packed |= uint64(cells[i]-'a') << (CellBits * i)
							occupied |= 1 << (cells[i] - 'a')
						}
						best := slices.Min(slices.DeleteFunc(slices.Clone(dist), func(d int) bool { return d < 0 }))
						for blank, d := range dist {
							if d < 0 {
								continue
							}
							region := geo.Number(occupied, blank, MaxRegions)
							v := best
							if d > best && region < table.Regions {
								v += 2
							}
							if got := table.valueAt(table.Index(packed), region); got != v || got > d {
								t.Fatalf("%v %v %v blank-free %v, blank on %d: value %d, want %d (slow search %d, best %d)",
									c.size, c.tiles, scheme, blankFree, blank, got, v, d, best)
							}
						}
					}
				}
			}
		})
	}
}

func TestBuildErrors(t *testing.T) {
	size := puzzle.Size{Rows: 3, Cols: 3}
	for _, tiles := range [][]int{{}, {0, 1}, {1, 1}, {9}, {1, 2, 3, 4, 5, 6, 7, 8, 8}} {
		if _, err := Build(context.Background(), size, puzzle.GoalLast, tiles, BuildOptions{}); err == nil {
			t.Errorf("pattern %v accepted", tiles)
		}
	}
	for _, threads := range []int{-1, MaxThreads + 1} {
		if _, err := Build(context.Background(), size, puzzle.GoalLast, []int{1, 2}, BuildOptions{Threads: threads}); err == nil {
			t.Errorf("%d threads accepted", threads)
		}
	}
	// 9 tiles on 16 cells have 16!/7! placements, too many to build.
	if _, err := Build(context.Background(), size4, puzzle.GoalLast, []int{1, 2, 3, 4, 5, 6, 7, 8, 9}, BuildOptions{}); err == nil {
		t.Error("a 9-tile pattern accepted")
	}
}

// TestPerfect8Puzzle checks the database of all eight tiles of the 3×3
// board against breadth-first search: on every one of the 181,440
// positions it is the exact distance.
func TestPerfect8Puzzle(t *testing.T) {
	size := puzzle.Size{Rows: 3, Cols: 3}
	for _, goal := range []puzzle.Goal{puzzle.GoalFirst, puzzle.GoalLast} {
		p := SmallPartition(size)
		if p.Name != "perfect" || len(p.Patterns) != 1 {
			t.Fatalf("3x3 partition %q", p.Name)
		}
		table, err := Build(context.Background(), size, goal, p.Patterns[0], BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		positions := bfs.All(size, goal)
		if len(positions) != 181440 {
			t.Fatalf("%d positions", len(positions))
		}
		for _, pos := range positions {
			if v := table.Value(pos.Board); v != pos.Dist {
				t.Fatalf("%v %v: database %d, distance %d", goal, pos.Board, v, pos.Dist)
			}
		}
	}
}

func TestSmallPartition(t *testing.T) {
	for _, size := range []puzzle.Size{{Rows: 2, Cols: 2}, {Rows: 2, Cols: 3}, {Rows: 3, Cols: 3}} {
		if p := SmallPartition(size); p.Name != "perfect" || len(p.Patterns) != 1 || len(p.Patterns[0]) != size.Cells()-1 || DefaultPartition(size) != "" {
			t.Errorf("%v: %q %v", size, p.Name, p.Patterns)
		}
	}
}

// TestRuled checks the rule's partition of every board of 10 to 32 cells
// without a named one: every tile once, patterns of at most 7 tiles,
// tables within the budget, as few patterns as fit it, the largest first,
// and each pattern's cells a connected block; and that its name parses
// back to it.
func TestRuled(t *testing.T) {
	for rows := 2; rows <= 16; rows++ {
		for cols := 2; rows*cols <= puzzle.MaxBoardCells; cols++ {
			size := puzzle.Size{Rows: rows, Cols: cols}
			n := size.Cells()
			if n <= MaxPerfectCells || size == size4 || size == size5 {
				continue
			}
			p := Ruled(size)
			q, err := ParsePartition(DefaultPartition(size), size)
			if err != nil || !slices.EqualFunc(p.Patterns, q.Patterns, slices.Equal) || !slices.Equal(Names(size), []string{p.Name}) {
				t.Fatalf("%v: %q parses to %v, %v; want %v", size, p.Name, q.Patterns, err, p.Patterns)
			}
			if _, err := ParsePartition(spec(p), size); err != nil {
				t.Fatalf("%v: %v", size, err)
			}
			var entries uint64
			for i, tiles := range p.Patterns {
				entries += placements(n, len(tiles))
				if len(tiles) > maxRuledTiles || i > 0 && len(tiles) > len(p.Patterns[i-1]) || !connected(size, tiles) {
					t.Errorf("%v: pattern %d %v", size, i, tiles)
				}
			}
			fewer := len(p.Patterns) - 1
			if entries > maxRuledEntries || fewer*maxRuledTiles >= n-1 && leastEntries(n, n-1, fewer) <= maxRuledEntries {
				t.Errorf("%v: %d patterns, %d entries", size, len(p.Patterns), entries)
			}
		}
	}
	if got := DefaultPartition(puzzle.Size{Rows: 4, Cols: 5}); got != "766" {
		t.Errorf("4x5: %s, want 766", got)
	}
}

// spec writes a partition as ParsePartition reads it.
func spec(p Partition) string {
	var groups []string
	for _, tiles := range p.Patterns {
		groups = append(groups, strings.Trim(strings.ReplaceAll(fmt.Sprint(tiles), " ", ","), "[]"))
	}
	return strings.Join(groups, "/")
}

// connected reports whether the cells of the tiles (under Korf's goal,
// tile t on cell t) are one block of neighbours.
func connected(size puzzle.Size, tiles []int) bool {
	reached := map[int]bool{tiles[0]: true}
	for todo := []int{tiles[0]}; len(todo) > 0; todo = todo[1:] {
		for _, m := range puzzle.Moves {
			if c := size.Neighbor(todo[0], m); c >= 0 && !reached[c] && slices.Contains(tiles, c) {
				reached[c] = true
				todo = append(todo, c)
			}
		}
	}
	return len(reached) == len(tiles)
}

// TestStep checks that stepping through the placements in rank order
// meets each one's unranking.
func TestStep(t *testing.T) {
	for _, c := range []struct {
		size puzzle.Size
		k    int
	}{
		{puzzle.Size{Rows: 4, Cols: 4}, 4},
		{puzzle.Size{Rows: 3, Cols: 3}, 7},
		{puzzle.Size{Rows: 2, Cols: 3}, 1},
	} {
		t.Run(fmt.Sprintf("%v/k=%d", c.size, c.k), func(t *testing.T) {
			x, err := pdbcore.NewIndexer(Ranked, c.size.Cells(), c.k)
			if err != nil {
				t.Fatal(err)
			}
			b := &builder{geo: pdbcore.NewGeometry(c.size), k: c.k, free: uint64(c.size.Cells() - c.k), placements: x}
			var pl placement
			b.unrank(&pl, 0)
			for r := uint64(1); r < uint64(x.Len()); r++ {
				b.step(&pl)
				cells, occupied := x.Cells(r)
				if pl.rank != r || pl.first != r*b.free || pl.cells != cells || pl.occupied != occupied {
					t.Fatalf("%v, %d tiles: step to rank %d gave %x, want %x", c.size, c.k, r, pl.cells, cells)
				}
			}
		})
	}
}

// BenchmarkBuild builds a small 3×3 pattern and the 8-puzzle's perfect
// database, and one pattern of each of the
// 6-6-3 (6 tiles, about 1.4 s) and 7-8 (8 tiles, minutes and about 2.3 GB:
// run it alone, with -bench Build/8 -benchtime 1x) partitions.
func BenchmarkBuild(b *testing.B) {
	for _, c := range []struct {
		name  string
		size  puzzle.Size
		tiles []int
	}{
		{"3x3-4", puzzle.Size{Rows: 3, Cols: 3}, []int{1, 2, 3, 4}},
		{"3x3-perfect", puzzle.Size{Rows: 3, Cols: 3}, []int{1, 2, 3, 4, 5, 6, 7, 8}},
		{"6", puzzle.Size{Rows: 4, Cols: 4}, []int{1, 4, 5, 8, 9, 12}},
		{"8", puzzle.Size{Rows: 4, Cols: 4}, []int{8, 9, 10, 11, 12, 13, 14, 15}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Build(context.Background(), c.size, Goal, c.tiles, BuildOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRuledSets builds the rule's default set of each board in
// docs/performance.md's "Other boards", in memory: minutes and gigabytes
// each (-bench 'RuledSets/4x5' picks one).
func BenchmarkRuledSets(b *testing.B) {
	for _, size := range []puzzle.Size{{Rows: 4, Cols: 5}, {Rows: 3, Cols: 6}, {Rows: 3, Cols: 7}, {Rows: 4, Cols: 8}, {Rows: 5, Cols: 6}} {
		b.Run(size.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := Ruled(size).Build(context.Background(), BuildOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLookup reads a 6-tile table at random placements, sparse and
// ranked: the cost of a heuristic lookup that misses the cache.
func BenchmarkLookup(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	tiles := []int{1, 4, 5, 8, 9, 12}
	placements := make([]uint64, 1<<16)
	for i := range placements {
		for j, c := range rng.Perm(16)[:len(tiles)] {
			placements[i] |= uint64(c) << (CellBits * j)
		}
	}
	for _, scheme := range []Scheme{Sparse, Ranked} {
		b.Run(scheme.String(), func(b *testing.B) {
			t, err := Build(context.Background(), puzzle.Size{Rows: 4, Cols: 4}, Goal, tiles, BuildOptions{Scheme: scheme})
			if err != nil {
				b.Fatal(err)
			}
			sum, i := 0, 0
			for b.Loop() {
				sum += int(t.Values()[t.Index(placements[i&(1<<16-1)])])
				i++
			}
			if sum == 1 {
				b.Log(sum)
			}
		})
	}
}

// TestForBlank checks a partition carried over to the blank on another
// cell: the same cells, the blank's cell swapped for cell 0, named by
// that goal's tiles.
func TestForBlank(t *testing.T) {
	p, err := ParsePartition("771", size4)
	if err != nil {
		t.Fatal(err)
	}
	for blank, want := range map[int]string{
		5:  "[[1 2 3 4 5 6 7] [8 9 10 11 13 14 15] [12]]",
		1:  "[[1 2 3 4 5 6 7] [8 9 10 11 13 14 15] [12]]",
		9:  "[[2 3 4 5 6 7 8] [1 9 10 11 13 14 15] [12]]",
		12: "[[2 3 4 5 6 7 8] [9 10 11 12 13 14 15] [1]]",
	} {
		q := p.ForBlank(blank)
		if got := fmt.Sprint(q.Patterns); got != want || q.Goal() != puzzle.BlankAt(blank, 16) {
			t.Errorf("771 for the blank on %d: %s, goal %v; want %s", blank, got, q.Goal(), want)
		}
		// Each pattern covers the cells it covered, but the blank's for 0.
		for i, tiles := range q.Patterns {
			for j, u := range tiles {
				cell := q.Goal().Home(u, 16)
				if cell == 0 {
					cell = blank
				}
				if cell != p.Patterns[i][j] && !slices.Contains(p.Patterns[i], cell) {
					t.Errorf("blank on %d: pattern %d's tile %d is on cell %d, not one of %v", blank, i, u, cell, p.Patterns[i])
				}
			}
		}
	}
}
