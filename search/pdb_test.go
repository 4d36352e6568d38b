package search_test

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
	"testing"

	"fifteen/data"
	"fifteen/internal/bfs"
	"fifteen/internal/testtool"
	"fifteen/pdb"
	"fifteen/puzzle"
	"fifteen/search"
)

var (
	builtMu sync.Mutex
	built   = map[string]*pdb.Table{} // by file name
)

// pdbHeuristic builds the named 4×4 partitions' databases in memory (each
// pattern once a run) and returns their heuristic, as solve's would be.
func pdbHeuristic(t testing.TB, partitions string, reflect bool) *search.Heuristic {
	parts, err := pdb.ParsePartitions(partitions, size4)
	if err != nil {
		t.Fatal(err)
	}
	var hs []*search.Heuristic
	for _, p := range parts {
		var tables []*pdb.Table
		for _, tiles := range p.Patterns {
			builtMu.Lock()
			name := pdb.FileName(size4, pdb.Goal, tiles)
			if built[name] == nil {
				if built[name], err = pdb.Build(context.Background(), size4, pdb.Goal, tiles, pdb.BuildOptions{}); err != nil {
					builtMu.Unlock()
					t.Fatal(err)
				}
			}
			tables = append(tables, built[name])
			builtMu.Unlock()
		}
		h, err := search.Additive("pdb:"+p.Name, tables, reflect)
		if err != nil {
			t.Fatal(err)
		}
		hs = append(hs, h)
	}
	h, err := search.Max("pdb:"+partitions, hs...)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// wideCatalogue is a catalogue of three 4×4 partitions, six views with
// their reflections: more than the search's unrolled loop looks up.
const wideCatalogue = "555+663+6,7,10,11,14,15/1,2,3,4,5,8/9,12,13"

// skipSevenTiles skips a test of the 7-7-1 databases but for the long tests (testtool.Long): the
// tests build them in memory, half a minute on two cores, while solver's
// tests search with the same tables from the store.
func skipSevenTiles(t *testing.T, partition string) {
	if partition == "771" {
		testtool.SkipUnlessLong(t, "builds the 7-tile databases: 30 s")
	}
}

// TestKorf100PDB solves Korf's 100 with Korf and Felner's 6-6-3 databases,
// with two and three partitions (the three searched by the loop over
// views) and with the default 7-7-1: every length is the known optimum and
// every solution replays, sequentially and in parallel (4 threads
// oversubscribe CI's 2 cores). The parallel search returns the sequential
// answer itself.
func TestKorf100PDB(t *testing.T) {
	for _, c := range []struct{ name, partitions string }{
		{"663", "663"}, {"663x2", "663x2"}, {"wide", wideCatalogue}, {"771", pdb.DefaultPartition(size4)},
	} {
		t.Run(c.name, func(t *testing.T) {
			skipSevenTiles(t, c.name)
			h := pdbHeuristic(t, c.partitions, true)
			for _, in := range data.Korf100() {
				if h0 := h.Estimate(board(in)); h0 > in.Optimal {
					t.Fatalf("%s: h0 %d exceeds the optimum %d", in.ID, h0, in.Optimal)
				}
				seq := solve(t, board(in), puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier}, in.Optimal)
				if !testtool.Long() {
					continue
				}
				for _, threads := range []int{2, 4} {
					par := solve(t, board(in), puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier, Threads: threads}, in.Optimal)
					if puzzle.FormatMoves(par.Moves) != puzzle.FormatMoves(seq.Moves) {
						t.Errorf("%s: %d threads found another solution", in.ID, threads)
					}
				}
			}
		})
	}
}

