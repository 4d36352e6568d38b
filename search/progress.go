package search

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Progress is a report on a search under way: see Options.Progress.
type Progress struct {
	Bound     int    // the iteration's bound on the solution's length
	Generated uint64 // nodes generated in the iteration so far, all of them once Done
	Done      bool   // whether the iteration is over
	// Forecast is the iteration's expected nodes: the last one's times
	// the growth from the one before it (0 until two are done).
	Forecast uint64
	Total    uint64        // nodes generated in every iteration so far
	Elapsed  time.Duration // since the search started
	// Tasks is the number of subtrees the iteration is cut into, if it is
	// a round (0 if not), and Memory the bytes its frontiers take: its
	// own and the one that ranks it (Options.Frontier).
	Tasks  int
	Memory uint64
}

// NodesPerSecond returns the search's rate so far.
func (p Progress) NodesPerSecond() float64 {
	if p.Elapsed <= 0 {
		return 0
	}
	return float64(p.Total) / p.Elapsed.Seconds()
}

// String formats the report on one line, such as "bound 54: 1.20 G nodes
// of about 3.40 G (35%), 14.1 Mnodes/s, 1m25s, about 2m40s left"; where
// the iteration is a round, its tasks and their memory follow the nodes:
// ", 1.47 M tasks (61.2 MB)".
func (p Progress) String() string {
	rate := p.NodesPerSecond()
	s := fmt.Sprintf("bound %d: %s nodes", p.Bound, metric(p.Generated))
	switch {
	case p.Done:
		s += ", done"
	case p.Forecast > 0:
		s += fmt.Sprintf(" of about %s (%.0f%%)", metric(p.Forecast), 100*float64(p.Generated)/float64(p.Forecast))
	}
	if p.Tasks > 0 {
		unit := "B"
		if p.Memory < 1000 {
			unit = " B"
		}
		s += fmt.Sprintf(", %s tasks (%s%s)", metric(uint64(p.Tasks)), metric(p.Memory), unit)
	}
	s += fmt.Sprintf(", %.1f Mnodes/s, %v", rate/1e6, p.Elapsed.Round(time.Second))
	if !p.Done && p.Forecast > p.Generated && rate > 0 {
		left := time.Duration(float64(p.Forecast-p.Generated) / rate * float64(time.Second))
		s += fmt.Sprintf(", about %v left", left.Round(time.Second))
	}
	return s
}

// metric writes n to three figures with a metric prefix: 950, 1.20 k,
// 34.2 M, 1.20 T.
func metric(n uint64) string {
	if n < 1000 {
		return fmt.Sprint(n)
	}
	x := float64(n)
	for _, prefix := range []string{" k", " M", " G", " T", " P"} {
		if x /= 1000; x < 999.5 {
			return fmt.Sprintf("%.3g%s", x, prefix)
		}
	}
	return fmt.Sprintf("%.3g E", x/1000)
}

// DefaultProgressEvery is the period of a search's progress reports (and
// the time before the first) unless Options.ProgressEvery says otherwise.
const DefaultProgressEvery = 5 * time.Second

// reporter calls Options.Progress from the search's goroutines: at the end
// of each iteration, and within one when a worker, checking in every
// stopCheck expansions, finds the next report due. Reports begin once the
// search has run for a period, so that a batch of quick searches pays
// next to nothing for them: no goroutine, no timer, no call. A nil
// *reporter's begin, cut and end do nothing.
type reporter struct {
	report func(Progress)
	t0     time.Time
	every  time.Duration
	due    deadline // of the next report within an iteration
	// live is the current iteration's nodes, as the workers publish them
	// every stopCheck expansions, without the lock.
	live atomic.Uint64

	mu    sync.Mutex // serializes the calls, and guards the fields below
	bound int
	// forecast is the current iteration's; total the nodes of the ones
	// done.
	forecast, total uint64
	// The round's tasks and their frontiers' memory (Progress).
	tasks  int
	memory uint64
}

func newReporter(report func(Progress), every time.Duration, t0 time.Time) *reporter {
	r := &reporter{report: report, t0: t0, every: every}
	r.due.set(every)
	return r
}

// checkIn reports within the iteration if a report is due, and no other
// worker took it. The next is due a period after this one returns, so
// that a slow callback does not take over the search.
func (r *reporter) checkIn() {
	if !r.due.take(time.Since(r.t0)) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	live := r.live.Load()
	r.report(Progress{Bound: r.bound, Generated: live, Forecast: r.forecast, Total: r.total + live, Elapsed: time.Since(r.t0), Tasks: r.tasks, Memory: r.memory})
	r.due.set(time.Since(r.t0) + r.every)
}

// begin starts an iteration's reports, with the ones before it done.
func (r *reporter) begin(bound int, done []Iteration) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.bound, r.forecast, r.tasks, r.memory = bound, 0, 0, 0
	if n := len(done); n >= 2 && done[n-2].Generated > 0 {
		r.forecast = uint64(float64(done[n-1].Generated) * float64(done[n-1].Generated) / float64(done[n-2].Generated))
	}
	r.live.Store(0)
}

// cut tells the reports the iteration's tasks, and their frontiers'
// memory.
func (r *reporter) cut(tasks int, memory uint64) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.tasks, r.memory = tasks, memory
	r.mu.Unlock()
}

// end reports an iteration done, once the search has run for a period.
func (r *reporter) end(it Iteration) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.total += it.Generated
	if elapsed := time.Since(r.t0); elapsed >= r.every {
		r.report(Progress{Bound: r.bound, Generated: it.Generated, Done: true, Forecast: r.forecast, Total: r.total, Elapsed: elapsed, Tasks: r.tasks, Memory: r.memory})
	}
}
