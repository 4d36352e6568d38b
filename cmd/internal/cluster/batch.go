package cluster

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"fifteen/cmd/internal/batch"
	"fifteen/cmd/internal/record"
	"fifteen/internal/atomicfile"
	"fifteen/internal/seal"
	"fifteen/puzzle"
	"fifteen/search"
	"fifteen/solver"
)

// A split batch gives task K of N the puzzles K, K+N, K+2N, … of the
// input. The task writes their outcomes into batch-K.jsonl, whole, every
// saveEvery and when it ends; a rerun keeps those and solves the rest,
// and with --jobs 1 resumes the search under way from its checkpoint.

// saveEvery is how often a batch task writes its outcomes so far.
const saveEvery = 5 * time.Second

// batchLine is one puzzle's outcome in a batch task's file: what solve
// would print of it on standard error, and its record. Puzzle sums up the
// input's puzzle it is of (entryKey): a line of another input is never
// taken for this one's.
type batchLine struct {
	Index   int            `json:"index"`
	Puzzle  string         `json:"puzzle"`
	Message string         `json:"message,omitempty"`
	Record  *record.Record `json:"record,omitempty"`
}

// check checks that the line is the outcome of the input's puzzle e with
// opts, and replays its solution, if any, from e's start; with s, the
// merge's solver, it also checks an IDA* search's iterations against the
// estimate s computes (solver.Check), on which an optimal answer rests.
func (l *batchLine) check(e entry, opts solver.Options, s *solver.Solver) error {
	if l.Puzzle != entryKey(e) {
		return errors.New("it is of another puzzle")
	}
	rec := l.Record
	if rec == nil {
		return nil
	}
	if rec.ID != e.p.ID || rec.Size != e.p.Size.String() || !slices.Equal(rec.Start, e.p.Tiles) || rec.Goal != opts.Goal.String() || rec.Mode != opts.Mode {
		return errors.New("its record is of another puzzle, goal or mode")
	}
	if !rec.Solved {
		return nil
	}
	moves, err := puzzle.ParseMoves(rec.Moves)
	if err != nil {
		return err
	}
	res := solver.Result{Puzzle: e.p}
	res.Moves, res.Iterations, res.Solved = moves, rec.Iterations, true
	res.H0 = rec.H0
	if s != nil {
		err = s.Check(context.Background(), &res, opts)
	} else {
		err = solver.Verify(&res, opts)
	}
	if err != nil {
		return err
	}
	if rec.Length == nil || *rec.Length != len(moves) || !slices.Equal(rec.Tiles, res.Tiles) || rec.Optimal != res.Optimal {
		return errors.New("its length, tiles or optimality contradict its moves")
	}
	return nil
}

func batchPath(dir string, task int) string {
	return filepath.Join(dir, fmt.Sprintf("batch-%d.jsonl", task))
}

// readBatch reads a batch task's file, each line sealed under key: none
// yet is no outcome.
func readBatch(key *seal.Key, path string) (map[int]batchLine, error) {
	lines := map[int]batchLine{}
	data, err := atomicfile.ReadShared(path, batch.MaxState)
	if errors.Is(err, os.ErrNotExist) {
		return lines, nil
	} else if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l batchLine
		if err := openJSON(key, path, sc.Bytes(), &l); err != nil {
			return nil, err
		}
		lines[l.Index] = l
	}
	return lines, sc.Err()
}

// batchTask solves the task's share of the batch. A checkpoint of its
// search that the search refuses to resume (of a search of another
// version, say) is its own state, not the user's: the search begins
// afresh.
func batchTask(ctx context.Context, c *Config, b *batch.Config, all []entry, stderr io.Writer) error {
	path := batchPath(c.Dir, c.Task)
	done, err := readBatch(c.key, path)
	if err != nil {
		return err
	}
	for i, l := range done {
		if i < 0 || i >= len(all) || i%c.Tasks != c.Task || l.check(all[i], b.Options, nil) != nil {
			delete(done, i) // another input's, or damaged: solved again
		}
	}
	save := func() error {
		return atomicfile.WriteShared(path, func(w io.Writer) error {
			for _, i := range slices.Sorted(maps.Keys(done)) {
				line, err := c.key.Marshal(done[i])
				if err == nil {
					_, err = w.Write(line)
				}
				if err != nil {
					return err
				}
			}
			return nil
		})
	}
	resume := b.Jobs == 1
	if resume {
		b.Checkpoint, b.Shared, b.Seal = filepath.Join(c.Dir, fmt.Sprintf("batch-%d.checkpoint.json", c.Task)), true, c.key
	}
	for {
		err = solveLeft(ctx, c, b, all, done, resume, save, stderr)
		if serr := save(); serr != nil {
			return serr
		}
		if !resume || !errors.As(err, new(*search.ResumeError)) {
			return err
		}
		fmt.Fprintf(stderr, "%s: searching it afresh\n", err)
		resume = false
	}
}

