package search

import (
	"cmp"
	"fmt"

	"fifteen/puzzle"
)

// An optimal answer rests on its iterations: IDA* finds no solution within
// the bound of each but the last, which begins at the start's estimate
// and rises each time to the smallest f above the one before. A result or
// checkpoint read from a file is checked against what the program can
// recompute: the first bound is the start's estimate, each rises from the
// one before, by no more than the search's next bound can where the
// heuristic bounds that, and (Solve's caller checks) the solution's
// length is the last. Whether the iterations were searched, only a search
// tells.

// CheckPath reports whether moves, a solution of start toward goal, could
// be the one the search under h with opts found in its iteration of
// bound (as Iteration.Bound counts it): a path that the pruning lets
// through, whose every node lies within the bound, as the search only
// descends into such nodes. A solution lengthened by a detour, a move and
// its undoing, fails it at any pruning depth.
func CheckPath(start puzzle.Board, goal puzzle.Goal, h *Heuristic, opts Options, moves []puzzle.Move, bound int) error {
	if err := opts.Validate(); err != nil {
		return err
	}
	start, rotated, err := prepare(start, goal, h)
	if err != nil {
		return err
	}
	prune, err := prunerFor(cmp.Or(opts.PruneDepth, DefaultPruneDepth))
	if err != nil {
		return err
	}
	gw, hw := weights(opts.Weight)
	b, fs := start, int32(0)
	for g := 0; ; g++ {
		if f := gw*g + hw*h.Estimate(b); f/gw > bound {
			return fmt.Errorf("%w: the solution's node after %d moves lies past the bound %d (f %d)", ErrIterations, g, bound, f/gw)
		}
		if g == len(moves) {
			return nil
		}
		m := moves[g]
		if rotated {
			m = m.Opposite() // as the search moved on the rotated board
		}
		var ok bool
		if b, _, ok = b.Move(m); !ok || m > puzzle.Down {
			return fmt.Errorf("%w: move %d of the solution leaves the board", ErrIterations, g+1)
		}
		if fs = prune.next[fs][m]; fs < 0 {
			return fmt.Errorf("%w: move %d of the solution is one the search prunes", ErrIterations, g+1)
		}
	}
}

// CheckIterations reports whether its could be, in order, the iterations
// of the search of start toward goal under h with the weight
// (Options.Weight), followed, if next is not 0, by one of bound next, as
// f counts it (Checkpoint.Bound, Plan.Bound): the first bound is the
// start's estimate, and each rises from the one before, by as much as the
// search's next bound can at most where the heuristic bounds it: with an
// estimate that changes by one at a move (Manhattan distance, misplaced
// tiles) by one or two, with linear conflict by up to four. A database's
// estimate, the best over the blank's places, may change by more: its
// bounds are only checked to rise.
func CheckIterations(start puzzle.Board, goal puzzle.Goal, h *Heuristic, weight float64, its []Iteration, next int) error {
	if err := (&Options{Weight: weight}).Validate(); err != nil {
		return err
	}
	start, _, err := prepare(start, goal, h)
	if err != nil {
		return err
	}
	gw, hw := weights(weight)
	return checkBounds(h.Estimate(start), gw, hw, h.swing, its, next)
}

// checkBounds reports whether its, followed by an iteration of bound next
// (as f counts it) if next is not 0, could be a search's iterations in
// order: from a start whose estimate is h0, with f = gw·g + hw·h, and an
// estimate that changes by at most swing at a move. A child's f exceeds
// its parent's by gw + hw·swing at most, so the next bound lies no
// further above the last; Iteration.Bound rounds f down to whole moves,
// which can make two bounds of a weighted search equal.
func checkBounds(h0, gw, hw, swing int, its []Iteration, next int) error {
	bounds := make([]int, 0, len(its)+1)
	for _, it := range its {
		bounds = append(bounds, it.Bound)
	}
	if next != 0 {
		bounds = append(bounds, next/gw)
	}
	if len(bounds) == 0 {
		return fmt.Errorf("%w: none", ErrIterations)
	}
	if first := hw * h0 / gw; bounds[0] != first {
		return fmt.Errorf("%w: the first bound is %d, where the start's estimate makes it %d", ErrIterations, bounds[0], first)
	}
	least, most := 1, (gw+hw*swing+gw-1)/gw
	if gw > 1 {
		least = 0
	}
	if swing == 0 {
		most = maxBound // a rise the heuristic does not bound
	}
	for i := 1; i < len(bounds); i++ {
		if rise := bounds[i] - bounds[i-1]; rise < least || rise > most || bounds[i] > maxBound/gw {
			if swing == 0 {
				return fmt.Errorf("%w: bound %d after %d, where the bounds rise", ErrIterations, bounds[i], bounds[i-1])
			}
			return fmt.Errorf("%w: bound %d after %d, where the next lies %d to %d above", ErrIterations, bounds[i], bounds[i-1], least, most)
		}
	}
	return nil
}
