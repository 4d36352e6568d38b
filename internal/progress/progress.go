// Package progress writes progress lines to a terminal in place, or as
// plain lines elsewhere, a few at most.
package progress

import (
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"
)

// Line writes progress to w: redrawn in place when w is a terminal;
// elsewhere (a log file, a pipe) as plain lines, the first update after
// each Done and then one every plainEvery at most, so that a long run
// logs a line every few seconds, not one per step (issue 67: bench wrote
// a line per instance).
type Line struct {
	w       io.Writer
	tty     bool
	open    bool      // a line is drawn and not yet ended
	written time.Time // when the last plain line was written; zero after Done
	now     func() time.Time
}

// plainEvery is the least time between two plain lines of updates.
const plainEvery = 5 * time.Second

// New returns a Line writing to w.
func New(w io.Writer) *Line {
	f, ok := w.(*os.File)
	return &Line{w: w, tty: ok && term.IsTerminal(int(f.Fd())), now: time.Now}
}

// Update shows the current state.
func (l *Line) Update(format string, args ...any) {
	if l.tty {
		fmt.Fprintf(l.w, "\r\033[K"+format, args...)
		l.open = true
		return
	}
	if now := l.now(); l.written.IsZero() || now.Sub(l.written) >= plainEvery {
		fmt.Fprintf(l.w, format+"\n", args...)
		l.written = now
	}
}

// Done ends the current line and prints a final one.
func (l *Line) Done(format string, args ...any) {
	if l.open {
		fmt.Fprint(l.w, "\r\033[K")
		l.open = false
	}
	fmt.Fprintf(l.w, format+"\n", args...)
	l.written = time.Time{}
}
