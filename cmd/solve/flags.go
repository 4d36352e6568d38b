package main

import (
	"fmt"

	"fifteen/cmd/internal/cli"
	"fifteen/search"
	"fifteen/solver"
)

// flags defines solve's flags, stored in cfg, and returns the check of
// their values against one another, which completes cfg.
func flags(cfg *config) (*cli.Command, func() error) {
	cmd := newCommand()
	raw := defineFlags(cmd, cfg)
	return cmd, func() error { return raw.complete(cmd, cfg) }
}

// newCommand returns solve's command, with its help but no flags.
func newCommand() *cli.Command {
	cmd := cli.NewCommand("solve", "[flags] [FILE...]",
		"solves sliding-tile puzzles optimally (or fast, with --weight, --greedy or --constructive).\n"+
			"It reads puzzles from the FILEs, or from standard input, one a line (the tiles in\n"+
			"row-major order, 0 the blank, after an optional \"label:\"), and prints a line each.")
	cmd.Examples = `
  echo "5 3 12 4 2 13 7 8 1 6 0 15 10 11 9 14" | solve    # one 15-puzzle
  solve --korf100                                         # Korf's 100, with the timings of each
  solve --format jsonl --goal first examples/puzzles.txt  # a file, as JSON lines
  solve --random 1000 --size 3x3                          # random 8-puzzles
  solve --random 20 --size 4x5 -t 2                       # 4x5 boards (their databases built once, minutes)
  solve --random 5 --goal "1 2 3 4 0 5 6 7 8"             # toward any goal board
  solve --set korf50 --ids 38 --checkpoint k.json         # a 24-puzzle, saved as it goes
  solve --korf100 --ids 88 --gif korf88.gif               # a solution drawn as an animated GIF`
	cmd.Hints = map[string]string{"korf50": "--set korf50"}
	cmd.Exits = `
  0  every puzzle was solved
  1  a puzzle was malformed, unsolvable, timed out or interrupted, or its databases are missing
     or damaged (the others are still solved and printed); or --resume's search cannot go on;
     or a FILE cannot be read
  2  a usage error: a bad flag or argument (an unknown --partition, a --resume file that is
     not a checkpoint of solve's or was changed since, the word help where a FILE goes)
  3  --merge: the split job's tasks must run again`
	return cmd
}

