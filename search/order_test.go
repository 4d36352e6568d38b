package search

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"fifteen/data"
	"fifteen/pdb"
	"fifteen/puzzle"
)

var (
	orderDir      = flag.String("order.dir", "", "measure the order ceiling of the last iteration (TestOrderCeiling) with the default databases of this `DIR`")
	orderSet      = flag.String("order.set", "korf50", "the instance set of TestOrderCeiling")
	orderIDs      = flag.String("order.ids", "38,40,25,32,44,37,30,13,1,28", "its instances (\"\": all)")
	frontierDepth = flag.Int("order.depth", 16, "the frontier's depth for TestOrderCeiling")
	orderOut      = flag.String("order.out", "", "write TestOrderCeiling's frontier nodes, a CSV file an instance, into `DIR`")
	orderFrom     = flag.String("order.from", "", "read TestOrderCeiling's frontier nodes from the CSV files that -order.out wrote in `DIR`, rather than search")
)

// frontierNode is a node of the last iteration's frontier at a fixed
// depth, with what searching its subtree within the bound costs.
type frontierNode struct {
	path      string
	h         int
	generated uint64 // the whole subtree's, or to its first solution
	found     bool
	previous  uint64 // the subtree's in the iteration before (0: cut off there)
	board     tiles
}

// TestOrderCeiling measures, on the ten easiest of Korf's 50 (or the
// instances -order.set and -order.ids name) with the default databases of
// their size, how many nodes the last iteration generates before its
// first solution when the subtrees below a frontier at a fixed depth are
// searched in each of several orders: today's (depth-first), an oracle's
// (the frontier node on the solution's path first), by h, and by the
// subtree's size in the iteration before (issue 60's first step; the
// results are in docs/experiments.md). An experiment, it runs only when
// -order.dir names a directory with the databases built (pdbgen --size
// 5x5), or -order.from one with the files of an earlier run.
func TestOrderCeiling(t *testing.T) {
	if *orderDir == "" && *orderFrom == "" {
		t.Skip("an experiment: -order.dir DIR or -order.from DIR runs it")
	}
	set := experimentSet(t)
	var h *Heuristic
	if *orderFrom == "" {
		h = defaultDatabases(t, *orderDir, set.Instances[0].Size)
	}
	t.Logf("depth %d; nodes generated in the last iteration to its first solution, the cut above the frontier included", *frontierDepth)
	totals := make([]float64, len(frontierOrders))
	var totalCut, totalFull uint64
	for _, in := range set.Instances {
		var nodes []frontierNode
		var cut uint64
		if *orderFrom != "" {
			nodes, cut = readFrontier(t, filepath.Join(*orderFrom, in.ID+".csv"))
		} else {
			nodes, cut = searchFrontier(t, h, set.Goal, in)
		}
		var full uint64
		for _, n := range nodes {
			full += n.generated
		}
		line := fmt.Sprintf("%s: whole iteration %d", in.ID, full+cut)
		dfs := float64(cut + toSolution(nodes, nil))
		for i, o := range frontierOrders {
			c := float64(cut) + o.cost(nodes)
			totals[i] += c
			line += fmt.Sprintf("; %s %.0f (%.3f)", o.name, c, c/dfs)
		}
		t.Log(line)
		if *orderOut != "" {
			writeFrontier(t, filepath.Join(*orderOut, in.ID+".csv"), nodes, cut)
		}
		totalCut += cut
		totalFull += full + cut
	}
	line := fmt.Sprintf("all: cut %d, whole iterations %d", totalCut, totalFull)
	for i, c := range totals {
		line += fmt.Sprintf("; %s %.0f (%.3f of depth-first, %.3f of the whole)", frontierOrders[i].name, c, c/totals[0], c/float64(totalFull))
	}
	t.Log(line)
}

