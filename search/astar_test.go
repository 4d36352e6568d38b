package search

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"fifteen/puzzle"
)

var (
	astarBudgets = flag.String("astar.nodes", "100,1000,10000,100000", "the boards TestAStarCeiling's A* stores, one run a `LIST` entry")
	astarBelow   = flag.Bool("astar.below", true, "search below TestAStarCeiling's frontiers (false: time the A* phase alone)")
)

// TestAStarCeiling measures Bu and Korf's A*+IDA* offline (issue 69's
// first step; the results are in docs/experiments.md), on the instances
// of TestOrderCeiling's flags: A* from the root, each board once, until it
// stores -astar.nodes boards; then IDA* below each open node, every
// iteration. It reports, against plain IDA* (depth-first) and the ranked
// rounds (DefaultFrontier), both on one thread: the iterations before the
// last with A*'s duplicates removed, the last iteration's nodes to its
// first solution in several orders of the open nodes, and the A* phase's
// time and memory a board. An experiment, it runs only when -order.dir
// names a directory with the databases built.
func TestAStarCeiling(t *testing.T) {
	if *orderDir == "" {
		t.Skip("an experiment: -order.dir DIR runs it")
	}
	budgets := positiveList(t, "astar.nodes", *astarBudgets)
	h, ins := experimentStarts(t)
	var sums astarSums
	for _, in := range ins {
		start := in.start
		plain, ranked := lastIterations(t, h, start, 0), lastIterations(t, h, start, DefaultFrontier)
		t.Logf("%s: plain IDA* %d before the last iteration, %d in it, %.0f ns a node, %.2f s; ranked %d in it, %.2f s", in.id, plain.before, plain.last, plain.seconds*1e9/float64(plain.before+plain.last), plain.seconds, ranked.last, ranked.seconds)
		sums.addIDA(plain, ranked.last)
		for k, n := range budgets {
			r := measureAStar(t, h, start, plain.bounds, n)
			t.Logf("%s: A* of %d boards: %s", in.id, n, r)
			sums.addRun(k, r)
		}
	}
	for k, n := range budgets {
		t.Logf("all, A* of %d boards: %s", n, sums.report(k))
	}
}

// positiveList parses the flag name's list of positive numbers, s.
func positiveList(t *testing.T, name, s string) []int {
	var list []int
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			t.Fatalf("-%s: bad %q", name, f)
		}
		list = append(list, n)
	}
	return list
}

// experimentStart is an instance of an experiment, its board turned to
// the heuristic's goal.
type experimentStart struct {
	id    string
	start puzzle.Board
}

// experimentStarts returns the default databases of the instances of
// TestOrderCeiling's flags, and the instances.
func experimentStarts(t *testing.T) (*Heuristic, []experimentStart) {
	set := experimentSet(t)
	h := defaultDatabases(t, *orderDir, set.Instances[0].Size)
	var starts []experimentStart
	for _, in := range set.Instances {
		b, err := in.Board()
		if err != nil {
			t.Fatal(err)
		}
		start, _, err := prepare(b, set.Goal, h)
		if err != nil {
			t.Fatal(err)
		}
		starts = append(starts, experimentStart{in.ID, start})
	}
	return h, starts
}

// idaNodes are what one search generated in the iterations before the
// last and in the last, to its first solution; the seconds it took; and
// its iterations' bounds.
type idaNodes struct {
	before, last uint64
	seconds      float64
	bounds       []int
	generated    []uint64 // by iteration
}

// lastIterations solves start on one thread, with the frontier of
// frontier MiB (0: depth-first), and returns its nodes.
func lastIterations(t *testing.T, h *Heuristic, start puzzle.Board, frontier int) idaNodes {
	began := time.Now()
	res, err := Solve(context.Background(), start, h.goal, h, Options{Threads: 1, Frontier: frontier})
	if err != nil || !res.Solved {
		t.Fatalf("%v: %v", start, err)
	}
	n := idaNodes{seconds: time.Since(began).Seconds()}
	for i, it := range res.Iterations {
		n.bounds = append(n.bounds, it.Bound)
		n.generated = append(n.generated, it.Generated)
		if i < len(res.Iterations)-1 {
			n.before += it.Generated
		} else {
			n.last = it.Generated
		}
	}
	return n
}

// astarRun is what A*+IDA* costs on one instance with one budget.
type astarRun struct {
	// The A* phase: the boards it stored, generated, expanded and
	// expanded again; its seconds and heap; whether it popped the goal.
	stored, generated, expanded, reopened uint64
	seconds                               float64
	bytes                                 uint64
	solved                                bool

	// The open boards with f within the last bound; those entered, summed
	// over the iterations before the last, and in the last by h to its
	// first solution; the seconds that entering each once takes on one CPU.
	open                 int
	entries, lastEntries uint64
	entrySeconds         float64

	// IDA* below the open boards: its nodes in the iterations before the
	// last, and their seconds times the CPUs; the last iteration's to its
	// first solution, by astarOrders.
	before       uint64
	belowSeconds float64
	last         []uint64
}

