package main

import (
	"io"
	"os"
	"slices"

	"golang.org/x/term"
)

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
