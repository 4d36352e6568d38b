// Package batch is how the commands solve a batch of puzzles: a stream
// solved in input order, each outcome printed (or handed on) as it comes,
// a summary, and the --checkpoint and --resume files of its searches. It
// is what solve runs, alone or as a task of a split job (package cluster).
package batch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"fifteen/cmd/internal/cli"
	"fifteen/cmd/internal/record"
	"fifteen/internal/atomicfile"
	"fifteen/internal/seal"
	"fifteen/pdb"
	"fifteen/puzzle"
	"fifteen/render"
	"fifteen/search"
	"fifteen/solver"
)

// Config is a batch's: how each puzzle is solved, and what is made of its
// outcome.
type Config struct {
	Solver  solver.Config
	Options solver.Options
	Jobs    int    // puzzles solved at once (0: see Parallelism)
	Format  string // "text" or "jsonl"
	// GIFFile draws the one puzzle's solution, GIFDir each puzzle's, with
	// cells of GIFCell pixels.
	GIFFile, GIFDir string
	GIFCell         int
	// Checkpoint is the file that saves the search under way; Resume, the
	// one it resumes from.
	Checkpoint string
	Resume     *CheckpointFile
	// Shared marks a Checkpoint in a directory that others write too (a
	// split job's results): a symbolic link there is refused, not
	// followed.
	Shared bool
	// Seal seals the Checkpoint file, and opened Resume's (package seal).
	Seal *seal.Key
	// Live marks an input that may wait for more (a pipe, a terminal), as
	// a program that drives solve writes a puzzle and waits for its
	// answer: Solve reads no puzzle ahead of those it solves.
	Live bool
}

// Parallelism settles the Jobs and Options.Threads defaults for a batch
// of one puzzle or more: a batch is fastest solved a puzzle per CPU, one
// puzzle with all CPUs searching it.
func (c *Config) Parallelism(many bool) {
	cpus := runtime.GOMAXPROCS(0)
	if c.Jobs == 0 {
		c.Jobs = 1
		if many && c.Options.Threads <= 1 && c.Checkpoint == "" {
			c.Jobs = cpus
		}
	}
	if c.Options.Threads == 0 {
		c.Options.Threads = 1
		if c.Jobs == 1 {
			c.Options.Threads = min(cpus, search.MaxThreads)
		}
	}
}

// ReadError is an input that could not be read on: the batch stops there.
type ReadError struct{ Err error }

func (e ReadError) Error() string { return e.Err.Error() }
func (e ReadError) Unwrap() error { return e.Err }

// ErrInterrupted is a batch that Ctrl-C or SIGTERM cut short: the
// outcomes so far are printed, and the summary.
var ErrInterrupted = errors.New("interrupted")

// Solve solves the stream, prints each result on stdout in input order as
// it comes and a summary on stderr. It returns cli.ErrReported if a puzzle
// failed (each is reported on its own line), ErrInterrupted, or why the
// batch could not go on: a *cli.UsageError for a request it cannot carry
// out as made. It peeks at the stream to choose its parallelism
// (Parallelism), unless the input is Live: then it takes it for one
// puzzle, one at a time, each solved on every thread. --gif, which draws
// one puzzle, waits for the input's end.
func Solve(ctx context.Context, c *Config, stream iter.Seq2[puzzle.Puzzle, error], stdout, stderr io.Writer) error {
	many := false
	if !c.Live || c.GIFFile != "" {
		many, stream = peek(stream)
	}
	if c.GIFFile != "" && many {
		return &cli.UsageError{Err: errors.New("--gif draws one puzzle, and there are more; use --gif-dir")}
	}
	var err error
	if c.GIFFile != "" {
		err = atomicfile.CheckOutput(c.GIFFile)
	}
	if c.Checkpoint != "" && err == nil {
		err = atomicfile.Check(c.Checkpoint)
	}
	if err != nil {
		return err
	}
	if c.Resume != nil {
		stream = resumed(stream, c.Resume)
		if c.Resume.Done {
			fmt.Fprintf(stderr, "the checkpoint's search, of %s, is finished: the run that saved it printed its answer; solving the puzzles after it\n", puzzle.Escape(c.Resume.ID))
		}
	}
	read := 0
	stream = counted(stream, &read)
	if c.GIFDir != "" {
		if err := os.MkdirAll(c.GIFDir, 0o755); err != nil {
			return err
		}
	}
	c.Parallelism(many)
	out := record.NewPrinter(c.Format, c.Options.Weight, stdout)
	err = Stream(ctx, c, stream, stderr, func(o Outcome) error {
		if o.Msg != "" {
			fmt.Fprintln(stderr, o.Msg)
		}
		if o.Record != nil {
			return out.Print(o.Record)
		}
		return nil
	})
	switch {
	case err != nil || read > 0:
	case c.Resume != nil:
		fmt.Fprintln(stderr, "no puzzle after the checkpoint's remains to solve")
	default:
		fmt.Fprintln(stderr, "no puzzle was read")
	}
	return err
}

