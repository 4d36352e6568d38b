package pdbcore

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

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
			if back, used := x.Cells(idx); back != cells || used != occupied {
				t.Fatalf("%v: %x → index %d → %x", scheme, cells, idx, back)
			}
			if scheme == Sparse {
				var sum uint64
				for j := range 4 {
					sum += x.Place(j, Cell(cells, j))
				}
				if sum != idx {
					t.Fatalf("sparse: %x: the tiles' shares sum to %d, not the index %d", cells, sum, idx)
				}
			}
		}
	}
}

// TestSparseLocality checks what the sparse index's interleaving is for:
// with 6 tiles on 4×4, moving any tile between columns 0 and 1 or 2 and 3
// keeps the index within its 64-entry cache line, and any move within a
// tile's 2×2 quarter of the board keeps it within its 4 KiB page.
func TestSparseLocality(t *testing.T) {
	x, err := NewIndexer(Sparse, 16, 6)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 10000 {
		cells := pack(rng.Perm(16)[:6])
		i := rng.IntN(6)
		c := Cell(cells, i)
		for _, m := range []struct{ to, block uint64 }{{uint64(c ^ 1), 64}, {uint64(c ^ 4), 4096}} {
			moved := cells&^(cellMask<<(CellBits*i)) | m.to<<(CellBits*i)
			if x.Index(cells)/m.block != x.Index(moved)/m.block {
				t.Fatalf("tile %d from cell %d to %d: index %d to %d, not within %d entries", i, c, m.to, x.Index(cells), x.Index(moved), m.block)
			}
		}
	}
}

// TestIndexerLarge checks unranking, which divides by multiplying when the
// ranks fit 32 bits, against plain division near both ends of the range
// and at random ranks.
func TestIndexerLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for k := 7; k <= 11; k++ {
		x, err := NewIndexer(Ranked, 16, k)
		if err != nil {
			t.Fatal(err)
		}
		last := uint64(x.Len()) - 1
		ranks := []uint64{0, 1, last - 1, last}
		for range 10000 {
			ranks = append(ranks, rng.Uint64N(last+1))
		}
		for _, r := range ranks {
			cells, occupied := x.Cells(r)
			var want uint64
			var used uint32
			rest := r
			for i := range k {
				d := rest / x.Weight(i)
				rest %= x.Weight(i)
				p := SelectFree(used, uint32(d))
				want |= uint64(p) << (CellBits * i)
				used |= 1 << p
			}
			if cells != want || occupied != used || x.Index(cells) != r {
				t.Fatalf("16 cells, %d tiles: rank %d unranks to %x, want %x", k, r, cells, want)
			}
		}
	}
}

// BenchmarkIndex indexes random placements: the sparse index interleaves
// the cells' bits, the ranked one counts the free cells below each tile.
func BenchmarkIndex(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct {
		scheme Scheme
		k      int
	}{{Sparse, 6}, {Ranked, 6}, {Ranked, 8}} {
		b.Run(fmt.Sprintf("%v/tiles=%d", c.scheme, c.k), func(b *testing.B) {
			x, err := NewIndexer(c.scheme, 16, c.k)
			if err != nil {
				b.Fatal(err)
			}
			placements := make([]uint64, 1024)
			for i := range placements {
				placements[i] = pack(rng.Perm(16)[:c.k])
			}
			var sum uint64
			i := 0
			for b.Loop() {
				sum += x.Index(placements[i&1023])
				i++
			}
			if sum == 1 {
				b.Log(sum)
			}
		})
	}
}

// pack packs the cells of a placement, tile i's cell in bits CellBits·i.
func pack(cells []int) uint64 {
	var packed uint64
	for i, c := range cells {
		packed |= uint64(c) << (CellBits * i)
	}
	return packed
}
