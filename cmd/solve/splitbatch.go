package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"fifteen/internal/atomicfile"
	"fifteen/internal/record"
	"fifteen/solver"
)

// A split batch gives task K of N the puzzles K, K+N, K+2N, … of the
// input. The task writes their outcomes into batch-K.jsonl, whole, every
// saveEvery and when it ends; a rerun keeps those and solves the rest,
// and with --jobs 1 resumes the search under way from its checkpoint.

// saveEvery is how often a batch task writes its outcomes so far.
const saveEvery = 5 * time.Second

// batchLine is one puzzle's outcome in a batch task's file: what solve
// would print of it on standard error, and its record.
type batchLine struct {
	Index   int            `json:"index"`
	Message string         `json:"message,omitempty"`
	Record  *record.Record `json:"record,omitempty"`
}

func batchPath(dir string, task int) string {
	return filepath.Join(dir, fmt.Sprintf("batch-%d.jsonl", task))
}

// readBatch reads a batch task's file: none yet is no outcome.
func readBatch(path string) (map[int]batchLine, error) {
	lines := map[int]batchLine{}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return lines, nil
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l batchLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		lines[l.Index] = l
	}
	return lines, sc.Err()
}

// batchTask solves the task's share of the batch.
func batchTask(ctx context.Context, cfg *config, all []entry, stderr io.Writer) int {
	c := &cfg.cluster
	path := batchPath(c.dir, c.task)
	done, err := readBatch(path)
	if err != nil {
		fmt.Fprintln(stderr, "solve:", err)
		return 1
	}
	if cfg.jobs == 1 {
		cfg.checkpoint = filepath.Join(c.dir, fmt.Sprintf("batch-%d.checkpoint.json", c.task))
		if f, err := readCheckpoint(cfg.checkpoint); err == nil && !f.Done {
			cfg.resume = f
			fmt.Fprintf(stderr, "%s: resuming its search from %s\n", f.ID, cfg.checkpoint)
		}
	}
	var left []int // the share's puzzles without an outcome
	for i := c.task; i < len(all); i += c.tasks {
		if _, ok := done[i]; !ok {
			left = append(left, i)
		}
	}
	var mu sync.Mutex // the queue of the indexes of the puzzles under way, in order
	var queue []int
	stream := func(yield func(solver.Puzzle, error) bool) {
		for _, i := range left {
			mu.Lock()
			queue = append(queue, i)
			mu.Unlock()
			if !yield(all[i].p, all[i].err) {
				return
			}
		}
	}
	save := func() error {
		return atomicfile.WriteFile(path, func(w io.Writer) error {
			enc := json.NewEncoder(w)
			for _, i := range slices.Sorted(maps.Keys(done)) {
				if err := enc.Encode(done[i]); err != nil {
					return err
				}
			}
			return nil
		})
	}
	saved := time.Now()
	status := solveStream(ctx, cfg, stream, stderr, func(msg string, rec *record.Record) error {
		mu.Lock()
		i := queue[0]
		queue = queue[1:]
		mu.Unlock()
		if ctx.Err() != nil {
			return nil // interrupted (SIGTERM): solved again by the rerun
		}
		done[i] = batchLine{Index: i, Message: msg, Record: rec}
		if time.Since(saved) < saveEvery {
			return nil
		}
		saved = time.Now()
		return save()
	})
	if err := save(); err != nil {
		fmt.Fprintln(stderr, "solve:", err)
		return 1
	}
	return status
}

// mergeBatch prints the outcomes of a split batch in input order, once
// every task has written all of its share.
func mergeBatch(cfg *config, all []entry, stdout, stderr io.Writer) int {
	c := &cfg.cluster
	lines := map[int]batchLine{}
	var behind []int
	for k := range c.tasks {
		have, err := readBatch(batchPath(c.dir, k))
		if err != nil {
			fmt.Fprintln(stderr, "solve:", err)
			return 1
		}
		for i := k; i < len(all); i += c.tasks {
			l, ok := have[i]
			if !ok {
				behind = append(behind, k)
				break
			}
			lines[i] = l
		}
	}
	if len(behind) > 0 {
		fmt.Fprintf(stderr, "solve: tasks %v of %d have not finished their share: run them again\n", behind, c.tasks)
		return statusMore
	}
	return printOutcomes(cfg, len(all), func(i int) (string, *record.Record) { return lines[i].Message, lines[i].Record }, stdout, stderr)
}
