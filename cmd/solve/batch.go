package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"fifteen/bitboard"
	"fifteen/construct"
	"fifteen/internal/atomicfile"
	"fifteen/internal/pdbcli"
	"fifteen/internal/record"
	"fifteen/render"
	"fifteen/search"
	"fifteen/solver"
)

// solveAll solves the batch, prints each result in input order as it
// comes and a summary, and returns the exit status.
func solveAll(ctx context.Context, cfg *config, stdin io.Reader, stdout, stderr io.Writer) int {
	stream, closeInput, err := puzzles(cfg, stdin)
	if err != nil {
		fmt.Fprintln(stderr, "solve:", err)
		return 1
	}
	defer closeInput()
	if cfg.printOnly {
		return printPuzzles(stream, stdout, stderr)
	}
	many, stream := peek(stream)
	if cfg.gifFile != "" && many {
		fmt.Fprintln(stderr, "solve: --gif draws one puzzle, and there are more; use --gif-dir")
		return 2
	}
	for path, check := range map[string]func(string) error{cfg.gifFile: atomicfile.CheckOutput, cfg.checkpoint: atomicfile.Check} {
		if err := check(path); path != "" && err != nil {
			fmt.Fprintln(stderr, "solve:", err)
			return 1
		}
	}
	if cfg.resume != nil {
		stream = resumed(stream, cfg.resume)
	}
	if cfg.gifDir != "" {
		if err := os.MkdirAll(cfg.gifDir, 0o755); err != nil {
			fmt.Fprintln(stderr, "solve:", err)
			return 1
		}
	}
	cfg.parallelism(many)
	out := newPrinter(cfg.format, stdout)
	return solveStream(ctx, cfg, stream, stderr, func(o outcome) error {
		if o.msg != "" {
			fmt.Fprintln(stderr, o.msg)
		}
		if o.rec != nil {
			return out.print(o.rec, cfg)
		}
		return nil
	})
}

// outcome is what solve prints of one puzzle: a message for standard
// error, if any (a malformed puzzle, an error), and the record to print,
// if any (one solved, or searched and given up). interrupted marks a
// search that Ctrl-C or SIGTERM cut short.
type outcome struct {
	msg         string
	rec         *record.Record
	interrupted bool
}

// solveStream solves the stream's puzzles, hands each outcome to emit in
// input order, prints a summary, and returns the exit status. Only once
// emit has taken a puzzle's outcome does the --checkpoint file say that
// the batch is past it.
func solveStream(ctx context.Context, cfg *config, stream iter.Seq2[solver.Puzzle, error], stderr io.Writer, emit func(outcome) error) int {
	past := checkpoints(cfg, stderr)
	s, err := newSolver(cfg, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "solve:", err)
		return 2
	}
	defer s.Close()

	t0 := time.Now()
	var sum summary
	if cfg.opts.Mode != solver.Human {
		stream = prepared(ctx, s, cfg.opts.Goal, stream, &sum.loading)
	}
	status := 0
	gifNames := map[string]bool{} // in --gif-dir, so that no id's file replaces another's
	for r, err := range s.SolveAll(ctx, stream, cfg.jobs, cfg.opts) {
		var ie *bitboard.InputError
		var re readError
		msg := ""
		switch {
		case errors.As(err, &re):
			fmt.Fprintln(stderr, "solve:", err)
			return 1
		case errors.As(err, &ie):
			msg = ie.Error()
		case err != nil:
			msg = fmt.Sprintf("%s: %v", r.Puzzle.ID, err)
		}
		if err != nil {
			status = 1
		}
		o := outcome{msg: msg, interrupted: ctx.Err() != nil && (errors.Is(err, ctx.Err()) || errors.Is(err, context.Cause(ctx)))}
		if r.Iterations != nil || r.Solved {
			o.rec = ptr(record.New(&r, err, cfg.opts))
			sum.add(o.rec)
		}
		if err := emit(o); err != nil {
			fmt.Fprintln(stderr, "solve:", err)
			return 1
		}
		if !o.interrupted && ie == nil {
			past(r.Puzzle)
		}
		if err == nil && (cfg.gifFile != "" || cfg.gifDir != "") {
			if err := writeGIF(ctx, cfg, &r, gifNames); err != nil {
				status = 1
				fmt.Fprintf(stderr, "%s: %v\n", r.Puzzle.ID, err)
			}
		}
	}
	sum.wall = time.Since(t0)
	sum.print(stderr)
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "solve: interrupted")
		return 1
	}
	return status
}

func ptr[T any](v T) *T { return &v }

// newSolver returns the solver of the flags, which reports its database
// builds and long searches on stderr.
func newSolver(cfg *config, stderr io.Writer) (*solver.Solver, error) {
	cfg.solver.Progress, cfg.solver.Log = pdbcli.Reporter(stderr)
	if cfg.opts.ProgressEvery > 0 {
		cfg.opts.Progress = longSearches(stderr)
	}
	cfg.solver.NoBuild = !pdbcli.BuiltOnFirstUse(cfg.solver.Partition)
	return solver.New(cfg.solver)
}

// printOutcomes prints n outcomes in order, and their summary, as
// solveStream does, and returns the exit status.
func printOutcomes(cfg *config, n int, outcomes func(i int) outcome, stdout, stderr io.Writer) int {
	out := newPrinter(cfg.format, stdout)
	var sum summary
	status := 0
	for i := range n {
		o := outcomes(i)
		if o.msg != "" {
			fmt.Fprintln(stderr, o.msg)
			status = 1
		}
		if o.rec != nil {
			if err := out.print(o.rec, cfg); err != nil {
				fmt.Fprintln(stderr, "solve:", err)
				return 1
			}
			sum.add(o.rec)
		}
	}
	sum.print(stderr)
	return status
}

