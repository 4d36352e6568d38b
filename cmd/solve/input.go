package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"slices"

	"fifteen/cmd/internal/batch"
	"fifteen/cmd/internal/cli"
	"fifteen/data"
	"fifteen/puzzle"
	"fifteen/solver"
)

// random returns --random's puzzles: toward a goal board, those drawn
// toward its frame's goal (the same puzzles as --goal first or last would
// draw, where that is its frame's goal), taken back to it.
func random(cfg *config) (iter.Seq[puzzle.Puzzle], error) {
	board := cfg.batch.Options.GoalBoard
	if board == nil {
		return data.RandomSeq(cfg.random, cfg.seed, cfg.size, cfg.batch.Options.Goal)
	}
	frame, err := puzzle.NewFrame(*board)
	if err != nil {
		return nil, err
	}
	set, err := data.RandomSeq(cfg.random, cfg.seed, board.Size, frame.Goal())
	return func(yield func(puzzle.Puzzle) bool) {
		for p := range set {
			if !yield(frame.Unframe(p)) {
				return
			}
		}
	}, err
}

// puzzles returns the batch as a stream, read or drawn as it is solved:
// Korf's 100, random puzzles, or
// the puzzles of the files or standard input, in order, each malformed
// one with its *puzzle.InputError. The files are opened first, so that
// a missing one is reported before any work; close closes them.
func puzzles(cfg *config, stdin io.Reader) (seq iter.Seq2[puzzle.Puzzle, error], close func(), err error) {
	if cfg.set != nil || cfg.random > 0 {
		var set iter.Seq[puzzle.Puzzle]
		if cfg.set != nil {
			set = slices.Values(cfg.set.Instances)
		} else if set, err = random(cfg); err != nil {
			return nil, nil, err
		}
		return func(yield func(puzzle.Puzzle, error) bool) {
			for p := range set {
				if !yield(p, nil) {
					return
				}
			}
		}, func() {}, nil
	}
	inputs := []io.Reader{stdin}
	cfg.batch.Live = live(stdin)
	var files []*os.File
	close = func() {
		for _, f := range files {
			f.Close()
		}
	}
	if len(cfg.files) > 0 {
		inputs, cfg.batch.Live = nil, false
		for _, name := range cfg.files {
			if name == "-" { // standard input, as Unix commands read it
				inputs = append(inputs, stdin)
				cfg.batch.Live = cfg.batch.Live || live(stdin)
				continue
			}
			f, err := os.Open(name)
			if err != nil {
				close()
				return nil, nil, err
			}
			files = append(files, f)
			inputs = append(inputs, f)
			cfg.batch.Live = cfg.batch.Live || live(f)
		}
	}
	return func(yield func(puzzle.Puzzle, error) bool) {
		for i, r := range inputs {
			prefix := ""
			if len(cfg.files) > 1 {
				prefix = cfg.files[i]
			}
			pr := puzzle.NewReader(r, prefix)
			pr.MaxCells = puzzle.MaxBoardCells
			if cfg.batch.Options.Mode == solver.Constructive {
				pr.MaxCells = puzzle.MaxCells
			}
			for {
				p, err := pr.Next()
				if err == io.EOF {
					break
				}
				if ie := (*puzzle.InputError)(nil); err != nil && !errors.As(err, &ie) {
					if len(cfg.files) > 0 {
						err = fmt.Errorf("%s: %w", cfg.files[i], err)
					}
					yield(puzzle.Puzzle{}, batch.ReadError{Err: err})
					return
				}
				if err == nil && cfg.goalSize != (puzzle.Size{}) && p.Size != cfg.goalSize {
					err = &puzzle.InputError{ID: p.ID, Reason: fmt.Sprintf("a %v puzzle for a %v goal", p.Size, cfg.goalSize)}
				}
				if !yield(p, err) {
					return
				}
			}
		}
	}, close, nil
}

// printPuzzles prints the puzzles as they are read, one a line that reads
// back as the same puzzle with the same id (puzzle.Puzzle.Line), and
// reports the malformed ones.
func printPuzzles(stream iter.Seq2[puzzle.Puzzle, error], stdout, stderr io.Writer) error {
	var failed error
	w := bufio.NewWriter(stdout)
	for p, err := range stream {
		if errors.As(err, new(batch.ReadError)) {
			failed = err
			break // the stream's last
		}
		if err != nil {
			failed = cli.ErrReported
			fmt.Fprintln(stderr, err)
			continue
		}
		fmt.Fprintln(w, p.Line())
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return failed
}
