package solver_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fifteen/internal/bfs"
	"fifteen/pdb"
	"fifteen/puzzle"
	"fifteen/search"
	"fifteen/solver"
)

// goalWithBlank returns a random goal board of the size with the blank on
// cell blank.
func goalWithBlank(rng *rand.Rand, size puzzle.Size, blank int) puzzle.Puzzle {
	g := puzzle.Puzzle{Size: size, Tiles: rng.Perm(size.Cells())}
	i := slices.Index(g.Tiles, 0)
	g.Tiles[i], g.Tiles[blank] = g.Tiles[blank], 0
	return g
}

// TestGoalBoards solves toward goal boards with the blank on every cell of
// the 3×3 and the 2×4, and on one cell of the 2×5, from positions drawn
// from all those that reach the goal (and the farthest), under the
// databases and under Manhattan distance, and checks every length against
// breadth-first search from the goal.
func TestGoalBoards(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	dir := filepath.Join(t.TempDir(), "unused")
	solvers := map[string]*solver.Solver{
		"pdb":       newSolver(t, solver.Config{Dir: dir}),
		"manhattan": newSolver(t, solver.Config{Dir: dir, Heuristic: "manhattan"}),
	}
	for _, c := range []struct {
		size    puzzle.Size
		blanks  []int
		samples int
	}{
		{size3, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}, 12},
		{puzzle.Size{Rows: 2, Cols: 4}, []int{0, 1, 2, 3, 4, 5, 6, 7}, 8},
		{puzzle.Size{Rows: 2, Cols: 5}, []int{7}, 6},
	} {
		for _, blank := range c.blanks {
			goal := goalWithBlank(rng, c.size, blank)
			b, err := goal.Board()
			if err != nil {
				t.Fatal(err)
			}
			all := bfs.From(b)
			picked := []bfs.Position{all[0], all[len(all)-1]}
			for range c.samples {
				picked = append(picked, all[rng.IntN(len(all))])
			}
			for name, s := range solvers {
				for _, pos := range picked {
					p := pos.Board.Puzzle()
					opts := solver.Options{GoalBoard: &goal, Options: search.Options{Frontier: search.DefaultFrontier}}
					res, err := s.Solve(context.Background(), p, opts)
					if err != nil || res.Length() != pos.Dist {
						t.Fatalf("%s: %v toward %v: %d moves, %v; breadth-first search: %d", name, p, goal, res.Length(), err, pos.Dist)
					}
					opts.Mode = solver.Greedy
					if _, err := s.Solve(context.Background(), p, opts); err != nil {
						t.Fatalf("%s, greedy: %v toward %v: %v", name, p, goal, err)
					}
				}
			}
		}
	}
}

// TestGoalRefused checks the errors of a goal board: unsolvable toward it
// (naming it), of another size, with the other convention, and in the
// modes and searches that do not take one.
func TestGoalRefused(t *testing.T) {
	s := newSolver(t, solver.Config{Dir: filepath.Join(t.TempDir(), "unused")})
	goal := &puzzle.Puzzle{Size: size3, Tiles: []int{1, 2, 3, 4, 0, 5, 6, 7, 8}}
	p := puzzle.Puzzle{Size: size3, Tiles: []int{2, 1, 3, 4, 0, 5, 6, 7, 8}}
	_, err := s.Solve(context.Background(), p, solver.Options{GoalBoard: goal})
	if !errors.Is(err, puzzle.ErrUnsolvable) || !strings.Contains(err.Error(), "1 2 3 4 0 5 6 7 8") {
		t.Errorf("unsolvable: %v", err)
	}
	p.Tiles[0], p.Tiles[1] = 1, 2
	for _, c := range []struct {
		opts solver.Options
		want string
	}{
		{solver.Options{GoalBoard: &puzzle.Puzzle{Size: size4, Tiles: puzzle.Solved(size4, puzzle.GoalFirst).Tiles}}, "a 3x3 puzzle for a 4x4 goal"},
		{solver.Options{GoalBoard: &puzzle.Puzzle{Size: size3, Tiles: goal.Tiles[:8]}}, "wrong number of tiles"},
		{solver.Options{GoalBoard: goal, Goal: puzzle.GoalFirst}, "give one"},
		{solver.Options{GoalBoard: goal, Mode: solver.Constructive}, "blank in a corner"},
	} {
		if _, err := s.Solve(context.Background(), p, c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.opts, err, c.want)
		}
	}
	if _, _, err := s.Split(context.Background(), p, solver.Options{GoalBoard: goal}, 2, 0); err == nil {
		t.Error("a split search toward a goal board: no error")
	}
	// A corner goal is placed toward, by the constructive mode.
	corner := &puzzle.Puzzle{Size: size3, Tiles: []int{8, 7, 6, 5, 4, 3, 2, 1, 0}}
	q := puzzle.Puzzle{Size: size3, Tiles: []int{8, 7, 6, 5, 4, 3, 2, 0, 1}}
	if res, err := s.Solve(context.Background(), q, solver.Options{GoalBoard: corner, Mode: solver.Constructive}); err != nil || !res.Solved {
		t.Errorf("constructive toward %v: %v", corner, err)
	}
}

