package batch

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"path/filepath"
	"slices"
	"sync"

	"fifteen/internal/atomicfile"
	"fifteen/internal/flock"
	"fifteen/internal/seal"
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
// start.
func (m *Mark) is(p puzzle.Puzzle, occurrence int) bool {
	return p.ID == m.ID && slices.Equal(p.Tiles, m.Start) && occurrence == m.Occurrence
}

// CheckpointFile is what --checkpoint writes and --resume reads: the
// search under way of a puzzle, or, once the batch is past a puzzle
// (Done), that puzzle.
type CheckpointFile struct {
	Mark                          // the puzzle
	Done       bool               `json:"done,omitempty"`
	Checkpoint *search.Checkpoint `json:"checkpoint,omitempty"`
	// Version is checkpointVersion. In a file of a search, Written is the
	// last puzzle whose answer was written, nil if none (the search may
	// run ahead of the answers).
	Version int   `json:"version"`
	Written *Mark `json:"written,omitempty"`
}

// checkpointVersion is CheckpointFile.Version: 3 since the files are
// sealed (package seal); 2, unsealed, said which answers were written,
// and a file without a version did not.
const checkpointVersion = 3

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

// MaxState bounds the size of a state file that a split job reads back:
// its own files, a task's outcomes and plans. A checkpoint may be larger
// (search.MaxCheckpointSize).
const MaxState = 1 << 28

