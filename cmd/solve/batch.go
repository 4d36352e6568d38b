package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
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
)

// outcome is what solving one item gave.
type outcome struct {
	item
	res       search.Result
	tiles     []int // the tile moved at each step
	started   bool
	heuristic string // the heuristic's name, once it searched
}

// solveAll solves the batch, prints each outcome in input order and a
// summary, and returns the exit status.
func solveAll(ctx context.Context, cfg *config, stdin io.Reader, stdout, stderr io.Writer) int {
	items, err := readItems(cfg, stdin)
	if err != nil {
		fmt.Fprintln(stderr, "solve:", err)
		return 1
	}
	if cfg.printOnly {
		return printItems(items, stdout, stderr)
	}
	if cfg.gifFile != "" && len(items) != 1 {
		fmt.Fprintf(stderr, "solve: --gif draws one puzzle, and there are %d; use --gif-dir\n", len(items))
		return 2
	}
	if cfg.gifDir != "" {
		if err := os.MkdirAll(cfg.gifDir, 0o755); err != nil {
			fmt.Fprintln(stderr, "solve:", err)
			return 1
		}
	}
	cfg.parallelism(len(items))
	heuristics := &heuristicSet{cfg: cfg, stderr: stderr, bySize: map[bitboard.Size]*search.Heuristic{}, failed: map[bitboard.Size]error{}}

	done := make([]chan outcome, len(items))
	for i := range done {
		done[i] = make(chan outcome, 1)
	}
	t0 := time.Now()
	var next sync.Mutex
	nextItem := 0
	for range min(cfg.jobs, len(items)) {
		go func() {
			for {
				next.Lock()
				i := nextItem
				nextItem++
				next.Unlock()
				if i >= len(items) {
					return
				}
				done[i] <- solveItem(ctx, cfg, heuristics, items[i])
			}
		}()
	}

	out := newPrinter(cfg.format, stdout)
	var sum summary
	status := 0
	for i := range items {
		o := <-done[i]
		if !o.started {
			continue // interrupted before its turn
		}
		if ie := (*bitboard.InputError)(nil); errors.As(o.err, &ie) {
			status = 1
			fmt.Fprintln(stderr, ie)
		} else if o.err != nil {
			status = 1
			fmt.Fprintf(stderr, "%s: %v\n", o.puzzle.ID, o.err)
		}
		if o.res.Iterations != nil {
			if err := out.print(&o, cfg); err != nil {
				fmt.Fprintln(stderr, "solve:", err)
				return 1
			}
			sum.add(&o)
		}
		if o.err == nil && (cfg.gifFile != "" || cfg.gifDir != "") {
			if err := writeGIF(cfg, &o); err != nil {
				status = 1
				fmt.Fprintf(stderr, "%s: %v\n", o.puzzle.ID, err)
			}
		}
	}
	sum.wall, sum.loading = time.Since(t0), heuristics.making
	sum.print(stderr)
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "solve: interrupted")
		return 1
	}
	return status
}

// printItems prints the puzzles in the line format, labelled with their
// ids, and reports the malformed ones.
func printItems(items []item, stdout, stderr io.Writer) int {
	status := 0
	w := bufio.NewWriter(stdout)
	for _, it := range items {
		if it.err != nil {
			status = 1
			fmt.Fprintln(stderr, it.err)
			continue
		}
		fmt.Fprintf(w, "%s: %s\n", it.puzzle.ID, joinTiles(it.puzzle.Tiles))
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

// solveItem solves one puzzle under its time limit, checks the answer by
// replaying it, and labels the work for CPU profiles.
func solveItem(ctx context.Context, cfg *config, heuristics *heuristicSet, it item) outcome {
	o := outcome{item: it}
	if it.err != nil || ctx.Err() != nil {
		o.started = it.err != nil
		return o
	}
	o.started = true
	if cfg.constructive {
		o.heuristic = "constructive"
		t0 := time.Now()
		moves, err := construct.Solve(grid(it.puzzle), cfg.goal)
		o.res = search.Result{Moves: moves, Solved: err == nil, Elapsed: time.Since(t0), Iterations: []search.Iteration{}}
		if o.err = err; err == nil {
			o.err = o.check(cfg)
		}
		return o
	}
	h, err := heuristics.get(it.puzzle.Board.Size(), cfg.goal)
	if err != nil {
		o.err = err
		return o
	}
	o.heuristic = h.Name()
	if cfg.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.timeout)
		defer cancel()
	}
	opts := search.Options{Threads: cfg.threads, PruneDepth: cfg.pruneDepth, Order: cfg.order, Weight: cfg.weight}
	pprof.Do(ctx, pprof.Labels("puzzle", it.puzzle.ID), func(ctx context.Context) {
		if cfg.greedy {
			o.res, o.err = search.Greedy(ctx, it.puzzle.Board, cfg.goal, h)
		} else {
			o.res, o.err = search.Solve(ctx, it.puzzle.Board, cfg.goal, h, opts)
		}
	})
	switch {
	case errors.Is(o.err, context.DeadlineExceeded):
		o.err = fmt.Errorf("timed out after %v at bound %d", cfg.timeout, lastBound(&o.res))
	case errors.Is(o.err, context.Canceled):
		o.err = fmt.Errorf("interrupted at bound %d", lastBound(&o.res))
	case o.err == nil:
		o.err = o.check(cfg)
	}
	return o
}

