package pdb

import (
	"testing"

	"fifteen/bitboard"
)

// slowValues computes a pattern database the plain way: a 0-1 breadth-first
// search over the pattern tiles' cells and the blank's exact cell, a move
// of a pattern tile costing 1 and any other move 0. It returns each
// placement's value keyed by the tiles' cells (as a string).
func slowValues(size bitboard.Size, goal bitboard.Goal, tiles []int) map[string]int {
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
	deque := []state{start}
	for len(deque) > 0 {
		s := deque[0]
		deque = deque[1:]
		for _, m := range bitboard.Moves {
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
					deque = append([]state{next}, deque...)
				} else {
					deque = append(deque, next)
				}
			}
		}
	}
	values := map[string]int{}
	for s, d := range dist {
		if v, ok := values[s.cells]; !ok || d < v {
			values[s.cells] = d
		}
	}
	return values
}

func TestBuildAgainstSlowSearch(t *testing.T) {
	for _, c := range []struct {
		size  bitboard.Size
		goal  bitboard.Goal
		tiles []int
	}{
		{bitboard.Size{Rows: 3, Cols: 3}, bitboard.GoalLast, []int{1, 2, 3, 4}},
		{bitboard.Size{Rows: 3, Cols: 3}, bitboard.GoalFirst, []int{5, 6, 7, 8}},
		{bitboard.Size{Rows: 2, Cols: 3}, bitboard.GoalLast, []int{2, 4}},
		{bitboard.Size{Rows: 4, Cols: 4}, bitboard.GoalFirst, []int{13, 14, 15}},
		{bitboard.Size{Rows: 4, Cols: 4}, bitboard.GoalLast, []int{1, 6}},
	} {
		want := slowValues(c.size, c.goal, c.tiles)
		for _, scheme := range []Scheme{Sparse, Ranked} {
			table, err := Build(c.size, c.goal, c.tiles, BuildOptions{Scheme: scheme, Threads: 3})
			if err != nil {
				t.Fatal(err)
			}
			if len(want) != table.placements() {
				t.Fatalf("%v: slow search reached %d placements, want %d", c.tiles, len(want), table.placements())
			}
			for cells, v := range want {
				var packed uint64
				for i := range c.tiles {
					packed |= uint64(cells[i]-'a') << (4 * i)
				}
				if got := table.Values[table.Index(packed)]; int(got) != v {
					t.Fatalf("%v %v %v: value %d, slow search %d", c.size, c.tiles, scheme, got, v)
				}
			}
		}
	}
}

func TestBuildErrors(t *testing.T) {
	size := bitboard.Size{Rows: 3, Cols: 3}
	for _, tiles := range [][]int{{}, {0, 1}, {1, 1}, {9}, {1, 2, 3, 4, 5, 6, 7, 8}} {
		if _, err := Build(size, bitboard.GoalLast, tiles, BuildOptions{}); err == nil {
			t.Errorf("pattern %v accepted", tiles)
		}
	}
}

func TestIndexerRoundTrip(t *testing.T) {
	for _, scheme := range []Scheme{Sparse, Ranked} {
		x, err := NewIndexer(scheme, 16, 4)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := NewIndexer(Ranked, 16, 4)
		seen := map[uint64]bool{}
		for i := range uint64(r.Len()) {
			cells, occupied := r.Cells(i)
			if r.Index(cells) != i || occupied&(occupied-1) == 0 {
				t.Fatalf("rank %d → %x → %d", i, cells, r.Index(cells))
			}
			idx := x.Index(cells)
			if seen[idx] || idx >= uint64(x.Len()) {
				t.Fatalf("%v: index %d repeated or out of range", scheme, idx)
			}
			seen[idx] = true
		}
	}
}

func BenchmarkBuild6(b *testing.B) {
	for b.Loop() {
		if _, err := Build(bitboard.Size{Rows: 4, Cols: 4}, bitboard.GoalFirst, []int{1, 4, 5, 8, 9, 12}, BuildOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
