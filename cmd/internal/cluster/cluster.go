// Package cluster splits a batch, or one puzzle's search, among the N
// tasks of a cluster's job array (a Slurm job array, a Kubernetes Indexed
// Job), which meet only in a shared directory: each task writes its own
// files there, atomically, and a rerun task (a requeue, a preempted pod)
// writes them again. The merge reads them and prints the results in
// input order, or, while work remains, plans the next round; either way
// it leaves its verdict in status.json, which a driver reads to run the
// tasks again or stop (deploy/rounds.sh). docs/cluster.md describes the
// files.
package cluster

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"fifteen/cmd/internal/batch"
	"fifteen/cmd/internal/cli"
	"fifteen/internal/atomicfile"
	"fifteen/internal/seal"
	"fifteen/puzzle"
	"fifteen/search"
	"fifteen/solver"
)

// errNoTask is the merge's error before any task has run.
var errNoTask = errors.New("no task has run")

// MaxTasks bounds N: every task lists the first split iteration's
// subtrees, 256 a task (search.MaxTasks).
const MaxTasks = search.MaxTasks

// Config is a split job's, and this process's part in it.
type Config struct {
	Dir         string // the results directory
	Task, Tasks int    // task K of N (SetTask); N is the tasks' for the merge
	Merge       bool   // whether this is the merge, rather than a task
	// Split is "search" (each puzzle's search shared among the tasks, one
	// puzzle after another), "batch" (every N-th puzzle a task), or "" for
	// search with one puzzle, else batch.
	Split string
	// Above is the size, in nodes generated, of the iterations that every
	// task searches whole (0: search.DefaultSplitAbove).
	Above uint64

	// key seals the files that the tasks and the merge read back: the
	// results directory's (claim), shared by the job's tasks.
	key *seal.Key
}

// taskEnv names the environment variables that give a task its K and N,
// in the order they are tried: a Slurm job array's, then a Kubernetes
// Indexed Job's (whose count the manifest sets).
var taskEnv = [][3]string{
	{"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN"},
	{"JOB_COMPLETION_INDEX", "FIFTEEN_TASK_COUNT", ""},
}

