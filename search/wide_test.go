package search_test

import (
	"math/rand/v2"
	"testing"

	"fifteen/pdb"
	"fifteen/puzzle"
	"fifteen/search"
)

// smallFive, smallFive2 and smallFive3 are partitions of the 24-puzzle's
// tiles into 4-tile patterns, whose tables build in memory in a second.
var (
	smallFive  = [][]int{{1, 2, 5, 6}, {3, 4, 8, 9}, {7, 12, 13, 14}, {10, 11, 15, 16}, {17, 18, 19, 24}, {20, 21, 22, 23}}
	smallFive2 = [][]int{{1, 2, 3, 4}, {5, 6, 10, 11}, {7, 8, 9, 14}, {12, 13, 17, 18}, {15, 16, 20, 21}, {19, 22, 23, 24}}
	smallFive3 = [][]int{{1, 5, 6, 10}, {2, 3, 7, 8}, {4, 9, 13, 14}, {11, 12, 16, 17}, {15, 20, 21, 22}, {18, 19, 23, 24}}
)

// TestFiveByFive solves 24-puzzle positions 30 to 50 random moves from the
// goal, under both goals, with a partition of 4-tile databases built in
// memory, catalogues of two and three such partitions (four views, and
// six, which the loop over views searches), and Manhattan distance: the
// lengths must agree, with the pruning machine (whose sequences are
// redundant on any board) and without it, and with the parallel search.
// The databases must generate fewer nodes than Manhattan distance in all,
// and each catalogue no more than the one before.
func TestFiveByFive(t *testing.T) {
	size := puzzle.Size{Rows: 5, Cols: 5}
	dbs, err := search.Additive("pdb:4x6", build(t, size, pdb.Goal, smallFive, pdb.BuildOptions{}), true)
	if err != nil {
		t.Fatal(err)
	}
	second, err := search.Additive("pdb:4x6b", build(t, size, pdb.Goal, smallFive2, pdb.BuildOptions{}), true)
	if err != nil {
		t.Fatal(err)
	}
	catalogue, err := search.Max("pdb:4x6x2", dbs, second)
	if err != nil {
		t.Fatal(err)
	}
	third, err := search.Additive("pdb:4x6c", build(t, size, pdb.Goal, smallFive3, pdb.BuildOptions{}), true)
	if err != nil {
		t.Fatal(err)
	}
	wide, err := search.Max("pdb:4x6x3", dbs, second, third)
	if err != nil {
		t.Fatal(err)
	}
	md, err := search.Manhattan(size, pdb.Goal)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(25, 24))
	var nodes [4]uint64
	for i := range 12 {
		goal := []puzzle.Goal{puzzle.GoalFirst, puzzle.GoalLast}[i%2]
		b := randomWalk(rng, size, goal, 30+rng.IntN(21))
		want := solve(t, b, goal, md, search.Options{Frontier: search.DefaultFrontier, PruneDepth: search.PruneInverse}, -1)
		solve(t, b, goal, md, search.Options{Frontier: search.DefaultFrontier}, want.Length())
		got := solve(t, b, goal, dbs, search.Options{Frontier: search.DefaultFrontier}, want.Length())
		solve(t, b, goal, dbs, search.Options{Frontier: search.DefaultFrontier, Threads: 3}, want.Length())
		both := solve(t, b, goal, catalogue, search.Options{Frontier: search.DefaultFrontier}, want.Length())
		all := solve(t, b, goal, wide, search.Options{Frontier: search.DefaultFrontier}, want.Length())
		solve(t, b, goal, wide, search.Options{Frontier: search.DefaultFrontier, Threads: 3}, want.Length())
		if both.H0 < got.H0 || all.H0 < both.H0 || all.H0 > want.Length() {
			t.Errorf("%v: the catalogues estimate %d and %d, the first partition %d, the optimum %d", b, both.H0, all.H0, got.H0, want.Length())
		}
		nodes[2] += both.Generated
		nodes[3] += all.Generated
		if got.H0 > want.Length() || got.H0 < want.H0 {
			t.Errorf("%v: the databases estimate %d, Manhattan distance %d, the optimum %d", b, got.H0, want.H0, want.Length())
		}
		nodes[0] += want.Generated
		nodes[1] += got.Generated
	}
	if nodes[1] >= nodes[0] || nodes[2] > nodes[1] || nodes[3] > nodes[2] {
		t.Errorf("%d and %d nodes with the catalogues, %d with the first partition, %d with Manhattan distance", nodes[3], nodes[2], nodes[1], nodes[0])
	}
}

// TestFiveByFiveRegions checks the heuristic's values on 5×5 boards, where
// the blank's region is grown rather than looked up, against the tables'
// own (pdb.Table.Value) on random positions, and that telling the regions
// apart raises some of them above the blank-free tables' values.
func TestFiveByFiveRegions(t *testing.T) {
	size := puzzle.Size{Rows: 5, Cols: 5}
	tables := build(t, size, pdb.Goal, smallFive, pdb.BuildOptions{})
	h, err := search.Additive("pdb:4x6", tables, false)
	if err != nil {
		t.Fatal(err)
	}
	free, err := search.Additive("pdb:4x6", build(t, size, pdb.Goal, smallFive, pdb.BuildOptions{BlankFree: true}), false)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	raised := 0
	for range 20000 {
		p, err := puzzle.Random(rng, size, pdb.Goal)
		if err != nil {
			t.Fatal(err)
		}
		b := board(p)
		want := 0
		for _, table := range tables {
			want += table.Value(b)
		}
		got, lower := h.Estimate(b), free.Estimate(b)
		if got != want || lower > got {
			t.Fatalf("%v: estimate %d, the tables' sum %d, blank-free %d", b, got, want, lower)
		}
		if got > lower {
			raised++
		}
	}
	if raised == 0 {
		t.Error("the blank's regions never raise an estimate")
	}
	t.Logf("%d of 20,000 estimates raised by the blank's regions", raised)
}
