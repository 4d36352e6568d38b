// Package game is the sliding-tile game that cmd/play draws: the board,
// the player's moves and their undo, and hints, optimal where the search
// finds one in time, with no terminal in sight so that it can be tested
// on its own.
//
// Keys name the direction a tile slides, as on a real puzzle: Left slides
// the tile right of the blank into it, so the blank moves right.
package game

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"fifteen/puzzle"
	"fifteen/solver"
)

// Action is what a key asks for.
type Action int

const (
	None Action = iota
	SlideUp
	SlideDown
	SlideLeft
	SlideRight
	Hint
	Solve
	NewPuzzle
	Undo
	Quit
)

// KeyAction maps a key to its action: the arrows, WASD and vim's j, k and l
// slide tiles; h or ? hints, s solves, n starts a new puzzle, u undoes, q
// quits. (The command letters win where the movement schemes would use
// them: s is solve, not down, and h is hint, not left.)
func KeyAction(key string) Action {
	switch key {
	case "Up", "w", "k":
		return SlideUp
	case "Down", "j":
		return SlideDown
	case "Left", "a":
		return SlideLeft
	case "Right", "d", "l":
		return SlideRight
	case "h", "?":
		return Hint
	case "s":
		return Solve
	case "n":
		return NewPuzzle
	case "u":
		return Undo
	case "q", "Esc", "Ctrl+C":
		return Quit
	}
	return None
}

// blankMove returns the blank's move that slides a tile in the direction
// of a slide action: the tile comes from the opposite side.
func blankMove(a Action) puzzle.Move {
	return [...]puzzle.Move{SlideUp: puzzle.Down, SlideDown: puzzle.Up, SlideLeft: puzzle.Right, SlideRight: puzzle.Left}[a]
}

// Game is one game in progress.
type Game struct {
	frame   puzzle.Frame   // of the goal board
	opts    solver.Options // the goal's, for the searches
	solver  *solver.Solver
	rng     *rand.Rand
	timeout time.Duration // of an optimal hint's search (HintTimeout)
	board   puzzle.Board
	history []puzzle.Board // the boards before each move, for undo
	optimal int            // the start's distance from the goal, -1 if not found in time
	played  int            // moves the solver played (Step) since the start
	Message string         // the last thing to tell the player
	Hinted  int            // the tile the last hint slides, until the board changes; 0 if none
}

// HintTimeout bounds the search behind a hint: the databases make it
// milliseconds on 4×4 boards. Past it, as on most 5×5 boards, the hint
// is the human-style solver's move, and says that it is not optimal: a
// hint never ends the game (issue 67: play --size 5x5 quit by itself).
const HintTimeout = 3 * time.Second

// New starts a game on start, solved toward the goal board target (a
// convention's, puzzle.Solved, or any other), with hints from s. rng
// draws new puzzles.
func New(start, target puzzle.Puzzle, s *solver.Solver, rng *rand.Rand) (*Game, error) {
	frame, err := puzzle.NewFrame(target)
	if err != nil {
		return nil, err
	}
	if err := frame.Check(start); err != nil {
		return nil, err
	}
	b, err := start.Board()
	if err != nil {
		return nil, err
	}
	g := &Game{frame: frame, opts: goalOptions(frame), solver: s, rng: rng, timeout: HintTimeout}
	return g, g.reset(b)
}

// goalOptions returns the solver's options of the frame's goal board: its
// convention, where it is one's goal, else the board.
func goalOptions(frame puzzle.Frame) solver.Options {
	target := frame.Target()
	if g := frame.Goal(); g.Convention() && slices.Equal(target.Tiles, puzzle.Solved(target.Size, g).Tiles) {
		return solver.Options{Goal: g}
	}
	return solver.Options{GoalBoard: &target}
}

// Random returns a uniformly random position that can reach the goal
// board target, of its size: one toward its frame's goal (puzzle.Frame),
// taken back to it.
func Random(rng *rand.Rand, target puzzle.Puzzle) (puzzle.Puzzle, error) {
	frame, err := puzzle.NewFrame(target)
	if err != nil {
		return puzzle.Puzzle{}, err
	}
	p, err := puzzle.Random(rng, target.Size, frame.Goal())
	if err != nil {
		return p, err
	}
	return frame.Unframe(p), nil
}

func (g *Game) reset(start puzzle.Board) error {
	g.board, g.history, g.Hinted, g.played = start, nil, 0, 0
	moves, optimal, err := g.solution()
	if err != nil {
		return err
	}
	g.optimal = -1
	g.Message = fmt.Sprintf("A new puzzle: its distance is not found within %v, so hints are human-style, not optimal.", g.timeout)
	if optimal {
		g.optimal = len(moves)
		g.Message = fmt.Sprintf("A new puzzle: %s from the goal.", countMoves(g.optimal))
	}
	return nil
}

