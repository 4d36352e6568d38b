package search_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"fifteen/data"
	"fifteen/puzzle"
	"fifteen/search"
)

// TestSplit splits searches among 1 to 7 tasks, run one after another as
// a job array on one core runs them, and checks that the joined parts find the solution of the
// search on one thread, with its counts in every iteration but the last,
// where the tasks' runs that come after the solution add to them.
func TestSplit(t *testing.T) {
	h, err := search.Manhattan(puzzle.Size{Rows: 4, Cols: 4}, puzzle.GoalFirst)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id    int
		above uint64 // 0: Split solves it, as no iteration is large enough
	}{{47, 1 << 14}, {79, 1 << 14}, {79, 0}} {
		id, b := c.id, board(data.Korf100()[c.id-1])
		// The tasks take their subtrees depth-first, as plain IDA* does.
		want := solve(t, b, puzzle.GoalFirst, h, search.Options{Threads: 1, Frontier: search.DepthFirst}, -1)
		for _, tasks := range []int{1, 2, 3, 7} {
			for _, threads := range []int{1, 2} {
				opts := search.Options{Threads: threads}
				got := splitSearch(t, b, h, opts, tasks, c.above)
				n := len(want.Iterations) - 1
				if !slices.Equal(got.Moves, want.Moves) || len(got.Iterations) != len(want.Iterations) || !slices.Equal(got.Iterations[:n], want.Iterations[:n]) {
					t.Fatalf("Korf %d, %d tasks, %d threads: %s %v, want %s %v", id, tasks, threads,
						puzzle.FormatMoves(got.Moves), got.Iterations, puzzle.FormatMoves(want.Moves), want.Iterations)
				}
				if last := got.Iterations[n]; last.Generated < want.Iterations[n].Generated {
					t.Errorf("Korf %d, %d tasks: the last iteration generated %d nodes, fewer than one search's %d", id, tasks, last.Generated, want.Iterations[n].Generated)
				}
			}
		}
	}
}

// TestSplitManyTasks splits among more tasks than the first shared
// iteration has subtrees a task (issue 48: the cut then fell two moves
// above the bound, with no subtree below it, and every task searched the
// whole iteration): a task's cut costs a small part of the iteration, and
// a search split among more tasks than subtrees finds the solution.
func TestSplitManyTasks(t *testing.T) {
	h, err := search.Manhattan(puzzle.Size{Rows: 4, Cols: 4}, puzzle.GoalFirst)
	if err != nil {
		t.Fatal(err)
	}
	b := board(data.Korf100()[2])
	ctx := context.Background()
	begun, plan, err := search.Split(ctx, b, puzzle.GoalFirst, h, search.Options{Threads: 1}, 4096, 0)
	if err != nil {
		t.Fatal(err)
	}
	part, err := search.SolveShare(ctx, b, puzzle.GoalFirst, h, search.Options{Threads: 1}, search.Share{Plan: plan, Task: 0})
	if err != nil {
		t.Fatal(err)
	}
	if last := begun.Iterations[len(begun.Iterations)-1]; part.Iteration.Generated*100 > last.Generated {
		t.Errorf("cut at depth %d of bound %d: task 0 generated %d nodes, %d of them above the cut, against the last whole iteration's %d",
			plan.CutDepth, plan.Bound, part.Iteration.Generated, part.Cut.Generated, last.Generated)
	}
	b = board(data.Korf100()[46])
	want := solve(t, b, puzzle.GoalFirst, h, search.Options{Threads: 1, Frontier: search.DepthFirst}, -1)
	if got := splitSearch(t, b, h, search.Options{Threads: 1}, 300, 1<<14); !slices.Equal(got.Moves, want.Moves) {
		t.Errorf("Korf 47 among 300 tasks: %s, want %s", puzzle.FormatMoves(got.Moves), puzzle.FormatMoves(want.Moves))
	}
}