// defineFlags defines the command's flags: those that cfg holds, and the
// raw ones it returns.
func defineFlags(cmd *cli.Command, cfg *config) *rawFlags {
	b, c, fs := &cfg.batch, &cfg.cluster, cmd.FlagSet
	var raw rawFlags

	cmd.Group("Input and output")
	raw.korf100 = fs.Bool("korf100", false, "solve Korf's 100 instances: --set korf100")
	raw.instances = cli.InstancesVar(fs, "", "solve an instance set (implies --goal first): korf100 (Korf's 100 15-puzzles), korf50 (Korf and Felner's 50 24-puzzles), or random:N:SEED[:RxC]",
		"solve only these instances of --set, by number, in this order (such as 38,40,25)")
	fs.IntVar(&cfg.random, "random", 0, "solve `N` uniformly random solvable puzzles of --size")
	raw.size = fs.String("size", "4x4", "board size of --random: ROWSxCOLS, or 3 for 3x3")
	fs.Uint64Var(&cfg.seed, "seed", 1, "seed of --random: the same seed gives the same puzzles")
	cli.GoalVar(fs, &b.Options.Goal, &b.Options.GoalBoard, &cfg.goalSize, "goal: last (1 2 … 15 blank), first (blank 1 2 … 15, Korf's), or any board, its tiles in row-major order (\"1 2 3 4 0 5 6 7 8\", \"2x4 1 2 3 0 4 5 6 7\")")
	fs.StringVar(&b.Format, "format", "text", "output format: text or jsonl")
	fs.BoolVar(&cfg.printOnly, "print-only", false, "print the puzzles, one a line, instead of solving them")
	fs.StringVar(&b.GIFFile, "gif", "", "draw the solution as an animated GIF in `FILE` (one puzzle)")
	fs.StringVar(&b.GIFDir, "gif-dir", "", "draw each solution as an animated GIF in `DIR`, named by the puzzle's id")
	fs.IntVar(&b.GIFCell, "gif-cell", 64, "a cell's side in the GIFs, in `PIXELS`")

	cmd.Group("Search")
	raw.weight = fs.Float64("weight", 1, "weighted IDA*: f = g + `W`·h finds a solution faster, at most W times the optimal length but not optimal; W from 1.01 to 100, in hundredths (1: optimal)")
	raw.greedy = fs.Bool("greedy", false, "greedy best-first search: milliseconds with the databases, not optimal")
	raw.constructive = fs.Bool("constructive", false, "solve as people do, row by row and column by column: instant, any size, far from optimal")
	cli.ThreadsVar(fs, &b.Options.Threads, search.MaxThreads, fmt.Sprintf("goroutines searching each puzzle, at most %d (0: all CPUs when --jobs is 1, else 1)", search.MaxThreads))
	fs.DurationVar(&b.Options.Timeout, "timeout", 0, "give up a puzzle after this long (0: never)")
	fs.DurationVar(&b.Options.ProgressEvery, "progress", search.DefaultProgressEvery, "report on standard error a search that runs this long, at each iteration's end and this often within one (0: never)")
	fs.IntVar(&b.Options.PruneDepth, "prune-depth", search.DefaultPruneDepth, "longest redundant move sequence pruned (2: only a move that undoes the last)")
	fs.IntVar(&b.Options.Frontier, "frontier", search.DefaultFrontier, "memory in `MiB` of the frontier that cuts each large iteration into tasks, taken at a contour by estimate or at a fixed depth by their size in the iteration before (--contour) (0: depth-first, as plain IDA*, and as with --order or --weight)")
	raw.contour = fs.Bool("contour", false, "cut each large iteration where it leaves the contour of a bound 6 below, and take the tasks of least estimate first, as A*+IDA* takes them; --contour=false cuts at a fixed depth, the largest in the iteration before first. Default: the board's faster, measured (docs/performance.md, \"The cut\"): the contour up to 20 cells (3×4, 4×4, 4×5), the fixed depth above (5×5). A split search's tasks (--results) cut at a fixed depth")
	raw.order = fs.String("order", "", "try the blank's `MOVES` in this order at every node, such as ULRD, Korf's (default: ULRD, with the moves that take their tile nearer home first near the root on boards of up to 16 cells)")

	cmd.Group("Databases")
	cli.SolverFlags(fs, &b.Solver)

	cmd.Group("Batch and checkpoints")
	cli.JobsVar(fs, &b.Jobs, solver.MaxJobs, fmt.Sprintf("puzzles solved at once, at most %d (0: all CPUs for a batch, 1 for a single puzzle or a pipe)", solver.MaxJobs))
	fs.StringVar(&b.Checkpoint, "checkpoint", "", "save the search's state in `FILE` at each iteration's end, every --checkpoint-every within one, and on Ctrl-C, for --resume (one puzzle at a time)")
	fs.DurationVar(&b.Options.CheckpointEvery, "checkpoint-every", search.DefaultCheckpointEvery, "how often --checkpoint saves within an iteration")
	raw.resume = fs.String("resume", "", "continue the search saved in `FILE` by --checkpoint, with the same puzzles and options; the puzzles before its puzzle are skipped")

	cmd.Group("A job split among a cluster's tasks (docs/cluster.md)")
	fs.StringVar(&c.Dir, "results", "", "split the job among the tasks of a job array, which share this `DIR`: solve this task's share (--task), or print the results (--merge)")
	raw.task = fs.String("task", "", "this task's share `K/N` of a split job, 0 ≤ K < N (default: from SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX and FIFTEEN_TASK_COUNT)")
	fs.BoolVar(&c.Merge, "merge", false, "print the results of the split job in --results, in input order; exit status 3 while its tasks must run again")
	fs.StringVar(&c.Split, "split", "", "how a job is split: search (each puzzle's search, one after another) or batch (every N-th puzzle a task) (default: search for one puzzle, batch for more)")
	fs.Uint64Var(&c.Above, "split-above", search.DefaultSplitAbove, "in a split search, every task searches whole the iterations that generate fewer than `NODES` nodes")

	cmd.Group("Profiling")
	cfg.profiles.Flags(fs, "write a CPU profile to `FILE` (pprof labels name each puzzle)")
	return &raw
}