// prepared returns the stream with the heuristic of each size opened as
// the stream reaches it, the time spent doing so added to loading. A
// failure is reported in full with the size's first puzzle, and stands
// for the later ones as "see above".
func prepared(ctx context.Context, s *solver.Solver, goal bitboard.Goal, stream iter.Seq2[solver.Puzzle, error], loading *time.Duration) iter.Seq2[solver.Puzzle, error] {
	return func(yield func(solver.Puzzle, error) bool) {
		opened := map[bitboard.Size]error{} // each size seen: nil, or why it failed
		for p, err := range stream {
			if failure, seen := opened[p.Size]; err == nil && seen {
				if failure != nil {
					err = fmt.Errorf("no heuristic (%w)", errRepeated{failure})
				}
			} else if err == nil {
				t0 := time.Now()
				err = s.Prepare(ctx, p.Size, goal)
				*loading += time.Since(t0)
				opened[p.Size] = err
			}
			if !yield(p, err) {
				return
			}
		}
	}
}

// errRepeated stands for an error already reported in full.
type errRepeated struct{ err error }

func (e errRepeated) Error() string { return "see above" }
func (e errRepeated) Unwrap() error { return e.err }

// printPuzzles prints the puzzles in the line format, labelled with their
// ids, as they are read, and reports the malformed ones.
func printPuzzles(stream iter.Seq2[solver.Puzzle, error], stdout, stderr io.Writer) int {
	status := 0
	w := bufio.NewWriter(stdout)
	for p, err := range stream {
		if err != nil {
			status = 1
			if errors.As(err, new(readError)) {
				err = fmt.Errorf("solve: %w", err)
			}
			fmt.Fprintln(stderr, err)
			continue
		}
		fmt.Fprintf(w, "%s: %s\n", p.ID, joinTiles(p.Tiles))
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(stderr, "solve:", err)
		return 1
	}
	return status
}

func joinTiles(tiles []int) string {
	s := make([]string, len(tiles))
	for i, t := range tiles {
		s[i] = strconv.Itoa(t)
	}
	return strings.Join(s, " ")
}

// writeGIF draws the result's solution into --gif, or into --gif-dir
// under a name made of its id, numbered (-2, -3, …) if an earlier id of
// the batch took it; used holds the names taken.
func writeGIF(ctx context.Context, cfg *config, r *solver.Result, used map[string]bool) error {
	path := cfg.gifFile
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
		path = filepath.Join(cfg.gifDir, name)
	}
	start := construct.Grid{Rows: r.Puzzle.Size.Rows, Cols: r.Puzzle.Size.Cols, Tiles: r.Puzzle.Tiles}
	return atomicfile.WriteOutput(path, func(w io.Writer) error {
		return render.GIF(ctx, w, start, r.Moves, render.Options{Cell: cfg.gifCell})
	})
}

// longSearches returns the progress callback that reports on w the
// searches that run long: a search reports nothing before its first
// period (search.Options.Progress), so quick ones print nothing.
func longSearches(w io.Writer) func(solver.Puzzle, search.Progress) {
	var mu sync.Mutex // SolveAll's searches report at once
	return func(p solver.Puzzle, pr search.Progress) {
		mu.Lock()
		fmt.Fprintf(w, "%s: %v\n", p.ID, pr)
		mu.Unlock()
	}
}

// summary accumulates the batch's totals, in memory that does not grow
// with the batch: the median comes from a histogram.
type summary struct {
	solved, failed      int
	moves               int
	expanded, generated uint64
	elapsed, maxElapsed time.Duration
	times               histogram
	wall                time.Duration // the batch's, loading the databases included
	loading             time.Duration // of wall, opening the heuristics
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
	s.maxElapsed = max(s.maxElapsed, elapsed)
	s.times.add(elapsed)
}

func (s *summary) print(w io.Writer) {
	if s.times.n == 0 {
		return
	}
	fmt.Fprintf(w, "solved %d of %d: %d moves, %d nodes generated, %d expanded, %.3f s searching (median %.4f s, max %.3f s), %.1f Mnodes/s",
		s.solved, s.solved+s.failed, s.moves, s.generated, s.expanded, s.elapsed.Seconds(),
		s.times.median().Seconds(), s.maxElapsed.Seconds(), float64(s.generated)/s.elapsed.Seconds()/1e6)
	if s.wall > 0 { // not a split job's merge, which knows the tasks' times only
		fmt.Fprintf(w, ", %.3f s wall (%.3f s loading)", s.wall.Seconds(), s.loading.Seconds())
	}
	fmt.Fprintln(w)
}

// histogram counts durations in buckets 1/64 of an octave wide (about 1%),
// keyed by the top bits of their float64 form: at most 64 octaves of 64
// buckets, however many durations.
type histogram struct {
	n       int
	buckets map[uint64]int
}

// bucketShift keeps a float64's exponent and the top 6 bits of its
// mantissa.
const bucketShift = 52 - 6

func (h *histogram) add(d time.Duration) {
	if h.buckets == nil {
		h.buckets = map[uint64]int{}
	}
	h.buckets[math.Float64bits(float64(max(d, 0)))>>bucketShift]++
	h.n++
}

// median returns the middle of the bucket that holds the median, within
// about 1% of it.
func (h *histogram) median() time.Duration {
	seen := 0
	for _, b := range slices.Sorted(maps.Keys(h.buckets)) {
		if seen += h.buckets[b]; seen > h.n/2 {
			low, high := math.Float64frombits(b<<bucketShift), math.Float64frombits((b+1)<<bucketShift)
			return time.Duration((low + high) / 2)
		}
	}
	return 0
}
