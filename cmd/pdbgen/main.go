// Command pdbgen builds additive pattern databases for solve.
//
// Usage:
//
//	pdbgen [--size 4x4|5x5|RxC] [--partition NAME|SPEC] [--pdb-dir DIR]
//
// It builds every database of the partition that the directory lacks, by
// breadth-first search backwards from the goal, and writes each as a
// compressed file. Progress goes to standard error, one line per search
// layer, drawn in place on a terminal.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"fifteen/cmd/internal/cli"
	"fifteen/internal/profile"
	"fifteen/pdb"
	"fifteen/puzzle"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmd := cli.NewCommand("pdbgen", "[flags]",
		"builds the additive pattern databases that solve, play, web and bench search with, by\n"+
			"breadth-first search backwards from the goal, into the database directory. The\n"+
			"commands build their default databases on first use; pdbgen builds any, beforehand.")
	cmd.Examples = `
  pdbgen                                                  # the 4x4 default, 7-7-1 (once)
  pdbgen --size 5x5                                       # the 5x5 default, 6-6-6-6 (minutes, once)
  pdbgen --size 5x5 --partition 6666x7                    # Clausecker and Reinefeld's catalogue of seven
  pdbgen --partition 1,2,3,4,5/6,7,8,9,10/11,12,13,14,15  # a partition of your own`
	cmd.Examples += `
  pdbgen --size 4x5                                       # the 4x5 default, 7-6-6 (minutes, once)
  pdbgen --goal "1 2 3 4 5 0 6 7 8 9 10 11 12 13 14 15"   # for 4x4 goals with the blank in the centre
  pdbgen --size 5x5 --check                               # are the 5x5 defaults built? (exit 0 if so)`
	cmd.Exits = `
  0  the databases are built (or were already)
  1  a build failed or was interrupted: what was built stays; with --check, some are not built
  2  a bad flag or partition`
	fs := cmd.FlagSet
	cmd.Group("Databases")
	var size puzzle.Size
	cli.SizeVar(fs, &size, puzzle.Size{Rows: 4, Cols: 4}, puzzle.MaxBoardCells, "board size, ROWSxCOLS")
	partition := fs.String("partition", "", cli.PartitionHelp)
	var goal puzzle.Goal
	var goalBoard *puzzle.Puzzle
	var goalSize puzzle.Size
	cli.GoalVar(fs, &goal, &goalBoard, &goalSize, "build for this goal board's databases (solve --goal): those of its blank's cell, up to the board's symmetries (default: Korf's goal's, which serve both conventions and every goal with the blank in a corner)")
	var dir string
	cli.DirFlag(fs, &dir)
	force := fs.Bool("force", false, "rebuild databases that exist")
	blankFree := fs.Bool("blank-free", false, "build Korf and Felner's databases, blind to the blank's region (weaker; with --force to replace built ones)")
	checkOnly := fs.Bool("check", false, "build nothing: say whether the partition's databases are built in the directory (exit 0) or not (exit 1)")
	var threads int
	cli.ThreadsVar(fs, &threads, pdb.MaxThreads, fmt.Sprintf("goroutines, at most %d (default all CPUs)", pdb.MaxThreads))
	cmd.Group("Profiling")
	var profiles profile.Files
	profiles.Flags(fs, "write a CPU profile to `FILE`")
	var parts []pdb.Partition
	check := func() (err error) {
		if fs.NArg() > 0 {
			return fmt.Errorf("unexpected arguments %v", fs.Args())
		}
		var blank int
		if size, blank, err = goalBoardSize(size, fs.Changed("size"), goalSize, goalBoard); err != nil {
			return err
		}
		if *partition == "" {
			*partition = pdb.DefaultPartition(size)
		}
		if *partition == "" {
			return fmt.Errorf("a %v board's perfect database is built in memory, in milliseconds, when needed: nothing to keep; name patterns with --partition to build them", size)
		}
		if parts, err = pdb.ParsePartitions(*partition, size); err == nil && dir == "" {
			dir, err = pdb.DefaultDir()
		}
		for i := range parts {
			parts[i] = parts[i].ForBlank(blank)
		}
		return err
	}
	if status, ok := cli.Parse(cmd, args, stdout, stderr, check); !ok {
		return status
	}
	if *checkOnly {
		return cli.Status("pdbgen", checkBuilt(*partition, parts, dir, stderr), stderr)
	}
	ctx, stop := cli.Context()
	defer stop()
	opts := pdb.StoreOptions{Policy: pdb.BuildAny, Threads: threads, BlankFree: *blankFree}
	err := build(ctx, *partition, parts, dir, *force, opts, profiles, stderr)
	if ctx.Err() != nil {
		err = errors.New("interrupted: the database being built was not written")
	}
	return cli.Status("pdbgen", err, stderr)
}

// checkBuilt says on w whether the partitions' (named name) databases are
// all in dir, of this program's format, and returns an error if not: a
// script can ask before it starts work that needs them (the examples'
// test, a cluster's job) without starting a build of minutes.
func checkBuilt(name string, parts []pdb.Partition, dir string, w io.Writer) error {
	missing, all := 0, 0
	for _, p := range parts {
		m, err := p.Missing(dir)
		if err != nil {
			return err
		}
		missing, all = missing+len(m), all+len(p.Patterns)
	}
	switch {
	case missing == 1:
		return fmt.Errorf("partition %s is not built in %s: 1 of its %d databases is missing (pdbgen without --check builds it)", pdb.Label(name), dir, all)
	case missing > 0:
		return fmt.Errorf("partition %s is not built in %s: %d of its %d databases are missing (pdbgen without --check builds them)", pdb.Label(name), dir, missing, all)
	}
	fmt.Fprintf(w, "pdbgen: partition %s is built in %s\n", pdb.Label(name), dir)
	return nil
}

// build builds the databases of the partitions (named name) that dir
// lacks, or holds damaged, all of them if force, through the directory's
// store: a build another process has under way is waited for and not
// repeated.
func build(ctx context.Context, name string, parts []pdb.Partition, dir string, force bool, opts pdb.StoreOptions, profiles profile.Files, stderr io.Writer) error {
	opts.Progress, opts.Log = cli.Reporter(stderr)
	store, err := pdb.OpenStore(dir, opts)
	if err != nil {
		return err
	}
	stopProfiles, err := profile.Start(profiles)
	if err != nil {
		return err
	}
	built, err := store.Build(ctx, parts, force)
	err = errors.Join(err, stopProfiles())
	if err == nil && built == 0 {
		fmt.Fprintf(stderr, "pdbgen: partition %s is already built in %s (--force rebuilds it)\n", pdb.Label(name), dir)
	}
	return err
}

// goalBoardSize settles the board's size and the cell of the goal's blank
// from --size and --goal: a goal board's size, which --size must not
// contradict (issue 76), and its blank's cell; 0 for a convention, whose
// goal Korf's goal's databases serve.
func goalBoardSize(size puzzle.Size, sizeChanged bool, goalSize puzzle.Size, goalBoard *puzzle.Puzzle) (puzzle.Size, int, error) {
	switch {
	case goalSize == (puzzle.Size{}):
		return size, 0, nil
	case sizeChanged && size != goalSize:
		return size, 0, fmt.Errorf("--size %v, but --goal is a %v board", size, goalSize)
	case goalBoard == nil:
		return goalSize, 0, nil
	}
	frame, err := puzzle.NewFrame(*goalBoard)
	if err != nil {
		return size, 0, err
	}
	return goalSize, frame.Goal().Blank(goalSize.Cells()), nil
}
