package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"fifteen/cmd/internal/batch"
	"fifteen/cmd/internal/cli"
	"fifteen/cmd/internal/cluster"
	"fifteen/data"
	"fifteen/puzzle"
	"fifteen/render"
	"fifteen/search"
	"fifteen/solver"
)

// rawFlags are the flags whose values cfg takes only once they are
// checked against one another (complete).
type rawFlags struct {
	korf100                   *bool
	instances                 *cli.Instances
	size, order, resume, task *string
	weight                    *float64
	greedy, constructive      *bool
	contour                   *bool // set: Options.Cut
}

// complete checks the flags against one another, and completes cfg.
func (raw *rawFlags) complete(cmd *cli.Command, cfg *config) error {
	fs := cmd.FlagSet
	cfg.files = fs.Args()
	if err := cmd.HelpWord(); err != nil {
		return err
	}
	maxCells := puzzle.MaxBoardCells
	if *raw.constructive {
		maxCells = puzzle.MaxCells
	}
	var err error
	if cfg.size, err = puzzle.ParseSizeUpTo(*raw.size, maxCells); err != nil {
		return err
	}
	if *raw.korf100 {
		if name := raw.instances.Name(); name != "" && name != "korf100" {
			return fmt.Errorf("--korf100 and --set %s exclude each other", name)
		}
		raw.instances.Use("korf100")
	}
	if err := raw.conflicts(cmd, cfg); err != nil {
		return err
	}
	if err := checkSplit(fs, &cfg.cluster, *raw.task, os.Getenv); err != nil {
		return err
	}
	if err := checkUseless(fs, cfg, *raw.weight != 1 || *raw.greedy || *raw.constructive || *raw.order != ""); err != nil {
		return err
	}
	return raw.apply(fs, cfg)
}

// conflicts returns the first flag out of its bounds or at odds with
// another.
func (raw *rawFlags) conflicts(cmd *cli.Command, cfg *config) error {
	fs, b, setName := cmd.FlagSet, &cfg.batch, raw.instances.Name()
	weight := *raw.weight
	switch {
	case setName != "" && len(cfg.files) > 0:
		return errors.New("--set and --korf100 take no files")
	case cfg.random < 0 || cfg.random > data.MaxRandom || fs.Changed("random") && cfg.random == 0:
		return fmt.Errorf("bad --random %d: want 1 to %d", cfg.random, data.MaxRandom)
	case cfg.random == 0 && (fs.Changed("size") || fs.Changed("seed")):
		return errors.New("--size and --seed are --random's: with --random N")
	case cfg.random > 0 && (setName != "" || len(cfg.files) > 0):
		return errors.New("--random takes neither files nor --set")
	case setName != "" && fs.Changed("goal") && b.Options.Goal != puzzle.GoalFirst:
		return errors.New("--set and --korf100 use Korf's goal: --goal first")
	case b.Options.GoalBoard != nil && cfg.cluster.Dir != "":
		return errors.New("a split job (--results) takes the goal conventions: --goal first or last, not a board")
	case b.Options.GoalBoard != nil && (b.Checkpoint != "" || *raw.resume != ""):
		return errors.New("--checkpoint and --resume save searches toward the goal conventions: --goal first or last, not a board")
	case cfg.goalSize != (puzzle.Size{}) && cfg.random > 0 && fs.Changed("size") && cfg.size != cfg.goalSize:
		return fmt.Errorf("--size %v, but --goal is a %v board", cfg.size, cfg.goalSize)
	case b.Format != "text" && b.Format != "jsonl":
		return fmt.Errorf("bad --format %q: want text or jsonl", b.Format)
	case b.GIFFile != "" && b.GIFDir != "":
		return errors.New("--gif and --gif-dir exclude each other")
	case b.GIFCell < render.MinCell || b.GIFCell > render.MaxCell:
		return fmt.Errorf("bad --gif-cell %d: want %d..%d", b.GIFCell, render.MinCell, render.MaxCell)
	case weight != 1 && !search.ValidWeight(weight):
		return fmt.Errorf("bad --weight %v: want 1 (optimal) or 1.01 to %d, in hundredths", weight, search.MaxWeight)
	case boolInt(weight != 1)+boolInt(*raw.greedy)+boolInt(*raw.constructive) > 1:
		return errors.New("--weight, --greedy and --constructive exclude each other")
	case (b.Checkpoint != "" || *raw.resume != "") && (*raw.greedy || *raw.constructive):
		return errors.New("--checkpoint and --resume save and resume IDA* searches: not with --greedy or --constructive")
	case b.Checkpoint != "" && b.Jobs > 1:
		return errors.New("--checkpoint saves one search at a time: not with --jobs above 1")
	case b.Options.Frontier < 0 || b.Options.Frontier > search.MaxFrontier:
		return fmt.Errorf("bad --frontier %d: want 1 to %d MiB, or 0 for depth-first", b.Options.Frontier, search.MaxFrontier)
	case *raw.contour && cfg.cluster.Dir != "":
		return errors.New("--contour: a split search's tasks cut each iteration at its plan's depth, which they share in files (docs/cluster.md): not with --results")
	case b.Options.CheckpointEvery <= 0:
		return fmt.Errorf("bad --checkpoint-every %v: want above 0", b.Options.CheckpointEvery)
	}
	return nil
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

// apply sets what the checked flags choose: the mode, the move order, the cut,
// the instance set and its goal; then validates the options, and reads
// --resume's checkpoint.
func (raw *rawFlags) apply(fs *pflag.FlagSet, cfg *config) error {
	b := &cfg.batch
	switch {
	case *raw.weight != 1:
		b.Options.Mode, b.Options.Weight = solver.Weighted, *raw.weight
	case *raw.greedy:
		b.Options.Mode = solver.Greedy
	case *raw.constructive:
		b.Options.Mode = solver.Constructive
	}
	var err error
	if *raw.order != "" {
		if b.Options.Order, err = search.ParseOrder(*raw.order); err != nil {
			return err
		}
	}
	if cfg.set, err = raw.instances.Pick(); err != nil {
		return err
	}
	if cfg.set != nil {
		b.Options.Goal = cfg.set.Goal
		if size := cfg.set.Instances[0].Size; cfg.goalSize != (puzzle.Size{}) && size != cfg.goalSize {
			return fmt.Errorf("--set %s's puzzles are %v, but --goal is a %v board", cfg.set.Name, size, cfg.goalSize)
		}
	}
	if cfg.goalSize != (puzzle.Size{}) && cfg.random > 0 {
		cfg.size = cfg.goalSize // the goal's, or --size's, which is the same
	}
	if b.Options.Frontier == 0 { // --frontier 0: depth-first
		b.Options.Frontier = search.DepthFirst
	}
	if fs.Changed("contour") { // else the board's default cut
		b.Options.Cut = search.CutFixed
		if *raw.contour {
			b.Options.Cut = search.CutContour
		}
	}
	if err := b.Solver.Validate(); err != nil {
		return err
	}
	if err := b.Options.Validate(); err != nil {
		return err
	}
	if b.Checkpoint == "" && *raw.resume == "" {
		return nil
	}
	if b.Seal, err = cli.SealKey(b.Solver.Dir); err != nil {
		return err
	}
	if *raw.resume != "" {
		b.Resume, err = batch.ReadCheckpoint(*raw.resume, b.Options.Options, b.Seal)
	}
	return err
}