// counted returns the stream, counting in *n the puzzles it yields,
// malformed ones included.
func counted(stream iter.Seq2[puzzle.Puzzle, error], n *int) iter.Seq2[puzzle.Puzzle, error] {
	return func(yield func(puzzle.Puzzle, error) bool) {
		for p, err := range stream {
			if !errors.As(err, new(ReadError)) {
				*n++
			}
			if !yield(p, err) {
				return
			}
		}
	}
}

// peek returns whether the stream holds more than one puzzle, and a
// stream that yields the same puzzles, once: it reads up to two ahead.
func peek(seq iter.Seq2[puzzle.Puzzle, error]) (many bool, all iter.Seq2[puzzle.Puzzle, error]) {
	next, stop := iter.Pull2(seq)
	type item struct {
		p   puzzle.Puzzle
		err error
	}
	var ahead []item
	for range 2 {
		if p, err, ok := next(); ok {
			ahead = append(ahead, item{p, err})
		}
	}
	return len(ahead) > 1, func(yield func(puzzle.Puzzle, error) bool) {
		defer stop() // here, where next runs: a read in progress is not raced
		for _, it := range ahead {
			if !yield(it.p, it.err) {
				return
			}
		}
		for {
			p, err, ok := next()
			if !ok || !yield(p, err) {
				return
			}
		}
	}
}

// Outcome is what solve prints of one puzzle: a message for standard
// error, if any (a malformed puzzle, an error), and the record to print,
// if any (one solved, or searched and given up). Interrupted marks a
// search that Ctrl-C or SIGTERM cut short.
type Outcome struct {
	Msg         string
	Record      *record.Record
	Interrupted bool
}

// Stream solves the stream's puzzles, hands each Outcome to emit in
// input order, prints a summary, and returns what Solve does. Only once
// emit has taken a puzzle's Outcome does the --checkpoint file say that
// the batch is past it.
func Stream(ctx context.Context, c *Config, stream iter.Seq2[puzzle.Puzzle, error], stderr io.Writer, emit func(Outcome) error) error {
	if c.Checkpoint != "" && c.Seal == nil {
		return errors.New("a checkpoint needs a key to seal it (Config.Seal)")
	}
	if c.Checkpoint != "" {
		release, err := holdCheckpoint(c.Checkpoint, c.Shared)
		if err != nil {
			return err
		}
		defer release()
	}
	past := checkpoints(c, stderr)
	// What opening the databases did, told as it happens, while the
	// stream's reader prepares a size: waiting and building in the store
	// (pdb.Opening); the rest of each preparation is loading.
	var waited, built time.Duration
	s, err := newSolver(c, stderr, func(o pdb.Opening) { waited, built = waited+o.Waiting, built+o.Building })
	if err != nil {
		return err
	}
	defer s.Close()

	t0 := time.Now()
	var sum summary
	if c.Options.Mode != solver.Constructive {
		stream = prepared(ctx, s, &c.Options, stream, func(d time.Duration) {
			sum.waiting += waited
			sum.building += built
			sum.loading += max(d-waited-built, 0)
			waited, built = 0, 0
		})
	}
	var failed error
	gifNames := map[string]bool{} // in --gif-dir, so that no id's file replaces another's
	for r, err := range s.SolveAll(ctx, stream, c.Jobs, c.Options) {
		var ie *puzzle.InputError
		var re ReadError
		msg := ""
		switch {
		case errors.As(err, &re):
			return err
		case errors.As(err, new(*search.ResumeError)):
			// The batch stops: no later search writes over the file.
			return fmt.Errorf("%s: %w; the checkpoint is left as it was", r.Puzzle.ID, err)
		case errors.As(err, &ie):
			msg = ie.Error()
		case errors.As(err, new(errRepeated)):
			msg = fmt.Sprintf("%s: %s", r.Puzzle.ID, err)
		case err != nil:
			msg = fmt.Sprintf("%s: %s", r.Puzzle.ID, cli.Explain(err))
		}
		if err != nil {
			failed = cli.ErrReported
		}
		o := Outcome{Msg: msg, Interrupted: ctx.Err() != nil && (errors.Is(err, ctx.Err()) || errors.Is(err, context.Cause(ctx)))}
		if r.Iterations != nil || r.Solved {
			o.Record = new(record.New(&r, err, c.Options))
			sum.add(o.Record)
		} else if err != nil && !o.Interrupted {
			sum.failed++ // malformed, say: one of the puzzles all the same
		}
		if err := emit(o); err != nil {
			return err
		}
		if !o.Interrupted && ie == nil {
			past(r.Puzzle, !errors.Is(err, context.DeadlineExceeded))
		}
		if err == nil && (c.GIFFile != "" || c.GIFDir != "") {
			if err := writeGIF(ctx, c, &r, gifNames); err != nil {
				failed = cli.ErrReported
				fmt.Fprintf(stderr, "%s: %s\n", r.Puzzle.ID, err)
			}
		}
	}
	sum.wall = time.Since(t0)
	sum.print(stderr)
	if ctx.Err() != nil {
		return ErrInterrupted
	}
	return failed
}