// TestYardstickTree searches Korf's 100 as the C yardstick does
// (bench/yardstick/ref663.c: Korf and Felner's blank-free 6-6-3
// databases with the reflected lookup, only the undoing move pruned, the
// blank moved up, left, right, down) and checks that it generates the
// yardstick's nodes on every instance, plus the root, which the yardstick
// does not count. An independent program walking the same tree, node for
// node, checks the tables, the incremental lookups and the iterations at
// once. But for the long tests (testtool.Long), the first ten instances.
func TestYardstickTree(t *testing.T) {
	want := yardstickCounts(t)
	p, err := pdb.ParsePartition("663", size4)
	if err != nil {
		t.Fatal(err)
	}
	h, err := search.Additive("pdb:663-blank-free", build(t, size4, pdb.Goal, p.Patterns, pdb.BuildOptions{BlankFree: true}), true)
	if err != nil {
		t.Fatal(err)
	}
	order, err := search.ParseOrder("ULRD")
	if err != nil {
		t.Fatal(err)
	}
	instances := data.Korf100()
	if !testtool.Long() {
		instances = instances[:10]
	}
	for _, in := range instances {
		w, ok := want[in.ID]
		if !ok {
			t.Fatalf("%s: not in testdata/ref663.txt", in.ID)
		}
		res := solve(t, board(in), puzzle.GoalFirst, h, search.Options{PruneDepth: search.PruneInverse, Order: order}, in.Optimal)
		if res.Generated != w.nodes+1 || res.H0 != w.h0 || res.Length() != w.length {
			t.Errorf("%s: %d nodes, h0 %d, length %d; the yardstick %d (+1 for the root), %d, %d",
				in.ID, res.Generated, res.H0, res.Length(), w.nodes, w.h0, w.length)
		}
	}
}

type yardstickCount struct {
	length, h0 int
	nodes      uint64
}

// yardstickCounts reads testdata/ref663.txt, keyed as data.Korf100's IDs.
func yardstickCounts(t *testing.T) map[string]yardstickCount {
	f, err := os.Open("testdata/ref663.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	counts := map[string]yardstickCount{}
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		if strings.HasPrefix(lines.Text(), "#") {
			continue
		}
		var id int
		var c yardstickCount
		if _, err := fmt.Sscan(lines.Text(), &id, &c.length, &c.nodes, &c.h0); err != nil {
			t.Fatalf("testdata/ref663.txt: %q: %v", lines.Text(), err)
		}
		counts[fmt.Sprintf("korf%d", id)] = c
	}
	if err := lines.Err(); err != nil {
		t.Fatal(err)
	}
	return counts
}

// build builds the patterns' tables.
func build(t testing.TB, size puzzle.Size, goal puzzle.Goal, patterns [][]int, opts pdb.BuildOptions) []*pdb.Table {
	var tables []*pdb.Table
	for _, tiles := range patterns {
		table, err := pdb.Build(context.Background(), size, goal, tiles, opts)
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, table)
	}
	return tables
}

// TestAdditiveAdmissible checks on every 3×3 position that the additive
// databases, with and without reflection, never exceed the true distance,
// and that telling the blank's regions apart raises them above the
// blank-free databases, which beat Manhattan distance.
func TestAdditiveAdmissible(t *testing.T) {
	size := puzzle.Size{Rows: 3, Cols: 3}
	patterns := [][]int{{1, 2, 3, 4}, {5, 6, 7, 8}}
	md, _ := search.Manhattan(size, puzzle.GoalFirst)
	for _, reflect := range []bool{false, true} {
		lower := md
		for _, blankFree := range []bool{true, false} {
			h, err := search.Additive("pdb:44", build(t, size, puzzle.GoalFirst, patterns, pdb.BuildOptions{BlankFree: blankFree}), reflect)
			if err != nil {
				t.Fatal(err)
			}
			tighter := 0
			for _, p := range bfs.All(size, puzzle.GoalFirst) {
				e, l := h.Estimate(p.Board), lower.Estimate(p.Board)
				if e > p.Dist {
					t.Fatalf("%v: estimate %d exceeds the distance %d", p.Board, e, p.Dist)
				}
				if e < l && !blankFree {
					t.Fatalf("%v: estimate %d below the blank-free %d", p.Board, e, l)
				}
				if e > l {
					tighter++
				}
			}
			if tighter == 0 {
				t.Errorf("blank-free %v, reflect %v: never tighter than %s", blankFree, reflect, lower.Name())
			}
			lower = h
		}
	}
}