func (r astarRun) String() string {
	s := fmt.Sprintf("%d stored, %d generated, %d expanded (%d again), %.0f ns and %.0f B a board, %d open within the bound, %.0f ns an entry; before the last %d, %d entries, %.0f ns a node",
		r.stored, r.generated, r.expanded, r.reopened, r.seconds*1e9/float64(r.stored), float64(r.bytes)/float64(r.stored), r.open, r.entrySeconds*1e9/float64(max(r.open, 1)),
		r.before, r.entries, r.belowSeconds*1e9/float64(max(r.before, 1)))
	for i, n := range r.last {
		s += fmt.Sprintf("; %s %d", astarOrders[i].name, n)
	}
	if r.lastEntries > 0 {
		s += fmt.Sprintf("; %d entries in the last by h", r.lastEntries)
	}
	if r.solved {
		s += "; A* reached the goal"
	}
	return s
}

// astarOrders are the orders of the open boards within the last bound that
// TestAStarCeiling compares: Bu and Korf's, f ascending and then h, which
// takes the deep boards near the goal first; h alone; the ranked rounds'
// (the subtree's size in the iteration before, largest first); both mixed;
// and an oracle's. Ties keep A*'s order of storing.
var astarOrders = []struct {
	name string
	by   func(a, b astarNode) int
}{
	{"f then h", func(a, b astarNode) int { return cmp.Or(cmp.Compare(a.f(), b.f()), cmp.Compare(a.h, b.h)) }},
	{"h", func(a, b astarNode) int { return cmp.Compare(a.h, b.h) }},
	{"previous size", func(a, b astarNode) int { return byPreviousSize(a.frontierNode, b.frontierNode) }},
	{"f then previous size", func(a, b astarNode) int {
		return cmp.Or(cmp.Compare(a.f(), b.f()), byPreviousSize(a.frontierNode, b.frontierNode))
	}},
	{"h then previous size", func(a, b astarNode) int {
		return cmp.Or(cmp.Compare(a.h, b.h), byPreviousSize(a.frontierNode, b.frontierNode))
	}},
	{"oracle", nil},
}

// astarNode is an open board of the A* phase below which the
// iterations search, and the moves that reach it.
type astarNode struct {
	frontierNode
	g     int
	moves []puzzle.Move
}

func (n astarNode) f() int { return n.g + n.h }

// measureAStar runs A* from start until it stores budget boards, then
// IDA* below its open boards in each iteration of bounds, as A*+IDA* does.
func measureAStar(t *testing.T, h *Heuristic, start puzzle.Board, bounds []int, budget int) astarRun {
	prune, err := prunerFor(DefaultPruneDepth)
	if err != nil {
		t.Fatal(err)
	}
	w := newWorker(h, prune, puzzle.Moves, false, start, newShared(nil, nil))
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	began := time.Now()
	a := newAStar(w, budget)
	a.run(budget)
	r := astarRun{stored: uint64(len(a.nodes)), generated: a.generated, expanded: a.expanded, reopened: a.reopened, seconds: time.Since(began).Seconds(), solved: a.solved}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	r.bytes = after.HeapAlloc - before.HeapAlloc
	last := bounds[len(bounds)-1]
	var open []astarNode
	for i, n := range a.nodes {
		if n.open && int(n.g)+int(n.h) <= last {
			open = append(open, astarNode{frontierNode: frontierNode{h: int(n.h)}, g: int(n.g), moves: a.path(int32(i))})
		}
	}
	r.open = len(open)
	for _, bound := range bounds[:len(bounds)-1] {
		for _, n := range open {
			if n.f() <= bound {
				r.entries++
			}
		}
	}
	r.entrySeconds = timeEntries(w, open, last)
	if *astarBelow {
		searchBelow(w, open, bounds, &r)
	}
	return r
}

// searchBelow searches below the open boards in every iteration of bounds,
// and records in r the nodes of those before the last, and the last's to
// its first solution in each of astarOrders.
func searchBelow(w *worker, open []astarNode, bounds []int, r *astarRun) {
	began := time.Now()
	for _, bound := range bounds[:len(bounds)-1] {
		r.before += subtrees(w, open, bound, nil)
	}
	r.belowSeconds = time.Since(began).Seconds() * float64(runtime.GOMAXPROCS(0))
	if len(bounds) > 1 {
		subtrees(w, open, bounds[len(bounds)-2], func(n *astarNode, generated uint64, _ bool) { n.previous = generated })
	}
	subtrees(w, open, bounds[len(bounds)-1], func(n *astarNode, generated uint64, found bool) { n.generated, n.found = generated, found })
	for _, o := range astarOrders {
		if o.by == nil {
			r.last = append(r.last, oracle(nodesOf(open)))
			continue
		}
		sorted := slices.Clone(open)
		slices.SortStableFunc(sorted, o.by)
		r.last = append(r.last, toSolution(nodesOf(sorted), nil))
		if o.name == "h" {
			r.lastEntries = uint64(slices.IndexFunc(sorted, func(n astarNode) bool { return n.found }) + 1)
		}
	}
}

