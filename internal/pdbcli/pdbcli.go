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

// Heuristic loads the databases of the partitions (pdb.ParsePartitions)
// for size from dir (the default directory if empty) and returns their
// additive heuristic, with the reflected lookup if reflect, or with
// several partitions the maximum of theirs. The default partitions are
// built first if they are missing; others get an error naming the pdbgen
// command to run. Progress and the load time go to w. Boards other than
// 4×4 get their databases built in memory, by default
// pdb.SmallPartition's (a perfect database for the 8-puzzle).
func Heuristic(w io.Writer, dir, partition string, size bitboard.Size, reflect bool) (*search.Heuristic, error) {
	reflect = reflect && size.Rows == size.Cols
	small := size != (bitboard.Size{Rows: 4, Cols: 4})
	parts := []pdb.Partition{pdb.SmallPartition(size)}
	if !small || partition != pdb.DefaultPartition {
		var err error
		if parts, err = pdb.ParsePartitions(partition, size); err != nil {
			return nil, err
		}
	}
	if !small && dir == "" {
		var err error
		if dir, err = pdb.DefaultDir(); err != nil {
			return nil, err
		}
	}
	var hs []*search.Heuristic
	for _, p := range parts {
		tables, err := tablesOf(w, dir, partition, p, small)
		if err != nil {
			return nil, err
		}
		h, err := search.Additive("pdb:"+p.Name, tables, reflect)
		if err != nil {
			return nil, err
		}
		hs = append(hs, h)
	}
	if len(hs) == 1 {
		return hs[0], nil
	}
	return search.Max("pdb:"+partition, hs...)
}

// tablesOf builds p's tables in memory if small, else loads them from dir,
// building them first if they are missing and p is one of the default
// partitions.
func tablesOf(w io.Writer, dir, partition string, p pdb.Partition, small bool) ([]*pdb.Table, error) {
	if small {
		return p.Build(pdb.BuildOptions{})
	}
	if missing := p.Missing(dir); len(missing) > 0 {
		if partition != pdb.DefaultPartition {
			return nil, fmt.Errorf("the %s databases are not in %s, or are of another format version; build them with: go run ./cmd/pdbgen --partition %s --pdb-dir %s", p.Name, dir, partition, dir)
		}
		fmt.Fprintf(w, "building the %s pattern databases in %s (once)\n", p.Name, dir)
		if err := Build(w, dir, p.Size, missing, pdb.BuildOptions{}); err != nil {
			return nil, err
		}
	}
	t0 := time.Now()
	tables, err := p.Load(dir)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "loaded the %s pattern databases from %s in %.1f ms\n", p.Name, dir, time.Since(t0).Seconds()*1e3)
	return tables, nil
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
