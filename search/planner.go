package search

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"fifteen/puzzle"
)

// A round's cut depth starts at firstCutDepth and follows the frontier
// of the round before. Searching depth-first, it holds tasksPerThread to
// 4·tasksPerThread tasks a goroutine: enough that the last ones to finish
// are small. Ranked, it holds as many as the frontier's budget allows,
// up to one for nodesPerTask nodes of the iteration before, and at least
// minRanked: a finer frontier ranks better (docs/experiments.md), and a
// task costs a replay of its path and a load of the heuristic's state.
const (
	tasksPerThread = 32
	firstCutDepth  = 6
	nodesPerTask   = 256
	minRanked      = 256
)

// planner makes the rounds' tasks by the fixed-depth cut: it cuts each
// round at the depth it planned from the round before, and ranks the
// tasks by their sizes there. It is the search's calling goroutine's.
type planner struct {
	// budget is the frontiers' memory in bytes, 0 if the rounds take
	// their tasks depth-first (Options.Frontier). planned says the cut is
	// a split search's task's: at its plan's depth, whatever it holds, and
	// depth-first.
	budget  int
	planned bool
	// rounds says whether the search cuts its large iterations into
	// rounds, chosen once: with more than one thread, with checkpoints, or
	// with a ranked frontier (isRound).
	rounds bool
	// cutDepth is the depth planned for the next round, prev the last
	// round searched whole, which planned it, and front that round's
	// frontier, with its sizes, which ranks the next round's tasks (nil
	// if the rounds are not ranked).
	cutDepth int
	prev     *Round
	front    *frontier
}

// parallelAbove is the size (nodes generated) of an iteration after which
// a search that cuts its iterations cuts the next into a round; the
// iterations before are too small to be worth cutting up (measurements:
// docs/experiments.md).
const parallelAbove = 1 << 8

// isRound reports whether the iteration after its is searched as a round
// of tasks, the one rule: in a split search's task, always; in a search
// that cuts its iterations (rounds), once the last generated
// parallelAbove nodes or more; otherwise never.
func (p *planner) isRound(its []Iteration) bool {
	return p.planned || p.rounds && len(its) > 0 && its[len(its)-1].Generated >= parallelAbove
}

// ranked reports whether the rounds rank their tasks by the frontier
// before.
func (p *planner) ranked() bool { return p.budget > 0 }

// produce cuts the round at the depth planned (cut), and ranks its tasks.
func (p *planner) produce(w *worker, f *frontier, bound int) ([]int32, int, int, bool) {
	_, found := p.cut(w, f, bound, p.cutDepth)
	return p.rank(w, f), 0, f.count(), found
}

// learn plans the next round from this one: the round searched whole is
// the one the next is planned from, and its frontier, ranked, ranks the
// next round's tasks.
func (p *planner) learn(f *frontier, threads int, nodes uint64, whole bool) {
	if whole {
		p.prev = &Round{Bound: f.bound, CutDepth: f.depth, Tasks: f.count(), Threads: threads}
		if p.ranked() {
			p.front = f
		}
	}
	p.cutDepth = nextCutDepth(f.depth, f.count(), threads, p.ranked(), p.budget, nodes)
}

// cut cuts the iteration of bound into f with w, at the depth planned if
// the frontier fits its room there, else a move shallower each time, and
// returns the depth, and whether the cut met a solution above it. The
// nodes of a cut given up are not counted in the iteration's (the
// progress reports count them while it lasts): the cut a move shallower
// generates them again.
func (p *planner) cut(w *worker, f *frontier, bound, planned int) (depth int, found bool) {
	depth = max(min(planned, (bound-1)/w.gw), 1)
	for {
		found = p.list(w, f, bound, depth, p.room(depth))
		if !f.full {
			return depth, found
		}
		w.begin(bound)
		depth--
	}
}

// room returns the bytes a round's frontier cut at depth may take, 0 if
// any: ranked, the budget less the frontier that ranks it; depth-first,
// depthFirstRoom. A split search's task cuts at its plan's depth, and a
// cut at depth 1 lists four nodes at most: theirs take what they need.
func (p *planner) room(depth int) int {
	switch {
	case depth <= 1 || p.planned:
		return 0
	case p.ranked():
		return max(p.budget-int(p.front.memory()), 1)
	}
	return depthFirstRoom
}

