package search

import (
	"cmp"
	"flag"
	"fmt"
	"slices"
	"testing"

	"fifteen/puzzle"
)

var contourRuns = flag.String("contour.steps", "1,2,3", "TestContourCeiling's contours, in steps of 2 below each iteration's bound, one run a `LIST` entry")

// TestContourCeiling measures a cheaper A*+IDA* offline (issue 69): each
// round's frontier is where the iteration of bound leaves the contour of a
// smaller bound, bound − 2·steps, which an IDA* pass lists at IDA*'s cost
// a node rather than A*'s. Like A*'s open list, it holds nodes of every
// depth, so that the last iteration can take them by h ascending, the
// deep ones near the goal first; unlike it, it keeps the duplicates that
// the pruning machine leaves, and is listed again in every round. The
// iterations before the last generate what plain IDA*'s do, plus an
// entry for each frontier node; the last is counted to its first
// solution, by h and by h then g descending. It runs on the instances of
// TestOrderCeiling's flags when -order.dir names the databases' directory.
func TestContourCeiling(t *testing.T) {
	if *orderDir == "" {
		t.Skip("an experiment: -order.dir DIR runs it")
	}
	steps := positiveList(t, "contour.steps", *contourRuns)
	h, ins := experimentStarts(t)
	var plainSum, rankedSum idaNodes
	var rankedLast uint64
	sums := make([]contourRun, len(steps))
	for _, in := range ins {
		start := in.start
		plain, ranked := lastIterations(t, h, start, 0), lastIterations(t, h, start, DefaultFrontier)
		nodeSeconds := plain.seconds / float64(plain.before+plain.last)
		t.Logf("%s: plain %d before the last, %d in it, %.2f s; ranked %d in it, %.2f s", in.id, plain.before, plain.last, plain.seconds, ranked.last, ranked.seconds)
		plainSum.before, plainSum.last, plainSum.seconds = plainSum.before+plain.before, plainSum.last+plain.last, plainSum.seconds+plain.seconds
		rankedLast, rankedSum.seconds = rankedLast+ranked.last, rankedSum.seconds+ranked.seconds
		for k, s := range steps {
			r := measureContour(t, h, start, plain, s, k == 0)
			r.projected = nodeSeconds*float64(plain.before+r.interior+r.last[0]) + r.entrySeconds
			t.Logf("%s: contour %d steps below: %s; projected %.2f s (%.3f of ranked)", in.id, s, r, r.projected, r.projected/ranked.seconds)
			sums[k].add(r)
		}
	}
	for k, s := range steps {
		r := sums[k]
		t.Logf("all, contour %d steps below: %s; plain before %d, last %d, %.1f s; ranked last %d, %.1f s; last by h %.4f of plain's, %.4f of ranked's; all by h %.3f of plain's nodes, %.3f of ranked's; projected %.1f s, %.3f of ranked's time",
			s, r, plainSum.before, plainSum.last, plainSum.seconds, rankedLast, rankedSum.seconds,
			float64(r.last[0])/float64(plainSum.last), float64(r.last[0])/float64(rankedLast),
			float64(plainSum.before+r.interior+r.last[0])/float64(plainSum.before+plainSum.last),
			float64(plainSum.before+r.interior+r.last[0])/float64(plainSum.before+rankedLast),
			r.projected, r.projected/rankedSum.seconds)
	}
}

// contourRun is what the contour frontier costs on one instance (or, in
// the sums, on all): the frontier nodes entered in the iterations before
// the last; in the last, the frontier's nodes, the nodes its listing
// generated, and, to its first solution in each of contourOrders, the
// nodes below it and (the first order's) the entries; the seconds all
// those entries take on one CPU, the time projected, and the iteration
// before the last searched through its frontier against plain's, if
// checked.
type contourRun struct {
	entries              uint64
	frontier             int
	interior             uint64
	last                 []uint64
	lastEntries          uint64
	entrySeconds         float64
	projected            float64
	checked, checkedWant uint64
}

func (r contourRun) String() string {
	s := fmt.Sprintf("%d entries before the last; in it a frontier of %d, its listing %d nodes, %d entries to the solution by h, %.0f ns an entry",
		r.entries, r.frontier, r.interior, r.lastEntries, r.entrySeconds*1e9/float64(max(r.entries+r.lastEntries, 1)))
	for i, n := range r.last {
		s += fmt.Sprintf("; below by %s %d", contourOrders[i].name, n)
	}
	if r.checkedWant > 0 {
		s += fmt.Sprintf("; the iteration before the last %d against plain's %d", r.checked, r.checkedWant)
	}
	return s
}

func (r *contourRun) add(o contourRun) {
	r.entries += o.entries
	r.frontier += o.frontier
	r.interior += o.interior
	r.lastEntries += o.lastEntries
	r.projected += o.projected
	r.entrySeconds += o.entrySeconds
	if r.last == nil {
		r.last = make([]uint64, len(o.last))
	}
	for i, n := range o.last {
		r.last[i] += n
	}
}

