package batch

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"
	"sync"

	"fifteen/internal/atomicfile"
	"fifteen/puzzle"
	"fifteen/search"
)

// Mark names a puzzle of the input: its label, its start, and which of
// the puzzles with both it is (from 0), so that puzzles that share a
// label are told apart.
type Mark struct {
	ID         string `json:"id"`
	Start      []int  `json:"start,omitempty"`
	Occurrence int    `json:"occurrence,omitempty"`
}

// is reports whether the mark is of p, the occurrence-th of its id and
// start. A mark that names no start (of an earlier version) is of the
// first puzzle with its id.
func (m *Mark) is(p puzzle.Puzzle, occurrence int) bool {
	return p.ID == m.ID && (m.Start == nil || slices.Equal(p.Tiles, m.Start) && occurrence == m.Occurrence)
}

// CheckpointFile is what --checkpoint writes and --resume reads: the
// search under way of a puzzle, or, once the batch is past a puzzle
// (Done), that puzzle.
type CheckpointFile struct {
	Mark                          // the puzzle
	Done       bool               `json:"done,omitempty"`
	Checkpoint *search.Checkpoint `json:"checkpoint,omitempty"`
	// Version is 2 in files that say which answers were written: in a
	// file of a search, Written is the last puzzle whose answer was, nil
	// if none (the search may run ahead of the answers). A file without a
	// version skips every puzzle before its search's.
	Version int   `json:"version,omitempty"`
	Written *Mark `json:"written,omitempty"`
}

// checkpointVersion is CheckpointFile.Version.
const checkpointVersion = 2

// occurrences counts the puzzles of a batch by id and start, in input
// order.
type occurrences map[string]int

// next returns how many puzzles with p's id and start came before p, and
// counts p.
func (o occurrences) next(p puzzle.Puzzle) int {
	k := fmt.Sprint(p.ID, "\x00", p.Tiles)
	n := o[k]
	o[k]++
	return n
}

// MaxState bounds the size of a state file that a batch, or a split
// job, reads back: checkpoints, and a split job's own files.
const MaxState = 1 << 28

// ReadCheckpoint reads a --resume file.
func ReadCheckpoint(path string) (*CheckpointFile, error) {
	data, err := atomicfile.ReadFile(path, MaxState)
	if err != nil {
		return nil, err
	}
	var f CheckpointFile
	err = json.Unmarshal(data, &f)
	switch {
	case err == nil && f.ID == "":
		err = errors.New("it names no puzzle")
	case err == nil && !f.Done && f.Checkpoint == nil:
		err = errors.New("it holds no search")
	}
	if err != nil {
		return nil, fmt.Errorf("%s is not a checkpoint of solve --checkpoint: %v", path, err)
	}
	return &f, nil
}

// checkpoints sets up --checkpoint and --resume on the options, and
// returns what the batch loop calls as each well-formed puzzle is past,
// in input order: it records that the batch is past it. The searches
// start in input order too, one at a time (--checkpoint needs --jobs 1),
// and each one's start, when it asks for the checkpoint to resume from,
// tells which occurrence of its puzzle it searches.
func checkpoints(c *Config, stderr io.Writer) (past func(puzzle.Puzzle)) {
	var mu sync.Mutex // the last save's failure, reported once; the search under way
	var failed error
	save := func(f CheckpointFile) {
		write := atomicfile.WriteFile
		if c.Shared {
			write = atomicfile.WriteShared
		}
		err := write(c.Checkpoint, func(w io.Writer) error {
			return json.NewEncoder(w).Encode(f)
		})
		mu.Lock()
		defer mu.Unlock()
		if err != nil && failed == nil {
			fmt.Fprintf(stderr, "%s: saving the checkpoint: %v\n", f.ID, err)
		}
		failed = err
	}
	if c.Checkpoint == "" && (c.Resume == nil || c.Resume.Done) {
		return func(puzzle.Puzzle) {}
	}
	started, searching := occurrences{}, 0
	var written *Mark // the last puzzle whose answer is written
	c.perPuzzle(func(p puzzle.Puzzle, o *search.Options) {
		mu.Lock()
		defer mu.Unlock()
		searching = started.next(p)
		if from := c.Resume; from != nil && !from.Done && from.Mark.is(p, searching) {
			o.Resume = from.Checkpoint
		}
		if c.Checkpoint == "" {
			return
		}
		at := searching
		o.Checkpoint = func(cp *search.Checkpoint) {
			mu.Lock()
			f := CheckpointFile{Mark: Mark{p.ID, p.Tiles, at}, Checkpoint: cp, Version: checkpointVersion, Written: written}
			mu.Unlock()
			save(f)
		}
	})
	if c.Checkpoint == "" {
		return func(puzzle.Puzzle) {}
	}
	passed := occurrences{}
	return func(p puzzle.Puzzle) {
		m := Mark{p.ID, p.Tiles, passed.next(p)}
		mu.Lock()
		written = &m
		mu.Unlock()
		save(CheckpointFile{Mark: m, Done: true, Version: checkpointVersion})
	}
}

// resumed returns the stream from the first puzzle whose answer the run
// that saved the --resume file did not write on: after its Done puzzle,
// or its Written one, or, in a file without a version, from its search's
// puzzle. A stream without that puzzle ends with an error.
func resumed(stream iter.Seq2[puzzle.Puzzle, error], from *CheckpointFile) iter.Seq2[puzzle.Puzzle, error] {
	past, inclusive := &from.Mark, from.Done // the last puzzle skipped, or the first solved
	if !from.Done && from.Version >= checkpointVersion {
		past, inclusive = from.Written, true
	}
	return func(yield func(puzzle.Puzzle, error) bool) {
		found := past == nil
		seen := occurrences{}
		for p, err := range stream {
			if !found {
				found = err == nil && past.is(p, seen.next(p))
				if !found || inclusive {
					continue
				}
			}
			if !yield(p, err) {
				return
			}
		}
		if !found {
			yield(puzzle.Puzzle{}, ReadError{fmt.Errorf("the checkpoint's puzzle %s is not among the puzzles to solve", past.ID)})
		}
	}
}