// list lists in f, with w, the nodes that the iteration of bound reaches
// at depth, in depth-first order, within room bytes (0: any); past them,
// f is full, and the cut given up. It reports whether it met a solution
// above depth. The nodes above depth count in w's.
func (p *planner) list(w *worker, f *frontier, bound, depth, room int) bool {
	f.reset(bound, depth, room, cmp.Or(p.budget, depthFirstRoom))
	w.bound, w.next = bound, math.MaxInt
	w.listing, w.listDepth = f, depth
	found := w.descend(0, &w.st.sums, 0)
	w.listing, w.listDepth = nil, -1
	return found
}

// nextCutDepth returns the cut depth of the round after one cut at depth
// into n tasks, which generated nodes. A move deeper about doubles the
// tasks, and so does the next iteration at the same depth. Ranked, the
// depth does not depend on the threads, so that neither does the order,
// nor the answer.
func nextCutDepth(depth, n, threads int, ranked bool, budget int, nodes uint64) int {
	lo, hi := tasksPerThread*threads, 4*tasksPerThread*threads
	if ranked {
		hi = max(min(budget/nodeBytes(depth), max(minRanked, int(min(nodes/nodesPerTask, math.MaxInt32)))), 1)
		lo = hi / 8
	}
	switch {
	case n > hi:
		return max(depth-bits.Len(uint(n/hi)), 1)
	case n < lo:
		return depth + max(bits.Len(uint(hi/(4*max(n, 1))))-1, 1)
	}
	return depth
}

// rank returns the order in which the round takes f's tasks: by the nodes
// their subtrees generated in the round before, prev (the planner's
// front), the largest first, and in depth-first order where they tie. The iteration before
// searched the same tree to a smaller bound, so a subtree's size there
// foretells where the solution lies better than the heuristic does
// (docs/experiments.md, 2026-11-27). A node weighs its size in prev;
// cut deeper than prev, what its ancestor there weighed; cut shallower,
// what its descendants there weighed together; and a node new to the
// frontier, nothing. Without a front, the order is depth-first. The
// worker w tells which order the search meets the nodes in.
func (p *planner) rank(w *worker, f *frontier) []int32 {
	prev := p.front
	n := f.count()
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	if prev == nil || prev.count() == 0 {
		return order
	}
	// Both frontiers are in depth-first order, and so are the truncations
	// of their paths to the shallower depth: one pass pairs them.
	m := min(f.depth, prev.depth)
	weights := make([]uint64, n)
	j := 0
	for i := range n {
		path := f.path(i)[:m]
		for j < prev.count() && w.compareDFS(prev.path(j)[:m], path) < 0 {
			j++
		}
		for k := j; k < prev.count() && slices.Equal(prev.path(k)[:m], path); k++ {
			weights[i] += prev.sizes[k]
		}
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(weights[b], weights[a]) })
	return order
}

// split returns the depth at which to cut the iteration of bound among
// tasks tasks, and the subtrees' paths there in depth-first order. Every
// task searches the iteration above the cut to find its subtrees, so the
// cut is the first depth that holds subtreesPerTask subtrees a task, or,
// in an iteration too small for that, the depth whose cut and share of
// the subtrees below it cost a task least, the iteration expected to
// generate about total nodes. Tasks beyond the subtrees get none.
// The worker w cuts it.
func (p *planner) split(w *worker, bound, tasks int, total uint64) (int, []string) {
	want := subtreesPerTask * tasks
	bestDepth, bestCost := 1, math.Inf(1)
	var best []string
	var f frontier
	for depth := 1; depth < MaxLength && depth*w.gw < bound; depth++ {
		w.begin(bound)
		p.list(w, &f, bound, depth, 0)
		above := float64(w.generated)
		if above >= bestCost {
			break // a deeper cut alone costs more
		}
		n := f.count()
		if cost := above + max(float64(total)-above, 0)/float64(max(min(n, tasks), 1)); cost < bestCost || n >= want {
			bestDepth, bestCost = depth, cost
			best = best[:0]
			for i := range n {
				best = append(best, puzzle.FormatMoves(f.path(i)))
			}
		}
		if n >= want || n == 0 {
			break
		}
	}
	return bestDepth, best
}
