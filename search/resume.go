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
// round under way is cut at the depth the search plans from it (or, at a
// contour, listed at the distance the checkpoint says, within the
// budget), and the tasks done lie among the round's. An edited
// checkpoint that skipped a bound would print a longer answer as
// optimal; one that claimed another cut would search the tree again and
// again. What a search cannot recompute cheaply, such as which of the
// distances a contour grew through it took, the seal of the command
// tier's files guards (internal/seal).

// A resumption is a search checking the checkpoint it resumes from, cp:
// its worker, which cuts the iterations again, its planner, which the
// checks set up, its checkpoints, a split search's task's share (nil in
// the others), its contour, and the largest bound it takes.
type resumption struct {
	w       *worker
	plan    *planner
	saves   *checkpointer
	share   *sharer
	contour *contour // nil in a search cut at fixed depths
	limit   int
	cp      *Checkpoint
}

// resume checks that the search can go on from c.cp, and sets it up to:
// the round before, the frontier that ranks the round under way, cut
// again, and that round's planned depth. Its errors are *ResumeError, or
// ctx's if the search is stopped on the way.
func resume(ctx context.Context, c resumption) error {
	err := c.saves.restore(c.cp)
	if err == nil && c.share != nil {
		err = c.checkShare()
	} else if err == nil {
		err = c.checkSearch()
	}
	switch {
	case c.w.shared.stop.Load():
		return ctx.Err()
	case err != nil:
		return &ResumeError{err}
	}
	return nil
}

// checkSearch checks a checkpoint of a search (not of a split search's
// task): its iterations and bound, the round before, and the round under
// way.
func (c resumption) checkSearch() error {
	w, its := c.w, c.cp.Iterations
	if c.cp.Bound <= 0 || c.cp.Bound > c.limit {
		return fmt.Errorf("%w: bound %d, where this search's lie from 0 to %d", ErrIterations, c.cp.Bound/w.gw, c.limit/w.gw)
	}
	if err := checkBounds(w.h.combine(&w.st.sums), w.gw, w.hw, w.h.swing, its, c.cp.Bound); err != nil {
		return fmt.Errorf("the checkpoint's iterations and bound %d: %w", c.cp.Bound/w.gw, err)
	}
	if c.contour != nil {
		return c.checkContour()
	}
	if err := c.checkPrevious(); err != nil {
		return err
	}
	planned := firstCutDepth
	if p := c.plan.prev; p != nil {
		planned = nextCutDepth(p.CutDepth, p.Tasks, p.Threads, c.plan.ranked(), c.plan.budget, its[len(its)-1].Generated)
	}
	if err := c.checkNexts(planned); err != nil {
		return err
	}
	if !c.plan.isRound(its) {
		if c.cp.TasksDone() > 0 || c.cp.CutDepth != 0 && c.cp.CutDepth != planned {
			return fmt.Errorf("%w: tasks cut at depth %d, in an iteration that the search does not cut", ErrOtherSearch, c.cp.CutDepth)
		}
		c.plan.cutDepth = planned
		return nil
	}
	return c.checkRound(planned)
}

// checkContour checks a checkpoint of a search cut at a contour: no round
// before (the contour's order is its nodes' estimates alone), the
// iterations' next bounds (checkNexts), and the contour's distance; and,
// if the iteration under way is a round, that its frontier, listed again
// there, fits the budget and holds the tasks done. The round under way
// is then listed at that distance, as the search it resumes listed it.
func (c resumption) checkContour() error {
	cp := c.cp
	switch {
	case cp.Previous != nil:
		return fmt.Errorf("%w: a round before ranked by its sizes, in a search cut at a contour", ErrOtherSearch)
	case cp.CutDepth != 0:
		return fmt.Errorf("%w: a round cut at depth %d, in a search cut at a contour", ErrOtherSearch, cp.CutDepth)
	case cp.Contour < contourSteps || cp.Contour > MaxLength:
		return fmt.Errorf("%w: a contour %d moves of 2 below the bound, where a search's lie %d to %d below", ErrOtherSearch, cp.Contour, contourSteps, MaxLength)
	}
	if err := c.checkNexts(firstCutDepth); err != nil {
		return err
	}
	c.contour.steps = cp.Contour
	if !c.plan.isRound(cp.Iterations) {
		if cp.TasksDone() > 0 {
			return fmt.Errorf("%w: tasks done in an iteration that the search does not cut", ErrOtherSearch)
		}
		return nil
	}
	f := new(frontier)
	c.w.begin(cp.Bound)
	c.contour.list(c.w, f, cp.Bound, cp.Bound-2*cp.Contour*c.w.gw)
	switch {
	case c.w.shared.stop.Load():
		return nil // resume returns ctx's error
	case f.full:
		return fmt.Errorf("%w: its round's contour, %d moves of 2 below bound %d, lists more tasks than the frontier's budget holds", ErrOtherSearch, cp.Contour, cp.Bound/c.w.gw)
	}
	return c.checkDone(0, f.count())
}