// splitSearch runs a split search as a cluster would: each round's tasks
// one after another, their parts joined, the next round planned.
func splitSearch(t *testing.T, b puzzle.Board, h *search.Heuristic, opts search.Options, tasks int, above uint64) search.Result {
	t.Helper()
	ctx := context.Background()
	var res search.Result
	var plan search.Plan
	for k := range tasks {
		r, p, err := search.Split(ctx, b, puzzle.GoalFirst, h, opts, tasks, above)
		if err != nil {
			t.Fatal(err)
		}
		n := len(r.Iterations)
		if r.Solved {
			n-- // on threads, the last iteration's count depends on their timing
		}
		if k > 0 && (!slices.Equal(r.Iterations[:n], res.Iterations[:n]) || !slices.Equal(r.Moves, res.Moves) || !slices.Equal(p.Starts, plan.Starts) || p.Bound != plan.Bound) {
			t.Fatalf("task %d began otherwise than task 0: %v %+v, then %v %+v", k, res.Iterations, plan, r.Iterations, p)
		}
		res, plan = r, p
	}
	if res.Solved {
		return res
	}
	for {
		parts := make([]search.Part, tasks)
		var mu sync.Mutex
		first := int64(math.MaxInt64) // the tasks' shared directory
		for k := range tasks {
			known := func() int64 {
				mu.Lock()
				defer mu.Unlock()
				return first
			}
			part, err := search.SolveShare(ctx, b, puzzle.GoalFirst, h, opts, search.Share{Plan: plan, Task: k, Known: known})
			if err != nil {
				t.Fatal(err)
			}
			if part.Found >= 0 {
				mu.Lock()
				first = min(first, part.Found)
				mu.Unlock()
			}
			parts[k] = part
		}
		it, found, err := search.Join(parts)
		if err != nil {
			t.Fatal(err)
		}
		res.Iterations = append(res.Iterations, it)
		if found >= 0 {
			res.Moves, res.Solved = parts[found].Moves, true
			return res
		}
		if plan, err = search.NextPlan(parts, tasks); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSplitResume stops a task's share mid-way, from a checkpoint, and
// resumes it (through JSON): the part is the one a share never stopped
// gives. It also refuses malformed plans and shares.
func TestSplitResume(t *testing.T) {
	b := board(data.Korf100()[53])
	h, err := search.Manhattan(b.Size(), puzzle.GoalFirst)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, plan, err := search.Split(ctx, b, puzzle.GoalFirst, h, search.Options{}, 3, 1<<18)
	if err != nil {
		t.Fatal(err)
	}
	share := search.Share{Plan: plan, Task: 1}
	want, err := search.SolveShare(ctx, b, puzzle.GoalFirst, h, search.Options{}, share)
	if err != nil {
		t.Fatal(err)
	}
	stop, cancel := context.WithCancel(ctx)
	var saved []byte
	opts := search.Options{CheckpointEvery: time.Millisecond, Checkpoint: func(cp *search.Checkpoint) {
		if cp.TasksDone() > 0 && saved == nil {
			saved, _ = json.Marshal(cp)
			cancel()
		}
	}}
	if _, err := search.SolveShare(stop, b, puzzle.GoalFirst, h, opts, share); err != context.Canceled || saved == nil {
		t.Fatalf("a stopped share: %v, checkpoint %v", err, saved != nil)
	}
	var cp search.Checkpoint
	if err := json.Unmarshal(saved, &cp); err != nil {
		t.Fatal(err)
	}
	if cp.TasksDone() >= len(want.Tasks) {
		t.Fatalf("stopped after %d subtrees of %d", cp.TasksDone(), len(want.Tasks))
	}
	// Resumed as a cluster's task resumes, asking for the other tasks'
	// marks (issue 66: it asked while the resume cut its round, before
	// the round, and panicked).
	asking := search.Share{Plan: plan, Task: 1, Known: func() int64 { return math.MaxInt64 }}
	got, err := search.SolveShare(ctx, b, puzzle.GoalFirst, h, search.Options{Threads: 2, Resume: &cp, CheckpointEvery: time.Millisecond}, asking)
	if err != nil {
		t.Fatal(err)
	}
	if got.Iteration != want.Iteration || got.Found != want.Found || got.Next != want.Next || len(got.Tasks) != len(want.Tasks) {
		t.Errorf("resumed: %+v found %d next %d, %d subtrees; want %+v found %d next %d, %d subtrees",
			got.Iteration, got.Found, got.Next, len(got.Tasks), want.Iteration, want.Found, want.Next, len(want.Tasks))
	}
	other := search.Share{Plan: plan, Task: 2}
	if _, err := search.SolveShare(ctx, b, puzzle.GoalFirst, h, search.Options{Resume: &cp}, other); !errors.Is(err, search.ErrOtherSearch) {
		t.Errorf("another task's checkpoint: %v", err)
	}

	bad := func(edit func(*search.Share)) search.Share {
		s := search.Share{Plan: search.Plan{Bound: plan.Bound, CutDepth: plan.CutDepth, Starts: slices.Clone(plan.Starts)}, Task: 0}
		edit(&s)
		return s
	}
	for _, s := range []search.Share{
		bad(func(s *search.Share) { s.Task = 3 }),
		bad(func(s *search.Share) { s.Starts[0] = "U" }),
		bad(func(s *search.Share) { s.Starts[1] = "UX" }),
		bad(func(s *search.Share) { s.Starts = nil }),
		bad(func(s *search.Share) { s.CutDepth = s.Bound }),
	} {
		if _, err := search.SolveShare(ctx, b, puzzle.GoalFirst, h, search.Options{}, s); !errors.Is(err, search.ErrPlan) {
			t.Errorf("%+v: %v, want ErrPlan", s, err)
		}
	}
}

// TestSplitStrayMark gives the tasks of an iteration a mark that says a
// solution lies in its first subtree, where none does (the mark of
// another job, say): the tasks give up their subtrees after it, and Join
// refuses their parts rather than go on to a longer bound.
func TestSplitStrayMark(t *testing.T) {
	b := board(data.Korf100()[53])
	h, err := search.Manhattan(b.Size(), puzzle.GoalFirst)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, plan, err := search.Split(ctx, b, puzzle.GoalFirst, h, search.Options{}, 2, 1<<18)
	if err != nil {
		t.Fatal(err)
	}
	parts := make([]search.Part, 2)
	for k := range parts {
		share := search.Share{Plan: plan, Task: k, Known: func() int64 { return 0 }}
		if parts[k], err = search.SolveShare(ctx, b, puzzle.GoalFirst, h, search.Options{Threads: 1}, share); err != nil {
			t.Fatal(err)
		}
	}
	if parts[0].Found == 0 {
		t.Fatal("the first subtree holds a solution: the mark is not stray")
	}
	if parts[0].Heeded == nil && parts[1].Heeded == nil {
		t.Fatal("no task heeded the mark")
	}
	if _, _, err := search.Join(parts); !errors.Is(err, search.ErrUnreported) {
		t.Errorf("Join: %v, want ErrUnreported", err)
	}
	if _, err := search.NextPlan(parts, 2); err == nil {
		t.Error("NextPlan planned past the mark")
	}
}
