// Package pdbcli is what the commands share about pattern databases: the
// flags that choose the heuristic, and progress reports on a
// terminal-aware line.
package pdbcli

import (
	"io"
	"slices"

	"github.com/spf13/pflag"

	"fifteen/bitboard"
	"fifteen/internal/progress"
	"fifteen/pdb"
	"fifteen/solver"
)

// SolverFlags defines the flags that choose a solver's heuristic on fs:
// --heuristic, --partition, --pdb-dir and --no-reflect, stored in cfg.
func SolverFlags(fs *pflag.FlagSet, cfg *solver.Config) {
	fs.StringVar(&cfg.Heuristic, "heuristic", "pdb", "heuristic: pdb (additive pattern databases), linear-conflict, manhattan or misplaced")
	fs.StringVar(&cfg.Partition, "partition", "", PartitionHelp)
	DirFlag(fs, &cfg.Dir)
	fs.BoolVar(&cfg.NoReflect, "no-reflect", false, "do not maximise the databases' sum with its value on the board reflected about the diagonal")
}

// PartitionHelp describes the --partition flag.
const PartitionHelp = "pattern databases: on 4x4 771 (default), 663x2, 663, 555, 78; on 5x5 6666 (default); or a spec such as 1,2,3,4,5,6/7,8,9,10,11,12/13,14,15 (several joined by +: the maximum of their heuristics)"

// BuiltOnFirstUse reports whether the commands build the databases of the
// partition when they are missing: the defaults only, as the others can
// take gigabytes and minutes, and pdbgen builds them on request.
func BuiltOnFirstUse(partition string) bool {
	return partition == "" || slices.ContainsFunc(pdb.DefaultSizes(), func(size bitboard.Size) bool {
		return partition == pdb.DefaultPartition(size)
	})
}

// DirFlag defines the commands' --pdb-dir flag on fs, stored in dir.
func DirFlag(fs *pflag.FlagSet, dir *string) {
	fs.StringVar(dir, "pdb-dir", "", "database directory (default $FIFTEEN_PDB_DIR, else the user cache directory's fifteen)")
}

// Reporter returns the callbacks that show database builds on w (as
// solver.Config's Progress and Log take them): each layer on a line
// redrawn in place on a terminal, a line each elsewhere, and each log line
// below.
func Reporter(w io.Writer) (progressFunc func(pdb.Progress), log func(string)) {
	line := progress.New(w)
	return func(p pdb.Progress) { line.Update("%v", p) }, func(s string) { line.Done("%s", s) }
}