// NewSolver returns the solver of the flags, which reports its database
// builds and long searches on stderr. Its error is a *cli.UsageError.
func NewSolver(c *Config, stderr io.Writer) (*solver.Solver, error) {
	return newSolver(c, stderr, nil)
}

// newSolver is NewSolver, telling opened how long opening each
// partition's databases took (solver.Config.Opened).
func newSolver(c *Config, stderr io.Writer, opened func(pdb.Opening)) (*solver.Solver, error) {
	c.Solver.Progress, c.Solver.Log = cli.Reporter(stderr)
	c.Solver.Opened = opened
	if c.Options.ProgressEvery > 0 {
		c.perPuzzle(longSearches(stderr))
	}
	s, err := solver.New(c.Solver)
	if err != nil {
		return nil, &cli.UsageError{Err: err}
	}
	return s, nil
}

// PrintOutcomes prints n outcomes in order, and their summary, as
// Stream does; it returns cli.ErrReported if any has a message or a
// record unsolved. As the outcomes come from files that others may have
// written, their messages and errors are printed escaped (puzzle.Escape).
func PrintOutcomes(c *Config, n int, outcomes func(i int) Outcome, stdout, stderr io.Writer) error {
	out := record.NewPrinter(c.Format, c.Options.Weight, stdout)
	var sum summary
	var failed error
	for i := range n {
		o := outcomes(i)
		if o.Msg != "" {
			fmt.Fprintln(stderr, puzzle.Escape(o.Msg))
			failed = cli.ErrReported
			if o.Record == nil {
				sum.failed++
			}
		}
		if o.Record != nil {
			rec := *o.Record
			rec.Error = puzzle.Escape(rec.Error)
			if !rec.Solved {
				failed = cli.ErrReported
			}
			if err := out.Print(&rec); err != nil {
				return err
			}
			sum.add(&rec)
		}
	}
	sum.print(stderr)
	return failed
}

// prepared returns the stream with the heuristic of each size opened as
// the stream reaches it, the time spent doing so handed to opened. A
// failure is reported in full with the size's first puzzle, and stands
// for the later ones as "see above".
func prepared(ctx context.Context, s *solver.Solver, opts *solver.Options, stream iter.Seq2[puzzle.Puzzle, error], opened func(time.Duration)) iter.Seq2[puzzle.Puzzle, error] {
	return func(yield func(puzzle.Puzzle, error) bool) {
		seen := map[puzzle.Size]error{} // each size seen: nil, or why it failed
		for p, err := range stream {
			if failure, ok := seen[p.Size]; err == nil && ok {
				if failure != nil {
					err = fmt.Errorf("no heuristic (%w)", errRepeated{failure})
				}
			} else if err == nil {
				t0 := time.Now()
				err = prepare(ctx, s, p.Size, opts)
				opened(time.Since(t0))
				seen[p.Size] = err
			}
			if !yield(p, err) {
				return
			}
		}
	}
}

// prepare opens the heuristic of puzzles of the size solved with opts:
// toward a goal board, its frame's goal's (puzzle.Frame); none for
// puzzles of another size than the board's, which Solve refuses.
func prepare(ctx context.Context, s *solver.Solver, size puzzle.Size, opts *solver.Options) error {
	goal := opts.Goal
	if board := opts.GoalBoard; board != nil {
		frame, err := puzzle.NewFrame(*board)
		if err != nil || board.Size != size {
			return err
		}
		goal = frame.Goal()
	}
	return s.Prepare(ctx, size, goal)
}

// errRepeated stands for an error already reported in full.
type errRepeated struct{ err error }

func (e errRepeated) Error() string { return "see above" }
func (e errRepeated) Unwrap() error { return e.err }

// writeGIF draws the result's solution into --gif, or into --gif-dir
// under a name made of its id, numbered (-2, -3, …) if an earlier id of
// the batch took it; used holds the names taken.
func writeGIF(ctx context.Context, c *Config, r *solver.Result, used map[string]bool) error {
	path := c.GIFFile
	if path == "" {
		base := strings.Map(func(r rune) rune {
			if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.') {
				return r
			}
			return '_'
		}, r.Puzzle.ID)
		name := base + ".gif"
		for i := 2; used[name]; i++ {
			name = fmt.Sprintf("%s-%d.gif", base, i)
		}
		used[name] = true
		path = filepath.Join(c.GIFDir, name)
	}
	return atomicfile.WriteOutput(path, func(w io.Writer) error {
		return render.GIF(ctx, w, r.Puzzle, r.Moves, render.Options{Cell: c.GIFCell})
	})
}