// Board returns the current board.
func (g *Game) Board() puzzle.Board { return g.board }

// Moves returns how many moves the player has made (undone ones not
// counted).
func (g *Game) Moves() int { return len(g.history) }

// Optimal returns the start's distance from the goal, -1 if the search
// did not find it within HintTimeout.
func (g *Game) Optimal() int { return g.optimal }

// Solved reports whether the board is at the goal.
func (g *Game) Solved() bool { return slices.Equal(g.board.Puzzle().Tiles, g.frame.Target().Tiles) }

// Do carries out an action other than Solve and Quit, which belong to the
// caller, and reports whether the board changed.
func (g *Game) Do(a Action) (bool, error) {
	switch a {
	case SlideUp, SlideDown, SlideLeft, SlideRight:
		return g.play(blankMove(a)), nil
	case Undo:
		if len(g.history) == 0 {
			g.Message = "Nothing to undo."
			return false, nil
		}
		g.board = g.history[len(g.history)-1]
		g.history = g.history[:len(g.history)-1]
		g.Message = "Undone."
		return true, nil
	case Hint:
		return false, g.hint()
	case NewPuzzle:
		p, err := Random(g.rng, g.frame.Target())
		if err != nil {
			return false, err
		}
		b, err := p.Board()
		if err != nil {
			return false, err
		}
		return true, g.reset(b)
	}
	return false, nil
}

// hint tells the player the next move of a solution from the current
// board, and how far that solution goes.
func (g *Game) hint() error {
	moves, optimal, err := g.solution()
	if err != nil {
		return err
	}
	if len(moves) == 0 {
		g.Message = "Solved already."
		return nil
	}
	_, g.Hinted, _ = g.board.Move(moves[0])
	g.Message = fmt.Sprintf("Hint: slide %d %s; %s to go.", g.Hinted, slideName(moves[0]), countMoves(len(moves)))
	if !optimal {
		g.Message = fmt.Sprintf("Hint, human-style (no optimal move found within %v): slide %d %s; %s to go that way.", g.timeout, g.Hinted, slideName(moves[0]), countMoves(len(moves)))
	}
	return nil
}

// Step plays the first move of a solution from the current board, optimal
// where one is found in time (the Solve action, one step at a time), and
// reports whether it moved.
func (g *Game) Step() (bool, error) {
	moves, _, err := g.solution()
	if err != nil || len(moves) == 0 {
		return false, err
	}
	g.played++
	return g.play(moves[0]), nil
}

// play moves the blank by m, if it stays on the board, and tells the
// player when the puzzle is solved.
func (g *Game) play(m puzzle.Move) bool {
	next, _, ok := g.board.Move(m)
	if !ok {
		g.Message = "No tile can slide that way."
		return false
	}
	g.history = append(g.history, g.board)
	g.board = next
	g.Message, g.Hinted = "", 0
	switch {
	case !g.Solved():
	case g.played >= g.Moves():
		g.Message = fmt.Sprintf("The solver solved it in %s.", countMoves(g.Moves()))
	case g.played > 0:
		// Not the player's alone: no praise (issue 76: the solver's finish
		// was called the player's optimal solution).
		g.Message = fmt.Sprintf("Solved in %s, %d of them the solver's.", countMoves(g.Moves()), g.played)
	case g.optimal < 0:
		g.Message = fmt.Sprintf("Solved in %s.", countMoves(g.Moves()))
	case g.Moves() == g.optimal:
		g.Message = fmt.Sprintf("Solved in %s: optimal!", countMoves(g.Moves()))
	default:
		g.Message = fmt.Sprintf("Solved in %s; the optimum was %d.", countMoves(g.Moves()), g.optimal)
	}
	return true
}

// solution returns a solution from the current board, and whether it is
// optimal: the search's, if it finds one within the timeout, else the
// human-style solver's.
func (g *Game) solution() ([]puzzle.Move, bool, error) {
	p := g.board.Puzzle()
	opts := g.opts
	opts.Timeout = g.timeout
	res, err := g.solver.Solve(context.Background(), p, opts)
	if errors.Is(err, context.DeadlineExceeded) {
		opts.Mode, opts.Timeout = solver.Constructive, 0
		res, err = g.solver.Solve(context.Background(), p, opts)
	}
	if err != nil {
		return nil, false, fmt.Errorf("no hint: %w", err)
	}
	return res.Moves, res.Optimal, nil
}

func countMoves(n int) string {
	if n == 1 {
		return "1 move"
	}
	return fmt.Sprintf("%d moves", n)
}

// slideName names the direction the tile slides when the blank moves by m.
func slideName(m puzzle.Move) string {
	return [...]string{puzzle.Up: "down", puzzle.Left: "right", puzzle.Right: "left", puzzle.Down: "up"}[m]
}
