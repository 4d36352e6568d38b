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
		st := &stream{ctx: ctx, inOrder: make(chan *job, 2*jobs), work: make(chan *job)}
		defer func() {
			cancel()
			st.workers.Wait()
		}()
		for range jobs {
			st.workers.Go(func() { st.solve(s, opts) })
		}
		go st.read(puzzles)
		st.yieldAll(yield)
	}
}

// A job is one puzzle of a stream, with its result once done is closed.
type job struct {
	res     Result
	err     error
	started bool
	done    chan struct{}
}

// stream is one call of SolveAll: the goroutine that reads the input
// sends each job to inOrder, the window of jobs in input order, and those
// to search to work, which the workers take; the caller's goroutine
// yields each job of the window once it is done.
type stream struct {
	ctx     context.Context // ends when the caller's does, or its loop stops
	inOrder chan *job       // closed when the input is over, or ctx ends
	work    chan *job
	workers sync.WaitGroup

	// Set by the reader before it closes inOrder: a panic of the input,
	// which is raised again in the caller's goroutine, where it can be
	// recovered, once the jobs before it are yielded. Read by the caller
	// after the close, and only then (over).
	panicked any
	over     bool // the caller's: whether it saw inOrder closed
}

// solve searches the jobs it takes from work until ctx ends; a job taken
// after is closed unstarted.
func (st *stream) solve(s *Solver, opts Options) {
	for {
		select {
		case j := <-st.work:
			if st.ctx.Err() == nil {
				j.started = true
				j.res, j.err = s.Solve(st.ctx, j.res.Puzzle, opts)
			}
			close(j.done)
		case <-st.ctx.Done():
			return
		}
	}
}

// read sends the input's puzzles to the window, and those without an
// error to the workers, until the input is over or ctx ends.
func (st *stream) read(puzzles iter.Seq2[puzzle.Puzzle, error]) {
	defer close(st.inOrder)
	defer func() { st.panicked = recover() }()
	for p, err := range puzzles {
		j := &job{res: Result{Puzzle: p}, err: err, started: err != nil, done: make(chan struct{})}
		select {
		case st.inOrder <- j:
		case <-st.ctx.Done():
			return
		}
		if err != nil {
			close(j.done)
			continue
		}
		select {
		case st.work <- j:
		case <-st.ctx.Done():
			close(j.done) // not started
			return
		}
	}
}

// yieldAll yields the window's jobs in order, each once done, until the
// input is over, ctx ends or yield returns false; then it raises again a
// panic of the input.
func (st *stream) yieldAll(yield func(Result, error) bool) {
	for j, ok := st.next(); ok; j, ok = st.next() {
		<-j.done
		if j.started && !yield(j.res, j.err) {
			return
		}
	}
	if st.over && st.panicked != nil {
		panic(st.panicked)
	}
}

// next returns the window's next job. Once ctx ends, the jobs in the
// window are yielded, but the input, which may be blocked reading, is not
// waited for.
func (st *stream) next() (*job, bool) {
	select {
	case j, ok := <-st.inOrder:
		st.over = !ok
		return j, ok
	case <-st.ctx.Done():
		select {
		case j, ok := <-st.inOrder:
			return j, ok
		default:
			return nil, false
		}
	}
}