// resumable returns the task's checkpoint at path if its search's puzzle
// is among those left, nil if not. A checkpoint refused is the task's own
// state, searched afresh, as it says.
func resumable(path string, opts search.Options, key *seal.Key, all []entry, left []int, stderr io.Writer) *batch.CheckpointFile {
	f, err := batch.ReadCheckpoint(path, opts, key)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		fmt.Fprintf(stderr, "%v: searching afresh\n", err)
		return nil
	case f.Done || !f.Among(func(yield func(puzzle.Puzzle) bool) {
		for _, i := range left {
			if all[i].err == nil && !yield(all[i].p) {
				return
			}
		}
	}):
		return nil
	}
	fmt.Fprintf(stderr, "%s: resuming its search from %s\n", puzzle.Escape(f.ID), path)
	return f
}

// solveLeft solves the puzzles of the task's share that done has no
// outcome of, in order, adding theirs to done and saving it every
// saveEvery. With resume, it resumes the search under way from the
// task's checkpoint, if that search's puzzle is among them.
func solveLeft(ctx context.Context, c *Config, config *batch.Config, all []entry, done map[int]batchLine, resume bool, save func() error, stderr io.Writer) error {
	b := *config   // a batch adds its hooks to its config's options: one config a batch
	var left []int // the share's puzzles without an outcome
	for i := c.Task; i < len(all); i += c.Tasks {
		if _, ok := done[i]; !ok {
			left = append(left, i)
		}
	}
	b.Resume = nil
	if resume {
		b.Resume = resumable(b.Checkpoint, b.Options.Options, c.key, all, left, stderr)
	}
	var mu sync.Mutex // the queue of the indexes of the puzzles under way, in order
	var queue []int
	stream := func(yield func(puzzle.Puzzle, error) bool) {
		for _, i := range left {
			mu.Lock()
			queue = append(queue, i)
			mu.Unlock()
			if !yield(all[i].p, all[i].err) {
				return
			}
		}
	}
	saved := time.Now()
	return batch.Stream(ctx, &b, stream, stderr, func(o batch.Outcome) error {
		mu.Lock()
		i := queue[0]
		queue = queue[1:]
		mu.Unlock()
		if o.Interrupted {
			return nil // by SIGTERM: solved again by the rerun
		}
		done[i] = batchLine{Index: i, Puzzle: entryKey(all[i]), Message: o.Msg, Record: o.Record}
		if time.Since(saved) < saveEvery {
			return nil
		}
		saved = time.Now()
		return save()
	})
}

// mergeBatch prints the outcomes of a split batch in input order, once
// every task has written all of its share.
func mergeBatch(c *Config, b *batch.Config, s *solver.Solver, all []entry, stdout, stderr io.Writer) Status {
	lines := map[int]batchLine{}
	var behind []int
	for k := range c.Tasks {
		have, err := readBatch(c.key, batchPath(c.Dir, k))
		if err != nil {
			return failed(err)
		}
		for i := range have {
			if i < 0 || i >= len(all) || i%c.Tasks != k {
				return failed(fmt.Errorf("%s holds the outcome of puzzle %d, not of task %d of %d's share: was job.json changed? Use another --results directory", batchPath(c.Dir, k), i+1, k, c.Tasks))
			}
		}
		for i := k; i < len(all); i += c.Tasks {
			l, ok := have[i]
			if !ok {
				behind = append(behind, k)
				break
			}
			if err := l.check(all[i], b.Options, s); err != nil {
				return failed(fmt.Errorf("%s: the outcome of puzzle %d (%s) is refused: %v", batchPath(c.Dir, k), i+1, all[i].p.ID, err))
			}
			lines[i] = l
		}
	}
	if len(behind) > 0 {
		return again(fmt.Sprintf("tasks %s of %d have not finished their share: run them again", taskList(behind), c.Tasks))
	}
	return done(batch.PrintOutcomes(b, len(all), func(i int) batch.Outcome { return batch.Outcome{Msg: lines[i].Message, Record: lines[i].Record} }, stdout, stderr))
}