// check replays the outcome's solution and compares its length with the
// known optimum: equal, or for the modes that are not optimal, no
// shorter, and within the weight's bound.
func (o *outcome) check(cfg *config) error {
	var err error
	if o.tiles, err = replay(o.puzzle, cfg.goal, o.res.Moves); err != nil || o.optimal == 0 {
		return err
	}
	length := o.res.Length()
	switch {
	case length < o.optimal || !cfg.optimal() && cfg.weight > 1 && float64(length) > cfg.weight*float64(o.optimal):
		return fmt.Errorf("internal error: length %d, the optimum is known to be %d", length, o.optimal)
	case cfg.optimal() && length != o.optimal:
		return fmt.Errorf("internal error: length %d, but the optimum is known to be %d", length, o.optimal)
	}
	return nil
}

// writeGIF draws the outcome's solution into --gif, or into --gif-dir
// under a name made of its id.
func writeGIF(cfg *config, o *outcome) error {
	path := cfg.gifFile
	if path == "" {
		name := strings.Map(func(r rune) rune {
			if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.') {
				return r
			}
			return '_'
		}, o.puzzle.ID)
		path = filepath.Join(cfg.gifDir, name+".gif")
	}
	if o.puzzle.Size.Cells() > bitboard.MaxCells {
		return fmt.Errorf("the GIFs draw boards of up to %d cells", bitboard.MaxCells)
	}
	return atomicfile.WriteFile(path, func(w io.Writer) error {
		return render.GIF(w, o.puzzle.Board, o.res.Moves, render.Options{Cell: cfg.gifCell})
	})
}

func lastBound(r *search.Result) int {
	if len(r.Iterations) == 0 {
		return r.H0
	}
	return r.Iterations[len(r.Iterations)-1].Bound
}

// replay plays the moves on the puzzle's tiles (any size), returns the
// tiles they slide, and checks that they end at the goal.
func replay(p bitboard.Puzzle, goal bitboard.Goal, moves []bitboard.Move) ([]int, error) {
	end, slid, err := grid(p).Play(moves)
	if err != nil {
		return nil, fmt.Errorf("internal error: %v", err)
	}
	if !slices.Equal(end.Tiles, construct.Solved(p.Size.Rows, p.Size.Cols, goal).Tiles) {
		return nil, errors.New("internal error: the solution does not reach the goal")
	}
	return slid, nil
}

// grid returns the puzzle as a grid of any size.
func grid(p bitboard.Puzzle) construct.Grid {
	return construct.Grid{Rows: p.Size.Rows, Cols: p.Size.Cols, Tiles: p.Tiles}
}

// heuristicSet makes each size's heuristic once and shares it.
type heuristicSet struct {
	cfg    *config
	stderr io.Writer
	mu     sync.Mutex
	bySize map[bitboard.Size]*search.Heuristic
	failed map[bitboard.Size]error // reported once, not retried per puzzle
	making time.Duration           // spent making them: building, loading
}

func (s *heuristicSet) get(size bitboard.Size, goal bitboard.Goal) (*search.Heuristic, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h := s.bySize[size]; h != nil {
		return h, nil
	}
	if err, ok := s.failed[size]; ok {
		return nil, fmt.Errorf("no heuristic (%w)", errRepeated{err})
	}
	var h *search.Heuristic
	var err error
	defer func(t0 time.Time) { s.making += time.Since(t0) }(time.Now())
	if s.cfg.heuristic != "pdb" {
		h, err = search.Classic(s.cfg.heuristic, size, goal)
	} else {
		h, err = pdbcli.Heuristic(s.stderr, s.cfg.pdbDir, s.cfg.partition, size, !s.cfg.noReflect)
	}
	if err != nil {
		s.failed[size] = err
		return nil, err
	}
	s.bySize[size] = h
	return h, nil
}

// errRepeated stands for an error already reported in full.
type errRepeated struct{ err error }

func (e errRepeated) Error() string { return "see above" }
func (e errRepeated) Unwrap() error { return e.err }

// summary accumulates the batch's totals.
type summary struct {
	solved, failed      int
	moves               int
	expanded, generated uint64
	elapsed, maxElapsed time.Duration
	times               []time.Duration
	wall                time.Duration // the batch's, loading the databases included
	loading             time.Duration // of wall, making the heuristics
}

func (s *summary) add(o *outcome) {
	if o.err == nil {
		s.solved++
		s.moves += o.res.Length()
	} else {
		s.failed++
	}
	s.expanded += o.res.Expanded
	s.generated += o.res.Generated
	s.elapsed += o.res.Elapsed
	s.maxElapsed = max(s.maxElapsed, o.res.Elapsed)
	s.times = append(s.times, o.res.Elapsed)
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
