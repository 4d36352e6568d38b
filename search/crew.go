package search

import (
	"runtime"
	"sync/atomic"
)

// crew is the goroutines that search a round's tasks beside the caller.
// They live as long as the search and spin between its iterations: a
// goroutine started for each iteration took longer to run than most
// iterations take (docs/experiments.md).
type crew struct {
	size  int
	round atomic.Pointer[round] // the latest
	done  atomic.Bool
}

// startCrew starts a crew of size goroutines.
func startCrew(size int) *crew {
	team := &crew{size: size}
	for i := 1; i <= size; i++ {
		go team.help(i)
	}
	return team
}

// search searches the round's tasks with the crew beside the calling
// goroutine, each with its own copy of the worker w, all made before any
// starts.
func (team *crew) search(r *round, w *worker) {
	r.copies = make([]*worker, team.size+1)
	for i := range r.copies {
		r.copies[i] = w.clone()
	}
	team.round.Store(r)
	r.work(r.copies[0])
	r.wait()
}

// help joins each round once, as the worker copy numbered i. One that
// joins late claims nothing: its claims fail, touching only the round's
// counters.
func (team *crew) help(i int) {
	var last *round
	for !team.done.Load() {
		if r := team.round.Load(); r != last {
			last = r
			r.work(r.copies[i])
		}
		runtime.Gosched()
	}
}

// release sends the crew home.
func (team *crew) release() { team.done.Store(true) }