// experimentSet returns the instances of -order.set and -order.ids.
func experimentSet(t *testing.T) data.Set {
	set, err := data.ParseSet(*orderSet)
	if err != nil {
		t.Fatal(err)
	}
	if *orderIDs != "" {
		var ids []int
		for f := range strings.SplitSeq(*orderIDs, ",") {
			id, err := strconv.Atoi(f)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		if set, err = set.Pick(ids); err != nil {
			t.Fatal(err)
		}
	}
	return set
}

// defaultDatabases returns the heuristic of the default databases of the
// size, from dir's store.
func defaultDatabases(t *testing.T, dir string, size puzzle.Size) *Heuristic {
	name := pdb.DefaultPartition(size)
	parts, err := pdb.ParsePartitions(name, size)
	if err != nil {
		t.Fatal(err)
	}
	store, err := pdb.OpenStore(dir, pdb.StoreOptions{Policy: pdb.NeverBuild})
	if err != nil {
		t.Fatal(err)
	}
	tables, err := store.Tables(context.Background(), name, parts[0])
	if err != nil {
		t.Fatal(err)
	}
	h, err := Additive("pdb:"+name, tables, true)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// frontierOrders are the orders TestOrderCeiling compares, each with the
// nodes it generates below the frontier to the first solution.
var frontierOrders = []struct {
	name string
	cost func([]frontierNode) float64
}{
	{"depth-first", func(ns []frontierNode) float64 { return float64(toSolution(ns, nil)) }},
	{"oracle", func(ns []frontierNode) float64 { return float64(oracle(ns)) }},
	{"h ascending", func(ns []frontierNode) float64 {
		return float64(toSolution(ns, func(a, b frontierNode) int { return a.h - b.h }))
	}},
	{"h descending", func(ns []frontierNode) float64 {
		return float64(toSolution(ns, func(a, b frontierNode) int { return b.h - a.h }))
	}},
	{"previous size descending", func(ns []frontierNode) float64 { return float64(toSolution(ns, byPreviousSize)) }},
	{"previous size ascending", func(ns []frontierNode) float64 {
		return float64(toSolution(ns, func(a, b frontierNode) int { return cmp.Compare(a.previous, b.previous) }))
	}},
	{"depth-first and previous size descending, balanced", func(ns []frontierNode) float64 {
		by := slices.Clone(ns)
		slices.SortStableFunc(by, byPreviousSize)
		return float64(balanced(ns, by))
	}},
	{"random (mean of 100)", func(ns []frontierNode) float64 { return meanRandom(ns, 100) }},
}

func byPreviousSize(a, b frontierNode) int { return cmp.Compare(b.previous, a.previous) }

// searchFrontier cuts the last iteration of the instance, and the one
// before, at -order.depth, and returns the last one's frontier nodes with
// their sizes in both, and the nodes of its cut.
func searchFrontier(t *testing.T, h *Heuristic, goal puzzle.Goal, in puzzle.Puzzle) ([]frontierNode, uint64) {
	b, err := in.Board()
	if err != nil {
		t.Fatal(err)
	}
	start, _, err := prepare(b, goal, h)
	if err != nil {
		t.Fatal(err)
	}
	nodes, cut := frontierSizes(t, h, start, in.Optimal, *frontierDepth)
	previous, _ := frontierSizes(t, h, start, in.Optimal-2, *frontierDepth)
	byPath := map[string]uint64{}
	for _, n := range previous {
		byPath[n.path] = n.generated
	}
	distinct := map[tiles]bool{}
	solving := 0
	for i := range nodes {
		distinct[nodes[i].board] = true
		nodes[i].previous = byPath[nodes[i].path]
		if nodes[i].found {
			solving++
		}
	}
	t.Logf("%s: %d frontier nodes, %d boards, %d hold a solution", in.ID, len(nodes), len(distinct), solving)
	return nodes, cut
}

// frontierSizes cuts the iteration of bound at depth, as the parallel
// search does, and searches each frontier node's subtree within the bound
// on every CPU: the whole subtree, or up to its first solution. It
// returns the nodes in depth-first order and the nodes the cut generated.
func frontierSizes(t *testing.T, h *Heuristic, start puzzle.Board, bound, depth int) ([]frontierNode, uint64) {
	prune, err := prunerFor(DefaultPruneDepth)
	if err != nil {
		t.Fatal(err)
	}
	w := newWorker(h, prune, puzzle.Moves, false, start, newShared(nil, nil))
	w.begin(bound)
	var f frontier
	new(planner).list(w, &f, bound, depth, 0)
	cut := w.generated

	nodes := make([]frontierNode, f.count())
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		c := w.clone()
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < f.count(); i = int(next.Add(1) - 1) {
				fs := c.enter(&w.board, w.blank, f.path(i))
				h := c.h.combine(&c.st.sums)
				board := c.board
				c.begin(bound)
				found := c.descend(depth, &c.st.sums, fs)
				nodes[i] = frontierNode{path: puzzle.FormatMoves(f.path(i)), h: h, generated: c.generated, found: found, board: board}
			}
		})
	}
	wg.Wait()
	return nodes, cut
}

