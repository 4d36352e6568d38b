// Command solve finds optimal solutions of sliding-tile puzzles, or on
// request fast ones that are not (--weight, --greedy, --constructive).
//
// Usage:
//
//	solve [flags] [FILE...]
//
// It reads puzzles from the files, or from standard input, one per line
// (tiles in row-major order, 0 the blank, optionally after a "label:") or
// as a block (a size line such as "4", then the rows), and prints one
// result per puzzle. --set solves an instance set instead (korf100,
// korf50, random:N:SEED[:RxC]; --ids picks some of it), --korf100 Korf's
// 100, and --random N uniformly random puzzles of --size. With --results,
// it is a task of a job split among a cluster's tasks, or its merge
// (docs/cluster.md).
//
// Exit status: 0 when every puzzle was solved; 1 when any was malformed,
// unsolvable, timed out or interrupted (the others are still solved and
// printed); 2 for a usage error; 3 from --merge while the split job's
// tasks must run again.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"fifteen/cmd/internal/batch"
	"fifteen/cmd/internal/cli"
	"fifteen/cmd/internal/cluster"
	"fifteen/data"
	"fifteen/internal/profile"
	"fifteen/puzzle"
)

type config struct {
	set       *data.Set // --set or --korf100, with --ids applied
	random    int
	seed      uint64
	size      puzzle.Size
	goalSize  puzzle.Size // --goal's, where it gave a board: every puzzle's
	printOnly bool
	files     []string
	profiles  profile.Files
	batch     batch.Config
	// a task of a split job, or its merge (--results)
	cluster cluster.Config
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg := &config{}
	cmd, check := flags(cfg)
	if status, ok := cli.Parse(cmd, args, stdout, stderr, check); !ok {
		return status
	}
	stopProfiles, err := profile.Start(cfg.profiles)
	if err != nil {
		return exitStatus(err, stderr)
	}
	// SIGTERM is how a scheduler stops a task (a cancelled or preempted job).
	ctx, cancel := cli.Context()
	defer cancel()
	status := exitStatus(solve(ctx, cfg, stdin, stdout, stderr), stderr)
	if err := stopProfiles(); err != nil {
		status = exitStatus(err, stderr)
	}
	return status
}

// exitStatus reports err, if any, on stderr and returns solve's exit
// status for it: the commands' (cli.Status), and cli.StatusAgain from a
// split job's merge while its tasks must run again.
func exitStatus(err error, stderr io.Writer) int {
	status := cli.Status("solve", err, stderr)
	if errors.As(err, new(*cluster.AgainError)) {
		return cli.StatusAgain
	}
	return status
}

// solve reads the puzzles and solves them, prints them (--print-only), or
// runs a split job's task or merge.
func solve(ctx context.Context, cfg *config, stdin io.Reader, stdout, stderr io.Writer) error {
	note := terminalNote(cfg, stdin) + ignoredNote(cfg, stdin)
	if note != "" {
		fmt.Fprintln(stderr, "solve:", note)
	}
	stream, closeInput, err := puzzles(cfg, stdin)
	if err != nil {
		return err
	}
	defer closeInput()
	switch {
	case cfg.printOnly:
		err = printPuzzles(stream, stdout, stderr)
	case cfg.cluster.Dir != "":
		err = cluster.Run(ctx, &cfg.cluster, &cfg.batch, stream, stdout, stderr)
	default:
		err = batch.Solve(ctx, &cfg.batch, stream, stdout, stderr)
	}
	// A pipe's writer may not have written when solve began.
	if late := ignoredNote(cfg, stdin); note == "" && late != "" {
		fmt.Fprintln(stderr, "solve:", late)
	}
	return err
}
