package main

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"

	"github.com/gdamore/tcell/v2"

	"fifteen/game"
	"fifteen/pdb"
	"fifteen/puzzle"
)

// errQuit is load's error when the player quits while the databases open.
var errQuit = errors.New("quit")

// errInterrupted is load's error when the player types Ctrl-C then.
var errInterrupted = errors.New("interrupted")

// load opens the databases for the hints and starts the game of start,
// showing on the screen what the opening does as it goes (a build's
// progress, a wait for another process's build), where q and Esc quit
// and Ctrl-C interrupts (issue 67: a blank terminal for 90 s while 4×5's
// tables were built, and q did nothing while play waited for another
// process's build). A build stops within milliseconds of its context.
func load(screen tcell.Screen, start, target puzzle.Puzzle, rng *rand.Rand, pdbDir string) (*game.Game, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex // guards status, which the opening sets as the screen shows it
	status := "Opening the pattern databases…"
	say := func(s string) {
		mu.Lock()
		status = s
		mu.Unlock()
		screen.PostEvent(tcell.NewEventInterrupt(nil))
	}
	type result struct {
		g   *game.Game
		err error
	}
	done := make(chan result, 1)
	go func() {
		g, err := setup(ctx, start, target, rng, pdbDir, func(p pdb.Progress) { say(p.String()) }, say)
		done <- result{g, err}
		screen.PostEvent(tcell.NewEventInterrupt(nil))
	}()
	var stopped error // why the player stopped the opening, if they did
	for {
		select {
		case r := <-done:
			if stopped != nil {
				return nil, stopped
			}
			return r.g, r.err
		default:
		}
		mu.Lock()
		drawLoading(screen, status, stopped != nil)
		mu.Unlock()
		switch ev := screen.PollEvent().(type) {
		case *tcell.EventResize:
			screen.Sync()
		case *tcell.EventKey:
			if key := keyName(ev); game.KeyAction(key) == game.Quit && stopped == nil {
				stopped = errQuit
				if key == "Ctrl+C" {
					stopped = errInterrupted
				}
				cancel()
			}
		}
	}
}

// drawLoading shows what opening the databases does, and the keys that
// stop it.
func drawLoading(s tcell.Screen, status string, stopping bool) {
	s.Clear()
	text(s, 1, 0, tcell.StyleDefault, "fifteen — opening the pattern databases for the hints")
	text(s, 1, 2, tcell.StyleDefault, status)
	keys := "q: quit · Ctrl-C: interrupt"
	if stopping {
		keys = "Stopping…"
	}
	text(s, 1, 4, tcell.StyleDefault, keys)
	s.Show()
}
