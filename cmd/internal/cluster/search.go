package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"fifteen/cmd/internal/batch"
	"fifteen/cmd/internal/cli"
	"fifteen/cmd/internal/record"
	"fifteen/internal/seal"
	"fifteen/puzzle"
	"fifteen/search"
	"fifteen/solver"
)

// A split search shares each puzzle's search among the tasks, one puzzle
// after another, in rounds (search.Split, search.SolveShare): in the
// first, every task searches alike the iterations too small to share,
// and then its share of the first that is not (first-K.json); in each
// later one, its share of the iteration that plan.json names
// (bound-B-K.json). A task that finds a solution leaves a mark in
// found-B/, so that the others give up their subtrees after it. The merge
// joins each round's parts, and writes the next round's plan.

// planFile is plan.json: the puzzle being searched, by its index in the
// input, and the plan of its round under way; none is the first round.
type planFile struct {
	Puzzle int          `json:"puzzle"`
	Plan   *search.Plan `json:"plan,omitempty"`
}

// check checks the plan file against the job: a puzzle of the input, and
// a plan for its tasks (the search checks the rest of the plan).
func (pf *planFile) check(puzzles, tasks int) error {
	switch {
	case pf.Puzzle < 0 || pf.Puzzle >= max(puzzles, 1):
		return fmt.Errorf("puzzle %d of %d", pf.Puzzle, puzzles)
	case pf.Plan != nil && len(pf.Plan.Starts) != tasks:
		return fmt.Errorf("a plan for %d tasks, not %d", len(pf.Plan.Starts), tasks)
	}
	return nil
}

// roundFile is a task's outcome of a round: in the first, Split's
// (Begun), and its share of the iteration after, unless Split solved the
// puzzle; in the later ones, its share.
type roundFile struct {
	ID    string     `json:"id"`
	Task  int        `json:"task"`
	Begun *begunPart `json:"begun,omitempty"`
	Part  *partFile  `json:"part,omitempty"`
}

// begunPart is what search.Split found.
type begunPart struct {
	H0         int                `json:"h0"`
	Heuristic  string             `json:"heuristic"`
	Iterations []search.Iteration `json:"iterations"`
	Solution   *string            `json:"solution,omitempty"`
	Elapsed    time.Duration      `json:"elapsed_ns"`
	Threads    int                `json:"threads"` // each task's
}

// partFile is a search.Part with its moves. The plan's starts, one a
// task and alike in every task's file, are written once: in task 0's file
// of the first round (plan.json holds the later rounds'); each file names
// them by their digest. Repeated in each, they made the merge's memory
// grow with N² (issue 57).
type partFile struct {
	search.Part
	Solution string `json:"solution,omitempty"`
	Starts   string `json:"starts_sha256"`
}

