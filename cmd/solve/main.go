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

	"github.com/spf13/pflag"

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

// searchFlags are the flags that tune, show or save the searches, which
// --print-only does not run (issue 76: --contour was taken, and did
// nothing). --constructive stays: it reads larger boards.
var searchFlags = []string{
	"checkpoint", "checkpoint-every", "resume", "contour", "frontier", "greedy", "order", "prune-depth", "weight",
	"heuristic", "partition", "no-reflect", "pdb-dir", "threads", "jobs", "timeout", "progress", "format", "gif", "gif-dir", "gif-cell",
}

// checkUseless refuses flags that would do nothing (docs/failure-modes.md):
// a checkpoint of puzzles printed, a period without checkpoints, and a
// frontier or a contour where the search takes its tasks in an order of
// its own (ordered: --order, --weight, --greedy or --constructive), or
// depth-first.
func checkUseless(fs *pflag.FlagSet, cfg *config, ordered bool) error {
	if cfg.printOnly {
		for _, name := range searchFlags {
			if fs.Changed(name) {
				return fmt.Errorf("--print-only prints the puzzles: not with --%s, which is the search's", name)
			}
		}
	}
	switch {
	case fs.Changed("checkpoint-every") && cfg.batch.Checkpoint == "" && cfg.cluster.Dir == "":
		return errors.New("--checkpoint-every is how often --checkpoint saves: with --checkpoint FILE")
	case fs.Changed("frontier") && ordered:
		return errors.New("--frontier ranks the tasks of each round: not with --order, --weight, --greedy or --constructive, which take them in an order of their own")
	case fs.Changed("contour") && (ordered || cfg.batch.Options.Frontier == 0):
		return errors.New("--contour chooses how --frontier cuts and ranks each round: not with --frontier 0, --order, --weight, --greedy or --constructive")
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// checkSplit checks the split job's flags against the others, and settles
// K/N.
func checkSplit(fs *pflag.FlagSet, c *cluster.Config, task string, getenv func(string) string) error {
	if c.Dir == "" {
		for _, name := range []string{"task", "merge", "split", "split-above"} {
			if fs.Changed(name) {
				return fmt.Errorf("--%s is for a split job: with --results DIR", name)
			}
		}
		return nil
	}
	for _, name := range []string{"checkpoint", "resume", "gif", "gif-dir", "print-only"} {
		if fs.Changed(name) {
			return fmt.Errorf("--%s is not for a split job (--results): its tasks keep their own checkpoints", name)
		}
	}
	switch {
	case len(fs.Args()) == 0 && !fs.Changed("set") && !fs.Changed("korf100") && !fs.Changed("random"):
		return errors.New("a split job's tasks each read the puzzles: name a FILE, --set or --random")
	case c.Split != "" && c.Split != "search" && c.Split != "batch":
		return fmt.Errorf("bad --split %q: want search or batch", c.Split)
	case c.Merge && fs.Changed("task"):
		return errors.New("--merge and --task exclude each other")
	case c.Merge:
		return nil
	}
	return c.SetTask(task, getenv)
}
