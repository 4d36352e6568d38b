// Command bench runs an instance set under one or more solver
// configurations, checks every answer, and writes a report.
//
// Usage:
//
//	bench [--set korf100|korf50|random:N:SEED[:RxC]] [--ids N,...] [--config CONFIG,...] [--out DIR]
//
// A configuration is a heuristic with options, such as pdb:771 (the
// default: solve's default databases), pdb:78, manhattan+prune=2 or
// pdb:663+noreflect+threads=2 (see bench.Config).
// The report directory gets report.md, results.csv, nodes.svg and
// time.svg. Exit status: 0 when every answer checked out; 1 when any was
// wrong or unsolved (the report still shows them); 2 for a usage error.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"fifteen/bench"
	"fifteen/cmd/internal/cli"
	"fifteen/data"
	"fifteen/internal/atomicfile"
	"fifteen/internal/profile"
	"fifteen/internal/progress"
	"fifteen/pdb"
	"fifteen/solver"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmd := cli.NewCommand("bench", "[flags]", about())
	cmd.Examples = `
  bench --interleave --config ref663,pdb                  # Korf's 100: the yardstick against the default, in turns
  bench --config pdb:663,pdb:771                          # two sets of databases, one after another (pdbgen --partition 663 first)
  bench --set korf50 --ids 38,40 --config pdb,pdb:6666x7  # two 24-puzzles under two heuristics
  bench --set random:100:1:3x3 --config manhattan,pdb     # 100 random 8-puzzles`
	cmd.Exits = `
  0  every answer checked out
  1  an answer was wrong or missing, or the run was interrupted (the report still shows them)
  2  a bad flag, set or configuration`
	fs := cmd.FlagSet
	cmd.Group("Instances and configurations")
	instances := cli.InstancesVar(fs, "korf100", "instance set: korf100, korf50 (Korf and Felner's 24-puzzles), or random:N:SEED[:RxC] (uniformly random solvable positions)",
		"use only these instances of the set, by number, in this order (such as 38,40,25)")
	limit := fs.Int("limit", 0, "use only the set's first N instances (0: all)")
	configs := fs.StringSlice("config", []string{"pdb"}, "configurations to compare, the first the one the others are measured against (see above)")
	interleave := fs.Bool("interleave", false, "solve the instances one at a time, each under every configuration in turn, so that the machine's drift in speed falls on all alike (holds every configuration's databases at once; no +jobs)")
	timeout := fs.Duration("timeout", 0, "give up an instance after this long (0: never)")
	cmd.Group("Output")
	out := fs.String("out", "bench-report", "report directory")
	cmd.Group("Databases")
	var pdbDir string
	cli.DirFlag(fs, &pdbDir)
	cmd.Group("Profiling")
	var profiles profile.Files
	profiles.Flags(fs, "write a CPU profile of the whole run to `FILE` (labels config and puzzle)")
	var set data.Set
	var cfgs []bench.Config
	check := func() (err error) {
		set, cfgs, err = parse(instances, *configs, *limit, *interleave, fs.Args())
		return err
	}
	if status, ok := cli.Parse(cmd, args, stdout, stderr, check); !ok {
		return status
	}
	if err := checkOut(*out); err != nil {
		return cli.Status("bench", err, stderr)
	}
	stop, err := profile.Start(profiles)
	if err != nil {
		return cli.Status("bench", err, stderr)
	}
	// SIGTERM too, as solve and pdbgen: the yardstick's files are removed.
	ctx, cancel := cli.Context()
	defer cancel()
	err = runAll(ctx, set, cfgs, pdbDir, *timeout, *interleave, *out, stdout, stderr)
	err = errors.Join(err, stop())
	if ctx.Err() != nil {
		err = errors.New("interrupted") // the report holds the instances solved
	}
	if err != nil {
		fmt.Fprintln(stderr, "bench:", cli.Explain(err))
		return 1
	}
	return 0
}

// about returns what bench's help says it does, and its configurations.
func about() string {
	var names []string
	for _, size := range pdb.DefaultSizes() {
		names = append(names, strings.Join(pdb.Names(size), ", "))
	}
	return fmt.Sprintf(`runs an instance set under one or more configurations of the solver, checks
every answer against the known optimum, prints a summary on standard output (each
configuration's times and nodes as multiples of the first's), and writes the report:
report.md, results.csv, nodes.svg and time.svg in --out.

A configuration is a heuristic, then options joined by +:
  pdb               the default databases of the set's boards: 7-7-1 on 4x4, 6-6-6-6 on 5x5
  pdb:PARTITION     named databases: %s; or a
                    spec, such as pdb:1,2,3,4,5/6,7,8,9,10/11,12,13,14,15 (quoted in --config)
  manhattan, linear-conflict, misplaced   a classic heuristic
  ref663            the C yardstick (bench/yardstick/ref663.c): IDA* with Korf and Felner's
                    6-6-3 databases, on 4x4 sets; it needs a C compiler, cc (apt-get install
                    gcc), and builds its own databases first, in seconds
Options: +noreflect (no reflected lookup), +prune=N (the pruning depth, 2: only undoing
moves), +order=ULRD (the blank's move order), +frontier=MIB (the memory of the frontier
that ranks each round's tasks; 0: depth-first; not with +order), +contour
(the rounds cut at a contour, the least estimate first; +contour=false: at a fixed
depth; default: the board's faster, the contour up to 20 cells), +threads=N (per puzzle),
+jobs=N (puzzles at once); ref663 takes none.`, strings.Join(names, "; "))
}

