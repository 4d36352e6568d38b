package search

import (
	"context"
	"fmt"
)

// A resumed search trusts what its checkpoint says was searched, as only
// a search could tell, but checks the rest against what it recomputes
// (docs/failure-modes.md): the iterations begin at the start's estimate
// and rise as a search's do (checkBounds), each next bound no further
// than the least f above the bound that the search meets in that
// iteration above its cut (an upper bound on the next, found cheaply),
// the round before holds the tasks it says at the depth it says, the
// round under way is cut at the depth the search plans from it, and the
// tasks done lie among the round's. An edited
// checkpoint that skipped a bound would print a longer answer as
// optimal; one that claimed another cut would search the tree again and
// again.

// resume checks that the search can go on from cp, and sets the worker
// up to: the round before, the frontier that ranks the round under way,
// cut again, and that round's planned depth. Its errors are *ResumeError, or ctx's if
// the search is stopped on the way.
func (w *worker) resume(ctx context.Context, cp *Checkpoint) error {
	err := w.saves.resume(cp)
	if err == nil && w.share != nil {
		err = w.checkShare(cp)
	} else if err == nil {
		err = w.checkResumed(cp)
	}
	switch {
	case w.stop.Load():
		return ctx.Err()
	case err != nil:
		return &ResumeError{err}
	}
	return nil
}

// checkResumed checks a checkpoint of a search (not of a split search's
// task): its iterations and bound, the round before, and the round under
// way.
func (w *worker) checkResumed(cp *Checkpoint) error {
	its := cp.Iterations
	if cp.Bound <= 0 || cp.Bound > w.maxBound() {
		return fmt.Errorf("%w: bound %d, where this search's lie from 0 to %d", ErrIterations, cp.Bound/w.gw, w.maxBound()/w.gw)
	}
	if err := checkBounds(w.h.combine(&w.st.sums), w.gw, w.hw, w.h.swing, its, cp.Bound); err != nil {
		return fmt.Errorf("the checkpoint's iterations and bound %d: %w", cp.Bound/w.gw, err)
	}
	if err := w.checkPrevious(cp); err != nil {
		return err
	}
	planned := firstCutDepth
	if p := w.prev; p != nil {
		planned = nextCutDepth(p.CutDepth, p.Tasks, p.Threads, w.ranked(), w.budget, its[len(its)-1].Generated)
	}
	if err := w.checkNexts(its, cp.Bound, planned); err != nil {
		return err
	}
	if !w.isRound(its) {
		if cp.TasksDone() > 0 || cp.CutDepth != 0 && cp.CutDepth != planned {
			return fmt.Errorf("%w: tasks cut at depth %d, in an iteration that the search does not cut", ErrOtherSearch, cp.CutDepth)
		}
		w.cutDepth = planned
		return nil
	}
	return w.checkRound(cp, planned)
}

// checkPrevious checks the round before the one under way, which the
// search must have cut if it cuts the one before that, and cuts it again
// to find its tasks (and their sizes, with a ranked frontier).
func (w *worker) checkPrevious(cp *Checkpoint) error {
	its, p := cp.Iterations, cp.Previous
	switch {
	case p == nil && len(its) >= 2 && w.isRound(its[:len(its)-1]):
		return fmt.Errorf("%w: no round of iteration %d, which the search cuts", ErrOtherSearch, its[len(its)-1].Bound)
	case p == nil:
		return nil
	case len(its) == 0 || p.Bound/w.gw != its[len(its)-1].Bound || p.Threads < 1 || p.Threads > MaxThreads || p.Sizes != nil && len(p.Sizes) != p.Tasks:
		return fmt.Errorf("%w: a round of bound %d, %d tasks and %d sizes, by %d threads, before the iteration under way", ErrOtherSearch, p.Bound/w.gw, p.Tasks, len(p.Sizes), p.Threads)
	case (p.Sizes != nil) != w.ranked():
		return fmt.Errorf("%w: a round ranked (%v) where the search's are %v", ErrOtherSearch, p.Sizes != nil, w.ranked())
	}
	f, err := w.recut(p)
	if err != nil {
		return err
	}
	w.prev = p
	if w.ranked() {
		w.front = f
	}
	return nil
}

