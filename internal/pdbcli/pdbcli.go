// Package pdbcli is what the commands share about pattern databases: the
// --pdb-dir flag, and progress reports on a terminal-aware line.
package pdbcli

import (
	"io"

	"github.com/spf13/pflag"

	"fifteen/internal/progress"
	"fifteen/pdb"
)

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