// checkPrevious checks the round before the one under way, which the
// search must have cut if it cuts the one before that, and cuts it again
// to find its tasks (and their sizes, with a ranked frontier).
func (c resumption) checkPrevious() error {
	its, p, gw := c.cp.Iterations, c.cp.Previous, c.w.gw
	switch {
	case p == nil && len(its) >= 2 && c.plan.isRound(its[:len(its)-1]):
		return fmt.Errorf("%w: no round of iteration %d, which the search cuts", ErrOtherSearch, its[len(its)-1].Bound)
	case p == nil:
		return nil
	case len(its) == 0 || p.Bound/gw != its[len(its)-1].Bound || p.Threads < 1 || p.Threads > MaxThreads || p.Sizes != nil && len(p.Sizes) != p.Tasks:
		return fmt.Errorf("%w: a round of bound %d, %d tasks and %d sizes, by %d threads, before the iteration under way", ErrOtherSearch, p.Bound/gw, p.Tasks, len(p.Sizes), p.Threads)
	case (p.Sizes != nil) != c.plan.ranked():
		return fmt.Errorf("%w: a round ranked (%v) where the search's are %v", ErrOtherSearch, p.Sizes != nil, c.plan.ranked())
	}
	f, err := c.recut(p)
	if err != nil {
		return err
	}
	c.plan.prev = p
	if c.plan.ranked() {
		c.plan.front = f
	}
	return nil
}

// checkShare checks a checkpoint of a split search's task: of its plan's
// iteration, and tasks of its run.
func (c resumption) checkShare() error {
	p := &c.share.plan
	if c.cp.Bound != p.Bound || c.cp.CutDepth != p.CutDepth || c.cp.Previous != nil || len(c.cp.Iterations) > 0 {
		return fmt.Errorf("%w: bound %d cut at %d, where the plan's is %d cut at %d", ErrOtherSearch, c.cp.Bound, c.cp.CutDepth, p.Bound, p.CutDepth)
	}
	return c.checkRound(p.CutDepth)
}

// checkNexts checks that each iteration's next bound, the bound of the
// one after it or of the one under way, is no more than the least f
// above its bound that the search meets in it above the planned cut
// depth, as the next is the least f above the bound that the whole
// iteration meets; and that no iteration holds a solution there. The
// bounds of a weighted search, which Iteration rounds down, are not
// checked.
func (c resumption) checkNexts(planned int) error {
	w, its := c.w, c.cp.Iterations
	if w.gw != 1 {
		return nil
	}
	f := new(frontier)
	for i, it := range its {
		next := c.cp.Bound
		if i+1 < len(its) {
			next = its[i+1].Bound
		}
		w.begin(it.Bound)
		depth, found := c.plan.cut(w, f, it.Bound, planned)
		met := w.next
		switch {
		case c.w.shared.stop.Load():
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
// search chooses (planner.cut, from planned), and the tasks done among
// its own. The checkpoint's cut depth is that depth, or, before any task
// is done, the depth planned.
func (c resumption) checkRound(planned int) error {
	f := new(frontier)
	c.w.begin(c.cp.Bound)
	depth, _ := c.plan.cut(c.w, f, c.cp.Bound, planned)
	if c.w.shared.stop.Load() {
		return nil // resume returns ctx's error
	}
	done := c.saves.done
	if depth != c.cp.CutDepth && (len(done) > 0 || c.cp.CutDepth != planned) {
		return fmt.Errorf("%w: its round is cut at depth %d, where the search cuts it at %d", ErrOtherSearch, c.cp.CutDepth, depth)
	}
	lo, hi := 0, f.count()
	if c.share != nil {
		lo, hi = c.share.span(f)
	}
	if err := c.checkDone(lo, hi); err != nil {
		return err
	}
	c.plan.cutDepth = planned
	return nil
}

// checkDone checks that the tasks done lie among the positions lo to hi
// (excluded) of the round under way's order.
func (c resumption) checkDone(lo, hi int) error {
	done := c.saves.done
	if n := len(done); n > 0 && (done[0].pos < int64(lo) || done[n-1].pos >= int64(hi)) {
		return fmt.Errorf("%w: its tasks done lie from %d to %d, where its round's run from %d to %d", ErrOtherSearch, done[0].pos, done[n-1].pos, lo, hi-1)
	}
	return nil
}

// recut returns the frontier of the round r, cut again from the search's
// node, once it has checked that it holds r's tasks: with r's sizes, if
// it has them.
func (c resumption) recut(r *Round) (*frontier, error) {
	w := c.w
	if r.CutDepth < 1 || r.CutDepth*w.gw >= r.Bound || r.Bound > c.limit {
		return nil, fmt.Errorf("%w: a round cut at depth %d of bound %d", ErrOtherSearch, r.CutDepth, r.Bound)
	}
	f := new(frontier)
	w.begin(r.Bound)
	found := c.plan.list(w, f, r.Bound, r.CutDepth, c.plan.room(r.CutDepth))
	if found || f.full || f.count() != r.Tasks {
		return nil, fmt.Errorf("%w: its round before lists %d tasks at depth %d of bound %d, not the search's", ErrOtherSearch, r.Tasks, r.CutDepth, r.Bound)
	}
	// Sized exactly, as the frontier was: its memory bounds the next's.
	f.sizes = append(make([]uint64, 0, len(r.Sizes)), r.Sizes...)
	return f, nil
}