// toSolution returns the nodes generated below the frontier, taken in the
// order of by (depth-first where it ties, or where it is nil), until the
// first solution.
func toSolution(nodes []frontierNode, by func(a, b frontierNode) int) uint64 {
	order := slices.Clone(nodes)
	if by != nil {
		slices.SortStableFunc(order, by)
	}
	var sum uint64
	for _, n := range order {
		sum += n.generated
		if n.found {
			break
		}
	}
	return sum
}

// oracle returns the nodes an order that takes a solving frontier node
// first generates: the fewest of any solving node's.
func oracle(nodes []frontierNode) uint64 {
	best := uint64(math.MaxUint64)
	for _, n := range nodes {
		if n.found {
			best = min(best, n.generated)
		}
	}
	return best
}

// meanRandom returns the mean of toSolution over k random orders.
func meanRandom(nodes []frontierNode, k int) float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	order := slices.Clone(nodes)
	var sum float64
	for range k {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		sum += float64(toSolution(order, nil))
	}
	return sum / float64(k)
}

// writeFrontier writes the frontier nodes in depth-first order, a line
// each: h, the subtree's nodes (to its first solution where it has one),
// whether it has one, and its nodes in the iteration before; the first
// line gives the cut's nodes.
func writeFrontier(t *testing.T, path string, nodes []frontierNode, cut uint64) {
	var b strings.Builder
	fmt.Fprintf(&b, "cut,%d\nh,generated,found,previous\n", cut)
	for _, n := range nodes {
		fmt.Fprintf(&b, "%d,%d,%t,%d\n", n.h, n.generated, n.found, n.previous)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// balanced returns the nodes two workers generate to the first solution,
// one taking the nodes in a's order and one in b's, each the next that the
// other has not taken, the one that has generated fewer going next.
func balanced(a, b []frontierNode) uint64 {
	taken := map[string]bool{}
	lists := [2][]frontierNode{a, b}
	var work [2]uint64
	var pos [2]int
	for {
		k := 0
		if work[1] < work[0] {
			k = 1
		}
		next := func(k int) bool {
			for pos[k] < len(lists[k]) && taken[lists[k][pos[k]].path] {
				pos[k]++
			}
			return pos[k] < len(lists[k])
		}
		if !next(k) {
			if k = 1 - k; !next(k) {
				return work[0] + work[1]
			}
		}
		n := lists[k][pos[k]]
		taken[n.path] = true
		work[k] += n.generated
		if n.found {
			return work[0] + work[1]
		}
	}
}

// readFrontier reads what writeFrontier wrote; the nodes' paths are their
// positions in depth-first order.
func readFrontier(t *testing.T, path string) ([]frontierNode, uint64) {
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cut uint64
	var nodes []frontierNode
	for i, line := range strings.Split(strings.TrimSpace(string(text)), "\n") {
		var n frontierNode
		var found string
		switch {
		case i == 0:
			_, err = fmt.Sscanf(line, "cut,%d", &cut)
		case i == 1:
			continue // the heading
		default:
			_, err = fmt.Sscanf(strings.ReplaceAll(line, ",", " "), "%d %d %s %d", &n.h, &n.generated, &found, &n.previous)
			n.found, n.path = found == "true", strconv.Itoa(i)
			nodes = append(nodes, n)
		}
		if err != nil {
			t.Fatalf("%s:%d: %v", path, i+1, err)
		}
	}
	return nodes, cut
}
