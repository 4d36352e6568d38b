// Package pdbcli builds pattern databases for the commands, reporting
// progress on a terminal-aware line and a summary per database.
package pdbcli

import (
	"io"
	"time"

	"fifteen/bitboard"
	"fifteen/internal/progress"
	"fifteen/pdb"
)

// Build builds the patterns' databases into dir, reporting to w.
func Build(w io.Writer, dir string, size bitboard.Size, patterns [][]int, threads int) error {
	line := progress.New(w)
	t0 := time.Now()
	opts := pdb.BuildOptions{
		Threads: threads,
		Progress: func(p pdb.Progress) {
			line.Update("pattern %v: depth %d, %d new states, %d placements of %d valued, %.1f s",
				p.Tiles, p.Depth, p.New, p.Valued, p.Placements, p.Elapsed.Seconds())
		},
	}
	return pdb.BuildMissing(dir, size, patterns, opts, func(b pdb.Built) {
		maxValue, mean := b.Table.Stats()
		line.Done("pattern %v: %d entries (%d placements), max %d, mean %.3f, built in %.2f s, %d bytes raw, %d compressed: %s",
			b.Table.Tiles, len(b.Table.Values), b.Table.Placements(), maxValue, mean,
			time.Since(t0).Seconds(), len(b.Table.Values), b.Compressed, b.Path)
		t0 = time.Now()
	})
}