func nodesOf(ns []astarNode) []frontierNode {
	out := make([]frontierNode, len(ns))
	for i, n := range ns {
		out[i] = n.frontierNode
	}
	return out
}

// subtrees searches below each node within bound, those whose f is
// within it, on every CPU, the pruning machine continuing from the node's
// path (enterAnew); it gives each its nodes generated and whether it
// holds a solution (to the first one), and returns their sum.
func subtrees(w *worker, nodes []astarNode, bound int, give func(*astarNode, uint64, bool)) uint64 {
	root, blank := w.board, w.blank
	var next atomic.Int64
	var sum atomic.Uint64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		c := w.clone()
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(nodes); i = int(next.Add(1) - 1) {
				n := &nodes[i]
				if n.f() > bound {
					continue
				}
				c.begin(bound)
				fs := c.enterAnew(&root, blank, n.moves)
				found := c.descend(len(n.moves), &c.st.sums, fs)
				sum.Add(c.generated)
				if give != nil {
					give(n, c.generated, found)
				}
			}
		})
	}
	wg.Wait()
	return sum.Load()
}

// astarSums adds up TestAStarCeiling's runs: plain IDA*'s and the ranked
// rounds', and A*+IDA*'s of each budget.
type astarSums struct {
	plain       idaNodes
	rankedLast  uint64
	runs        []astarRun // a budget each, the counts summed
	astarSolved []int      // a budget each, the runs whose A* popped the goal
}

// addIDA adds plain IDA*'s nodes, and the ranked rounds' last iteration's.
func (s *astarSums) addIDA(p idaNodes, rankedLast uint64) {
	s.plain.before += p.before
	s.plain.last += p.last
	s.plain.seconds += p.seconds
	s.rankedLast += rankedLast
}

// addRun adds A*+IDA*'s run of budget k.
func (s *astarSums) addRun(k int, run astarRun) {
	for len(s.runs) <= k {
		s.runs = append(s.runs, astarRun{})
		s.astarSolved = append(s.astarSolved, 0)
	}
	sum := &s.runs[k]
	sum.stored += run.stored
	sum.generated += run.generated
	sum.expanded += run.expanded
	sum.reopened += run.reopened
	sum.seconds += run.seconds
	sum.belowSeconds += run.belowSeconds
	sum.entries += run.entries
	sum.lastEntries += run.lastEntries
	sum.entrySeconds += run.entrySeconds
	sum.bytes += run.bytes
	sum.open += run.open
	sum.before += run.before
	if sum.last == nil {
		sum.last = make([]uint64, len(run.last))
	}
	for i, n := range run.last {
		sum.last[i] += n
	}
	if run.solved {
		s.astarSolved[k]++
	}
}

// report gives budget k's sums and their ratios to plain IDA*'s and the
// ranked rounds'.
func (s *astarSums) report(k int) string {
	r := s.runs[k]
	line := fmt.Sprintf("%s; A* reached %d goals. Plain IDA* before the last %d, in it %d, %.0f ns a node, ranked in it %d; "+
		"before the last: %.3f of plain's, %.3f with the A* phase",
		r, s.astarSolved[k], s.plain.before, s.plain.last, s.plain.seconds*1e9/float64(s.plain.before+s.plain.last), s.rankedLast,
		float64(r.before)/float64(s.plain.before), float64(r.before+r.generated)/float64(s.plain.before))
	for i, o := range astarOrders[:len(r.last)] {
		line += fmt.Sprintf("; last by %s %.4f of plain's, %.3f of ranked's", o.name, float64(r.last[i])/float64(s.plain.last), float64(r.last[i])/float64(s.rankedLast))
	}
	return line
}

// timeEntries returns the seconds that entering each of the nodes within
// bound takes on one CPU: the path replayed and the estimate loaded.
func timeEntries(w *worker, nodes []astarNode, bound int) float64 {
	c := w.clone()
	root, blank := w.board, w.blank
	c.begin(bound)
	began := time.Now()
	for _, n := range nodes {
		c.enterAnew(&root, blank, n.moves)
	}
	return time.Since(began).Seconds()
}

// enterAnew is enter for a path the pruning machine may prune: its state
// begins afresh at each move it prunes. A*'s path to a board is the first
// it met of the shortest, which may be one the machine prunes for an equal
// one.
func (w *worker) enterAnew(root *tiles, blank int, path []puzzle.Move) int32 {
	w.board, w.blank = *root, blank
	var fs int32
	for k, m := range path {
		w.play(m)
		if fs = w.fsm[fs][m]; fs < 0 {
			fs = w.fsm[0][m]
		}
		w.path[k] = m
	}
	w.h.load(&w.st, &w.board, w.blank)
	return fs
}
