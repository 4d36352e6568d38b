package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"fifteen/internal/progress"
	"fifteen/internal/seal"
	"fifteen/pdb"
	"fifteen/puzzle"
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

// SealKey returns the key that seals the files a command reads back to
// decide what it answers (--checkpoint's), made on first use: the user's
// own, in the user's cache directory (fifteen/seal.key, beside the
// default databases), as a database directory may be shared or
// read-only; without a cache directory, the one beside the databases of
// dir (pdb.DefaultDir if "").
func SealKey(dir string) (*seal.Key, error) {
	if cache, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(cache, "fifteen")
	} else if dir == "" {
		if dir, err = pdb.DefaultDir(); err != nil {
			return nil, err
		}
	}
	k, err := seal.LoadKey(dir)
	if err != nil {
		return nil, fmt.Errorf("the key that seals the checkpoints: %w", err)
	}
	return k, nil
}

// PartitionHelp describes the --partition flag: the built-in partitions
// of each size with databases (pdb.Names), the rule's on other boards, or
// a spec.
var PartitionHelp = "pattern databases: " + builtInPartitions() + "; on other boards of 10 to 32 cells, the rule's (766 on 4x5: docs/design.md); " + partitionSpec

// NamedSizesPartitionHelp is PartitionHelp for a command that takes the
// sizes with built-in partitions alone (web: issue 77, its help named the
// 4x5 rule).
var NamedSizesPartitionHelp = "pattern databases of " + strings.Join(sizeNames(), " or ") + " boards: " + builtInPartitions() + "; " + partitionSpec

const partitionSpec = "or a spec such as 1,2,3,4,5,6/7,8,9,10,11,12/13,14,15 (several joined by +: the maximum of their heuristics)"

// builtInPartitions lists the built-in partitions of each size.
func builtInPartitions() string {
	var sizes []string
	for _, size := range pdb.DefaultSizes() {
		names := pdb.Names(size)
		sizes = append(sizes, fmt.Sprintf("on %v %s (default), %s", size, names[0], strings.Join(names[1:], ", ")))
	}
	return strings.Join(sizes, "; ")
}

// sizeNames names the sizes with built-in partitions.
func sizeNames() []string {
	var names []string
	for _, size := range pdb.DefaultSizes() {
		names = append(names, size.String())
	}
	return names
}

// Explain returns err's message, with what the user can do about it:
// for databases that could not be opened (a *pdb.StoreError), the
// pdbgen command that builds them; for a puzzle solvable toward the
// other goal (a *puzzle.OtherGoalError), the flag that takes it there.
func Explain(err error) string {
	var de *pdb.StoreError
	var og *puzzle.OtherGoalError
	switch {
	case errors.As(err, &og):
		return fmt.Sprintf("%v (--goal %v)", err, og.Goal)
	case !errors.As(err, &de) || errors.Is(err, pdb.ErrNewer): // pdbgen would refuse it too
		return err.Error()
	}
	size, verb := "", "rebuild them"
	if de.Size != (puzzle.Size{Rows: 4, Cols: 4}) {
		size = " --size " + de.Size.String()
	}
	var fe *pdb.FileError
	switch {
	case errors.Is(de.Err, pdb.ErrMissing):
		verb = "build them"
	// Not a database's fault, which pdbgen would mend, but the path's.
	case errors.As(de.Err, &fe) && errors.Is(de.Err, pdb.ErrNotRegular):
		verb = fmt.Sprintf("move %s out of the way, then build them", fe.Path)
	case errors.As(de.Err, &fe) && errors.Is(de.Err, fs.ErrPermission):
		verb = fmt.Sprintf("make %s readable, or move it away and build them", fe.Path)
	}
	return fmt.Sprintf("%v; %s with: go run ./cmd/pdbgen%s --partition %s --pdb-dir %s", err, verb, size, shellQuote(de.Partition), shellQuote(de.Dir))
}

// shellQuote returns s as a word of a POSIX shell's command line: as it
// is if no character of it is special there, else in single quotes.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
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
