package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"fifteen/internal/atomicfile"
	"fifteen/solver"
)

// A split job shares a batch, or one puzzle's search, among the N tasks
// of a cluster's job array, which meet only in a shared directory
// (--results): each task writes its own files there, atomically, and a
// rerun task (a requeue, a preempted pod) writes them again. The merge
// (--merge) reads them and prints the results in input order, or, while
// work remains, plans the next round and exits with statusMore; a driver
// runs the array and the merge until it does not (deploy/slurm/solve.sh).
// docs/cluster.md describes the files.

// statusMore is the merge's exit status while tasks remain to run.
const statusMore = 3

// errNoTask is the merge's error before any task has run.
var errNoTask = errors.New("no task has run")

// maxTasks bounds N: every task lists the first split iteration's
// subtrees, 256 a task.
const maxTasks = 1 << 14

// clusterConfig is the split job's flags.
type clusterConfig struct {
	dir         string // --results
	task, tasks int    // --task K/N, or from the environment
	merge       bool
	split       string // "search", "batch", or "" for search with one puzzle, else batch
	above       uint64 // --split-above
}

// taskEnv names the environment variables that give a task its K and N,
// in the order they are tried: a Slurm job array's, then a Kubernetes
// Indexed Job's (whose count the manifest sets).
var taskEnv = [][3]string{
	{"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN"},
	{"JOB_COMPLETION_INDEX", "FIFTEEN_TASK_COUNT", ""},
}

// check checks the split job's flags against the others, and settles
// K/N.
func (c *clusterConfig) check(fs *pflag.FlagSet, task string, getenv func(string) string) error {
	if c.dir == "" {
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
	case c.split != "" && c.split != "search" && c.split != "batch":
		return fmt.Errorf("bad --split %q: want search or batch", c.split)
	case c.merge && fs.Changed("task"):
		return errors.New("--merge and --task exclude each other")
	case c.merge:
		return nil
	}
	return c.setTask(task, getenv)
}

// setTask settles K/N from --task, or the environment.
func (c *clusterConfig) setTask(flag string, getenv func(string) string) error {
	if flag != "" {
		k, n, ok := strings.Cut(flag, "/")
		if ok {
			return c.setTaskNumbers(k, n, "0", "--task "+flag)
		}
		return fmt.Errorf("bad --task %q: want K/N, such as 3/8", flag)
	}
	for _, env := range taskEnv {
		if k, n := getenv(env[0]), getenv(env[1]); k != "" && n != "" {
			first := "0"
			if env[2] != "" && getenv(env[2]) != "" {
				first = getenv(env[2])
			}
			return c.setTaskNumbers(k, n, first, fmt.Sprintf("%s=%s and %s=%s", env[0], k, env[1], n))
		}
	}
	return errors.New("--results needs --task K/N, or SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX and FIFTEEN_TASK_COUNT, or --merge")
}

// setTaskNumbers sets K/N from the numbers, K counted from first.
func (c *clusterConfig) setTaskNumbers(k, n, first, from string) error {
	id, err1 := strconv.Atoi(k)
	count, err2 := strconv.Atoi(n)
	offset, err3 := strconv.Atoi(first)
	// Both non-negative, id-offset cannot overflow.
	if err := errors.Join(err1, err2, err3); err != nil || offset < 0 || id < offset || count < 1 || count > maxTasks || id-offset >= count {
		return fmt.Errorf("bad task %s: want task K of N, 0 ≤ K < N ≤ %d", from, maxTasks)
	}
	c.task, c.tasks = id-offset, count
	return nil
}

// entry is one puzzle of the input, or why it is malformed.
type entry struct {
	p   solver.Puzzle
	err error
}

// job is what a results directory holds the results of, in its job.json:
// every task and the merge check that it is theirs.
type job struct {
	Split   string `json:"split"`
	Tasks   int    `json:"tasks"`
	Puzzles int    `json:"puzzles"`
	// Key sums up the puzzles and the options that shape the answers.
	Key string `json:"key"`
}

