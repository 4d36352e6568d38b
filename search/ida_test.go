package search_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"fifteen/data"
	"fifteen/internal/bfs"
	"fifteen/internal/testtool"
	"fifteen/puzzle"
	"fifteen/search"
)

var size4 = puzzle.Size{Rows: 4, Cols: 4}

// solve solves b and checks the answer: it replays it to the goal and, when
// want ≥ 0, compares its length.
func solve(t testing.TB, b puzzle.Board, goal puzzle.Goal, h *search.Heuristic, opts search.Options, want int) search.Result {
	t.Helper()
	res, err := search.Solve(context.Background(), b, goal, h, opts)
	if err != nil {
		t.Fatalf("%v: %v", b, err)
	}
	end, err := b.Apply(res.Moves)
	if err != nil || end != puzzle.SolvedBoard(b.Size(), goal) {
		t.Fatalf("%v: solution %v does not reach the goal (%v)", b, puzzle.FormatMoves(res.Moves), err)
	}
	if want >= 0 && res.Length() != want {
		t.Fatalf("%v: length %d, want %d", b, res.Length(), want)
	}
	// Every search's iterations and path are ones CheckIterations and
	// CheckPath take: they never refuse an honest result.
	if err := search.CheckIterations(b, goal, h, opts.Weight, res.Iterations, 0); err != nil {
		t.Fatalf("%v: %v: %v", b, res.Iterations, err)
	}
	if err := search.CheckPath(b, goal, h, search.Options{PruneDepth: opts.PruneDepth, Weight: opts.Weight}, res.Moves, res.Iterations[len(res.Iterations)-1].Bound); err != nil {
		t.Fatalf("%v: %s: %v", b, puzzle.FormatMoves(res.Moves), err)
	}
	return res
}

// TestEightPuzzleExhaustive solves every 3×3 position under both goals and
// compares with breadth-first distances; but for the long tests (testtool.Long), every 17th.
func TestEightPuzzleExhaustive(t *testing.T) {
	size := puzzle.Size{Rows: 3, Cols: 3}
	step := 1
	if !testtool.Long() {
		step = 17
	}
	for _, goal := range []puzzle.Goal{puzzle.GoalFirst, puzzle.GoalLast} {
		h, err := search.Manhattan(size, goal)
		if err != nil {
			t.Fatal(err)
		}
		all := bfs.All(size, goal)
		if len(all) != 181440 {
			t.Fatalf("BFS found %d positions, want 181440", len(all))
		}
		for i := 0; i < len(all); i += step {
			solve(t, all[i].Board, goal, h, search.Options{Frontier: search.DefaultFrontier}, all[i].Dist)
		}
	}
}

// easyKorf are Korf instances that Manhattan distance solves in well under
// a second.
var easyKorf = []int{9, 12, 16, 19, 42, 55, 79, 97}

func TestKorfManhattan(t *testing.T) {
	h, err := search.Manhattan(size4, puzzle.GoalFirst)
	if err != nil {
		t.Fatal(err)
	}
	set := data.Korf100()
	for _, id := range easyKorf {
		in := set[id-1]
		for _, threads := range []int{1, 2, 4} {
			solve(t, board(in), puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier, Threads: threads}, in.Optimal)
		}
	}
}

// TestGoalLastRotates solves Korf's instances relabelled for the other goal
// with a heuristic of Korf's goal: the search rotates them.
func TestGoalLastRotates(t *testing.T) {
	h, err := search.Manhattan(size4, puzzle.GoalFirst)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range easyKorf[:4] {
		in := data.Korf100()[id-1]
		solve(t, board(in).Rotate(), puzzle.GoalLast, h, search.Options{Frontier: search.DefaultFrontier}, in.Optimal)
	}
}

// randomWalk returns the board reached by n random moves from the goal.
func randomWalk(rng *rand.Rand, size puzzle.Size, goal puzzle.Goal, n int) puzzle.Board {
	b := puzzle.SolvedBoard(size, goal)
	for range n {
		b, _, _ = b.Move(puzzle.Move(rng.IntN(4)))
	}
	return b
}

// TestPruningKeepsOptimal compares the full pruning machine with pruning
// only inverse moves, and the parallel search with the sequential one, on
// random 4×4 positions: same lengths, and the parallel search returns the
// sequential answer itself.
func TestPruningKeepsOptimal(t *testing.T) {
	h, err := search.Manhattan(size4, puzzle.GoalLast)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 30 {
		b := randomWalk(rng, size4, puzzle.GoalLast, 60)
		// In Korf's order the machine keeps, of redundant sequences, the
		// one the search meets first, so pruning only removes nodes; in
		// the default order it may remove the solution met first.
		korf := search.Options{PruneDepth: search.PruneInverse, Order: puzzle.Moves}
		inverse := solve(t, b, puzzle.GoalLast, h, korf, -1)
		korf.PruneDepth = 0
		pruned := solve(t, b, puzzle.GoalLast, h, korf, inverse.Length())
		if pruned.Generated > inverse.Generated {
			t.Errorf("%v: pruning generated more nodes (%d > %d)", b, pruned.Generated, inverse.Generated)
		}
		full := solve(t, b, puzzle.GoalLast, h, search.Options{Frontier: search.DefaultFrontier}, inverse.Length())
		for _, threads := range []int{2, 3, 8} {
			par := solve(t, b, puzzle.GoalLast, h, search.Options{Frontier: search.DefaultFrontier, Threads: threads}, full.Length())
			if puzzle.FormatMoves(par.Moves) != puzzle.FormatMoves(full.Moves) {
				t.Errorf("%v: %d threads found %v, sequential %v", b, threads, puzzle.FormatMoves(par.Moves), puzzle.FormatMoves(full.Moves))
			}
		}
	}
}

