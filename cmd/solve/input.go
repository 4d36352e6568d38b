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
		} else if set, err = data.RandomSeq(cfg.random, cfg.seed, cfg.size, cfg.batch.Options.Goal); err != nil {
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

// stdinNote returns what solve says of its standard input before it
// starts, or "": on a terminal, where it would wait without a word, how to
// give it puzzles; and where puzzles come from elsewhere (--set, --random,
// files) but some are piped in, that those are ignored.
func stdinNote(cfg *config, stdin io.Reader) string {
	f, ok := stdin.(*os.File)
	if !ok {
		return ""
	}
	from := ""
	switch {
	case cfg.set != nil:
		from = "--set " + cfg.set.Name
	case cfg.random > 0:
		from = "--random"
	case len(cfg.files) > 0:
		from = "the files named"
	case term.IsTerminal(int(f.Fd())):
		return "reading puzzles from the terminal, one a line (such as 1 2 3 4 5 6 7 8 0, 0 the blank); Ctrl-D ends them (solve --help for more)"
	default:
		return ""
	}
	if info, err := f.Stat(); err == nil && (info.Mode()&os.ModeNamedPipe != 0 || info.Mode().IsRegular() && info.Size() > 0) {
		return "the puzzles come from " + from + ": standard input is ignored"
	}
	return ""
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
