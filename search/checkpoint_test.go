package search_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
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
// iteration under way, with its rounds cut at a contour and at fixed
// depths (ranked by the round before); and a 24-puzzle's position 45
// moves from the goal (1.5 M nodes), under its default cut, the fixed
// depth. On one thread the resumed searches find the same solution with
// the same counts, iteration by iteration, as a search that saves no
// checkpoints; on three, the same solution, and the same counts up to
// the last iteration.
func TestCheckpointResume(t *testing.T) {
	size5 := puzzle.Size{Rows: 5, Cols: 5}
	for _, c := range []struct {
		b   puzzle.Board
		cut search.Cut
	}{
		{board(data.Korf100()[46]), search.CutContour},
		{board(data.Korf100()[46]), search.CutFixed},
		{randomWalk(rand.New(rand.NewPCG(2, 78)), size5, puzzle.GoalFirst, 300), search.CutDefault},
	} {
		h, err := search.Manhattan(c.b.Size(), puzzle.GoalFirst)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprintf("%v cut %v", c.b.Size(), c.cut), func(t *testing.T) { checkResumes(t, c.b, h, c.cut) })
	}
}

// checkResumes is TestCheckpointResume's search of b with h, its rounds
// cut at cut.
func checkResumes(t *testing.T, b puzzle.Board, h *search.Heuristic, cut search.Cut) {
	// The search to compare with saves no checkpoints: so it never cuts
	// its iterations into tasks, as the ones that do on one thread must
	// count alike.
	want := solve(t, b, puzzle.GoalFirst, h, search.Options{Threads: 1, Cut: cut}, -1)
	var saved []*search.Checkpoint
	opts := search.Options{Threads: 1, Cut: cut, CheckpointEvery: time.Millisecond, Checkpoint: func(cp *search.Checkpoint) { saved = append(saved, cp) }}
	if got := solve(t, b, puzzle.GoalFirst, h, opts, -1); !slices.Equal(got.Iterations, want.Iterations) {
		t.Fatalf("saving checkpoints: %v, want %v", got.Iterations, want.Iterations)
	}
	withTasks, ranked := 0, 0
	for _, cp := range saved {
		if cp.TasksDone() > 0 {
			withTasks++
			if cp.Previous != nil && cp.Previous.Sizes != nil || cp.Contour > 0 {
				ranked++
			}
		}
	}
	if len(saved) < 3 || withTasks == 0 || ranked == 0 {
		t.Fatalf("%d checkpoints, %d within an iteration, %d of them ranked or at a contour", len(saved), withTasks, ranked)
	}
	for i := 0; i < len(saved); i += max(len(saved)/10, 1) {
		cp := saved[i]
		if (cp.Contour > 0) != (cut == search.CutContour) {
			t.Fatalf("checkpoint %d of a search cut at %v: contour %d", i, cut, cp.Contour)
		}
		text, err := json.Marshal(cp)
		if err != nil {
			t.Fatal(err)
		}
		var back search.Checkpoint
		if err := json.Unmarshal(text, &back); err != nil {
			t.Fatal(err)
		}
		for _, threads := range []int{1, 3} {
			// Resumed under the default cut, which the checkpoint's is.
			got := solve(t, b, puzzle.GoalFirst, h, search.Options{Threads: threads, Resume: &back}, want.Length())
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
// and resumes it from the checkpoint it saved as it stopped, its rounds
// cut at fixed depths: the same solution and counts, up to the last
// iteration, as a search never stopped. A checkpoint of another search,
// of another frontier, of another version (none, as before version 2,
// reads as 1) or with a ranking of other tasks is refused; one of
// version 3, the format before the contour's, resumes.
func TestCheckpointOnStop(t *testing.T) {
	b := board(data.Korf100()[53])
	h, err := search.Manhattan(b.Size(), puzzle.GoalFirst)
	if err != nil {
		t.Fatal(err)
	}
	want := solve(t, b, puzzle.GoalFirst, h, search.Options{Cut: search.CutFixed, Threads: 1}, -1)
	final := want.Iterations[len(want.Iterations)-1].Bound
	var last atomic.Pointer[search.Checkpoint]
	ctx, cancel := context.WithCancel(context.Background())
	opts := search.Options{
		Cut:     search.CutFixed,
		Threads: 2,
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
	got := solve(t, b, puzzle.GoalFirst, h, search.Options{Cut: search.CutFixed, Threads: 2, Resume: cp}, want.Length())
	n := len(want.Iterations) - 1
	if !slices.Equal(got.Moves, want.Moves) || !slices.Equal(got.Iterations[:n], want.Iterations[:n]) {
		t.Errorf("resumed: %v, want %v", got.Iterations, want.Iterations)
	}
	other := board(data.Korf100()[0])
	if _, err := search.Solve(context.Background(), other, puzzle.GoalFirst, h, search.Options{Cut: search.CutFixed, Resume: cp}); !errors.Is(err, search.ErrOtherSearch) {
		t.Errorf("a checkpoint of another search: %v", err)
	}
	if _, err := search.Solve(context.Background(), b, puzzle.GoalFirst, h, search.Options{Frontier: search.DepthFirst, Resume: cp}); !errors.Is(err, search.ErrOtherSearch) {
		t.Errorf("a checkpoint of a ranked search resumed depth-first: %v", err)
	}
	for _, version := range []int{0, 1, 2, search.CheckpointVersion + 1} {
		old := *cp
		old.Version = version
		if _, err := search.Solve(context.Background(), b, puzzle.GoalFirst, h, search.Options{Cut: search.CutFixed, Resume: &old}); !errors.Is(err, search.ErrOtherSearch) || !strings.Contains(err.Error(), fmt.Sprintf("version %d,", max(version, 1))) {
			t.Errorf("a checkpoint of version %d: %v", version, err)
		}
	}
	// Version 3, the format before the contour, resumes: under the
	// default cut, the fixed depth its searches all took.
	v3 := *cp
	v3.Version = 3
	if got := solve(t, b, puzzle.GoalFirst, h, search.Options{Threads: 2, Resume: &v3}, want.Length()); !slices.Equal(got.Moves, want.Moves) {
		t.Errorf("resumed from version 3: %s, want %s", puzzle.FormatMoves(got.Moves), puzzle.FormatMoves(want.Moves))
	}
	if cp.Previous == nil || cp.Previous.Sizes == nil {
		t.Fatal("a checkpoint within a ranked iteration without its ranking")
	}
	edited := *cp
	prev := *cp.Previous
	prev.Sizes, prev.Tasks = prev.Sizes[1:], prev.Tasks-1
	edited.Previous = &prev
	if _, err := search.Solve(context.Background(), b, puzzle.GoalFirst, h, search.Options{Cut: search.CutFixed, Resume: &edited}); !errors.Is(err, search.ErrOtherSearch) {
		t.Errorf("a checkpoint whose ranking lacks a task: %v", err)
	}
}

// TestCheckpointContour checks what a resume of a search cut at a
// contour refuses: its checkpoint resumed at fixed depths, or marked
// version 3, which knew no contour; a contour out of bounds; a round
// before, which the contour does not keep; and tasks done past its
// round's frontier.
func TestCheckpointContour(t *testing.T) {
	b := board(data.Korf100()[46])
	h, err := search.Manhattan(b.Size(), puzzle.GoalFirst)
	if err != nil {
		t.Fatal(err)
	}
	var cp *search.Checkpoint
	opts := search.Options{Cut: search.CutContour, CheckpointEvery: time.Millisecond, Checkpoint: func(c *search.Checkpoint) {
		if c.TasksDone() > 0 && (cp == nil || c.TasksDone() > cp.TasksDone()) {
			cp = c
		}
	}}
	solve(t, b, puzzle.GoalFirst, h, opts, -1)
	if cp == nil || cp.Contour == 0 {
		t.Fatalf("no checkpoint within a round cut at a contour: %+v", cp)
	}
	edits := map[string]func(c *search.Checkpoint) error{
		"resumed at fixed depths": func(c *search.Checkpoint) error { return search.ErrOtherSearch },
		"of version 3":            func(c *search.Checkpoint) error { c.Version = 3; return search.ErrCheckpoint },
		"a contour 2 below":       func(c *search.Checkpoint) error { c.Contour = 2; return search.ErrOtherSearch },
		"a contour far below":     func(c *search.Checkpoint) error { c.Contour = search.MaxLength + 1; return search.ErrOtherSearch },
		"a round before": func(c *search.Checkpoint) error {
			c.Previous = &search.Round{Bound: 40, CutDepth: 6, Tasks: 1, Threads: 1}
			return search.ErrOtherSearch
		},
		"a cut depth": func(c *search.Checkpoint) error { c.CutDepth = 6; return search.ErrOtherSearch },
		"tasks done past the frontier": func(c *search.Checkpoint) error {
			d := *c.Done
			d.Runs = slices.Clone(d.Runs)
			d.Runs[len(d.Runs)-2] += 1 << 30
			d.Runs[len(d.Runs)-1] += 1 << 30
			c.Done = &d
			return search.ErrOtherSearch
		},
	}
	for name, edit := range edits {
		edited := *cp
		want := edit(&edited)
		o := search.Options{Resume: &edited}
		if name == "resumed at fixed depths" {
			o.Cut = search.CutFixed
		}
		if _, err := search.Solve(context.Background(), b, puzzle.GoalFirst, h, o); !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", name, err, want)
		}
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
