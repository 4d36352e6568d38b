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

	"github.com/spf13/pflag"

	"fifteen/cmd/internal/cli"
	"fifteen/internal/profile"
	"fifteen/pdb"
	"fifteen/puzzle"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	fs := pflag.NewFlagSet("pdbgen", pflag.ContinueOnError)
	partition := fs.String("partition", "", cli.PartitionHelp)
	var dir string
	cli.DirFlag(fs, &dir)
	var size puzzle.Size
	cli.SizeVar(fs, &size, puzzle.Size{Rows: 4, Cols: 4}, puzzle.MaxBoardCells, "board size, ROWSxCOLS")
	var threads int
	cli.ThreadsVar(fs, &threads, pdb.MaxThreads, fmt.Sprintf("goroutines, at most %d (default all CPUs)", pdb.MaxThreads))
	force := fs.Bool("force", false, "rebuild databases that exist")
	blankFree := fs.Bool("blank-free", false, "build Korf and Felner's databases, blind to the blank's region (weaker; with --force to replace built ones)")
	var profiles profile.Files
	profiles.Flags(fs, "write a CPU profile to `FILE`")
	var parts []pdb.Partition
	check := func() (err error) {
		if fs.NArg() > 0 {
			return fmt.Errorf("unexpected arguments %v", fs.Args())
		}
		if *partition == "" {
			*partition = pdb.DefaultPartition(size)
		}
		if *partition == "" {
			return fmt.Errorf("a %v board has no default partition: name its patterns with --partition", size)
		}
		if parts, err = pdb.ParsePartitions(*partition, size); err == nil && dir == "" {
			dir, err = pdb.DefaultDir()
		}
		return err
	}
	if status, ok := cli.Parse(fs, args, stderr, check); !ok {
		return status
	}
	ctx, stop := cli.Context()
	defer stop()
	opts := pdb.StoreOptions{Policy: pdb.BuildAny, Threads: threads, BlankFree: *blankFree}
	err := build(ctx, *partition, parts, dir, *force, opts, profiles, stderr)
	if ctx.Err() != nil {
		err = errors.New("interrupted: the database being built was not written")
	}
	if err != nil {
		fmt.Fprintln(stderr, "pdbgen:", err)
		return 1
	}
	return 0
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
		fmt.Fprintf(stderr, "pdbgen: partition %s is already built in %s (--force rebuilds it)\n", name, dir)
	}
	return err
}
