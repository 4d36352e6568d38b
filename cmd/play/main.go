// Command play is the sliding-tile puzzle in a terminal, with optimal
// hints.
//
// Usage:
//
//	play [--size 4] [--seed N] [--goal last|first] [TILES... | FILE]
//
// It starts from the tiles given (row-major, 0 the blank), the first puzzle
// of a file, or a uniformly random one. Keys name the direction a tile
// slides: the arrows, WASD or vim's j/k/l; h or ? shows the optimal next
// move and the distance to the goal, s plays the optimal solution step by
// step, u undoes, n starts a new random puzzle, q quits.
//
// The drawing uses github.com/gdamore/tcell: a grid of cells is what this
// game draws, tcell draws cells and reads keys on every terminal, Windows
// consoles included, and it brings fewer dependencies than a UI framework.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"fifteen/cmd/internal/cli"
	"fifteen/game"
	"fifteen/pdb"
	"fifteen/puzzle"
	"fifteen/solver"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmd := cli.NewCommand("play", "[flags] [TILES... | FILE]",
		"the sliding-tile puzzle in the terminal, with optimal hints. It starts from the TILES\n"+
			"given (row-major, 0 the blank), the first puzzle of FILE, or a random puzzle.\n"+
			"Keys: "+footer+".")
	cmd.Examples = `
  play                                                     # a random 15-puzzle
  play --size 3 --seed 42                                  # the 8-puzzle, the same one each time
  play --goal first 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3  # a given start: Korf's first, toward his goal`
	cmd.Exits = `
  0  the game ended with q
  1  a bad start, a database that could not be opened, or no terminal
  2  a bad flag`
	fs := cmd.FlagSet
	cmd.Group("The puzzle")
	var size puzzle.Size
	cli.SizeVar(fs, &size, puzzle.Size{Rows: 4, Cols: 4}, puzzle.MaxBoardCells, "board size for a random puzzle: 3 (the 8-puzzle), 4, or ROWSxCOLS")
	seed := fs.Uint64("seed", 0, "seed of the random puzzles (0: from the clock)")
	var goal goalFlag
	cli.GoalVar(fs, &goal.convention, &goal.board, &goal.size, "goal: last (1 2 … blank), first (blank 1 2 …), or any board, its tiles in row-major order, as solve --goal takes it (\"1 2 3 4 0 5 6 7 8\")")
	cmd.Group("Databases")
	var pdbDir string
	cli.DirFlag(fs, &pdbDir)
	if status, ok := cli.Parse(cmd, args, stdout, stderr, cmd.HelpWord); !ok {
		return status
	}
	if fs.Changed("size") && goal.size != (puzzle.Size{}) && size != goal.size {
		return cli.Status("play", &cli.UsageError{Err: fmt.Errorf("--size %v, but --goal is a %v board", size, goal.size)}, stderr)
	}
	start, target, rng, err := readStart(fs.Args(), size, *seed, goal)
	if err == nil {
		err = needTerminal()
	}
	if err != nil { // the start, or the terminal: not a usage error (issue 57)
		return cli.Status("play", err, stderr)
	}
	screen, err := tcell.NewScreen()
	if err == nil {
		err = screen.Init()
	}
	if err != nil {
		return cli.Status("play", err, stderr)
	}
	// The screen is the game's from here: what went wrong is said once it
	// is closed.
	g, err := load(screen, start, target, rng, pdbDir)
	if err == nil {
		err = play(screen, g, goal.String())
	}
	screen.Fini()
	if errors.Is(err, errQuit) {
		return cli.StatusOK
	}
	return cli.Status("play", err, stderr)
}

// goalFlag is --goal's: a convention, or a board, with its size.
type goalFlag struct {
	convention puzzle.Goal
	board      *puzzle.Puzzle // a board that is no convention's goal
	size       puzzle.Size    // the board's, convention or not; zero for a name
}

// target returns the goal board of puzzles of the size: --goal's board,
// or its convention's goal.
func (g goalFlag) target(size puzzle.Size) puzzle.Puzzle {
	if g.board != nil {
		return *g.board
	}
	if g.size != (puzzle.Size{}) {
		size = g.size
	}
	return puzzle.Solved(size, g.convention)
}

// String says what the goal is, for the screen.
func (g goalFlag) String() string {
	if g.board != nil {
		return g.board.String()
	}
	return "blank " + g.convention.String()
}

// readStart returns the start position and the goal board it is played
// toward, checked (puzzle.Frame.Check), and the game's source of random
// puzzles: the TILES or FILE of args, or a random puzzle of the goal's
// size, or of size.
func readStart(args []string, size puzzle.Size, seed uint64, goal goalFlag) (start, target puzzle.Puzzle, rng *rand.Rand, err error) {
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	rng = rand.New(rand.NewPCG(seed, 0))
	switch {
	case len(args) == 1:
		start, err = readFile(args[0])
	case len(args) > 1:
		start, err = puzzle.NewReader(strings.NewReader(strings.Join(args, " ")), "").Next()
	default:
		start, err = game.Random(rng, goal.target(size))
	}
	if err != nil {
		return start, target, rng, err
	}
	target = goal.target(start.Size)
	if goal.board == nil && start.Size == target.Size {
		return start, target, rng, start.Check(goal.convention) // which names the other convention, if it is its
	}
	frame, err := puzzle.NewFrame(target)
	if err == nil {
		err = frame.Check(start)
	}
	return start, target, rng, err
}