// manhattanIDA returns the distance from p to goal by IDA* under
// Manhattan distance, written apart from the solver's frames and
// heuristics.
func manhattanIDA(p, goal puzzle.Puzzle) int {
	home := make([]int, len(goal.Tiles))
	for c, t := range goal.Tiles {
		home[t] = c
	}
	tiles := slices.Clone(p.Tiles)
	h := 0
	for c, t := range tiles {
		if t != 0 {
			h += p.Size.Distance(c, home[t])
		}
	}
	var dfs func(blank, g, h, bound int, last puzzle.Move) bool
	dfs = func(blank, g, h, bound int, last puzzle.Move) bool {
		switch {
		case h == 0:
			return true
		case g+h > bound:
			return false
		}
		for _, m := range puzzle.Moves {
			q := p.Size.Neighbor(blank, m)
			if q < 0 || g > 0 && m == last.Opposite() {
				continue
			}
			t := tiles[q]
			nh := h - p.Size.Distance(q, home[t]) + p.Size.Distance(blank, home[t])
			tiles[blank], tiles[q] = t, 0
			found := dfs(q, g+1, nh, bound, m)
			tiles[blank], tiles[q] = 0, t
			if found {
				return true
			}
		}
		return false
	}
	for bound := h; ; bound += 2 {
		if dfs(p.Blank(), 0, h, bound, 0) {
			return bound
		}
	}
}

// TestGoalDatabases solves 4×4 positions toward goals with the blank in the
// centre, on an edge and in a corner, under 5-5-5 databases that the
// store builds for each goal's orbit (the corner's are Korf's goal's),
// against IDA* under Manhattan distance, on random walks from the goal.
func TestGoalDatabases(t *testing.T) {
	dir := t.TempDir()
	s := newSolver(t, solver.Config{Partition: spec555, Dir: dir, Build: pdb.BuildAny})
	rng := rand.New(rand.NewPCG(5, 6))
	for _, blank := range []int{5, 14, 15} {
		goal := goalWithBlank(rng, size4, blank)
		for range 4 {
			p := goal
			for range 36 {
				if q, _, err := p.Apply([]puzzle.Move{puzzle.Moves[rng.IntN(4)]}); err == nil {
					p = q
				}
			}
			want := manhattanIDA(p, goal)
			res, err := s.Solve(context.Background(), p, solver.Options{GoalBoard: &goal, Options: search.Options{Frontier: search.DefaultFrontier, Threads: 2}})
			if err != nil || res.Length() != want {
				t.Fatalf("%v toward %v: %d moves, %v; Manhattan IDA*: %d", p, goal, res.Length(), err, want)
			}
		}
	}
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".pdb") {
			names = append(names, e.Name())
		}
	}
	for _, want := range []string{"4x4-first-1.2.3.6.7.pdb", "4x4-blank5-2.3.4.6.7.pdb", "4x4-blank1-1.2.3.6.7.pdb"} {
		if !slices.Contains(names, want) {
			t.Errorf("no %s among %v", want, names)
		}
	}
	if len(names) != 9 {
		t.Errorf("%d databases, want three goals' three: %v", len(names), names)
	}
}

// TestWideBoards solves 4×5 and 3×6 positions, random walks of 40 moves
// from Korf's goal and from a goal with the blank on an edge, under
// 5-tile databases that the store builds in seconds, against IDA* under
// linear conflict (Manhattan distance on 3×6, whose rows are longer than
// the lines linear conflict tabulates).
func TestWideBoards(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct {
		size      puzzle.Size
		partition string
		classic   string
	}{
		{puzzle.Size{Rows: 4, Cols: 5}, "1,2,5,6,10/3,4,7,8,9/11,12,15,16,17/13,14,18,19", "linear-conflict"},
		{puzzle.Size{Rows: 3, Cols: 6}, "1,2,6,7,8/3,4,9,10,14/5,11,15,16,17/12,13", "manhattan"},
	} {
		dbs := newSolver(t, solver.Config{Partition: c.partition, Dir: dir, Build: pdb.BuildAny})
		lc := newSolver(t, solver.Config{Heuristic: c.classic})
		for _, goal := range []puzzle.Puzzle{puzzle.Solved(c.size, puzzle.GoalFirst), goalWithBlank(rng, c.size, 2)} {
			for range 3 {
				p := goal
				for range 40 {
					if q, _, err := p.Apply([]puzzle.Move{puzzle.Moves[rng.IntN(4)]}); err == nil {
						p = q
					}
				}
				opts := solver.Options{GoalBoard: &goal, Options: search.Options{Frontier: search.DefaultFrontier, Threads: 2}}
				want, err := lc.Solve(context.Background(), p, opts)
				if err != nil {
					t.Fatal(err)
				}
				if res, err := dbs.Solve(context.Background(), p, opts); err != nil || res.Length() != want.Length() {
					t.Fatalf("%v toward %v: %d moves, %v; %s: %d", p, goal, res.Length(), err, c.classic, want.Length())
				}
			}
		}
	}
}