func parse(instances *cli.Instances, configs []string, limit int, interleave bool, rest []string) (data.Set, []bench.Config, error) {
	if len(rest) > 0 {
		return data.Set{}, nil, fmt.Errorf("unexpected arguments %v", rest)
	}
	if limit < 0 {
		return data.Set{}, nil, fmt.Errorf("bad --limit %d", limit)
	}
	picked, err := instances.Pick()
	if err == nil && picked == nil {
		err = errors.New("no --set")
	}
	if err != nil {
		return data.Set{}, nil, err
	}
	set := *picked
	if limit > 0 && limit < len(set.Instances) {
		set.Instances = set.Instances[:limit]
	}
	if len(configs) == 0 {
		return data.Set{}, nil, errors.New("no --config")
	}
	var cfgs []bench.Config
	for _, s := range configs {
		// pdb alone names the default databases of the set's boards, by
		// name where they have one (up to 9 cells, a perfect database is
		// built in memory).
		if h, opts, _ := strings.Cut(s, "+"); h == "pdb" && pdb.DefaultPartition(set.Instances[0].Size) != "" {
			s = strings.TrimSuffix("pdb:"+pdb.DefaultPartition(set.Instances[0].Size)+"+"+opts, "+")
		}
		c, err := bench.ParseConfig(s)
		if err != nil {
			return data.Set{}, nil, err
		}
		if interleave && c.Jobs != 1 {
			return data.Set{}, nil, fmt.Errorf("config %s: --interleave solves one instance at a time, without +jobs", s)
		}
		cfgs = append(cfgs, c)
	}
	return set, cfgs, nil
}

// checkOut makes the report directory and checks that the report can be
// written there, before the runs that fill it.
func checkOut(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return atomicfile.Check(filepath.Join(dir, "report.md"))
}

// runAll runs every configuration, in turn or interleaved, and writes the
// report, even when some answers failed their checks, and its summary on
// stdout.
func runAll(ctx context.Context, set data.Set, cfgs []bench.Config, pdbDir string, timeout time.Duration, interleave bool, out string, stdout, stderr io.Writer) error {
	r := runner{ctx: ctx, set: set, pdbDir: pdbDir, timeout: timeout, line: progress.New(stderr), stderr: stderr}
	run := r.each
	if interleave {
		run = r.interleaved
	}
	runs, err := run(cfgs)
	if runs == nil {
		return err
	}
	err = errors.Join(err, bench.Agree(runs))
	cmd := "go run ./cmd/bench " + strings.Join(os.Args[1:], " ")
	if err := bench.WriteReport(out, set, runs, bench.ThisMachine(cmd)); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "report: %s\n", filepath.Join(out, "report.md"))
	return errors.Join(err, bench.WriteSummary(stdout, runs))
}

// runner runs the configurations on the set.
type runner struct {
	ctx     context.Context
	set     data.Set
	pdbDir  string
	timeout time.Duration
	line    *progress.Line
	stderr  io.Writer
}

// each runs the configurations one after another, each with its
// databases alone in memory. It returns nil runs only when a
// configuration's databases failed to open.
func (r *runner) each(cfgs []bench.Config) ([]*bench.Run, error) {
	var runs []*bench.Run
	var failures []error
	for _, c := range cfgs {
		s, err := r.open(c)
		if err != nil {
			return nil, err
		}
		var run *bench.Run
		r.timed(c.Name, func(opts bench.Options) {
			run, err = bench.Solve(r.ctx, s, r.set, c, opts)
		})
		s.Close()
		failures = append(failures, err)
		runs = append(runs, run)
		if r.ctx.Err() != nil {
			break
		}
	}
	return runs, errors.Join(failures...)
}

// interleaved runs every configuration on each instance in turn, with all
// their databases open at once (bench.Interleave).
func (r *runner) interleaved(cfgs []bench.Config) ([]*bench.Run, error) {
	var solvers []bench.Solver
	defer func() {
		for _, s := range solvers {
			s.Close()
		}
	}()
	for _, c := range cfgs {
		s, err := r.open(c)
		if err != nil {
			return nil, err
		}
		solvers = append(solvers, s)
	}
	var runs []*bench.Run
	var err error
	r.timed("interleaved", func(opts bench.Options) {
		runs, err = bench.Interleave(r.ctx, solvers, r.set, cfgs, opts)
	})
	return runs, err
}

// timed calls solve with the options of a run named name, and shows its
// progress.
func (r *runner) timed(name string, solve func(bench.Options)) {
	n, t0 := len(r.set.Instances), time.Now()
	solve(bench.Options{Timeout: r.timeout, Progress: func(done int) {
		elapsed := time.Since(t0).Seconds()
		eta := elapsed / float64(done) * float64(n-done)
		r.line.Update("%s: %d/%d instances, %.1f s elapsed, about %.1f s left", name, done, n, elapsed, eta)
	}})
	r.line.Done("%s: %d instances in %.2f s", name, n, time.Since(t0).Seconds())
}

// open returns the solver of the configuration with its heuristic
// opened for the set, building solve's default databases if missing, or
// the yardstick, started.
func (r *runner) open(c bench.Config) (bench.Solver, error) {
	if c.Heuristic == bench.YardstickName {
		y, err := bench.StartYardstick(r.ctx)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name, err)
		}
		return y, nil
	}
	cfg := c.Solver()
	cfg.Dir = r.pdbDir
	cfg.Progress, cfg.Log = cli.Reporter(r.stderr)
	s, err := solver.New(cfg)
	if err == nil {
		if err = s.Prepare(r.ctx, r.set.Instances[0].Size, r.set.Goal); err != nil {
			s.Close()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	return s, nil
}