// TestRegions searches with and without the blank's regions told apart:
// the same optimal lengths (checked by solve), with fewer nodes, on 3×3
// every 7th position and on 4×4 easy Korf instances with 5-5-5. A search
// that ignored the regions' flags, or read them for the wrong cell, would
// tie or lose optimality.
func TestRegions(t *testing.T) {
	count := func(h *search.Heuristic, boards []puzzle.Board, lengths []int) (nodes uint64) {
		for i, b := range boards {
			nodes += solve(t, b, h.Goal(), h, search.Options{Frontier: search.DefaultFrontier}, lengths[i]).Generated
		}
		return nodes
	}
	size3 := puzzle.Size{Rows: 3, Cols: 3}
	var boards3 []puzzle.Board
	var lengths3 []int
	for i, p := range bfs.All(size3, puzzle.GoalLast) {
		if i%7 == 0 {
			boards3, lengths3 = append(boards3, p.Board), append(lengths3, p.Dist)
		}
	}
	var boards4 []puzzle.Board
	var lengths4 []int
	for _, id := range easyKorf {
		in := data.Korf100()[id-1]
		boards4, lengths4 = append(boards4, board(in)), append(lengths4, in.Optimal)
	}
	p555, err := pdb.ParsePartition("555", size4)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		size     puzzle.Size
		goal     puzzle.Goal
		patterns [][]int
		boards   []puzzle.Board
		lengths  []int
	}{
		{size3, puzzle.GoalLast, [][]int{{1, 2, 4, 5}, {3, 6, 7, 8}}, boards3, lengths3},
		{size4, pdb.Goal, p555.Patterns, boards4, lengths4},
	} {
		t.Run(c.size.String(), func(t *testing.T) {
			var nodes [2]uint64
			for i, blankFree := range []bool{true, false} {
				h, err := search.Additive("regions", build(t, c.size, c.goal, c.patterns, pdb.BuildOptions{BlankFree: blankFree}), true)
				if err != nil {
					t.Fatal(err)
				}
				nodes[i] = count(h, c.boards, c.lengths)
			}
			if nodes[1] >= nodes[0] {
				t.Errorf("%v: %d nodes with the blank's regions, %d without", c.size, nodes[1], nodes[0])
			}
		})
	}
}

// TestRankedIndexes searches with ranked tables, whose indexes the search
// updates move by move (a move across rows passes cells, and the pattern's
// tiles there change the rank), and with sparse tables of the same values:
// the searches must agree node for node and find the optimal lengths. On
// 3×3 every 11th position under both goals, on 4×4 Korf instances with the
// 5-5-5 partition; both with reflection, whose view turns rows into
// columns.
func TestRankedIndexes(t *testing.T) {
	size3 := puzzle.Size{Rows: 3, Cols: 3}
	heuristics := func(size puzzle.Size, goal puzzle.Goal, patterns [][]int) (ranked, sparse *search.Heuristic) {
		var tables [2][]*pdb.Table
		for i, scheme := range []pdb.Scheme{pdb.Ranked, pdb.Sparse} {
			tables[i] = build(t, size, goal, patterns, pdb.BuildOptions{Scheme: scheme})
		}
		ranked, err := search.Additive("ranked", tables[0], true)
		if err != nil {
			t.Fatal(err)
		}
		sparse, err = search.Additive("sparse", tables[1], true)
		if err != nil {
			t.Fatal(err)
		}
		return ranked, sparse
	}
	agree := func(b puzzle.Board, goal puzzle.Goal, ranked, sparse *search.Heuristic, want int) {
		r := solve(t, b, goal, ranked, search.Options{Frontier: search.DefaultFrontier}, want)
		s := solve(t, b, goal, sparse, search.Options{Frontier: search.DefaultFrontier}, want)
		if r.Generated != s.Generated {
			t.Fatalf("%v: %d nodes with ranked tables, %d with sparse", b, r.Generated, s.Generated)
		}
	}
	for _, goal := range []puzzle.Goal{puzzle.GoalFirst, puzzle.GoalLast} {
		ranked, sparse := heuristics(size3, goal, [][]int{{1, 2, 4, 5}, {3, 6, 7, 8}})
		all := bfs.All(size3, goal)
		for i := 0; i < len(all); i += 11 {
			agree(all[i].Board, goal, ranked, sparse, all[i].Dist)
		}
	}
	p, err := pdb.ParsePartition("555", size4)
	if err != nil {
		t.Fatal(err)
	}
	ranked, sparse := heuristics(size4, pdb.Goal, p.Patterns)
	for _, id := range easyKorf {
		in := data.Korf100()[id-1]
		agree(board(in), puzzle.GoalFirst, ranked, sparse, in.Optimal)
	}
}