func TestKorfCounting(t *testing.T) {
	// Korf (1985), instance 12: 546,344 nodes generated by IDA* with
	// Manhattan distance, moves tried up, left, right, down, only inverse
	// moves pruned, and the root counted once.
	h, err := search.Manhattan(size4, puzzle.GoalFirst)
	if err != nil {
		t.Fatal(err)
	}
	res := solve(t, board(data.Korf100()[11]), puzzle.GoalFirst, h, search.Options{PruneDepth: search.PruneInverse, Order: puzzle.Moves}, 45)
	if res.Generated != 546344 {
		t.Errorf("generated %d, Korf's table says 546344", res.Generated)
	}
	// The default order, which tries first near the root the moves that
	// take their tile nearer home, changes the last iteration alone.
	def := solve(t, board(data.Korf100()[11]), puzzle.GoalFirst, h, search.Options{PruneDepth: search.PruneInverse}, 45)
	last := len(res.Iterations) - 1
	if len(def.Iterations) != len(res.Iterations) || !slices.Equal(def.Iterations[:last], res.Iterations[:last]) || def.Iterations[last] == res.Iterations[last] {
		t.Errorf("default order: iterations %+v, with Korf's order %+v", def.Iterations, res.Iterations)
	}
	var sum uint64
	for _, it := range res.Iterations {
		sum += it.Generated
	}
	if sum != res.Generated || res.Iterations[0].Bound != res.H0 || res.H0 != 35 {
		t.Errorf("iterations %+v do not add up to %d, or h0 %d is not 35", res.Iterations, res.Generated, res.H0)
	}
}

func TestErrors(t *testing.T) {
	h, err := search.Manhattan(size4, puzzle.GoalLast)
	if err != nil {
		t.Fatal(err)
	}
	tiles := puzzle.SolvedBoard(size4, puzzle.GoalLast).Puzzle().Tiles
	tiles[0], tiles[1] = tiles[1], tiles[0]
	b, _ := puzzle.NewBoard(size4, tiles)
	if _, err := search.Solve(context.Background(), b, puzzle.GoalLast, h, search.Options{Frontier: search.DefaultFrontier}); !errors.Is(err, puzzle.ErrUnsolvable) {
		t.Errorf("unsolvable board: %v", err)
	}
	small := puzzle.SolvedBoard(puzzle.Size{Rows: 3, Cols: 3}, puzzle.GoalLast)
	if _, err := search.Solve(context.Background(), small, puzzle.GoalLast, h, search.Options{Frontier: search.DefaultFrontier}); err == nil {
		t.Error("a 3x3 board with a 4x4 heuristic accepted")
	}
	if _, err := search.Solve(context.Background(), board(data.Korf100()[0]), puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier, PruneDepth: 99}); err == nil {
		t.Error("pruning depth 99 accepted")
	}
	for _, threads := range []int{-1, search.MaxThreads + 1} {
		if _, err := search.Solve(context.Background(), board(data.Korf100()[0]), puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier, Threads: threads}); err == nil {
			t.Errorf("%d threads accepted", threads)
		}
	}
	// A hard instance under a short deadline stops with partial counts,
	// and the parallel search's goroutines go home.
	hf, _ := search.Manhattan(size4, puzzle.GoalFirst)
	goroutines := runtime.NumGoroutine()
	for _, threads := range []int{1, 2} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		res, err := search.Solve(ctx, board(data.Korf100()[87]), puzzle.GoalFirst, hf, search.Options{Frontier: search.DefaultFrontier, Threads: threads})
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || res.Solved || res.Generated == 0 {
			t.Errorf("deadline, %d threads: err %v, solved %v, generated %d", threads, err, res.Solved, res.Generated)
		}
	}
	for wait := time.Millisecond; runtime.NumGoroutine() > goroutines; wait *= 2 {
		if wait > time.Second {
			t.Fatalf("%d goroutines left running, %d before", runtime.NumGoroutine(), goroutines)
		}
		time.Sleep(wait)
	}
}

// BenchmarkManhattan reports the node rate of the Manhattan search on
// Korf's instance 16 (18 M nodes with inverse pruning only).
func BenchmarkManhattan(b *testing.B) {
	h, err := search.Manhattan(size4, puzzle.GoalFirst)
	if err != nil {
		b.Fatal(err)
	}
	in := data.Korf100()[15]
	for _, depth := range []int{search.PruneInverse, search.DefaultPruneDepth} {
		b.Run("prune="+map[int]string{search.PruneInverse: "inverse", search.DefaultPruneDepth: "fsm"}[depth], func(b *testing.B) {
			var nodes uint64
			var secs float64
			for b.Loop() {
				res := solve(b, board(in), puzzle.GoalFirst, h, search.Options{Frontier: search.DefaultFrontier, PruneDepth: depth}, in.Optimal)
				nodes += res.Generated
				secs += res.Elapsed.Seconds()
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			b.ReportMetric(float64(nodes)/secs/1e6, "Mnodes/s")
		})
	}
}

// board packs a well-formed puzzle of the test sets.
func board(p puzzle.Puzzle) puzzle.Board {
	b, err := p.Board()
	if err != nil {
		panic(err)
	}
	return b
}
