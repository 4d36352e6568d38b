package game

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"fifteen/puzzle"
	"fifteen/solver"
)

var size3 = puzzle.Size{Rows: 3, Cols: 3}

// newGame starts an 8-puzzle game with the perfect database.
func newGame(t *testing.T, tiles []int) *Game {
	t.Helper()
	s, err := solver.New(solver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	g, err := New(puzzle.Puzzle{Size: size3, Tiles: tiles}, puzzle.Solved(size3, puzzle.GoalLast), s, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestKeys(t *testing.T) {
	for key, want := range map[string]Action{
		"Up": SlideUp, "w": SlideUp, "k": SlideUp, "Down": SlideDown, "j": SlideDown,
		"Left": SlideLeft, "a": SlideLeft, "Right": SlideRight, "d": SlideRight, "l": SlideRight,
		"h": Hint, "?": Hint, "s": Solve, "n": NewPuzzle, "u": Undo, "q": Quit, "x": None,
	} {
		if got := KeyAction(key); got != want {
			t.Errorf("key %q: action %d, want %d", key, got, want)
		}
	}
}

// TestSlides checks that a key slides the tile in its direction into the
// blank, that undo takes it back, and that a slide with no tile to move
// changes nothing.
func TestSlides(t *testing.T) {
	g := newGame(t, []int{1, 2, 3, 4, 0, 5, 6, 7, 8}) // the blank in the middle
	if g.Optimal() != 14 {
		t.Fatalf("optimal %d", g.Optimal())
	}
	for _, c := range []struct {
		action Action
		tile   int // the tile that ends where the blank was
	}{{SlideLeft, 5}, {SlideRight, 4}, {SlideUp, 7}, {SlideDown, 2}} {
		changed, err := g.Do(c.action)
		if err != nil || !changed || g.Board().Tile(4) != c.tile || g.Moves() != 1 {
			t.Fatalf("action %d: %v, board\n%s", c.action, err, g.Board().Grid())
		}
		if changed, _ := g.Do(Undo); !changed || g.Board().Tile(4) != 0 || g.Moves() != 0 {
			t.Fatalf("undo of action %d: board\n%s", c.action, g.Board().Grid())
		}
	}
	g = newGame(t, []int{0, 1, 2, 3, 4, 5, 6, 7, 8})
	if changed, _ := g.Do(SlideDown); changed || g.Moves() != 0 || !strings.Contains(g.Message, "No tile") {
		t.Errorf("slid a tile from outside the board: %q", g.Message)
	}
	if changed, _ := g.Do(Undo); changed {
		t.Error("undid nothing")
	}
}

// TestHintAndSolve follows the hints to the goal: each is an optimal move,
// so the game ends in the optimal number of moves and says so.
func TestHintAndSolve(t *testing.T) {
	g := newGame(t, []int{8, 6, 7, 2, 5, 4, 3, 0, 1}) // 31 moves, the 8-puzzle's hardest
	for i := 31; i > 0; i-- {
		if _, err := g.Do(Hint); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(g.Message, "; "+countMoves(i)+" to go") {
			t.Fatalf("hint with %d to go: %q", i, g.Message)
		}
		if moved, err := g.Step(); err != nil || !moved {
			t.Fatalf("step: %v", err)
		}
	}
	if !g.Solved() || g.Moves() != 31 || g.Message != "The solver solved it in 31 moves." {
		t.Errorf("after 31 steps: solved %v, %d moves, %q", g.Solved(), g.Moves(), g.Message)
	}
	if moved, _ := g.Step(); moved {
		t.Error("stepped past the goal")
	}
}

func TestNotOptimal(t *testing.T) {
	g := newGame(t, []int{1, 2, 3, 4, 5, 6, 7, 0, 8}) // one move: slide 8 left
	g.Do(SlideRight)                                  // 7 right
	g.Do(SlideLeft)                                   // 7 back
	g.Do(SlideLeft)                                   // 8 left: solved in 3
	if !g.Solved() || g.Message != "Solved in 3 moves; the optimum was 1." {
		t.Errorf("solved %v: %q", g.Solved(), g.Message)
	}
}

func TestNewPuzzle(t *testing.T) {
	g := newGame(t, []int{1, 2, 3, 4, 5, 6, 7, 8, 0})
	for range 5 {
		if changed, err := g.Do(NewPuzzle); err != nil || !changed {
			t.Fatal(err)
		}
		if !g.Board().Solvable(puzzle.GoalLast) || g.Moves() != 0 || !strings.HasPrefix(g.Message, "A new puzzle: ") {
			t.Errorf("new puzzle %v: %q", g.Board(), g.Message)
		}
	}
	if _, err := New(puzzle.Puzzle{Size: size3, Tiles: []int{2, 1, 3, 4, 5, 6, 7, 8, 0}}, puzzle.Solved(size3, puzzle.GoalLast), nil, nil); err == nil {
		t.Error("an unsolvable start was accepted")
	}
}

// TestHintFallback plays Korf's 88th, which Manhattan distance takes
// billions of nodes to solve, with a millisecond for each optimal search:
// the game starts, a hint far from the goal is the human-style solver's
// move and says so, every hint names the tile it slides (play highlights
// it), and playing them reaches the goal (issue 67: a hint that timed out
// ended the game).
func TestHintFallback(t *testing.T) {
	s, err := solver.New(solver.Config{Heuristic: "manhattan"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	b, err := puzzle.NewBoard(puzzle.Size{Rows: 4, Cols: 4}, []int{15, 2, 12, 11, 14, 13, 9, 5, 1, 3, 8, 7, 0, 10, 6, 4})
	if err != nil {
		t.Fatal(err)
	}
	frame, err := puzzle.NewFrame(puzzle.Solved(b.Size(), puzzle.GoalFirst))
	if err != nil {
		t.Fatal(err)
	}
	g := &Game{frame: frame, opts: goalOptions(frame), solver: s, timeout: time.Millisecond}
	if err := g.reset(b); err != nil || g.Optimal() != -1 || !strings.Contains(g.Message, "hints are human-style") {
		t.Fatalf("the start: %v, optimal %d, %q", err, g.Optimal(), g.Message)
	}
	for step := 0; !g.Solved(); step++ {
		if _, err := g.Do(Hint); err != nil || step == 0 && !strings.HasPrefix(g.Message, "Hint, human-style") || !strings.HasPrefix(g.Message, "Hint") {
			t.Fatalf("step %d: %v, %q", step, err, g.Message)
		}
		next, tile, ok := g.Board(), 0, false
		for m := range 4 {
			if _, t, can := next.Move(puzzle.Move(m)); can && t == g.Hinted {
				tile, ok = t, true
			}
		}
		if !ok || tile == 0 {
			t.Fatalf("step %d: the hint names tile %d, not one beside the blank", step, g.Hinted)
		}
		if moved, err := g.Step(); err != nil || !moved || step > 1000 {
			t.Fatalf("step %d: %v", step, err)
		}
	}
	if g.Message != fmt.Sprintf("The solver solved it in %d moves.", g.Moves()) || g.Hinted != 0 {
		t.Errorf("solved: %q, hinted %d", g.Message, g.Hinted)
	}
}

// TestPlayerAndSolver tells the player's solution from the solver's
// (issue 76: the solver's finish was praised as the player's optimal
// one): the player's optimal solution is praised, one the solver
// finished is not.
func TestPlayerAndSolver(t *testing.T) {
	g := newGame(t, []int{1, 2, 3, 4, 5, 6, 0, 7, 8}) // two moves: slide 7 and 8 left
	g.Do(SlideLeft)
	g.Do(SlideLeft)
	if g.Message != "Solved in 2 moves: optimal!" {
		t.Errorf("the player's: %q", g.Message)
	}
	g = newGame(t, []int{1, 2, 3, 4, 5, 6, 0, 7, 8})
	g.Do(SlideLeft)
	if moved, err := g.Step(); err != nil || !moved || g.Message != "Solved in 2 moves, 1 of them the solver's." {
		t.Errorf("the solver's finish: %v, %q", err, g.Message)
	}
}

// TestGoalBoard plays toward a goal board with the blank in the centre:
// new puzzles reach it, and the hints lead there.
func TestGoalBoard(t *testing.T) {
	s, err := solver.New(solver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	target := puzzle.Puzzle{Size: size3, Tiles: []int{1, 2, 3, 4, 0, 5, 6, 7, 8}}
	rng := rand.New(rand.NewPCG(1, 2))
	start, err := Random(rng, target)
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(start, target, s, rng)
	if err != nil {
		t.Fatal(err)
	}
	for steps := 0; !g.Solved(); steps++ {
		if moved, err := g.Step(); err != nil || !moved || steps > g.Optimal() {
			t.Fatalf("step %d of %d: %v", steps, g.Optimal(), err)
		}
	}
	if g.Moves() != g.Optimal() || !slices.Equal(g.Board().Puzzle().Tiles, target.Tiles) {
		t.Errorf("%d moves, optimum %d, at %v", g.Moves(), g.Optimal(), g.Board())
	}
	if _, err := New(puzzle.Puzzle{Size: size3, Tiles: []int{1, 2, 3, 4, 5, 6, 7, 8, 0}}, puzzle.Puzzle{Size: size3, Tiles: []int{2, 1, 3, 4, 0, 5, 6, 7, 8}}, s, rng); err == nil {
		t.Error("a start that cannot reach the goal board was taken")
	}
}