// longSearches returns the hook that has each puzzle's search report on
// w if it runs long: a search reports nothing before its first period
// (search.Options.Progress), so quick ones print nothing.
func longSearches(w io.Writer) func(puzzle.Puzzle, *search.Options) {
	var mu sync.Mutex // SolveAll's searches report at once
	return func(p puzzle.Puzzle, o *search.Options) {
		o.Progress = func(pr search.Progress) {
			mu.Lock()
			fmt.Fprintf(w, "%s: %v\n", p.ID, pr)
			mu.Unlock()
		}
	}
}

// perPuzzle adds hook to the options' PerPuzzle, after those there.
func (c *Config) perPuzzle(hook func(puzzle.Puzzle, *search.Options)) {
	before := c.Options.PerPuzzle
	c.Options.PerPuzzle = func(p puzzle.Puzzle, o *search.Options) {
		if before != nil {
			before(p, o)
		}
		hook(p, o)
	}
}

// summary accumulates the batch's totals, in memory that does not grow
// with the batch: the median comes from a histogram.
type summary struct {
	solved, failed      int // failed counts the malformed puzzles too
	moves               int
	expanded, generated uint64
	elapsed             time.Duration
	times               histogram     // and the least and the most of them
	wall                time.Duration // the batch's, opening the databases included
	// Of wall, opening the databases: waiting for another process's
	// build, building, and loading.
	waiting, building, loading time.Duration
}

func (s *summary) add(rec *record.Record) {
	if rec.Solved {
		s.solved++
		s.moves += *rec.Length
	} else {
		s.failed++
	}
	elapsed := time.Duration(rec.Seconds * float64(time.Second))
	s.expanded += rec.Expanded
	s.generated += rec.Generated
	s.elapsed += elapsed
	s.times.add(elapsed)
}

func (s *summary) print(w io.Writer) {
	if s.solved+s.failed == 0 {
		return
	}
	rate := 0.0 // of searches too short to time, or none
	if s.elapsed > 0 {
		rate = float64(s.generated) / s.elapsed.Seconds() / 1e6
	}
	fmt.Fprintf(w, "solved %d of %d: %d moves, %d nodes generated, %d expanded, %.3f s searching (median %.4f s, max %.4f s), %.1f Mnodes/s",
		s.solved, s.solved+s.failed, s.moves, s.generated, s.expanded, s.elapsed.Seconds(),
		s.times.median().Seconds(), s.times.most.Seconds(), rate)
	if s.wall > 0 { // not a split job's merge, which knows the tasks' times only
		fmt.Fprintf(w, ", %.3f s wall (", s.wall.Seconds())
		if s.waiting > 0 {
			fmt.Fprintf(w, "%.3f s waiting for another's build; ", s.waiting.Seconds())
		}
		if s.building > 0 {
			fmt.Fprintf(w, "%.3f s building databases; ", s.building.Seconds())
		}
		fmt.Fprintf(w, "%.3f s loading)", s.loading.Seconds())
	}
	fmt.Fprintln(w)
}

// histogram counts durations in buckets 1/64 of an octave wide (about 1%),
// keyed by the top bits of their float64 form: at most 64 octaves of 64
// buckets, however many durations. It keeps the least and the most
// exactly.
type histogram struct {
	n           int
	buckets     map[uint64]int
	least, most time.Duration
}

// bucketShift keeps a float64's exponent and the top 6 bits of its
// mantissa.
const bucketShift = 52 - 6

func (h *histogram) add(d time.Duration) {
	if h.buckets == nil {
		h.buckets = map[uint64]int{}
	}
	d = max(d, 0)
	h.buckets[math.Float64bits(float64(d))>>bucketShift]++
	if h.n == 0 || d < h.least {
		h.least = d
	}
	h.most = max(h.most, d)
	h.n++
}

// median returns the middle of the bucket that holds the median, within
// about 1% of it, and within the least and the most (issue 67: a median
// of 29.9306 s above a max of 29.825 s).
func (h *histogram) median() time.Duration {
	seen := 0
	for _, b := range slices.Sorted(maps.Keys(h.buckets)) {
		if seen += h.buckets[b]; seen > h.n/2 {
			low, high := math.Float64frombits(b<<bucketShift), math.Float64frombits((b+1)<<bucketShift)
			return min(max(time.Duration((low+high)/2), h.least), h.most)
		}
	}
	return 0
}
