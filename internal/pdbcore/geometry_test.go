package pdbcore

import (
	"testing"

	"fifteen/puzzle"
)

// TestRegionsGrown checks the regions that Geometry grows on boards over
// 16 cells, one at a time (Number) and all at once (Numbers), against its
// tables (which Numbers reads too), on every set of cells of a 4×4 and a
// 3×5 board.
func TestRegionsGrown(t *testing.T) {
	for _, size := range []puzzle.Size{{Rows: 4, Cols: 4}, {Rows: 3, Cols: 5}} {
		tabled := NewGeometry(size)
		grown := tabled
		grown.leaders, grown.numbers = nil, nil
		for occupied := range uint32(1) << size.Cells() {
			free := tabled.All &^ occupied
			var all [4]uint64
			for limit := 1; limit <= 3; limit++ {
				all[limit] = grown.Numbers(occupied, limit)
				if got := tabled.Numbers(occupied, limit); got != all[limit] {
					t.Fatalf("%v, occupied %b, limit %d: Numbers %x from the tables, %x grown", size, occupied, limit, got, all[limit])
				}
			}
			for c := range size.Cells() {
				if free&(1<<c) == 0 {
					continue
				}
				if got, want := grown.Leader(free, c), tabled.Leader(free, c); got != want {
					t.Fatalf("%v, occupied %b, cell %d: leader %d, want %d", size, occupied, c, got, want)
				}
				for limit := 1; limit <= 4; limit++ {
					want := tabled.Number(occupied, c, limit)
					if got := grown.Number(occupied, c, limit); got != want {
						t.Fatalf("%v, occupied %b, cell %d, limit %d: region %d, want %d", size, occupied, c, limit, got, want)
					}
					if got := int(all[limit%4] >> (2 * c) & 3); limit <= 3 && got != want {
						t.Fatalf("%v, occupied %b, cell %d, limit %d: Numbers says region %d, want %d", size, occupied, c, limit, got, want)
					}
				}
			}
		}
	}
}
