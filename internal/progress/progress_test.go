package progress

import (
	"bytes"
	"testing"
)

// A writer that is not a terminal gets plain lines, one per update.
func TestPlainLines(t *testing.T) {
	var b bytes.Buffer
	l := New(&b)
	l.Update("depth %d", 1)
	l.Update("depth %d", 2)
	l.Done("done in %d s", 3)
	if got, want := b.String(), "depth 1\ndepth 2\ndone in 3 s\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A terminal's line is redrawn in place and cleared before the final one.
func TestTerminalLine(t *testing.T) {
	var b bytes.Buffer
	l := &Line{w: &b, tty: true}
	l.Update("depth %d", 1)
	l.Update("depth %d", 2)
	l.Done("done")
	if got, want := b.String(), "\r\033[Kdepth 1\r\033[Kdepth 2\r\033[Kdone\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