// checkShare checks a checkpoint of a split search's task: of its plan's
// iteration, and tasks of its run.
func (w *worker) checkShare(cp *Checkpoint) error {
	p := &w.share.plan
	if cp.Bound != p.Bound || cp.CutDepth != p.CutDepth || cp.Previous != nil || len(cp.Iterations) > 0 {
		return fmt.Errorf("%w: bound %d cut at %d, where the plan's is %d cut at %d", ErrOtherSearch, cp.Bound, cp.CutDepth, p.Bound, p.CutDepth)
	}
	return w.checkRound(cp, p.CutDepth)
}

// isRound reports whether the search cuts the iteration after its into
// tasks (run): once the last has generated parallelAbove nodes.
func (w *worker) isRound(its []Iteration) bool {
	return len(its) > 0 && its[len(its)-1].Generated >= parallelAbove
}

// checkNexts checks that each iteration's next bound, the bound of the
// one after it or of the one under way, is no more than the least f
// above its bound that the search meets in it above the planned cut
// depth, as the next is the least f above the bound that the whole
// iteration meets; and that no iteration holds a solution there. The
// bounds of a weighted search, which Iteration rounds down, are not
// checked.
func (w *worker) checkNexts(its []Iteration, bound, planned int) error {
	if w.gw != 1 {
		return nil
	}
	f := new(frontier)
	for i, it := range its {
		next := bound
		if i+1 < len(its) {
			next = its[i+1].Bound
		}
		w.fit(it.Bound)
		depth, found := w.cutRound(f, it.Bound, planned)
		met := w.next
		w.expanded, w.generated, w.aborted = 0, 0, false
		switch {
		case w.stop.Load():
			return nil // resume returns ctx's error
		case found:
			return fmt.Errorf("%w: iteration %d holds a solution", ErrIterations, it.Bound)
		case next > met:
			return fmt.Errorf("%w: bound %d after %d, where that iteration meets f %d above depth %d, and so its next bound is at most %d", ErrIterations, next, it.Bound, met, depth, met)
		}
	}
	return nil
}

// checkRound checks the round under way: cut at the depth that the
// search chooses (cutRound, from planned), and the tasks done among its
// own. The checkpoint's cut depth is that depth, or, before any task is
// done, the depth planned.
func (w *worker) checkRound(cp *Checkpoint, planned int) error {
	f := new(frontier)
	w.fit(cp.Bound)
	depth, _ := w.cutRound(f, cp.Bound, planned)
	w.expanded, w.generated, w.aborted = 0, 0, false
	if w.stop.Load() {
		return nil // resume returns ctx's error
	}
	done := w.saves.done
	if depth != cp.CutDepth && (len(done) > 0 || cp.CutDepth != planned) {
		return fmt.Errorf("%w: its round is cut at depth %d, where the search cuts it at %d", ErrOtherSearch, cp.CutDepth, depth)
	}
	lo, hi := 0, f.len()
	if w.share != nil {
		lo, hi = w.share.run(f)
	}
	if n := len(done); n > 0 && (done[0].pos < int64(lo) || done[n-1].pos >= int64(hi)) {
		return fmt.Errorf("%w: its tasks done lie from %d to %d, where its round's run from %d to %d", ErrOtherSearch, done[0].pos, done[n-1].pos, lo, hi-1)
	}
	w.cutDepth = planned
	return nil
}

// recut returns the frontier of the round r, cut again from the worker's
// node, once it has checked that it holds r's tasks: with r's sizes, if
// it has them.
func (w *worker) recut(r *Round) (*frontier, error) {
	if r.CutDepth < 1 || r.CutDepth*w.gw >= r.Bound || r.Bound > w.maxBound() {
		return nil, fmt.Errorf("%w: a round cut at depth %d of bound %d", ErrOtherSearch, r.CutDepth, r.Bound)
	}
	f := new(frontier)
	w.fit(r.Bound)
	found := w.cutAt(f, r.Bound, r.CutDepth, w.room(r.CutDepth))
	w.expanded, w.generated = 0, 0
	if found || w.full || f.len() != r.Tasks {
		w.full, w.aborted = false, false
		return nil, fmt.Errorf("%w: its round before lists %d tasks at depth %d of bound %d, not the search's", ErrOtherSearch, r.Tasks, r.CutDepth, r.Bound)
	}
	// Sized exactly, as the frontier was: its memory bounds the next's.
	f.sizes = append(make([]uint64, 0, len(r.Sizes)), r.Sizes...)
	return f, nil
}
