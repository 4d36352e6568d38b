package progress

import (
	"bytes"
	"testing"
	"time"
)

// A writer that is not a terminal gets plain lines: the first update,
// then one every plainEvery at most, and the final line.
func TestPlainLines(t *testing.T) {
	var b bytes.Buffer
	l := New(&b)
	at := time.Unix(0, 0)
	l.now = func() time.Time { return at }
	for i := range 12 { // a second apart
		l.Update("step %d", i)
		at = at.Add(time.Second)
	}
	l.Done("done in %d s", 12)
	l.Update("step %d", 0)
	if got, want := b.String(), "step 0\nstep 5\nstep 10\ndone in 12 s\nstep 0\n"; got != want {
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