// ReadCheckpoint reads a --resume file of a search with opts: one no
// larger than such a search writes (search.MaxCheckpointSize), sealed
// under key as it was written (issue 76: a file edited by hand is refused
// as a whole, whatever field was changed).
func ReadCheckpoint(path string, opts search.Options, key *seal.Key) (*CheckpointFile, error) {
	data, err := atomicfile.ReadFile(path, search.MaxCheckpointSize(opts))
	if err != nil {
		return nil, err
	}
	var f CheckpointFile
	err = key.Unmarshal(data, &f)
	switch {
	case errors.Is(err, seal.ErrUnsealed):
		return nil, fmt.Errorf("%s is refused, and left as it was: %v; resume it with the version of solve that wrote it, or start the search again", path, err)
	case errors.Is(err, seal.ErrBroken):
		return nil, fmt.Errorf("%s is refused, and left as it was: %v; a checkpoint is read back as solve wrote it, or not at all", path, err)
	case err == nil && f.Version != checkpointVersion:
		err = fmt.Errorf("its version is %d, not %d", f.Version, checkpointVersion)
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

// Among reports whether the file's puzzle is among the puzzles, in
// order.
func (f *CheckpointFile) Among(puzzles iter.Seq[puzzle.Puzzle]) bool {
	seen := occurrences{}
	for p := range puzzles {
		if f.Mark.is(p, seen.next(p)) {
			return true
		}
	}
	return false
}

// checkpoints sets up --checkpoint and --resume on the options, and
// returns what the batch loop calls as each well-formed puzzle is past,
// in input order, once its answer is written: the checkpoint records
// that the batch is past it if its search is over (searched: not timed
// out). The searches start in input order too, one at a time
// (--checkpoint needs --jobs 1), and each one's start, when it asks for
// the checkpoint to resume from, tells which occurrence of its puzzle it
// searches.
//
// Until the search resumed has taken its checkpoint (saved one of its
// own, or ended), the file is the user's saved search, and nothing is
// written over it: not by the puzzles before it, whose answers the run
// that saved it did not write, and not if the resume is refused (issue
// 66: a refused resume marked the file done, and the search was lost).
func checkpoints(c *Config, stderr io.Writer) (past func(p puzzle.Puzzle, searched bool)) {
	from := c.Resume  // the search to resume, if any; read-only
	var mu sync.Mutex // guards the fields below; the saves are serialized by the batch
	var (
		failed  error                       // the last save's, reported once
		written *Mark                       // the last puzzle whose answer is written
		pending = from != nil && !from.Done // the resumed search has not taken the file yet
	)
	save := func(f CheckpointFile) {
		write := atomicfile.WriteFile
		if c.Shared {
			write = atomicfile.WriteShared
		}
		err := write(c.Checkpoint, func(w io.Writer) error {
			data, err := c.Seal.Marshal(f)
			if err == nil {
				_, err = w.Write(data)
			}
			return err
		})
		mu.Lock()
		defer mu.Unlock()
		if err != nil && failed == nil {
			fmt.Fprintf(stderr, "%s: saving the checkpoint: %v\n", f.ID, err)
		}
		failed = err
	}
	if c.Checkpoint == "" && !pending {
		return func(puzzle.Puzzle, bool) {}
	}
	started := occurrences{}
	c.perPuzzle(func(p puzzle.Puzzle, o *search.Options) {
		mu.Lock()
		defer mu.Unlock()
		at := started.next(p)
		resuming := pending && from.Mark.is(p, at)
		if resuming {
			o.Resume = from.Checkpoint
		}
		if c.Checkpoint == "" {
			return
		}
		o.Checkpoint = func(cp *search.Checkpoint) {
			mu.Lock()
			pending = pending && !resuming
			f := CheckpointFile{Mark: Mark{p.ID, p.Tiles, at}, Checkpoint: cp, Version: checkpointVersion, Written: written}
			skip := pending
			mu.Unlock()
			if !skip {
				save(f)
			}
		}
	})
	passed := occurrences{}
	return func(p puzzle.Puzzle, searched bool) {
		m := Mark{p.ID, p.Tiles, passed.next(p)}
		mu.Lock()
		written = &m
		pending = pending && !from.Mark.is(p, m.Occurrence)
		skip := pending || !searched || c.Checkpoint == ""
		mu.Unlock()
		if !skip {
			save(CheckpointFile{Mark: m, Done: true, Version: checkpointVersion})
		}
	}
}

// holdCheckpoint locks the --checkpoint file for this run: a second run
// that names the file, by whatever name, is refused (issue 66: two runs
// wrote their searches into one file, and one was lost). The user's file
// gets its locks in the user's cache directory, so that nothing is left
// beside it (atomicfile.HoldName); a split job's, in its results
// directory (shared), which refuses links and is the job's own, gets
// .NAME.lock beside it, which its tasks on other machines see.
func holdCheckpoint(path string, shared bool) (release func() error, err error) {
	if shared {
		lock := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
		release, err = flock.Hold(lock)
		if errors.Is(err, flock.ErrHeld) {
			err = fmt.Errorf("%w: by %s", err, flock.Holder(lock))
		}
	} else {
		release, err = atomicfile.HoldName(path)
	}
	if errors.Is(err, flock.ErrHeld) {
		return nil, fmt.Errorf("--checkpoint %s: another run is saving its search there (the file is %v): give each run a file of its own", path, err)
	}
	return release, err
}

// maxAhead bounds the puzzles that resumed holds back between the last
// answer written and the search resumed: a search runs at most a couple
// of puzzles ahead of the answers (solver.SolveAll's window), and a few
// malformed lines may lie between them.
const maxAhead = 4096

// resumed returns the stream from the first puzzle whose answer the run
// that saved the --resume file did not write: after its Done puzzle; or
// from the first after its Written one, which its search's puzzle must
// follow (in a file without a version, from the search's puzzle); or,
// where the input lacks the Written puzzle, from the search's. Puzzles
// after the Written one are held back until the search's is met, so that
// a stream that lacks it ends with an error before any puzzle is solved
// (issue 66: the puzzles were solved, and the saved search written over).
func resumed(stream iter.Seq2[puzzle.Puzzle, error], from *CheckpointFile) iter.Seq2[puzzle.Puzzle, error] {
	if from.Done {
		return skipThrough(stream, &from.Mark)
	}
	type item struct {
		p   puzzle.Puzzle
		err error
	}
	return func(yield func(puzzle.Puzzle, error) bool) {
		var held []item
		holding := from.Written == nil // past the last answer written
		found := false
		seen := occurrences{}
		for p, err := range stream {
			if !found {
				at := -1
				if err == nil {
					at = seen.next(p)
				}
				switch {
				case at >= 0 && from.Mark.is(p, at):
					found = true
					for _, h := range held {
						if !yield(h.p, h.err) {
							return
						}
					}
					held = nil
				case at >= 0 && from.Written != nil && from.Written.is(p, at):
					holding = true
					continue
				case holding && len(held) < maxAhead:
					held = append(held, item{p, err})
					continue
				case holding:
					yield(puzzle.Puzzle{}, ReadError{fmt.Errorf("the checkpoint's puzzle %s is not among the %d puzzles after the last one answered", puzzle.Escape(from.ID), maxAhead)})
					return
				default:
					continue
				}
			}
			if !yield(p, err) {
				return
			}
		}
		if !found {
			yield(puzzle.Puzzle{}, ReadError{fmt.Errorf("the checkpoint's puzzle %s is not among the puzzles to solve", puzzle.Escape(from.ID))})
		}
	}
}

// skipThrough returns the stream after the puzzle past names, and an
// error at its end if it lacks that puzzle.
func skipThrough(stream iter.Seq2[puzzle.Puzzle, error], past *Mark) iter.Seq2[puzzle.Puzzle, error] {
	return func(yield func(puzzle.Puzzle, error) bool) {
		found := false
		seen := occurrences{}
		for p, err := range stream {
			if !found {
				found = err == nil && past.is(p, seen.next(p))
				continue
			}
			if !yield(p, err) {
				return
			}
		}
		if !found {
			yield(puzzle.Puzzle{}, ReadError{fmt.Errorf("the checkpoint's puzzle %s is not among the puzzles to solve", puzzle.Escape(past.ID))})
		}
	}
}
