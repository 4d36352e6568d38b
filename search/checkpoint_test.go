package search_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fifteen/data"
	"fifteen/puzzle"
	"fifteen/search"
)

// TestCheckpointResume searches Korf's 47th instance with Manhattan
// distance (1.4 M nodes in Korf's count), keeping every checkpoint, and
// resumes from ten of them (through JSON), some taken within an
// iteration whose tasks the frontier before ranks: on one thread the resumed
// searches find the same solution with the same counts, iteration by
// iteration, as a search that saves no checkpoints; on three, the same
// solution, and the same counts up to the last iteration.
func TestCheckpointResume(t *testing.T) {
	b := board(data.Korf100()[46])
	h, err := search.Manhattan(b.Size(), puzzle.GoalFirst)
	if err != nil {
		t.Fatal(err)
	}
	// The search to compare with saves no checkpoints: so it never cuts
	// its iterations into tasks, as the ones that do on one thread must
	// count alike.
	want := solve(t, b, puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier, Threads: 1}, -1)
	var saved []*search.Checkpoint
	opts := search.Options{Frontier: search.DefaultFrontier, Threads: 1, CheckpointEvery: time.Millisecond, Checkpoint: func(cp *search.Checkpoint) { saved = append(saved, cp) }}
	if got := solve(t, b, puzzle.GoalFirst, h, opts, -1); !slices.Equal(got.Iterations, want.Iterations) {
		t.Fatalf("saving checkpoints: %v, want %v", got.Iterations, want.Iterations)
	}
	withTasks, ranked := 0, 0
	for _, cp := range saved {
		if cp.TasksDone() > 0 {
			withTasks++
			if cp.Previous != nil && cp.Previous.Sizes != nil {
				ranked++
			}
		}
	}
	if len(saved) < 3 || withTasks == 0 || ranked == 0 {
		t.Fatalf("%d checkpoints, %d within an iteration, %d of them ranked", len(saved), withTasks, ranked)
	}
	for i := 0; i < len(saved); i += max(len(saved)/10, 1) {
		cp := saved[i]
		text, err := json.Marshal(cp)
		if err != nil {
			t.Fatal(err)
		}
		var back search.Checkpoint
		if err := json.Unmarshal(text, &back); err != nil {
			t.Fatal(err)
		}
		for _, threads := range []int{1, 3} {
			got := solve(t, b, puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier, Threads: threads, Resume: &back}, want.Length())
			n := len(want.Iterations)
			if threads > 1 {
				n-- // the last iteration's count depends on the goroutines' timing
			}
			if !slices.Equal(got.Moves, want.Moves) || len(got.Iterations) != len(want.Iterations) || !slices.Equal(got.Iterations[:n], want.Iterations[:n]) {
				t.Fatalf("checkpoint %d (bound %d, %d tasks), %d threads: %v %v, want %v %v",
					i, cp.Bound, cp.TasksDone(), threads, puzzle.FormatMoves(got.Moves), got.Iterations, puzzle.FormatMoves(want.Moves), want.Iterations)
			}
			if threads == 1 && (got.Generated != want.Generated || got.Expanded != want.Expanded) {
				t.Fatalf("checkpoint %d: %d nodes generated, %d expanded, want %d, %d", i, got.Generated, got.Expanded, want.Generated, want.Expanded)
			}
		}
	}
}