// readFile returns the first puzzle of the file.
func readFile(name string) (puzzle.Puzzle, error) {
	f, err := os.Open(name)
	if err != nil {
		return puzzle.Puzzle{}, err
	}
	defer f.Close()
	p, err := puzzle.NewReader(f, name).Next()
	if err == io.EOF {
		err = fmt.Errorf("%s: no puzzle", name)
	}
	return p, err
}

// setup loads the heuristic for the hints, telling progress and say
// what it does, and returns the game of start toward the goal board
// target: that of its frame's goal (puzzle.Frame).
func setup(ctx context.Context, start, target puzzle.Puzzle, rng *rand.Rand, pdbDir string, progress func(pdb.Progress), say func(string)) (*game.Game, error) {
	frame, err := puzzle.NewFrame(target)
	if err != nil {
		return nil, err
	}
	s, err := solver.New(solver.Config{Dir: pdbDir, Progress: progress, Log: say})
	if err == nil {
		err = s.Prepare(ctx, start.Size, frame.Goal())
	}
	if err != nil {
		return nil, err
	}
	return game.New(start, target, s, rng)
}

// needTerminal returns why play has no terminal to play on, if it has
// none: the game opens /dev/tty, whatever its standard input and output
// are (issue 66: "open /dev/tty: no such device or address").
func needTerminal() error {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("needs a terminal to play on, and has none (%v): run it in one", err)
	}
	return f.Close()
}

// play runs the game on the screen until the player quits (nil).
func play(screen tcell.Screen, g *game.Game, goalName string) error {
	// Solving plays the solution a step every 150 ms; a key stops it.
	solving := false
	tick := func() {
		time.AfterFunc(150*time.Millisecond, func() { screen.PostEvent(tcell.NewEventInterrupt(nil)) })
	}
	for {
		draw(screen, g, goalName)
		switch ev := screen.PollEvent().(type) {
		case *tcell.EventResize:
			screen.Sync()
		case *tcell.EventInterrupt:
			if solving {
				moved, err := g.Step()
				if err != nil {
					g.Message = err.Error()
				}
				if solving = moved && !g.Solved(); solving {
					tick()
				}
			}
		case *tcell.EventKey:
			if solving {
				solving = false
				g.Message = "Stopped."
				continue
			}
			switch a := game.KeyAction(keyName(ev)); a {
			case game.Quit:
				return nil
			case game.Solve:
				if solving = !g.Solved(); solving {
					tick()
				}
			default:
				if _, err := g.Do(a); err != nil {
					g.Message = err.Error()
				}
			}
		}
	}
}

// keyName names a key as game.KeyAction expects: "Up", "Esc", "Ctrl+C", or
// the character typed.
func keyName(ev *tcell.EventKey) string {
	switch ev.Key() {
	case tcell.KeyUp:
		return "Up"
	case tcell.KeyDown:
		return "Down"
	case tcell.KeyLeft:
		return "Left"
	case tcell.KeyRight:
		return "Right"
	case tcell.KeyEscape:
		return "Esc"
	case tcell.KeyCtrlC:
		return "Ctrl+C"
	case tcell.KeyRune:
		return string(ev.Rune())
	}
	return ""
}

// draw shows the board with box characters, the counts, the last message
// and the keys.
func draw(s tcell.Screen, g *game.Game, goalName string) {
	s.Clear()
	b := g.Board()
	size := b.Size()
	plain := tcell.StyleDefault
	tile := plain.Bold(true)
	hinted := tile.Reverse(true) // the tile the hint slides
	text(s, 1, 0, plain, fmt.Sprintf("fifteen — %v, goal: %s", size, goalName))
	const w = 5 // a cell's inner width
	row := func(y int, l, m, r string) {
		line := l
		for c := range size.Cols {
			line += strings.Repeat("─", w)
			if c < size.Cols-1 {
				line += m
			}
		}
		text(s, 1, y, plain, line+r)
	}
	y := 2
	row(y, "┌", "┬", "┐")
	for r := range size.Rows {
		y++
		x := 1
		text(s, x, y, plain, "│")
		for c := range size.Cols {
			label, style := "", tile
			if t := b.Tile(r*size.Cols + c); t != 0 {
				label = strconv.Itoa(t)
				if t == g.Hinted {
					style = hinted
				}
			}
			text(s, x+1, y, style, fmt.Sprintf("%*s  ", w-2, label))
			x += w + 1
			text(s, x, y, plain, "│")
		}
		y++
		if r < size.Rows-1 {
			row(y, "├", "┼", "┤")
		}
	}
	row(y, "└", "┴", "┘")
	optimal := "not found in time"
	if g.Optimal() >= 0 {
		optimal = strconv.Itoa(g.Optimal())
	}
	text(s, 1, y+2, plain, fmt.Sprintf("Moves: %d   Optimal from the start: %s", g.Moves(), optimal))
	text(s, 1, y+3, plain, g.Message)
	text(s, 1, y+5, plain, footer)
	s.Show()
}

// footer lists the keys (game.KeyAction): s solves, so w, a and d are the
// letters that slide, beside the arrows and vim's j, k and l.
const footer = "arrows, w a d, j k l: slide · h ?: hint · s: solve · u: undo · n: new · q: quit"

func text(s tcell.Screen, x, y int, style tcell.Style, str string) {
	for _, r := range str {
		s.SetContent(x, y, r, nil, style)
		x++
	}
}