// BenchmarkKorf100 solves Korf's 100 under several configurations:
// benchstat-friendly names such as BenchmarkKorf100/pdb663/threads=1, and
// nodes/op and Mnodes/s beside the time. The 7-8 databases are loaded from
// the default directory ($FIFTEEN_PDB_DIR) when they are there.
func BenchmarkKorf100(b *testing.B) {
	configs := []struct {
		name string
		h    func(testing.TB) *search.Heuristic
	}{
		{"pdb771", func(b testing.TB) *search.Heuristic { return pdbHeuristic(b, "771", true) }},
		{"pdb663x2", func(b testing.TB) *search.Heuristic { return pdbHeuristic(b, "663x2", true) }},
		{"pdb663", func(b testing.TB) *search.Heuristic { return pdbHeuristic(b, "663", true) }},
		{"pdb663-noreflect", func(b testing.TB) *search.Heuristic { return pdbHeuristic(b, "663", false) }},
		{"pdb78", func(b testing.TB) *search.Heuristic {
			p, _ := pdb.ParsePartition("78", size4)
			dir, err := pdb.DefaultDir()
			var missing [][]int
			if err == nil {
				missing, err = p.Missing(dir)
			}
			if err == nil && len(missing) == 0 {
				tables, err := p.Load(dir)
				// Unmapped after each run: mapped anew by each, they held
				// 7 GB by -count 6 (issue 67).
				b.Cleanup(func() {
					for _, t := range tables {
						t.Close()
					}
				})
				if err == nil {
					h, err := search.Additive("pdb:78", tables, true)
					if err != nil {
						b.Fatal(err)
					}
					return h
				}
			}
			b.Skip("the 7-8 databases are not built: go run ./cmd/pdbgen --partition 78")
			return nil
		}},
	}
	for _, c := range configs {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", c.name, threads), func(b *testing.B) {
				h := c.h(b)
				var nodes uint64
				var secs float64
				for b.Loop() {
					for _, in := range data.Korf100() {
						res := solve(b, board(in), puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier, Threads: threads}, in.Optimal)
						nodes += res.Generated
						secs += res.Elapsed.Seconds()
					}
				}
				b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
				b.ReportMetric(float64(nodes)/secs/1e6, "Mnodes/s")
			})
		}
	}
}

// TestWeighted solves Korf's 100 by weighted IDA*: every answer replays,
// is no shorter than the optimum and no longer than the weight allows.
func TestWeighted(t *testing.T) {
	h := pdbHeuristic(t, "663", true)
	for _, weight := range []float64{1.25, 3} {
		longer := 0
		for _, in := range data.Korf100() {
			res := solve(t, board(in), puzzle.GoalFirst, h, search.Options{Weight: weight}, -1)
			if n := res.Length(); n < in.Optimal || float64(n) > weight*float64(in.Optimal) {
				t.Errorf("%s: weight %g: %d moves, optimum %d", in.ID, weight, n, in.Optimal)
			} else if n > in.Optimal {
				longer++
			}
		}
		if longer == 0 {
			t.Errorf("weight %g found only optimal solutions", weight)
		}
	}
	// Large weights, whose first bound lies far past MaxLength moves, find
	// solutions longer than it (issue 48: "no solution within 255 moves").
	m, err := search.Manhattan(puzzle.Size{Rows: 4, Cols: 4}, puzzle.GoalFirst)
	if err != nil {
		t.Fatal(err)
	}
	for _, weight := range []float64{5, 10, 100} {
		for _, in := range data.Korf100() {
			res := solve(t, board(in), puzzle.GoalFirst, m, search.Options{Weight: weight}, -1)
			if n := res.Length(); n < in.Optimal || float64(n) > weight*float64(in.Optimal) {
				t.Errorf("%s: weight %g: %d moves, optimum %d", in.ID, weight, n, in.Optimal)
			}
		}
	}
	for _, bad := range []float64{0.5, -1, 101} {
		if _, err := search.Solve(context.Background(), board(data.Korf100()[0]), puzzle.GoalFirst, h, search.Options{Weight: bad}); err == nil {
			t.Errorf("weight %g accepted", bad)
		}
	}
}