// SetTask settles K/N from task, as --task gives it ("K/N"), or when it
// is empty from the environment: a Slurm job array's task, or a
// Kubernetes Indexed Job's.
func (c *Config) SetTask(task string, getenv func(string) string) error {
	if task != "" {
		k, n, ok := strings.Cut(task, "/")
		if ok {
			return c.setTaskNumbers(k, n, "0", "--task "+task)
		}
		return fmt.Errorf("bad --task %q: want K/N, such as 3/8", task)
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
func (c *Config) setTaskNumbers(k, n, first, from string) error {
	id, err1 := strconv.Atoi(k)
	count, err2 := strconv.Atoi(n)
	offset, err3 := strconv.Atoi(first)
	// Both non-negative, id-offset cannot overflow.
	if err := errors.Join(err1, err2, err3); err != nil || offset < 0 || id < offset || count < 1 || count > MaxTasks || id-offset >= count {
		return fmt.Errorf("bad %s: want task K of N, 0 ≤ K < N ≤ %d", from, MaxTasks)
	}
	c.Task, c.Tasks = id-offset, count
	return nil
}

// entry is one puzzle of the input, or why it is malformed.
type entry struct {
	p   puzzle.Puzzle
	err error
}

// job is what a results directory holds the results of, in its job.json:
// every task and the merge check that it is theirs.
type job struct {
	Version int    `json:"version"` // jobVersion
	Split   string `json:"split"`
	Tasks   int    `json:"tasks"`
	Puzzles int    `json:"puzzles"`
	// Key sums up the puzzles and the options that shape the answers.
	Key string `json:"key"`
}

// String describes the job in words: how it is split, and its key,
// which differs where the puzzles or the options that shape the answers
// do.
func (j job) String() string {
	return fmt.Sprintf("a split %s of %d puzzles among %d tasks (key %s)", j.Split, j.Puzzles, j.Tasks, j.Key)
}

// AgainError is the merge's while the split job's tasks must run again:
// Why says which, and for what.
type AgainError struct{ Why string }

func (e *AgainError) Error() string { return e.Why }

// Run runs this process's part of the split job on the stream's puzzles:
// a task's share (search.Split and SolveShare's runs, or every N-th
// puzzle), or the merge, which prints the results on stdout as solve
// does and writes status.json. Its errors are batch.Solve's, and the
// merge's *AgainError while the tasks must run again.
func Run(ctx context.Context, c *Config, b *batch.Config, stream iter.Seq2[puzzle.Puzzle, error], stdout, stderr io.Writer) error {
	var all []entry
	for p, err := range stream {
		if errors.As(err, new(batch.ReadError)) {
			return err
		}
		all = append(all, entry{p, err})
	}
	split := c.Split
	if split == "" {
		split = "batch"
		if len(all) == 1 {
			split = "search"
		}
	}
	switch {
	case split == "search" && cmp.Or(b.Options.Frontier, search.DefaultFrontier) != search.DefaultFrontier:
		return &cli.UsageError{Err: errors.New("--frontier ranks the tasks of a search's rounds: not with a split search, whose tasks take their subtrees depth-first; use --split batch")}
	case split == "search" && b.Options.Mode != solver.Optimal && b.Options.Mode != solver.Weighted:
		return &cli.UsageError{Err: errors.New("a split search is an IDA* search: not with --greedy or --constructive; use --split batch")}
	case split == "search" && b.Options.Timeout > 0:
		return &cli.UsageError{Err: errors.New("--timeout bounds one search: not with a split search, whose tasks search in rounds; use --split batch")}
	}
	j := job{Version: jobVersion, Split: split, Tasks: c.Tasks, Puzzles: len(all), Key: jobKey(c, b, all)}
	if !c.Merge {
		var err error
		if _, c.key, err = claim(c.Dir, j, true); err != nil {
			return err
		}
		b.Parallelism(len(all) > 1)
		if split == "batch" {
			return batchTask(ctx, c, b, all, stderr)
		}
		return searchTask(ctx, c, b, all, stderr)
	}
	v := merge(c, b, j, all, stdout, stderr)
	if v.State == Again {
		v.Work = workIn(c.Dir, c.key)
	}
	// None where no task has made the directory. The driver reads it, and
	// the program never: it is not sealed.
	err := atomicfile.WriteShared(filepath.Join(c.Dir, "status.json"), func(w io.Writer) error {
		return json.NewEncoder(w).Encode(v)
	})
	switch {
	case err == nil || errors.Is(err, os.ErrNotExist):
		return v.err
	case v.State == Done:
		return err
	}
	return fmt.Errorf("%v; writing its verdict: %w", v.err, err) // not StatusAgain, as the driver cannot read why
}

// merge joins what the tasks wrote: it prints the results, or says which
// tasks must run again, and why.
func merge(c *Config, b *batch.Config, j job, all []entry, stdout, stderr io.Writer) Status {
	j.Tasks = 0 // the merge learns N from the tasks' job.json
	j, key, err := claim(c.Dir, j, false)
	switch {
	case errors.Is(err, errNoTask):
		return again(err.Error())
	case err != nil:
		return failed(err)
	}
	c.Tasks, c.key = j.Tasks, key
	if k := strayTask(c.Dir, c.Tasks); k >= 0 {
		return failed(fmt.Errorf("%s holds files of task %d, where job.json says %d tasks: was it changed? Use another --results directory", c.Dir, k, c.Tasks))
	}
	b.Parallelism(len(all) > 1)
	// The merge's solver recomputes the estimates an optimal answer's
	// iterations begin at: it opens the tasks' heuristic.
	s, err := batch.NewSolver(b, stderr)
	if err != nil {
		return failed(err)
	}
	defer s.Close()
	if j.Split == "batch" {
		return mergeBatch(c, b, s, all, stdout, stderr)
	}
	return mergeSearch(c, b, s, all, stdout, stderr)
}

// Status is the merge's verdict, which it writes into status.json for the
// driver that runs the rounds (deploy/rounds.sh): whether the job is done
// (its results printed), must run again, or failed, and why.
type Status struct {
	Version int    `json:"version"`
	State   string `json:"state"` // Done, Again or Failed
	Why     string `json:"why,omitempty"`
	Exit    int    `json:"exit"` // the merge's exit status
	// Work counts the work done so far while the tasks must run again
	// (workIn): a driver that sees it grow knows that they make progress,
	// however slowly, and however alike the whys.
	Work int `json:"work,omitempty"`

	err error // what Run returns: nil, or as Exit says
}

// The states of a Status.
const (
	Done   = "done"   // the results are printed; Exit is 1 if a puzzle failed
	Again  = "again"  // the tasks must run again: Why names the work left
	Failed = "failed" // the job cannot go on as it is: Why says what to do
)

// statusVersion is the version of status.json's format.
const statusVersion = 1

// done is the verdict once the results are printed: err is
// batch.PrintOutcomes's.
func done(err error) Status {
	v := Status{Version: statusVersion, State: Done, err: err}
	if err != nil {
		v.Exit = cli.StatusFailed
	}
	return v
}

func again(why string) Status {
	return Status{Version: statusVersion, State: Again, Why: why, Exit: cli.StatusAgain, err: &AgainError{why}}
}

func failed(err error) Status {
	return Status{Version: statusVersion, State: Failed, Why: err.Error(), Exit: cli.StatusFailed, err: err}
}

// workIn counts the work the tasks have done in the results directory:
// the outcomes and round files they wrote, and the iterations and
// subtrees their checkpoints hold. It grows with each puzzle solved, each
// round run and each subtree searched, and only shrinks when files are
// removed.
func workIn(dir string, key *seal.Key) int {
	paths, _ := filepath.Glob(filepath.Join(dir, "*"))
	more, _ := filepath.Glob(filepath.Join(dir, "puzzle-*", "*"))
	work := 0
	for _, path := range append(paths, more...) {
		name := filepath.Base(path)
		switch {
		case strings.HasSuffix(name, ".checkpoint.json"):
			// A batch task's (batch.CheckpointFile) or a share's.
			var cp struct {
				search.Checkpoint
				Search *search.Checkpoint `json:"checkpoint"`
			}
			if readJSONUpTo(key, path, &cp, search.MaxCheckpointSize(search.Options{})) == nil {
				work += len(cp.Iterations) + cp.TasksDone()
				if cp.Search != nil {
					work += len(cp.Search.Iterations) + cp.Search.TasksDone()
				}
			}
		case strings.HasPrefix(name, "batch-") && strings.HasSuffix(name, ".jsonl"):
			if data, err := atomicfile.ReadShared(path, batch.MaxState); err == nil {
				work += bytes.Count(data, []byte("\n"))
			}
		case strings.HasPrefix(name, "first-") || strings.HasPrefix(name, "bound-"):
			work++
		}
	}
	return work
}

// taskList formats task numbers for a status: at most 16 of them, so that
// status.json stays small (a Kubernetes termination message holds 4 KiB).
func taskList(tasks []int) string {
	const most = 16
	if len(tasks) <= most {
		return fmt.Sprint(tasks)
	}
	return fmt.Sprintf("%s …] (%d in all)", strings.TrimSuffix(fmt.Sprint(tasks[:most]), "]"), len(tasks))
}

// jobKey sums up the puzzles and the options that shape the answers, so
// that a results directory is not shared by two jobs.
func jobKey(c *Config, b *batch.Config, all []entry) string {
	h := fnv.New64a()
	o := &b.Options
	fmt.Fprintln(h, o.Goal, o.Mode, o.Weight, o.PruneDepth, o.Order, o.Timeout, b.Solver.Heuristic, b.Solver.Partition, c.Above)
	if b.Solver.NoReflect {
		fmt.Fprintln(h, "no-reflect")
	}
	if f := cmp.Or(o.Frontier, search.DefaultFrontier); f != search.DefaultFrontier {
		// Depth-first is -1, as it was before issue 68 and is again since
		// issue 79: a job keeps its key.
		fmt.Fprintln(h, "frontier", f)
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

// jobVersion is the version of job.json's format, and of the files of
// the tasks in its directory: 3 since they are sealed (issue 76); 2 since
// a search's part counts its round's subtrees, which the merge checks its
// tasks against, and its checkpoints are search.CheckpointVersion 3
// (issue 66), or 4, which a search writes since issue 78 and which
// changes nothing in a share's.
const jobVersion = 3

// strayTask returns a task of N or more that left files in the results
// directory, or -1: a job.json whose count was changed under the tasks.
func strayTask(dir string, tasks int) int {
	names, _ := filepath.Glob(filepath.Join(dir, "batch-*"))
	rounds, _ := filepath.Glob(filepath.Join(dir, "puzzle-*", "*-*.json"))
	for _, name := range append(names, rounds...) {
		base := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
		base = strings.TrimSuffix(base, ".checkpoint")
		k, err := strconv.Atoi(base[strings.LastIndexByte(base, '-')+1:])
		if err == nil && k >= tasks {
			return k
		}
	}
	return -1
}

// claim checks that the results directory holds the results of job j,
// and, for a task, makes it if need be and writes job.json. It returns
// the key that seals the directory's files, made with job.json. The
// merge's j has no task count: it returns the tasks'.
func claim(dir string, j job, task bool) (job, *seal.Key, error) {
	path := filepath.Join(dir, "job.json")
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) && !task {
		return j, nil, fmt.Errorf("%w in %s yet", errNoTask, dir)
	}
	key, err := seal.LoadKey(dir)
	if err != nil {
		return j, nil, err
	}
	var have job
	switch err := readJSON(key, path, &have); {
	case err == nil && have.Version != jobVersion:
		return j, nil, fmt.Errorf("%s is of version %d, not %d: use another --results directory", path, have.Version, jobVersion)
	case err == nil:
		if j.Tasks == 0 {
			j.Tasks = have.Tasks
		}
		if have != j {
			return j, nil, fmt.Errorf("%s holds the results of another job, %v, where this is %v: use another --results directory", dir, have, j)
		}
		return j, key, nil
	case !errors.Is(err, os.ErrNotExist):
		return j, nil, err
	}
	return j, key, writeJSON(key, path, j)
}

// writeJSON writes v, sealed under key, into path atomically, refusing a
// symbolic link there: the results directory is shared.
func writeJSON(key *seal.Key, path string, v any) error {
	data, err := key.Marshal(v)
	if err != nil {
		return err
	}
	return atomicfile.WriteShared(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// readJSON reads path into v, once it has checked its seal under key; a
// missing file is os.ErrNotExist, and anything but a regular file is
// refused (atomicfile.ErrNotRegular).
func readJSON(key *seal.Key, path string, v any) error {
	return readJSONUpTo(key, path, v, batch.MaxState)
}

// readJSONUpTo is readJSON of a file of up to limit bytes.
func readJSONUpTo(key *seal.Key, path string, v any, limit int64) error {
	data, err := atomicfile.ReadShared(path, limit)
	if err != nil {
		return err
	}
	return openJSON(key, path, data, v)
}

// openJSON decodes data, sealed under key, into v: the sealed JSON
// object of the file at path, or a line of it.
func openJSON(key *seal.Key, path string, data []byte, v any) error {
	err := key.Unmarshal(data, v)
	if errors.Is(err, seal.ErrUnsealed) || errors.Is(err, seal.ErrBroken) {
		return fmt.Errorf("%s is refused, and left as it was: %w; remove it, or the results directory, and run its task again", path, err)
	}
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}
