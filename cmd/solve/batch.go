package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
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
	for _, path := range []string{cfg.gifFile, cfg.checkpoint} {
		if err := atomicfile.Check(path); path != "" && err != nil {
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
	past := checkpoints(cfg, stderr)
	cfg.solver.Progress, cfg.solver.Log = pdbcli.Reporter(stderr)
	if cfg.opts.ProgressEvery > 0 {
		cfg.opts.Progress = longSearches(stderr)
	}
	cfg.solver.NoBuild = !pdbcli.BuiltOnFirstUse(cfg.solver.Partition)
	s, err := solver.New(cfg.solver)
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
	out := newPrinter(cfg.format, stdout)
	status := 0
	gifNames := map[string]bool{} // in --gif-dir, so that no id's file replaces another's
	for r, err := range s.SolveAll(ctx, stream, cfg.jobs, cfg.opts) {
		var ie *bitboard.InputError
		var re readError
		switch {
		case errors.As(err, &re):
			fmt.Fprintln(stderr, "solve:", err)
			return 1
		case errors.As(err, &ie):
			fmt.Fprintln(stderr, ie)
		case err != nil:
			fmt.Fprintf(stderr, "%s: %v\n", r.Puzzle.ID, err)
		}
		if err != nil {
			status = 1
		}
		if ctx.Err() == nil && r.Puzzle.ID != "" {
			past(r.Puzzle.ID)
		}
		if r.Iterations != nil || r.Solved {
			if err := out.print(&r, err, cfg); err != nil {
				fmt.Fprintln(stderr, "solve:", err)
				return 1
			}
			sum.add(&r, err)
		}
		if err == nil && (cfg.gifFile != "" || cfg.gifDir != "") {
			if err := writeGIF(cfg, &r, gifNames); err != nil {
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
func writeGIF(cfg *config, r *solver.Result, used map[string]bool) error {
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
	return atomicfile.WriteFile(path, func(w io.Writer) error {
		return render.GIF(w, start, r.Moves, render.Options{Cell: cfg.gifCell})
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

// summary accumulates the batch's totals.
type summary struct {
	solved, failed      int
	moves               int
	expanded, generated uint64
	elapsed, maxElapsed time.Duration
	times               []time.Duration
	wall                time.Duration // the batch's, loading the databases included
	loading             time.Duration // of wall, opening the heuristics
}

func (s *summary) add(r *solver.Result, err error) {
	if err == nil {
		s.solved++
		s.moves += r.Length()
	} else {
		s.failed++
	}
	s.expanded += r.Expanded
	s.generated += r.Generated
	s.elapsed += r.Elapsed
	s.maxElapsed = max(s.maxElapsed, r.Elapsed)
	s.times = append(s.times, r.Elapsed)
}

func (s *summary) print(w io.Writer) {
	if len(s.times) == 0 {
		return
	}
	fmt.Fprintf(w, "solved %d of %d: %d moves, %d nodes generated, %d expanded, %.3f s searching (median %.4f s, max %.3f s), %.1f Mnodes/s, %.3f s wall (%.3f s loading)\n",
		s.solved, s.solved+s.failed, s.moves, s.generated, s.expanded, s.elapsed.Seconds(),
		median(s.times).Seconds(), s.maxElapsed.Seconds(), float64(s.generated)/s.elapsed.Seconds()/1e6, s.wall.Seconds(), s.loading.Seconds())
}

func median(ds []time.Duration) time.Duration {
	sorted := append([]time.Duration(nil), ds...)
	slices.Sort(sorted)
	return sorted[len(sorted)/2]
}
