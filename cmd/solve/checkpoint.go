package main

import (
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"os"
	"sync"

	"fifteen/internal/atomicfile"
	"fifteen/search"
	"fifteen/solver"
)

// checkpointFile is what --checkpoint writes and --resume reads: the
// search under way of puzzle ID, or, once the puzzle is solved, that the
// batch is past it (Done).
type checkpointFile struct {
	ID         string             `json:"id"`
	Done       bool               `json:"done,omitempty"`
	Checkpoint *search.Checkpoint `json:"checkpoint,omitempty"`
}

// readCheckpoint reads a --resume file.
func readCheckpoint(path string) (*checkpointFile, error) {
	data, err := os.ReadFile(path)
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
// returns what the batch loop calls as each puzzle is solved: it records
// that the batch is past it.
func checkpoints(cfg *config, stderr io.Writer) (solved func(id string)) {
	var mu sync.Mutex // the last save's failure, reported once
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
	if cfg.resume != nil && !cfg.resume.Done {
		from := cfg.resume
		cfg.opts.Resume = func(p solver.Puzzle) *search.Checkpoint {
			if p.ID == from.ID {
				return from.Checkpoint
			}
			return nil
		}
	}
	if cfg.checkpoint == "" {
		return func(string) {}
	}
	cfg.opts.Checkpoint = func(p solver.Puzzle, cp *search.Checkpoint) { save(checkpointFile{ID: p.ID, Checkpoint: cp}) }
	return func(id string) { save(checkpointFile{ID: id, Done: true}) }
}

// resumed returns the stream from the puzzle of the --resume checkpoint
// on (after it, if it was solved); the puzzles before it were solved by
// the run that saved it. A stream without that puzzle ends with an error.
func resumed(stream iter.Seq2[solver.Puzzle, error], from *checkpointFile) iter.Seq2[solver.Puzzle, error] {
	return func(yield func(solver.Puzzle, error) bool) {
		found := false
		for p, err := range stream {
			if !found {
				found = err == nil && p.ID == from.ID
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