// runCluster runs a task of the split job, or its merge.
func runCluster(ctx context.Context, cfg *config, stdin io.Reader, stdout, stderr io.Writer) int {
	var all []entry
	stream, closeInput, err := puzzles(cfg, stdin)
	if err == nil {
		for p, perr := range stream {
			if errors.As(perr, new(readError)) {
				err = perr
				break
			}
			all = append(all, entry{p, perr})
		}
		closeInput()
	}
	if err != nil {
		fmt.Fprintln(stderr, "solve:", err)
		return 1
	}
	c := &cfg.cluster
	split := c.split
	if split == "" {
		split = "batch"
		if len(all) == 1 {
			split = "search"
		}
	}
	switch {
	case split == "search" && cfg.opts.Mode != solver.Optimal && cfg.opts.Mode != solver.Weighted:
		fmt.Fprintln(stderr, "solve: a split search is an IDA* search: not with --greedy or --constructive; use --split batch")
		return 2
	case split == "search" && cfg.opts.Timeout > 0:
		fmt.Fprintln(stderr, "solve: --timeout bounds one search: not with a split search, whose tasks search in rounds; use --split batch")
		return 2
	}
	j := job{Split: split, Tasks: c.tasks, Puzzles: len(all), Key: jobKey(cfg, all)}
	if c.merge {
		j.Tasks = 0 // the merge learns N from the tasks' job.json
	}
	if j, err = claim(c.dir, j, !c.merge); err != nil {
		fmt.Fprintln(stderr, "solve:", err)
		if errors.Is(err, errNoTask) {
			return statusMore
		}
		return 1
	}
	c.tasks = j.Tasks
	cfg.parallelism(len(all) > 1)
	switch {
	case c.merge && split == "batch":
		return mergeBatch(cfg, all, stdout, stderr)
	case c.merge:
		return mergeSearch(cfg, all, stdout, stderr)
	case split == "batch":
		return batchTask(ctx, cfg, all, stderr)
	}
	return searchTask(ctx, cfg, all, stderr)
}

// jobKey sums up the puzzles and the options that shape the answers, so
// that a results directory is not shared by two jobs.
func jobKey(cfg *config, all []entry) string {
	h := fnv.New64a()
	o := &cfg.opts
	fmt.Fprintln(h, o.Goal, o.Mode, o.Weight, o.PruneDepth, o.Order, o.Timeout, cfg.solver.Heuristic, cfg.solver.Partition, cfg.cluster.above)
	if cfg.solver.NoReflect {
		fmt.Fprintln(h, "no-reflect")
	}
	for _, e := range all {
		fmt.Fprintln(h, e.p.ID, e.p.Size, e.p.Tiles, e.err)
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// entryKey sums up one puzzle of the input, as jobKey does the input.
func entryKey(e entry) string {
	h := fnv.New64a()
	fmt.Fprintln(h, e.p.ID, e.p.Size, e.p.Tiles, e.err)
	return fmt.Sprintf("%016x", h.Sum64())
}

// claim checks that the results directory holds the results of job j,
// and, for a task, makes it if need be and writes job.json. The merge's
// j has no task count: it returns the tasks'.
func claim(dir string, j job, task bool) (job, error) {
	path := filepath.Join(dir, "job.json")
	var have job
	switch err := readJSON(path, &have); {
	case err == nil:
		if j.Tasks == 0 {
			j.Tasks = have.Tasks
		}
		if have != j {
			return j, fmt.Errorf("%s holds the results of another job (%+v, not %+v): use another --results directory", dir, have, j)
		}
		return j, nil
	case !errors.Is(err, os.ErrNotExist):
		return j, err
	case !task:
		return j, fmt.Errorf("%w in %s yet", errNoTask, dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return j, err
	}
	return j, writeJSON(path, j)
}

// writeJSON writes v into path atomically.
func writeJSON(path string, v any) error {
	return atomicfile.WriteFile(path, func(w io.Writer) error {
		return json.NewEncoder(w).Encode(v)
	})
}

// maxState bounds the size of the files a task or the merge reads: its
// checkpoints, job.json, plan.json and the tasks' results.
const maxState = 1 << 28

// readJSON reads path into v; a missing file is os.ErrNotExist, and
// anything but a regular file is refused (atomicfile.ErrNotRegular).
func readJSON(path string, v any) error {
	data, err := atomicfile.ReadFile(path, maxState)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}
