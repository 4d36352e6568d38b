package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"fifteen/game"
	"fifteen/internal/flock"
	"fifteen/internal/testtool"
)

// terminal is play running in tmux, as a player sees it.
type terminal struct {
	t      *testing.T
	socket string
}

// startTerminal builds play and starts it in tmux with args; it is ended
// when the test ends.
func startTerminal(t *testing.T, args ...string) *terminal {
	t.Helper()
	testtool.Need(t, "apt-get install tmux", "tmux")
	bin := filepath.Join(t.TempDir(), "play")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	term := &terminal{t, fmt.Sprintf("fifteen-play-test-%d-%d", os.Getpid(), time.Now().UnixNano())} // a server of its own
	term.tmux(append([]string{"new-session", "-d", "-x", "100", "-y", "20", bin}, args...)...)
	t.Cleanup(func() { exec.Command("tmux", "-L", term.socket, "kill-server").Run() })
	return term
}

func (term *terminal) tmux(args ...string) string {
	term.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", term.socket}, args...)...).CombinedOutput()
	if err != nil {
		term.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen waits until the screen shows want, and returns it.
func (term *terminal) screen(want string) string {
	term.t.Helper()
	var s string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if s = term.tmux("capture-pane", "-p"); strings.Contains(s, want) {
			return s
		}
	}
	term.t.Fatalf("the screen never showed %q:\n%s", want, s)
	return ""
}

// quits sends q, and checks that play ends.
func (term *terminal) quits() {
	term.t.Helper()
	term.tmux("send-keys", "q")
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if exec.Command("tmux", "-L", term.socket, "has-session").Run() != nil {
			return // q ended the game, and tmux's session with it
		}
	}
	term.t.Error("q did not quit")
}

// TestTerminal drives the real binary in tmux: it slides a tile, asks for
// a hint, finishes the puzzle and checks the screen after each key.
func TestTerminal(t *testing.T) {
	term := startTerminal(t, "--goal", "last", "1", "2", "3", "4", "5", "6", "0", "7", "8")
	term.screen("A new puzzle: 2 moves from the goal.")
	term.tmux("send-keys", "Left") // 7 slides left into the blank
	s := term.screen("Moves: 1")
	if !strings.Contains(s, "│  7  │     │  8  │") {
		t.Errorf("after Left, the bottom row is not 7, blank, 8:\n%s", s)
	}
	term.tmux("send-keys", "h")
	term.screen("Hint: slide 8 left; 1 move to go.")
	// The hinted tile, highlighted (issue 67: named but not shown).
	if s := term.tmux("capture-pane", "-p", "-e"); !regexp.MustCompile(`\x1b\[[0-9;]*7[0-9;]*m *8 `).MatchString(s) {
		t.Errorf("the hinted tile 8 is not shown in reverse video:\n%q", s)
	}
	term.tmux("send-keys", "a")
	term.screen("Solved in 2 moves: optimal!")
	term.tmux("send-keys", "u")
	term.screen("Moves: 1")
	term.quits()
}

// TestTerminalGoalBoard plays toward a goal board with the blank in the
// centre, and lets the solver finish: the screen names the goal, and says
// the solution is the solver's (issue 76: play refused goal boards, and
// praised the solver's finish as the player's).
func TestTerminalGoalBoard(t *testing.T) {
	term := startTerminal(t, "--goal", "1 2 3 4 0 5 6 7 8", "1", "2", "3", "0", "4", "5", "6", "7", "8")
	term.screen("goal: 1 2 3 4 0 5 6 7 8")
	term.screen("A new puzzle: 1 move from the goal.")
	term.tmux("send-keys", "s")
	term.screen("The solver solved it in 1 move.")
	term.quits()
}

