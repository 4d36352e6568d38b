package solver

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime"
	"sync"

	"fifteen/puzzle"
)

// ErrNoPuzzles is what SolveAll yields for a nil stream.
var ErrNoPuzzles = errors.New("SolveAll of a nil stream")

// MaxJobs bounds SolveAll's jobs: each holds a search's state.
const MaxJobs = 256

// ErrJobs is what SolveAll yields for more than MaxJobs jobs.
var ErrJobs = fmt.Errorf("SolveAll of more than %d jobs at once", MaxJobs)

// SolveAll solves a stream of puzzles, jobs at a time (below 1:
// runtime.GOMAXPROCS), and yields each one's result and error in input
// order, as soon as it and every puzzle before it are done. An error that
// the input pairs with a puzzle (a malformed line, say) is yielded in its
// place, with that puzzle, unsolved. At most 2·jobs puzzles are held at
// once, so a stream of any length takes bounded memory, and the input is
// read only as fast as the puzzles are solved.
//
// When ctx ends, the searches under way stop and are yielded with their
// counts so far and an error (see Solve); the puzzles not yet started are
// not yielded. When the loop over the results stops early, the searches
// under way are stopped and waited for. The input is read by another
// goroutine, which stops at its next step once the results' loop is over;
// a panic there is raised again in the loop's goroutine, after the
// results before it.
func (s *Solver) SolveAll(ctx context.Context, puzzles iter.Seq2[puzzle.Puzzle, error], jobs int, opts Options) iter.Seq2[Result, error] {
	if jobs < 1 {
		jobs = runtime.GOMAXPROCS(0)
	}
	return func(yield func(Result, error) bool) {
		switch {
		case puzzles == nil:
			yield(Result{}, ErrNoPuzzles)
			return
		case jobs > MaxJobs:
			yield(Result{}, ErrJobs)
			return
		}
		ctx, cancel := context.WithCancel(ctx)
		var workers sync.WaitGroup
		defer func() {
			cancel()
			workers.Wait()
		}()
		type job struct {
			res     Result
			err     error
			started bool
			done    chan struct{}
		}
		inOrder := make(chan *job, 2*jobs) // the window, in input order
		work := make(chan *job)
		for range jobs {
			workers.Go(func() {
				for {
					select {
					case j := <-work:
						if ctx.Err() == nil {
							j.started = true
							j.res, j.err = s.Solve(ctx, j.res.Puzzle, opts)
						}
						close(j.done)
					case <-ctx.Done():
						return
					}
				}
			})
		}
		// A panic of the input is raised again in the caller's goroutine,
		// where it can be recovered, once the jobs before it are yielded.
		var panicked any
		go func() {
			defer close(inOrder)
			defer func() { panicked = recover() }()
			for p, err := range puzzles {
				j := &job{res: Result{Puzzle: p}, err: err, started: err != nil, done: make(chan struct{})}
				select {
				case inOrder <- j:
				case <-ctx.Done():
					return
				}
				if err != nil {
					close(j.done)
					continue
				}
				select {
				case work <- j:
				case <-ctx.Done():
					close(j.done) // not started
					return
				}
			}
		}()
		// Once ctx ends, the jobs in the window are yielded but the input,
		// which may be blocked reading, is not waited for.
		read := false // whether the input is over, and panicked set
		next := func() (*job, bool) {
			select {
			case j, ok := <-inOrder:
				read = !ok
				return j, ok
			case <-ctx.Done():
				select {
				case j, ok := <-inOrder:
					return j, ok
				default:
					return nil, false
				}
			}
		}
		for j, ok := next(); ok; j, ok = next() {
			<-j.done
			if j.started && !yield(j.res, j.err) {
				return
			}
		}
		if read && panicked != nil {
			panic(panicked)
		}
	}
}