// startsDigest returns the digest of a plan's starts (partFile.Starts).
func startsDigest(starts []string) string {
	h := sha256.New()
	for _, s := range starts {
		fmt.Fprintln(h, s)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// of reports whether the part is of the plan, whose starts' digest is
// digest, and gives it the plan's starts.
func (f *partFile) of(plan search.Plan, digest string) bool {
	if f.Plan.Bound != plan.Bound || f.Plan.CutDepth != plan.CutDepth || f.Starts != digest {
		return false
	}
	f.Plan.Starts = plan.Starts
	return true
}

func puzzleDir(dir string, p int) string { return filepath.Join(dir, fmt.Sprintf("puzzle-%d", p)) }

// roundPath names task k's file of the round that searches the bound (0
// for the first round).
func roundPath(dir string, bound, k int) string {
	if bound == 0 {
		return filepath.Join(dir, fmt.Sprintf("first-%d.json", k))
	}
	return filepath.Join(dir, fmt.Sprintf("bound-%d-%d.json", bound, k))
}

// searchable returns why the puzzle cannot be searched, if it cannot: as
// solve would report it.
func searchable(e entry, goal puzzle.Goal) string {
	var ie *puzzle.InputError
	if errors.As(e.err, &ie) {
		return ie.Error()
	}
	err := e.p.Size.Valid() // the search's boards
	if err == nil {
		err = e.p.Check(goal)
	}
	if err != nil {
		return fmt.Sprintf("%s: %v", e.p.ID, err)
	}
	return ""
}

// searchTask runs the task's part of the round under way. A failure of
// the search is its puzzle's, reported as such (cli.ErrReported).
func searchTask(ctx context.Context, c *Config, b *batch.Config, all []entry, stderr io.Writer) error {
	var pf planFile
	planPath := filepath.Join(c.Dir, "plan.json")
	if err := readJSON(c.key, planPath, &pf); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := pf.check(len(all), c.Tasks); err != nil {
		return fmt.Errorf("%s: %v: the merge writes it anew", planPath, err)
	}
	p := pf.Puzzle
	for p < len(all) && searchable(all[p], b.Options.Goal) != "" {
		p++
	}
	if p >= len(all) {
		fmt.Fprintln(stderr, "every puzzle is searched: run the merge")
		return nil
	}
	if p != pf.Puzzle {
		pf = planFile{Puzzle: p}
	}
	dir := puzzleDir(c.Dir, p)
	bound := 0
	if pf.Plan != nil {
		bound = pf.Plan.Bound
	}
	path := roundPath(dir, bound, c.Task)
	if _, err := os.Stat(path); err == nil {
		return nil // done before: a rerun of the round
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	s, err := batch.NewSolver(b, stderr)
	if err != nil {
		return err
	}
	defer s.Close()
	searched := all[p].p
	out := roundFile{ID: searched.ID, Task: c.Task}
	plan := pf.Plan
	if plan == nil {
		res, first, err := s.Split(ctx, searched, b.Options, c.Tasks, c.Above)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", searched.ID, err)
			return cli.ErrReported
		}
		out.Begun = &begunPart{H0: res.H0, Heuristic: res.Heuristic, Iterations: res.Iterations, Elapsed: res.Elapsed, Threads: b.Options.Threads}
		if res.Solved {
			out.Begun.Solution = new(puzzle.FormatMoves(res.Moves))
		} else {
			plan = &first
		}
	}
	if plan != nil {
		part, err := searchShare(ctx, s, c, b, searched, dir, *plan, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", searched.ID, err)
			return cli.ErrReported
		}
		out.Part = &partFile{Part: part, Solution: puzzle.FormatMoves(part.Moves), Starts: startsDigest(part.Plan.Starts)}
		if bound != 0 || c.Task != 0 {
			out.Part.Plan.Starts = nil
		}
	}
	return writeJSON(c.key, path, out)
}

// searchShare searches the task's share of the plan's iteration, saving
// checkpoints of it and resuming from the last, and marks a solution it
// finds for the other tasks.
func searchShare(ctx context.Context, s *solver.Solver, c *Config, b *batch.Config, p puzzle.Puzzle, dir string, plan search.Plan, stderr io.Writer) (search.Part, error) {
	checkpoint := filepath.Join(dir, fmt.Sprintf("bound-%d-%d.checkpoint.json", plan.Bound, c.Task))
	found := filepath.Join(dir, fmt.Sprintf("found-%d", plan.Bound))
	opts := b.Options
	var cp search.Checkpoint
	switch err := readJSONUpTo(c.key, checkpoint, &cp, search.MaxCheckpointSize(search.Options{})); {
	case err == nil:
		opts.Resume = &cp
		fmt.Fprintf(stderr, "%s: resuming the share of bound %d from %s (%d subtrees searched)\n", p.ID, plan.Bound, checkpoint, cp.TasksDone())
	case !errors.Is(err, os.ErrNotExist):
		return search.Part{}, err
	}
	opts.Checkpoint = func(cp *search.Checkpoint) {
		if err := writeJSON(c.key, checkpoint, cp); err != nil {
			fmt.Fprintf(stderr, "%s: saving the checkpoint: %v\n", p.ID, err)
		}
	}
	part, err := s.SolveShare(ctx, p, opts, search.Share{Plan: plan, Task: c.Task, Known: knownIn(c.key, found)})
	if err == nil && part.Found >= 0 {
		if err = os.MkdirAll(found, 0o755); err == nil {
			err = writeJSON(c.key, filepath.Join(found, strconv.FormatInt(part.Found, 10)), foundMark{part.Found})
		}
	}
	return part, err
}

// foundMark is the content of a mark of a subtree that holds a solution:
// the subtree, as the file's name says, sealed.
type foundMark struct {
	Subtree int64 `json:"subtree"`
}

// knownIn returns the search.Share.Known of the tasks that mark the
// solutions they find in dir: a file named by the subtree's number. It
// reads dir at most once a second.
func knownIn(key *seal.Key, dir string) func() int64 {
	var mu sync.Mutex
	var read time.Time
	first := int64(math.MaxInt64)
	return func() int64 {
		mu.Lock()
		defer mu.Unlock()
		if time.Since(read) < time.Second {
			return first
		}
		read = time.Now()
		mark, _ := firstMark(key, dir) // the merge refuses a mark of no task's
		first = min(first, mark)
		return first
	}
}

// firstMark returns the first subtree marked in dir as holding a
// solution, math.MaxInt64 if none is, and an error for a mark that no
// task wrote: one whose seal, or whose subtree, does not match its name.
func firstMark(key *seal.Key, dir string) (int64, error) {
	first := int64(math.MaxInt64)
	names, _ := os.ReadDir(dir) // none yet: nothing marked
	for _, n := range names {
		i, err := strconv.ParseInt(n.Name(), 10, 64)
		if err != nil {
			continue
		}
		var m foundMark
		path := filepath.Join(dir, n.Name())
		if err := readJSON(key, path, &m); err != nil {
			return first, err
		}
		if m.Subtree != i {
			return first, fmt.Errorf("%s marks subtree %d", path, m.Subtree)
		}
		first = min(first, i)
	}
	return first, nil
}

// mergeSearch prints the results of a split search, once every puzzle's
// is complete; until then it writes the plan of the round to run next.
func mergeSearch(c *Config, b *batch.Config, s *solver.Solver, all []entry, stdout, stderr io.Writer) Status {
	planPath := filepath.Join(c.Dir, "plan.json")
	var pf planFile
	if err := readJSON(c.key, planPath, &pf); err != nil && !errors.Is(err, os.ErrNotExist) {
		return failed(err)
	}
	outcomes := make([]batch.Outcome, len(all))
	for i, e := range all {
		if msg := searchable(e, b.Options.Goal); msg != "" {
			outcomes[i].Msg = msg
			continue
		}
		opts := b.Options
		res, next, err := joinSearch(c, s, i, e.p, &opts)
		switch {
		case err != nil:
			return failed(fmt.Errorf("%s: %w", e.p.ID, err))
		case next != nil:
			if want := (planFile{Puzzle: i, Plan: next.plan}); !reflect.DeepEqual(pf, want) {
				if err := writeJSON(c.key, planPath, want); err != nil {
					return failed(err)
				}
			}
			return again(fmt.Sprintf("%s: %s: run the tasks again", e.p.ID, next.why))
		}
		outcomes[i].Record = new(record.New(&res, nil, opts))
	}
	return done(batch.PrintOutcomes(b, len(all), func(i int) batch.Outcome { return outcomes[i] }, stdout, stderr))
}

// pending is a round that remains to run: its plan (nil for the first),
// and why.
type pending struct {
	plan *search.Plan
	why  string
}

// joinSearch joins the rounds of puzzle i's split search: its result, or
// the round to run next. It sets the options' threads to the tasks'. The
// iterations, read from the tasks' files, are checked against the
// estimates s computes: the first rounds' before the next is planned, and
// the answer's with it (solver.Check).
func joinSearch(c *Config, s *solver.Solver, i int, p puzzle.Puzzle, opts *solver.Options) (solver.Result, *pending, error) {
	dir := puzzleDir(c.Dir, i)
	files, missing, err := readRound(c.key, dir, 0, c.Tasks, p.ID)
	if err != nil || len(missing) > 0 {
		return solver.Result{}, &pending{nil, fmt.Sprintf("the first round's tasks %s have not finished", taskList(missing))}, err
	}
	b := files[0].Begun
	if b == nil {
		return solver.Result{}, nil, fmt.Errorf("%s: no first round", roundPath(dir, 0, 0))
	}
	opts.Threads = b.Threads
	begun := solver.Result{Puzzle: p, Heuristic: b.Heuristic}
	begun.H0, begun.Iterations, begun.Elapsed = b.H0, b.Iterations, b.Elapsed
	if b.Solution != nil {
		moves, err := puzzle.ParseMoves(*b.Solution)
		if err != nil {
			return solver.Result{}, nil, err
		}
		res := solver.Joined(begun, nil, moves, 0)
		return res, nil, s.Check(context.Background(), &res, *opts)
	}
	if files[0].Part == nil {
		return solver.Result{}, nil, fmt.Errorf("%s: no part", roundPath(dir, 0, 0))
	}
	plan := files[0].Part.Plan // the first round's, written by task 0 alone
	var shared []search.Iteration
	var elapsed time.Duration
	for bound := 0; ; {
		digest := startsDigest(plan.Starts)
		for k, f := range files {
			if f.Part == nil || !f.Part.of(plan, digest) {
				return solver.Result{}, nil, fmt.Errorf("%s: a part of another plan than %s", roundPath(dir, bound, k), planSource(dir, bound))
			}
		}
		parts := make([]search.Part, len(files))
		for k, f := range files {
			parts[k] = f.Part.Part
			elapsed += f.Part.Elapsed
		}
		it, found, err := search.Join(parts)
		marks := filepath.Join(dir, fmt.Sprintf("found-%d", parts[0].Plan.Bound))
		mark, merr := firstMark(c.key, marks)
		if merr != nil {
			return solver.Result{}, nil, merr
		}
		if err == nil && mark != math.MaxInt64 && (found < 0 || parts[found].Found > mark) {
			// A task marked a solution that no part holds: a part edited, or
			// a mark no task made (issue 66: the merge planned past it).
			err = fmt.Errorf("%w: %s marks subtree %d", search.ErrUnreported, marks, mark)
		}
		if errors.Is(err, search.ErrUnreported) {
			return solver.Result{}, nil, fmt.Errorf("bound %d: %w: a stray mark in %s, or an edited part? Remove the mark and the round's files %s, then run the round again",
				parts[0].Plan.Bound, err, marks, strings.TrimSuffix(roundPath(dir, bound, 0), "0.json")+"*.json")
		} else if err != nil {
			return solver.Result{}, nil, err
		}
		shared = append(shared, it)
		if found >= 0 {
			moves, err := puzzle.ParseMoves(files[found].Part.Solution)
			if err != nil {
				return solver.Result{}, nil, err
			}
			res := solver.Joined(begun, shared, moves, elapsed)
			return res, nil, s.Check(context.Background(), &res, *opts)
		}
		next, err := search.NextPlan(parts, c.Tasks)
		if err != nil {
			return solver.Result{}, nil, err
		}
		if err := s.CheckIterations(context.Background(), p, *opts, slices.Concat(begun.Iterations, shared), next.Bound); err != nil {
			return solver.Result{}, nil, fmt.Errorf("the round after bound %d, read from %s: %w", parts[0].Plan.Bound, strings.TrimSuffix(roundPath(dir, bound, 0), "0.json")+"*.json", err)
		}
		bound, plan = next.Bound, next
		files, missing, err = readRound(c.key, dir, bound, c.Tasks, p.ID)
		if err != nil || len(missing) > 0 {
			return solver.Result{}, &pending{&next, fmt.Sprintf("bound %d: tasks %s have not finished", bound, taskList(missing))}, err
		}
	}
}

// planSource names where the plan of the round that searches the bound
// is written: in task 0's file of the first round, else by the merge.
func planSource(dir string, bound int) string {
	if bound == 0 {
		return roundPath(dir, 0, 0)
	}
	return "the merge's"
}

// readRound reads the tasks' files of a round of the search in dir, and
// returns the tasks that have not written theirs.
func readRound(key *seal.Key, dir string, bound, tasks int, id string) ([]roundFile, []int, error) {
	files := make([]roundFile, tasks)
	var missing []int
	for k := range files {
		path := roundPath(dir, bound, k)
		err := readJSON(key, path, &files[k])
		switch {
		case errors.Is(err, os.ErrNotExist):
			missing = append(missing, k)
		case err != nil:
			return nil, nil, err
		case files[k].ID != id || files[k].Task != k:
			return nil, nil, fmt.Errorf("%s is task %d's of puzzle %s, not task %d's of %s", path, files[k].Task, files[k].ID, k, id)
		}
	}
	return files, missing, nil
}