// contourOrders are the orders of the last iteration's frontier that
// TestContourCeiling compares; ties keep depth-first order.
var contourOrders = []struct {
	name string
	by   func(a, b astarNode) int
}{
	{"h", func(a, b astarNode) int { return cmp.Compare(a.h, b.h) }},
	{"h then deeper", func(a, b astarNode) int { return cmp.Or(cmp.Compare(a.h, b.h), cmp.Compare(b.g, a.g)) }},
}

// measureContour lists, for each iteration of bounds, the frontier of the
// contour steps below its bound, and searches below the last one's in each
// of contourOrders to its first solution. The iteration before the last is
// searched whole through its frontier, if check, and counted against
// plain's.
func measureContour(t *testing.T, h *Heuristic, start puzzle.Board, plain idaNodes, steps int, check bool) contourRun {
	bounds := plain.bounds
	prune, err := prunerFor(DefaultPruneDepth)
	if err != nil {
		t.Fatal(err)
	}
	w := newWorker(h, prune, puzzle.Moves, false, start, newShared(nil, nil))
	var r contourRun
	var perEntry float64
	last := len(bounds) - 1
	for i, bound := range bounds {
		inner := bound - 2*steps
		if inner < bounds[0] {
			if i == last { // a search too small to cut: plain's
				r.last = []uint64{plain.last, plain.last}
			}
			continue
		}
		nodes, listed := listContour(w, inner, bound)
		if i < last {
			r.entries += uint64(len(nodes))
			if check && i == last-1 {
				r.checked, r.checkedWant = listed+subtrees(w, nodes, bound, nil), plain.generated[i]
				if r.checked != r.checkedWant {
					t.Errorf("%v: the iteration of bound %d through its contour's frontier generated %d nodes, plain IDA* %d", start, bound, r.checked, r.checkedWant)
				}
			}
			continue
		}
		r.frontier, r.interior = len(nodes), listed
		perEntry = timeEntries(w, nodes, bound) / float64(max(len(nodes), 1))
		for k, o := range contourOrders {
			sorted := slices.Clone(nodes)
			slices.SortStableFunc(sorted, o.by)
			below, entries := firstSolution(w, sorted, bound)
			r.last = append(r.last, below)
			if k == 0 {
				r.lastEntries = entries
			}
		}
	}
	r.entrySeconds = perEntry * float64(r.entries+r.lastEntries)
	return r
}

// firstSolution searches below nodes, in their order, within bound, and
// returns the nodes generated to the first solution and the nodes
// entered.
func firstSolution(w *worker, nodes []astarNode, bound int) (generated, entered uint64) {
	root, blank := w.board, w.blank
	c := w.clone()
	for _, n := range nodes {
		c.begin(bound)
		fs := c.enter(&root, blank, n.moves)
		found := c.descend(len(n.moves), &c.st.sums, fs)
		generated += c.generated
		entered++
		if found {
			return generated, entered
		}
	}
	panic("no solution within the last bound")
}

// listContour returns, in depth-first order, the children of the nodes
// within inner (those whose f is, and their ancestors') whose f is above
// inner and within bound, and the nodes generated to list them: the
// frontier at which the iteration of bound leaves the contour of inner.
func listContour(w *worker, inner, bound int) ([]astarNode, uint64) {
	l := contourLister{a: &astar{w: w}, inner: inner, bound: bound, path: make([]puzzle.Move, 0, bound)}
	l.visit(0, 0)
	return l.nodes, l.generated
}

// contourLister walks the contour of inner, as dfs would, its estimates
// computed as A*'s are (astar.childEstimate).
type contourLister struct {
	a            *astar
	inner, bound int
	path         []puzzle.Move
	nodes        []astarNode
	generated    uint64
}

// visit lists the frontier below the worker's node, depth moves from the
// root, whose pruning state is fs.
func (l *contourLister) visit(depth int, fs int32) {
	w := l.a.w
	board, blank := w.board, w.blank
	w.h.load(&l.a.st, &board, blank)
	type child struct {
		m    puzzle.Move
		fs   int32
		f, h int
	}
	var children [4]child
	n := 0
	for _, m := range w.order {
		q := int(w.nbr[blank][m])
		next := w.fsm[fs][m]
		if q < 0 || next < 0 {
			continue
		}
		l.generated++
		hc := l.a.childEstimate(&board, int(board[q]), q, blank)
		children[n] = child{m, next, depth + 1 + hc, hc}
		n++
	}
	for _, c := range children[:n] {
		switch {
		case c.f <= l.inner:
			w.play(c.m)
			l.path = append(l.path, c.m)
			l.visit(depth+1, c.fs)
			l.path = l.path[:len(l.path)-1]
			w.board, w.blank = board, blank
		case c.f <= l.bound:
			moves := append(slices.Clone(l.path), c.m)
			l.nodes = append(l.nodes, astarNode{frontierNode: frontierNode{h: c.h}, g: depth + 1, moves: moves})
		}
	}
}
