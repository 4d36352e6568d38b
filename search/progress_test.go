package search_test

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fifteen/data"
	"fifteen/puzzle"
	"fifteen/search"
)

// TestProgress searches Korf's instance 2 with Manhattan distance
// (55 moves, millions of nodes), reporting every millisecond: the
// iterations that end after the first millisecond are reported done with
// their counts, reports within one never exceed its count, forecasts come
// once two iterations are done, rounds report their tasks and memory, and
// no two calls overlap.
func TestProgress(t *testing.T) {
	h, err := search.Classic("manhattan", puzzle.Size{Rows: 4, Cols: 4}, puzzle.GoalFirst)
	if err != nil {
		t.Fatal(err)
	}
	in := data.Korf100()[1]
	for _, threads := range []int{1, 2} {
		var reports []search.Progress
		var inside atomic.Bool
		opts := search.Options{Frontier: search.DefaultFrontier, Threads: threads, ProgressEvery: time.Millisecond, Progress: func(p search.Progress) {
			if inside.Swap(true) {
				t.Error("two progress calls at once")
			}
			reports = append(reports, p)
			time.Sleep(100 * time.Microsecond)
			inside.Store(false)
		}}
		res := solve(t, board(in), puzzle.GoalFirst, h, opts, in.Optimal)
		index := map[int]int{} // bound → iteration
		totals := make([]uint64, len(res.Iterations))
		var total uint64
		for i, it := range res.Iterations {
			index[it.Bound] = i
			total += it.Generated
			totals[i] = total
		}
		done, within, rounds := 0, 0, 0
		for k, p := range reports {
			if p.Tasks > 0 && p.Memory > 0 {
				rounds++
			}
			i, ok := index[p.Bound]
			if !ok || k > 0 && (p.Total < reports[k-1].Total || p.Elapsed < reports[k-1].Elapsed) || p.Elapsed < time.Millisecond {
				t.Fatalf("threads=%d: report %d, %+v, after %+v", threads, k, p, reports[max(k-1, 0)])
			}
			it := res.Iterations[i]
			if p.Done {
				done++
				if p.Generated != it.Generated || p.Total != totals[i] {
					t.Errorf("threads=%d: iteration %+v reported done as %+v", threads, it, p)
				}
				continue
			}
			within++
			if p.Generated > it.Generated || (i >= 2) != (p.Forecast > 0) || !strings.HasPrefix(p.String(), "bound ") {
				t.Errorf("threads=%d: within iteration %d, %+v, report %+v (%s)", threads, i, it, p, p)
			}
		}
		if done == 0 || within == 0 || rounds == 0 || !reports[len(reports)-1].Done || reports[len(reports)-1].Bound != in.Optimal {
			t.Fatalf("threads=%d: %d reports done, %d within iterations, %d of rounds, the last %+v", threads, done, within, rounds, reports[len(reports)-1])
		}
	}
}

func TestProgressEveryValidated(t *testing.T) {
	opts := search.Options{Frontier: search.DefaultFrontier, ProgressEvery: -time.Second}
	if opts.Validate() == nil {
		t.Error("a negative ProgressEvery accepted")
	}
}

func TestProgressString(t *testing.T) {
	for _, c := range []struct {
		p    search.Progress
		want string
	}{
		{search.Progress{Bound: 54, Generated: 1_200_000_000, Forecast: 3_400_000_000, Total: 1_410_000_000, Elapsed: 100 * time.Second},
			"bound 54: 1.2 G nodes of about 3.4 G (35%), 14.1 Mnodes/s, 1m40s, about 2m36s left"},
		{search.Progress{Bound: 41, Generated: 950, Done: true, Total: 1000, Elapsed: time.Millisecond},
			"bound 41: 950 nodes, done, 1.0 Mnodes/s, 0s"},
		{search.Progress{Bound: 100, Generated: 52_000_000, Forecast: 150_000_000, Total: 70_000_000, Elapsed: 7 * time.Second, Tasks: 1_473_271, Memory: 61_200_000},
			"bound 100: 52 M nodes of about 150 M (35%), 1.47 M tasks (61.2 MB), 10.0 Mnodes/s, 7s, about 10s left"},
		{search.Progress{Bound: 30, Generated: 2000, Done: true, Total: 2000, Elapsed: time.Millisecond, Tasks: 6, Memory: 84},
			"bound 30: 2 k nodes, done, 6 tasks (84 B), 2.0 Mnodes/s, 0s"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}
