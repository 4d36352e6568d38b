package search_test

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fifteen/bitboard"
	"fifteen/data"
	"fifteen/search"
)

// TestProgress searches Korf's instance 2 with Manhattan distance
// (55 moves, millions of nodes), reporting every millisecond: each
// iteration is reported done with its counts, reports within one never
// exceed its count, forecasts come once two iterations are done, and no
// two calls overlap.
func TestProgress(t *testing.T) {
	h, err := search.Classic("manhattan", bitboard.Size{Rows: 4, Cols: 4}, bitboard.GoalFirst)
	if err != nil {
		t.Fatal(err)
	}
	in := data.Korf100()[1]
	for _, threads := range []int{1, 2} {
		var reports []search.Progress
		var inside atomic.Bool
		opts := search.Options{Threads: threads, ProgressEvery: time.Millisecond, Progress: func(p search.Progress) {
			if inside.Swap(true) {
				t.Error("two progress calls at once")
			}
			reports = append(reports, p)
			time.Sleep(100 * time.Microsecond)
			inside.Store(false)
		}}
		res := solve(t, in.Board, bitboard.GoalFirst, h, opts, in.Optimal)
		var done []search.Progress
		within := 0
		for i, p := range reports {
			if i > 0 && (p.Total < reports[i-1].Total || p.Elapsed < reports[i-1].Elapsed) {
				t.Errorf("threads=%d: report %d goes back: %+v after %+v", threads, i, p, reports[i-1])
			}
			if p.Done {
				done = append(done, p)
				continue
			}
			within++
			if it := res.Iterations[len(done)]; p.Bound != it.Bound || p.Generated > it.Generated {
				t.Errorf("threads=%d: within iteration %+v, report %+v", threads, it, p)
			}
			if (len(done) >= 2) != (p.Forecast > 0) || !strings.HasPrefix(p.String(), "bound ") {
				t.Errorf("threads=%d: report %+v (%s) after %d iterations", threads, p, p, len(done))
			}
		}
		if len(done) != len(res.Iterations) || within == 0 {
			t.Fatalf("threads=%d: %d iterations reported done of %d, %d reports within them", threads, len(done), len(res.Iterations), within)
		}
		var total uint64
		for i, p := range done {
			it := res.Iterations[i]
			total += it.Generated
			if p.Bound != it.Bound || p.Generated != it.Generated || p.Total != total {
				t.Errorf("threads=%d: iteration %+v reported %+v", threads, it, p)
			}
		}
	}
}

func TestProgressEveryValidated(t *testing.T) {
	opts := search.Options{ProgressEvery: -time.Second}
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
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}