// TestGreedy solves Korf's 100 (Korf's goal) and their rotations (the
// other goal) by greedy best-first search: every answer replays and is no
// shorter than the optimum, and the search keeps far fewer positions than
// IDA* generates.
func TestGreedy(t *testing.T) {
	h := pdbHeuristic(t, "663", true)
	var generated uint64
	for _, in := range data.Korf100() {
		for _, c := range []struct {
			b    puzzle.Board
			goal puzzle.Goal
		}{{board(in), puzzle.GoalFirst}, {board(in).Rotate(), puzzle.GoalLast}} {
			res, err := search.Greedy(context.Background(), c.b, c.goal, h)
			if err != nil {
				t.Fatal(err)
			}
			end, err := c.b.Apply(res.Moves)
			if err != nil || end != puzzle.SolvedBoard(c.b.Size(), c.goal) || res.Length() < in.Optimal {
				t.Fatalf("%s %v: %d moves (optimum %d) do not solve it: %v", in.ID, c.goal, res.Length(), in.Optimal, err)
			}
			generated += res.Generated
		}
	}
	if generated > 10_000_000 {
		t.Errorf("greedy search generated %d nodes on 200 puzzles", generated)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := search.Greedy(ctx, board(data.Korf100()[0]), puzzle.GoalFirst, h); err == nil {
		t.Error("a cancelled greedy search succeeded")
	}
}

// plainIDA is IDA* at its plainest: every board's heuristic evaluated
// afresh (Estimate), only the move that undoes the last one pruned, moves
// in Korf's order. It returns the solution's length and the nodes
// generated, counted as Solve counts them.
func plainIDA(h *search.Heuristic, start puzzle.Board) (length int, generated uint64) {
	goal := puzzle.SolvedBoard(start.Size(), h.Goal())
	var next int
	var dfs func(b puzzle.Board, g, bound int, undo puzzle.Move) bool
	dfs = func(b puzzle.Board, g, bound int, undo puzzle.Move) bool {
		if b == goal {
			length = g
			return true
		}
		for _, m := range puzzle.Moves {
			child, _, ok := b.Move(m)
			if !ok || m == undo {
				continue
			}
			generated++
			if f := g + 1 + h.Estimate(child); f > bound {
				next = min(next, f)
				continue
			}
			if dfs(child, g+1, bound, m.Opposite()) {
				return true
			}
		}
		return false
	}
	generated = 1 // the root
	for bound := h.Estimate(start); ; bound = next {
		next = math.MaxInt
		if dfs(start, 0, bound, 4) {
			return length, generated
		}
	}
}

// TestIncrementalEstimates checks the search's move-by-move heuristic
// against Estimate on every board it meets: with the same pruning, it must
// generate as many nodes as plainIDA. Both regions of the blank and
// reflection are on; 3×3 every 13th position (and the other goal's, for
// optimal lengths), 4×4 easy Korf instances with 5-5-5.
func TestIncrementalEstimates(t *testing.T) {
	size3 := puzzle.Size{Rows: 3, Cols: 3}
	p555, err := pdb.ParsePartition("555", size4)
	if err != nil {
		t.Fatal(err)
	}
	h3, err := search.Additive("regions", build(t, size3, puzzle.GoalLast, [][]int{{1, 2, 4, 5}, {3, 6, 7, 8}}, pdb.BuildOptions{}), true)
	if err != nil {
		t.Fatal(err)
	}
	h4, err := search.Additive("regions", build(t, size4, pdb.Goal, p555.Patterns, pdb.BuildOptions{}), true)
	if err != nil {
		t.Fatal(err)
	}
	check := func(h *search.Heuristic, b puzzle.Board, want int) {
		res := solve(t, b, h.Goal(), h, search.Options{PruneDepth: search.PruneInverse, Order: puzzle.Moves}, want)
		if length, nodes := plainIDA(h, b); length != want || nodes != res.Generated {
			t.Fatalf("%v: plain IDA* length %d, %d nodes; the search %d nodes", b, length, nodes, res.Generated)
		}
	}
	all := bfs.All(size3, puzzle.GoalLast)
	for i := 0; i < len(all); i += 13 {
		check(h3, all[i].Board, all[i].Dist)
	}
	// The other goal convention, served by rotating the board: the
	// blank's regions must turn with it.
	first := bfs.All(size3, puzzle.GoalFirst)
	for i := 0; i < len(first); i += 13 {
		solve(t, first[i].Board, puzzle.GoalFirst, h3, search.Options{Frontier: search.DefaultFrontier}, first[i].Dist)
	}
	// A catalogue of three partitions, six views, searched by the loop
	// over views (dfsWide): its lazy lookups must give the maximum of the
	// sums on every node.
	catalogue := pdbHeuristic(t, wideCatalogue, true)
	for _, id := range easyKorf[:4] {
		in := data.Korf100()[id-1]
		check(h4, board(in), in.Optimal)
		check(catalogue, board(in), in.Optimal)
	}
}

// TestMax checks the maximum of two partitions' heuristics on 3×3: on
// every position it is the larger of the two, and the search with it finds
// the optimal length of every 11th position (checked by solve against
// breadth-first distances), in fewer nodes than with either alone. Max
// refuses heuristics it cannot combine.
func TestMax(t *testing.T) {
	size := puzzle.Size{Rows: 3, Cols: 3}
	a, err := search.Additive("pdb:a", build(t, size, pdb.Goal, [][]int{{1, 2, 3, 4}, {5, 6, 7, 8}}, pdb.BuildOptions{}), true)
	if err != nil {
		t.Fatal(err)
	}
	bTables := build(t, size, pdb.Goal, [][]int{{1, 3, 4, 6}, {2, 5, 7, 8}}, pdb.BuildOptions{})
	for _, reflect := range []bool{true, false} { // four views, and three
		b, err := search.Additive("pdb:b", bTables, reflect)
		if err != nil {
			t.Fatal(err)
		}
		m, err := search.Max("pdb:a+b", a, b)
		if err != nil {
			t.Fatal(err)
		}
		var nodes [3]uint64
		for i, p := range bfs.All(size, pdb.Goal) {
			if got, want := m.Estimate(p.Board), max(a.Estimate(p.Board), b.Estimate(p.Board)); got != want {
				t.Fatalf("%v: %d, want %d", p.Board, got, want)
			}
			if i%11 == 0 {
				for j, h := range []*search.Heuristic{a, b, m} {
					nodes[j] += solve(t, p.Board, pdb.Goal, h, search.Options{Frontier: search.DefaultFrontier}, p.Dist).Generated
				}
			}
		}
		if nodes[2] >= min(nodes[0], nodes[1]) {
			t.Errorf("b reflected %v: nodes %v: the maximum searched no fewer", reflect, nodes)
		}
	}

	lc, _ := search.LinearConflict(size, pdb.Goal)
	other, _ := search.Manhattan(size, puzzle.GoalLast)
	for _, bad := range [][]*search.Heuristic{nil, {a, lc}, {a, other}, {a, a, a, a, a, a, a, a, a}} {
		if _, err := search.Max("bad", bad...); err == nil {
			t.Errorf("Max of %d heuristics accepted", len(bad))
		}
	}
}

// TestWeightedParallelIteration searches weighted on two threads, whose
// copies of the worker each order the moves by the estimate in a state of
// their own (under the race detector in CI): the answers replay, within
// the weight, from an iteration searched in parallel.
func TestWeightedParallelIteration(t *testing.T) {
	h := pdbHeuristic(t, "663", true)
	for _, in := range data.Korf100()[:3] {
		res := solve(t, board(in), puzzle.GoalFirst, h, search.Options{Weight: 1.25, Threads: 2}, -1)
		its := res.Iterations
		if n := res.Length(); n < in.Optimal || float64(n) > 1.25*float64(in.Optimal) || len(its) < 2 || its[len(its)-2].Generated < 256 {
			t.Errorf("%s: %d moves, iterations %v, optimum %d: none searched in parallel?", in.ID, n, its, in.Optimal)
		}
	}
}