// TestCheckpointOnStop stops a parallel search early in its last
// iteration (Korf's 54th with Manhattan distance: 29 M of its 55 M nodes)
// and resumes it from the checkpoint it saved as it stopped: the same
// solution and counts, up to the last iteration, as a search never
// stopped. A checkpoint of another search, of another frontier, of
// another version (none, as before version 2, reads as 1) or with a
// ranking of other tasks is refused.
func TestCheckpointOnStop(t *testing.T) {
	b := board(data.Korf100()[53])
	h, err := search.Manhattan(b.Size(), puzzle.GoalFirst)
	if err != nil {
		t.Fatal(err)
	}
	want := solve(t, b, puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier, Threads: 1}, -1)
	final := want.Iterations[len(want.Iterations)-1].Bound
	var last atomic.Pointer[search.Checkpoint]
	ctx, cancel := context.WithCancel(context.Background())
	opts := search.Options{
		Frontier: search.DefaultFrontier,
		Threads:  2,
		Checkpoint: func(cp *search.Checkpoint) {
			last.Store(cp)
			if cp.Bound == final && cp.TasksDone() > 0 {
				cancel()
			}
		},
		CheckpointEvery: time.Millisecond,
	}
	if _, err := search.Solve(ctx, b, puzzle.GoalFirst, h, opts); err != context.Canceled {
		t.Fatalf("stopped search: %v", err)
	}
	cp := last.Load()
	if cp == nil || cp.TasksDone() == 0 {
		t.Fatalf("stopped without a checkpoint within its iteration: %+v", cp)
	}
	got := solve(t, b, puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier, Threads: 2, Resume: cp}, want.Length())
	n := len(want.Iterations) - 1
	if !slices.Equal(got.Moves, want.Moves) || !slices.Equal(got.Iterations[:n], want.Iterations[:n]) {
		t.Errorf("resumed: %v, want %v", got.Iterations, want.Iterations)
	}
	other := board(data.Korf100()[0])
	if _, err := search.Solve(context.Background(), other, puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier, Resume: cp}); !errors.Is(err, search.ErrOtherSearch) {
		t.Errorf("a checkpoint of another search: %v", err)
	}
	if _, err := search.Solve(context.Background(), b, puzzle.GoalFirst, h, search.Options{Frontier: search.DepthFirst, Resume: cp}); !errors.Is(err, search.ErrOtherSearch) {
		t.Errorf("a checkpoint of a ranked search resumed depth-first: %v", err)
	}
	for _, version := range []int{0, 1, 2, 4} {
		old := *cp
		old.Version = version
		if _, err := search.Solve(context.Background(), b, puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier, Resume: &old}); !errors.Is(err, search.ErrOtherSearch) || !strings.Contains(err.Error(), fmt.Sprintf("version %d,", max(version, 1))) {
			t.Errorf("a checkpoint of version %d: %v", version, err)
		}
	}
	if cp.Previous == nil || cp.Previous.Sizes == nil {
		t.Fatal("a checkpoint within a ranked iteration without its ranking")
	}
	edited := *cp
	prev := *cp.Previous
	prev.Sizes, prev.Tasks = prev.Sizes[1:], prev.Tasks-1
	edited.Previous = &prev
	if _, err := search.Solve(context.Background(), b, puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier, Resume: &edited}); !errors.Is(err, search.ErrOtherSearch) {
		t.Errorf("a checkpoint whose ranking lacks a task: %v", err)
	}
}

// TestCheckpointReflection checks that a checkpoint of a search with the
// tables' reflection is refused by one without: the same tables, but
// other counts.
func TestCheckpointReflection(t *testing.T) {
	b := board(data.Korf100()[0])
	var cp *search.Checkpoint
	opts := search.Options{Frontier: search.DefaultFrontier, Threads: 1, Checkpoint: func(c *search.Checkpoint) {
		if cp == nil {
			cp = c
		}
	}}
	solve(t, b, puzzle.GoalFirst, pdbHeuristic(t, "555", true), opts, data.Korf100()[0].Optimal)
	if cp == nil {
		t.Fatal("no checkpoint")
	}
	_, err := search.Solve(context.Background(), b, puzzle.GoalFirst, pdbHeuristic(t, "555", false), search.Options{Frontier: search.DefaultFrontier, Resume: cp})
	if !errors.Is(err, search.ErrOtherSearch) {
		t.Errorf("a reflected search's checkpoint resumed without reflection: %v", err)
	}
}
