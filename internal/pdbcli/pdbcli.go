// Package pdbcli builds and loads pattern databases for the commands,
// reporting progress on a terminal-aware line and a summary per database.
package pdbcli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"fifteen/bitboard"
	"fifteen/internal/progress"
	"fifteen/pdb"
	"fifteen/search"
)

// DirFlag defines the commands' --pdb-dir flag on fs, stored in dir.
func DirFlag(fs *pflag.FlagSet, dir *string) {
	fs.StringVar(dir, "pdb-dir", "", "database directory (default $FIFTEEN_PDB_DIR, else the user cache directory's fifteen)")
}

// Heuristic loads the partition's databases for size from dir (the default
// directory if empty) and returns their additive heuristic, with the
// reflected lookup if reflect. The default partition is built first if it
// is missing; another gets an error naming the pdbgen command to run.
// Progress and the load time go to w. Boards other than 4×4 get their
// databases built in memory, by default pdb.SmallPartition's (a perfect
// database for the 8-puzzle).
func Heuristic(w io.Writer, dir, partition string, size bitboard.Size, reflect bool) (*search.Heuristic, error) {
	reflect = reflect && size.Rows == size.Cols
	if size != (bitboard.Size{Rows: 4, Cols: 4}) {
		p := pdb.SmallPartition(size)
		if partition != pdb.DefaultPartition {
			var err error
			if p, err = pdb.ParsePartition(partition, size); err != nil {
				return nil, err
			}
		}
		tables, err := p.Build(pdb.BuildOptions{})
		if err != nil {
			return nil, err
		}
		return search.Additive("pdb:"+p.Name, tables, reflect)
	}
	p, err := pdb.ParsePartition(partition, size)
	if err != nil {
		return nil, err
	}
	if dir == "" {
		if dir, err = pdb.DefaultDir(); err != nil {
			return nil, err
		}
	}
	if missing := p.Missing(dir); len(missing) > 0 {
		if p.Name != pdb.DefaultPartition {
			return nil, fmt.Errorf("the %s databases are not in %s, or are of another format version; build them with: go run ./cmd/pdbgen --partition %s --pdb-dir %s", p.Name, dir, p.Name, dir)
		}
		fmt.Fprintf(w, "building the %s pattern databases in %s (once)\n", p.Name, dir)
		if err := Build(w, dir, size, missing, pdb.BuildOptions{}); err != nil {
			return nil, err
		}
	}
	t0 := time.Now()
	tables, err := p.Load(dir)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "loaded the %s pattern databases from %s in %.1f ms\n", p.Name, dir, time.Since(t0).Seconds()*1e3)
	return search.Additive("pdb:"+p.Name, tables, reflect)
}

// Build builds the patterns' databases into dir under opts, reporting
// progress to w.
func Build(w io.Writer, dir string, size bitboard.Size, patterns [][]int, opts pdb.BuildOptions) error {
	line := progress.New(w)
	t0 := time.Now()
	opts.Progress = func(p pdb.Progress) {
		line.Update("pattern %v: depth %d, %d new states, %d placements of %d valued, %.1f s",
			p.Tiles, p.Depth, p.New, p.Valued, p.Placements, p.Elapsed.Seconds())
	}
	return pdb.BuildMissing(dir, size, patterns, opts, func(b pdb.Built) {
		maxValue, mean, raised := b.Table.Stats()
		regions := "blank-free"
		if b.Table.Regions > 0 {
			regions = fmt.Sprintf("%.1f%% raised by the blank in one of its first %d regions", 100*raised, b.Table.Regions)
		}
		line.Done("pattern %v: %d entries (%d placements), max %d, mean %.3f, %s, built in %.2f s, %d bytes raw, %d compressed: %s",
			b.Table.Tiles, len(b.Table.Values), b.Table.Placements(), maxValue, mean, regions,
			time.Since(t0).Seconds(), len(b.Table.Values), b.Compressed, b.Path)
		t0 = time.Now()
	})
}
