package search_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"fifteen/data"
	"fifteen/puzzle"
	"fifteen/search"
)

// checkpoints solves b, saving a checkpoint every millisecond, and
// returns the result and the checkpoints, each read back from JSON.
func checkpoints(t *testing.T, b puzzle.Board, h *search.Heuristic, opts search.Options) (search.Result, []*search.Checkpoint) {
	t.Helper()
	var saved [][]byte
	opts.Threads, opts.CheckpointEvery = 1, time.Millisecond
	opts.Checkpoint = func(cp *search.Checkpoint) {
		text, err := json.Marshal(cp)
		if err != nil {
			t.Error(err)
		}
		saved = append(saved, text)
	}
	res := solve(t, b, puzzle.GoalFirst, h, opts, -1)
	var cps []*search.Checkpoint
	for _, text := range saved {
		cp := new(search.Checkpoint)
		if err := json.Unmarshal(text, cp); err != nil {
			t.Fatal(err)
		}
		cps = append(cps, cp)
	}
	return res, cps
}

// copyOf returns a deep copy of cp, to edit.
func copyOf(t *testing.T, cp *search.Checkpoint) *search.Checkpoint {
	text, err := json.Marshal(cp)
	if err != nil {
		t.Fatal(err)
	}
	c := new(search.Checkpoint)
	if err := json.Unmarshal(text, c); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestResumeRefused resumes, from checkpoints of Korf's 1st instance under
// the 5-5-5 databases (whose bounds may rise by any amount), checkpoints
// edited as issue 66 did: each is refused before any search, with the
// error that says why, as a *search.ResumeError, and no checkpoint is
// saved; the checkpoints as saved resume to the same answer.
func TestResumeRefused(t *testing.T) {
	in := data.Korf100()[0]
	b, h := board(in), pdbHeuristic(t, "555", true)
	for _, kind := range []struct {
		name   string
		opts   search.Options
		ranked bool // by the round before, whose checkpoints keep it
	}{
		{"fixed depth", search.Options{Cut: search.CutFixed}, true},
		{"depth-first", search.Options{Frontier: search.DepthFirst}, false},
		{"contour", search.Options{Cut: search.CutContour}, false},
	} {
		opts, frontier := kind.opts, kind.name
		res, saved := checkpoints(t, b, h, opts)
		var between, within *search.Checkpoint // between two iterations, and within a round
		for _, cp := range saved {
			if between == nil && len(cp.Iterations) >= 4 && cp.Done == nil && cp.CutDepth+cp.Contour > 0 && (!kind.ranked || cp.Previous != nil) {
				between = cp
			}
			if within == nil && cp.TasksDone() > 1 && (!kind.ranked || cp.Previous != nil) {
				within = cp
			}
		}
		if between == nil || within == nil {
			t.Fatalf("%s: no checkpoint between iterations or within a round among %d", frontier, len(saved))
		}
		last := len(between.Iterations) - 1
		for _, c := range []struct {
			name string
			from *search.Checkpoint
			edit func(*search.Checkpoint)
			want error
		}{
			{"bound raised past the next", between, func(cp *search.Checkpoint) { cp.Bound += 2 }, search.ErrIterations},
			{"an iteration's bound raised", between, func(cp *search.Checkpoint) { cp.Iterations[last-1].Bound++ }, search.ErrIterations},
			{"cut depth edited between iterations", between, func(cp *search.Checkpoint) { cp.CutDepth = cp.Bound - 1 }, search.ErrOtherSearch},
			{"tasks outside the round", within, func(cp *search.Checkpoint) {
				n := 200_000
				cp.Done = &search.Done{Runs: []int64{0, int64(n)}, Expanded: make([]uint64, n), Generated: make([]uint64, n), Next: make([]int, n)}
			}, search.ErrOtherSearch},
			{"a task's next below its bound", within, func(cp *search.Checkpoint) { cp.Done.Next[0] = -5 }, search.ErrIterations},
			{"cut depth edited within a round", within, func(cp *search.Checkpoint) { cp.CutDepth = cp.Bound - 1 }, search.ErrOtherSearch},
			{"cut depth a move deeper", within, func(cp *search.Checkpoint) { cp.CutDepth++ }, search.ErrOtherSearch},
			{"a negative time", within, func(cp *search.Checkpoint) { cp.Elapsed = -9 * time.Second }, search.ErrCheckpoint},
			{"columns of other lengths", within, func(cp *search.Checkpoint) { cp.Done.Generated = cp.Done.Generated[1:] }, search.ErrCheckpoint},
			// Issue 76: summed, they wrapped around 2^64.
			{"counts that sum past 2^64", within, func(cp *search.Checkpoint) {
				cp.Iterations[0].Generated = math.MaxUint64 - 5
				cp.Done.Generated[0] = 1 << 40
			}, search.ErrCheckpoint},
			{"a count past any search's", between, func(cp *search.Checkpoint) { cp.Iterations[0].Expanded = 1 << 63 }, search.ErrCheckpoint},
			{"runs that overlap", within, func(cp *search.Checkpoint) {
				cp.Done.Runs = append([]int64{0, 1}, cp.Done.Runs...)
			}, search.ErrCheckpoint},
		} {
			t.Run(frontier+"/"+c.name, func(t *testing.T) {
				cp := copyOf(t, c.from)
				c.edit(cp)
				saves := 0
				opts := opts
				opts.Resume, opts.Checkpoint = cp, func(*search.Checkpoint) { saves++ }
				got, err := search.Solve(context.Background(), b, puzzle.GoalFirst, h, opts)
				if !errors.Is(err, c.want) || !errors.As(err, new(*search.ResumeError)) || got.Solved || saves > 0 {
					t.Errorf("resumed: %d moves, %v (%d checkpoints saved), want %v", got.Length(), err, saves, c.want)
				}
			})
		}
		for _, cp := range []*search.Checkpoint{between, within} {
			opts := opts
			opts.Resume = cp
			if got := solve(t, b, puzzle.GoalFirst, h, opts, in.Optimal); !slices.Equal(got.Moves, res.Moves) {
				t.Errorf("%s: resumed at bound %d: %s, want %s", frontier, cp.Bound, puzzle.FormatMoves(got.Moves), puzzle.FormatMoves(res.Moves))
			}
		}
	}
}

// TestResumeStopped stops resumed searches within microseconds, while they
// cut their frontiers again (issue 66: "the checkpoint is of another
// search", and the file marked done): each reports the stop, or, if it
// was quicker, the answer.
func TestResumeStopped(t *testing.T) {
	in := data.Korf100()[0]
	b, h := board(in), pdbHeuristic(t, "555", true)
	_, saved := checkpoints(t, b, h, search.Options{Cut: search.CutFixed})
	var within *search.Checkpoint
	for _, cp := range saved {
		if cp.TasksDone() > 0 && cp.Previous != nil {
			within = cp
		}
	}
	if within == nil {
		t.Fatal("no checkpoint within a ranked round")
	}
	for _, after := range []time.Duration{0, time.Microsecond, 10 * time.Microsecond, 100 * time.Microsecond, time.Millisecond} {
		ctx, cancel := context.WithTimeout(context.Background(), after)
		res, err := search.Solve(ctx, b, puzzle.GoalFirst, h, search.Options{Resume: within})
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) && !(err == nil && res.Length() == in.Optimal) {
			t.Errorf("stopped after %v: %d moves, %v", after, res.Length(), err)
		}
	}
}
