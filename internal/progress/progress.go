// Package progress writes progress lines to a terminal in place, or as
// plain lines elsewhere.
package progress

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/term"
)

// Line writes progress to w: redrawn in place when w is a terminal,
// one line per update otherwise.
type Line struct {
	w    io.Writer
	tty  bool
	open bool // a line is drawn and not yet ended
}

// New returns a Line writing to w.
func New(w io.Writer) *Line {
	f, ok := w.(*os.File)
	return &Line{w: w, tty: ok && term.IsTerminal(int(f.Fd()))}
}

// Update shows the current state.
func (l *Line) Update(format string, args ...any) {
	if l.tty {
		fmt.Fprintf(l.w, "\r\033[K"+format, args...)
		l.open = true
		return
	}
	fmt.Fprintf(l.w, format+"\n", args...)
}

// Done ends the current line and prints a final one.
func (l *Line) Done(format string, args ...any) {
	if l.open {
		fmt.Fprint(l.w, "\r\033[K")
		l.open = false
	}
	fmt.Fprintf(l.w, format+"\n", args...)
}
