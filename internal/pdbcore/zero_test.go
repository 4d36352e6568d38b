package pdbcore

import (
	"math/bits"
	"testing"

	"fifteen/puzzle"
)

// TestZeroIndex checks that the zero-aware index numbers every placement
// and region of the blank once, from 0 up, and that the region numbers
// are Geometry.Number's.
func TestZeroIndex(t *testing.T) {
	for _, tc := range []struct {
		size puzzle.Size
		k    int
	}{
		{puzzle.Size{Rows: 3, Cols: 3}, 3},
		{puzzle.Size{Rows: 2, Cols: 4}, 2},
		{puzzle.Size{Rows: 3, Cols: 4}, 4},
		{puzzle.Size{Rows: 4, Cols: 4}, 3},
	} {
		z, err := NewZero(tc.size, tc.k)
		if err != nil {
			t.Fatal(err)
		}
		n := tc.size.Cells()
		geo := NewGeometry(tc.size)
		seen := make([]bool, z.Len())
		x, _ := NewIndexer(Ranked, n, tc.k)
		for p := range x.Len() {
			cells, occupied := x.Cells(uint64(p))
			for blank := range n {
				if occupied&(1<<blank) != 0 {
					continue
				}
				i := z.Index(cells, occupied, blank)
				region := geo.Number(occupied, blank, n)
				if i >= uint64(len(seen)) {
					t.Fatalf("%v, %d tiles: index %d of %d", tc.size, tc.k, i, len(seen))
				}
				// The cells of one region share an entry.
				if geo.Leader(geo.All&^occupied, blank) == blank {
					if seen[i] {
						t.Fatalf("%v, %d tiles: index %d twice", tc.size, tc.k, i)
					}
					seen[i] = true
				} else if j := z.Index(cells, occupied, geo.Leader(geo.All&^occupied, blank)); j != i {
					t.Fatalf("%v, %d tiles: the blank's region indexed %d and %d", tc.size, tc.k, i, j)
				}
				if got := int(i%z.regions) - int(z.sets[z.set(occupied)][1]>>offsetShift); got != region {
					t.Fatalf("%v: region %d, want %d", tc.size, got, region)
				}
			}
		}
		for i, ok := range seen {
			if !ok {
				t.Fatalf("%v, %d tiles: index %d unused", tc.size, tc.k, i)
			}
		}
	}
}

// TestZeroFiveByFive checks the sizes of the 6-tile index on 5×5 that
// Clausecker and Reinefeld give: 177,100 sets of cells, 251,400 regions.
func TestZeroFiveByFive(t *testing.T) {
	z, err := NewZero(puzzle.Size{Rows: 5, Cols: 5}, 6)
	if err != nil {
		t.Fatal(err)
	}
	if len(z.sets) != 177_100 || z.Regions() != 251_400 || z.Len() != 181_008_000 {
		t.Errorf("%d sets, %d regions, %d entries", len(z.sets), z.Regions(), z.Len())
	}
	for r, m := range enumerate(25, 6) {
		if got := z.set(m); got != uint32(r) || bits.OnesCount32(m) != 6 {
			t.Fatalf("set %#x ranked %d, want %d", m, got, r)
		}
	}
}

// TestZeroErrors: boards over MaxZeroCells, and patterns that leave the
// blank one cell or none, have no zero-aware index.
func TestZeroErrors(t *testing.T) {
	for _, c := range []struct {
		size puzzle.Size
		k    int
	}{
		{puzzle.Size{Rows: 5, Cols: 6}, 3},
		{puzzle.Size{Rows: 3, Cols: 3}, 8},
		{puzzle.Size{Rows: 3, Cols: 3}, 0},
	} {
		if _, err := NewZero(c.size, c.k); err == nil {
			t.Errorf("%v, %d tiles: indexed", c.size, c.k)
		}
	}
}

func enumerate(n, k int) []uint32 {
	var sets []uint32
	for m := range combinations(n, k) {
		sets = append(sets, m)
	}
	return sets
}

// BenchmarkZeroIndex measures a 6-tile index on 5×5 from the packed
// cells, the occupied set and the blank, as the search computes it.
func BenchmarkZeroIndex(b *testing.B) {
	z, err := NewZero(puzzle.Size{Rows: 5, Cols: 5}, 6)
	if err != nil {
		b.Fatal(err)
	}
	x, _ := NewIndexer(Ranked, 25, 6)
	type placement struct {
		cells    uint64
		occupied uint32
		blank    int
	}
	var ps [1 << 10]placement
	for i := range ps {
		cells, occupied := x.Cells(uint64(i) * 124_513)
		ps[i] = placement{cells, occupied, bits.TrailingZeros32(^occupied)}
	}
	var sum uint64
	for i := 0; b.Loop(); i++ {
		p := &ps[i&(len(ps)-1)]
		sum += z.Index(p.cells, p.occupied, p.blank)
	}
	if sum == 0 {
		b.Log(sum)
	}
}
