package solver_test

import (
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"fifteen/data"
	"fifteen/internal/bfs"
	"fifteen/puzzle"
	"fifteen/solver"
)

// TestInMemory solves 3×3 and 4×4 puzzles with tables built in memory
// (5-5-5 on 4×4), reading and writing no directory, as the library does
// as a page's WebAssembly: every answer replayed, its length the optimum
// that breadth-first search, or Korf, found. CI runs it under Node too
// (GOOS=js GOARCH=wasm go test -run TestInMemory ./solver; issue 77).
func TestInMemory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "none")
	small, err := solver.New(solver.Config{Dir: dir, InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	s, err := solver.New(solver.Config{Partition: "555", Dir: dir, InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	all := bfs.All(puzzle.Size{Rows: 3, Cols: 3}, puzzle.GoalLast)
	rng := rand.New(rand.NewPCG(7, 7))
	for range 5 {
		at := all[rng.IntN(len(all))]
		p := at.Board.Puzzle()
		p.ID, p.Optimal = "random", at.Dist
		solveInMemory(t, ctx, small, p, puzzle.GoalLast)
	}
	solved := 0
	for _, p := range data.Korf100() {
		if p.Optimal <= 45 { // the quickest, seconds under Node
			solveInMemory(t, ctx, s, p, puzzle.GoalFirst)
			solved++
		}
	}
	if solved < 3 {
		t.Errorf("%d of Korf's instances solved", solved)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the directory was made: %v", err)
	}
}

// solveInMemory solves p toward goal with s, and checks the answer.
func solveInMemory(t *testing.T, ctx context.Context, s *solver.Solver, p puzzle.Puzzle, goal puzzle.Goal) {
	t.Helper()
	res, err := s.Solve(ctx, p, solver.Options{Goal: goal})
	if err != nil || !res.Optimal || res.Length() != p.Optimal {
		t.Fatalf("%s: %d moves, optimal %v, want %d: %v", p.ID, res.Length(), res.Optimal, p.Optimal, err)
	}
	b, err := p.Board()
	for _, m := range res.Moves {
		var ok bool
		if b, _, ok = b.Move(m); !ok {
			t.Fatalf("%s: an illegal move", p.ID)
		}
	}
	if err != nil || !slices.Equal(b.Puzzle().Tiles, puzzle.Solved(p.Size, goal).Tiles) {
		t.Errorf("%s: the moves end at %v", p.ID, b)
	}
}
