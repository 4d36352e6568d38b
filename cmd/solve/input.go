package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"slices"

	"golang.org/x/term"

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

// terminalNote returns what solve says before it reads puzzles from the
// terminal, where it would wait without a word: how to give it puzzles;
// "" if it reads no terminal.
func terminalNote(cfg *config, stdin io.Reader) string {
	f, ok := stdin.(*os.File)
	if !ok || from(cfg) != "" || !term.IsTerminal(int(f.Fd())) {
		return ""
	}
	return "reading puzzles from the terminal, one a line (such as 1 2 3 4 5 6 7 8 0, 0 the blank); Ctrl-D ends them (solve --help for more)"
}

// ignoredNote returns what solve says where its puzzles come from
// elsewhere (--set, --random, files) while bytes wait on its standard
// input, a pipe or a file: that those are ignored; "" if none wait (an
// empty pipe, /dev/null).
func ignoredNote(cfg *config, stdin io.Reader) string {
	f, ok := stdin.(*os.File)
	if !ok || from(cfg) == "" || !waiting(f) {
		return ""
	}
	return "the puzzles come from " + from(cfg) + ": standard input is ignored"
}

// from names where the puzzles come from, "" if from standard input
// (with no files, or a file named -).
func from(cfg *config) string {
	switch {
	case cfg.set != nil:
		return "--set " + cfg.set.Name
	case cfg.random > 0:
		return "--random"
	case len(cfg.files) > 0 && !slices.Contains(cfg.files, "-"):
		return "the files named"
	}
	return ""
}

// waiting reports whether bytes wait to be read from f: a regular file
// not empty, or a pipe, FIFO or socket holding some.
func waiting(f *os.File) bool {
	info, err := f.Stat()
	switch {
	case err != nil:
		return false
	case info.Mode().IsRegular():
		return info.Size() > 0
	case info.Mode()&(os.ModeNamedPipe|os.ModeSocket) != 0:
		return pipeWaiting(f)
	}
	return false
}

// live reports whether reading r may wait for input that is still to
// come: a pipe, a FIFO, a terminal or a socket, rather than a regular file
// or what a program hands solve in memory.
func live(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && !info.Mode().IsRegular()
}
