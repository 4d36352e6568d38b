package main

import (
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"slices"
	"sync"

	"fifteen/internal/atomicfile"
	"fifteen/search"
	"fifteen/solver"
)

// checkpointFile is what --checkpoint writes and --resume reads: the
// search under way of a puzzle, or, once the puzzle is solved, that the
// batch is past it (Done). The puzzle is the input's Occurrence-th (from
// 0) of those with its id and start, so that puzzles that share a label
// are told apart.
type checkpointFile struct {
	ID         string             `json:"id"`
	Start      []int              `json:"start,omitempty"`
	Occurrence int                `json:"occurrence,omitempty"`
	Done       bool               `json:"done,omitempty"`
	Checkpoint *search.Checkpoint `json:"checkpoint,omitempty"`
}

// is reports whether the file is of p, the occurrence-th of its id and
// start. A file that names no start (of an earlier version) is of the
// first puzzle with its id.
func (f *checkpointFile) is(p solver.Puzzle, occurrence int) bool {
	return p.ID == f.ID && (f.Start == nil || slices.Equal(p.Tiles, f.Start) && occurrence == f.Occurrence)
}

// occurrences counts the puzzles of a batch by id and start, in input
// order.
type occurrences map[string]int

// next returns how many puzzles with p's id and start came before p, and
// counts p.
func (o occurrences) next(p solver.Puzzle) int {
	k := fmt.Sprint(p.ID, "\x00", p.Tiles)
	n := o[k]
	o[k]++
	return n
}

// readCheckpoint reads a --resume file.
func readCheckpoint(path string) (*checkpointFile, error) {
	data, err := atomicfile.ReadFile(path, maxState)
	if err != nil {
		return nil, err
	}
	var f checkpointFile
	if err := json.Unmarshal(data, &f); err != nil || f.ID == "" || !f.Done && f.Checkpoint == nil {
		return nil, fmt.Errorf("%s is not a checkpoint of solve --checkpoint (%v)", path, err)
	}
	return &f, nil
}

// checkpoints sets up --checkpoint and --resume on the options, and
// returns what the batch loop calls as each well-formed puzzle is past,
// in input order: it records that the batch is past it. The searches
// start in input order too, one at a time (--checkpoint needs --jobs 1),
// and each one's start, when it asks for the checkpoint to resume from,
// tells which occurrence of its puzzle it searches.
func checkpoints(cfg *config, stderr io.Writer) (past func(solver.Puzzle)) {
	var mu sync.Mutex // the last save's failure, reported once; the search under way
	var failed error
	save := func(f checkpointFile) {
		err := atomicfile.WriteFile(cfg.checkpoint, func(w io.Writer) error {
			return json.NewEncoder(w).Encode(f)
		})
		mu.Lock()
		defer mu.Unlock()
		if err != nil && failed == nil {
			fmt.Fprintln(stderr, "solve: saving the checkpoint:", err)
		}
		failed = err
	}
	if cfg.checkpoint == "" && (cfg.resume == nil || cfg.resume.Done) {
		return func(solver.Puzzle) {}
	}
	started, searching := occurrences{}, 0
	cfg.opts.Resume = func(p solver.Puzzle) *search.Checkpoint {
		mu.Lock()
		defer mu.Unlock()
		searching = started.next(p)
		if from := cfg.resume; from != nil && !from.Done && from.is(p, searching) {
			return from.Checkpoint
		}
		return nil
	}
	if cfg.checkpoint == "" {
		return func(solver.Puzzle) {}
	}
	cfg.opts.Checkpoint = func(p solver.Puzzle, cp *search.Checkpoint) {
		mu.Lock()
		n := searching
		mu.Unlock()
		save(checkpointFile{ID: p.ID, Start: p.Tiles, Occurrence: n, Checkpoint: cp})
	}
	passed := occurrences{}
	return func(p solver.Puzzle) {
		save(checkpointFile{ID: p.ID, Start: p.Tiles, Occurrence: passed.next(p), Done: true})
	}
}

// resumed returns the stream from the puzzle of the --resume checkpoint
// on (after it, if it was solved); the puzzles before it were solved by
// the run that saved it. A stream without that puzzle ends with an error.
func resumed(stream iter.Seq2[solver.Puzzle, error], from *checkpointFile) iter.Seq2[solver.Puzzle, error] {
	return func(yield func(solver.Puzzle, error) bool) {
		found := false
		seen := occurrences{}
		for p, err := range stream {
			if !found {
				found = err == nil && from.is(p, seen.next(p))
				if !found || from.Done {
					continue
				}
			}
			if !yield(p, err) {
				return
			}
		}
		if !found {
			yield(solver.Puzzle{}, readError{fmt.Errorf("the checkpoint's puzzle %s is not among the puzzles to solve", from.ID)})
		}
	}
}