// TestTerminalWaits starts play while another process holds the lock of
// its database directory, where the databases are still to be built:
// the screen says whose build it waits for, and q quits (issue 67: only
// "waiting for another process building databases", and q did nothing).
func TestTerminalWaits(t *testing.T) {
	dir := t.TempDir()
	release, err := flock.Hold(filepath.Join(dir, ".lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	term := startTerminal(t, "--pdb-dir", dir)
	term.screen(fmt.Sprintf("waiting for process %d", os.Getpid()))
	term.screen("q: quit")
	term.quits()
}

// TestSetupErrors checks that a bad flag is a usage error (exit 2), and a
// bad start is the input's (exit 1, as solve's: issue 57 found 2).
func TestSetupErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"--size", "9x9"}, 2},
		{[]string{"--goal", "middle"}, 2},
		{[]string{"--bogus"}, 2},
		{[]string{"help"}, 2},                                      // issue 67: "open help: no such file"
		{[]string{"2", "1", "3", "4", "5", "6", "7", "8", "0"}, 1}, // unsolvable
		// Korf's first, toward the blank last: the message names --goal
		// first (issue 67: README's example failed without a word of it).
		{[]string{"14", "13", "15", "7", "11", "12", "9", "5", "6", "0", "2", "1", "4", "8", "10", "3"}, 1},
		{[]string{"1", "2", "3"}, 1},
		{[]string{filepath.Join(os.TempDir(), "no-such-file")}, 1},
		{[]string{emptyFile(t)}, 1},
		// Issue 76: goal boards, of the start's size.
		{[]string{"--goal", "1 2 3 4 0 5 6 7 8", "2", "1", "3", "4", "0", "5", "6", "7", "8"}, 1},
		{[]string{"--goal", "1 2 3 4 0 5 6 7 8", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "0", "15"}, 1},
		{[]string{"--goal", "1 2 3 4 5 6 7 8 0", "--size", "4x4"}, 2},
	} {
		var stderr strings.Builder
		if code := run(c.args, io.Discard, &stderr); code != c.code || stderr.Len() == 0 || strings.Contains(stderr.String(), "terminal") || len(c.args) == 16 && !strings.Contains(stderr.String(), "solvable toward goal first (--goal first)") {
			t.Errorf("%v: exit %d, %q; want %d", c.args, code, stderr.String(), c.code)
		}
	}
}

// TestHelp: --help gives the keys, the flags by group, examples and exit
// statuses, on standard output.
func TestHelp(t *testing.T) {
	var stdout, stderr strings.Builder
	if code := run([]string{"--help"}, &stdout, &stderr); code != 0 || stderr.Len() > 0 {
		t.Fatalf("exit %d, %s", code, stderr.String())
	}
	for _, want := range []string{"play: the sliding-tile puzzle", "Keys: " + footer, "Usage: play", "The puzzle:\n", "Databases:\n", "Examples:\n", "Exit status:\n"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the help lacks %q:\n%s", want, stdout.String())
		}
	}
}

// TestFooter checks the keys that the footer names against the game's:
// each slides, hints, solves, undoes, deals or quits as it says (issue 59:
// it listed s, which solves, among the slides).
func TestFooter(t *testing.T) {
	does := map[string][]game.Action{
		"slide": {game.SlideUp, game.SlideDown, game.SlideLeft, game.SlideRight},
		"hint":  {game.Hint}, "solve": {game.Solve}, "undo": {game.Undo}, "new": {game.NewPuzzle}, "quit": {game.Quit},
	}
	for item := range strings.SplitSeq(footer, " · ") {
		keys, verb, ok := strings.Cut(item, ": ")
		if !ok || does[verb] == nil {
			t.Fatalf("footer item %q: want KEYS: %s", item, "slide, hint, solve, undo, new or quit")
		}
		for key := range strings.FieldsSeq(strings.ReplaceAll(keys, ",", "")) {
			names := []string{key}
			if key == "arrows" {
				names = []string{"Up", "Down", "Left", "Right"}
			}
			for _, name := range names {
				if a := game.KeyAction(name); !slices.Contains(does[verb], a) {
					t.Errorf("the footer says %s does %s; the game does action %d", name, verb, a)
				}
			}
		}
	}
}

func emptyFile(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "empty.txt")
	if err := os.WriteFile(path, []byte("# no puzzle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestMain(m *testing.M) {
	if os.Getenv("FIFTEEN_RUN_PLAY") == "1" {
		main()
	}
	os.Exit(m.Run())
}
