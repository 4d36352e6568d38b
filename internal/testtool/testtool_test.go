package testtool

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNeed finds a program that is there, and skips for one that is not,
// saying so on the terminal.
func TestNeed(t *testing.T) {
	terminal = filepath.Join(t.TempDir(), "tty")
	if err := os.WriteFile(terminal, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if path := Need(t, "", "no-such-program-here", "go"); filepath.Base(path) != "go" {
		t.Errorf("Need found %q, want go's path", path)
	}
	var skipped bool
	t.Run("missing", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Need(t, "apt-get install it", "no-such-program-here")
		t.Error("Need did not skip")
	})
	if !skipped {
		t.Error("the test without its program was not skipped")
	}
	said, err := os.ReadFile(terminal)
	if err != nil {
		t.Fatal(err)
	}
	want := "note: TestNeed/missing skipped: it needs no-such-program-here on PATH (apt-get install it)\n"
	if string(said) != want {
		t.Errorf("the terminal got %q, want %q", said, want)
	}
}
