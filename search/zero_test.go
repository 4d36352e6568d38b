package search_test

import (
	"math/rand/v2"
	"testing"

	"fifteen/internal/bfs"
	"fifteen/pdb"
	"fifteen/puzzle"
	"fifteen/search"
)

var zeroAware = pdb.BuildOptions{Scheme: pdb.ZeroAware}

// TestZeroAwareExact checks zero-aware tables on every 3×3 position: the
// heuristic is admissible, consistent (it changes by at most 1 a move),
// and no weaker than the flagged tables'; the search finds every 13th
// position's optimal length, generating as many nodes as plainIDA, which
// looks up every view of every child: the search's incremental indexes
// (the tiles' order kept while no tile passes another) decide every child
// as a full lookup does. So they do on 3×4 with a pattern of seven tiles,
// whose packed cells pass 32 bits.
func TestZeroAwareExact(t *testing.T) {
	size := puzzle.Size{Rows: 3, Cols: 3}
	patterns := [][]int{{1, 2, 3, 4}, {5, 6, 7, 8}}
	exact, err := search.Additive("pdb:zero", build(t, size, pdb.Goal, patterns, zeroAware), true)
	if err != nil {
		t.Fatal(err)
	}
	flagged, err := search.Additive("pdb:flagged", build(t, size, pdb.Goal, patterns, pdb.BuildOptions{}), true)
	if err != nil {
		t.Fatal(err)
	}
	stronger := 0
	for i, p := range bfs.All(size, pdb.Goal) {
		h := exact.Estimate(p.Board)
		if h > p.Dist || h < flagged.Estimate(p.Board) {
			t.Fatalf("%v: %d, distance %d, flagged tables' %d", p.Board, h, p.Dist, flagged.Estimate(p.Board))
		}
		if h > flagged.Estimate(p.Board) {
			stronger++
		}
		for _, m := range puzzle.Moves {
			if child, _, ok := p.Board.Move(m); ok && abs(exact.Estimate(child)-h) > 1 {
				t.Fatalf("%v: %d, after %v %d", p.Board, h, m, exact.Estimate(child))
			}
		}
		if i%13 == 0 {
			res := solve(t, p.Board, pdb.Goal, exact, search.Options{PruneDepth: search.PruneInverse, Order: puzzle.Moves}, p.Dist)
			if length, nodes := plainIDA(exact, p.Board); length != p.Dist || nodes != res.Generated {
				t.Fatalf("%v: plain IDA* length %d, %d nodes; the search %d nodes", p.Board, length, nodes, res.Generated)
			}
		}
	}
	if stronger == 0 {
		t.Error("the zero-aware tables are nowhere stronger than the flagged ones")
	}
	// A pattern of seven tiles, whose last tile's cell lies past bit 32 of
	// its index, on 3×4.
	size = puzzle.Size{Rows: 3, Cols: 4}
	seven, err := search.Additive("pdb:seven", build(t, size, pdb.Goal, [][]int{{1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11}}, zeroAware), false)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 8 {
		checkOptimal(t, seven, walk(rng, size, 40))
	}
}

// checkOptimal solves b with h, checks the length against IDA* with
// Manhattan distance, and the nodes against plainIDA's, which looks every
// view of every child up; it returns the length.
func checkOptimal(t *testing.T, h *search.Heuristic, b puzzle.Board) int {
	t.Helper()
	md, _ := search.Manhattan(b.Size(), pdb.Goal)
	want := solve(t, b, pdb.Goal, md, search.Options{}, -1)
	res := solve(t, b, pdb.Goal, h, search.Options{PruneDepth: search.PruneInverse, Order: puzzle.Moves}, want.Length())
	if length, nodes := plainIDA(h, b); length != want.Length() || nodes != res.Generated {
		t.Fatalf("%v: plain IDA* length %d, %d nodes; the search %d nodes", b, length, nodes, res.Generated)
	}
	return want.Length()
}

// walk returns the board that n random moves, none undoing the last, take
// the goal to.
func walk(rng *rand.Rand, size puzzle.Size, n int) puzzle.Board {
	b, undo := puzzle.SolvedBoard(size, pdb.Goal), puzzle.Move(4)
	for steps := 0; steps < n; {
		m := puzzle.Moves[rng.IntN(4)]
		if next, _, ok := b.Move(m); ok && m != undo {
			b, undo = next, m.Opposite()
			steps++
		}
	}
	return b
}

func abs(x int) int { return max(x, -x) }

// TestZeroAwareFiveByFive solves 5×5 positions 30 to 50 moves out (60
// random moves) with a catalogue of two partitions of zero-aware 3-tile
// tables, each with its reflection, optimally (the lengths checked against
// IDA* with Manhattan distance), deciding every child as a full lookup
// does (plainIDA's nodes), on one thread and on three, and with a weight.
func TestZeroAwareFiveByFive(t *testing.T) {
	size := puzzle.Size{Rows: 5, Cols: 5}
	var heuristics []*search.Heuristic
	for _, patterns := range [][][]int{
		{{1, 2, 3}, {4, 8, 9}, {5, 6, 7}, {10, 11, 12}, {13, 14, 19}, {15, 16, 20}, {17, 21, 22}, {18, 23, 24}},
		{{1, 5, 6}, {2, 3, 7}, {4, 9, 14}, {8, 12, 13}, {10, 11, 15}, {16, 17, 21}, {18, 22, 23}, {19, 20, 24}},
	} {
		h, err := search.Additive("pdb:zero", build(t, size, pdb.Goal, patterns, zeroAware), true)
		if err != nil {
			t.Fatal(err)
		}
		heuristics = append(heuristics, h)
	}
	catalogue, err := search.Max("pdb:zero2", heuristics...)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for range 4 {
		b := walk(rng, size, 60)
		want := checkOptimal(t, catalogue, b)
		solve(t, b, pdb.Goal, catalogue, search.Options{Threads: 3}, want)
		if w := solve(t, b, pdb.Goal, catalogue, search.Options{Weight: 2}, -1); w.Length() > 2*want {
			t.Fatalf("%v: weighted length %d, optimum %d", b, w.Length(), want)
		}
	}
}
