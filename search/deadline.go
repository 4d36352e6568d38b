package search

import (
	"math"
	"sync/atomic"
	"time"
)

// deadline is when something is next due within an iteration, as the
// time since the search started. The worker checking in that finds it
// due takes it, so that it alone acts.
type deadline struct{ at atomic.Int64 }

// take reports whether the deadline has passed at elapsed, and then
// clears it, for this caller alone.
func (d *deadline) take(elapsed time.Duration) bool {
	at := d.at.Load()
	return int64(elapsed) >= at && d.at.CompareAndSwap(at, math.MaxInt64)
}

// set sets the deadline at the time at since the search started.
func (d *deadline) set(at time.Duration) { d.at.Store(int64(at)) }
