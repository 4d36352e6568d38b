package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"fifteen/internal/flock"
)

// TestHoldName holds a file by its name, and again by a symbolic link to
// it and by another relative path: both are refused while it is held,
// and taken once it is released, which leaves no lock file behind.
func TestHoldName(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	if err := os.Symlink("f.json", filepath.Join(dir, "l.json")); err != nil {
		t.Fatal(err)
	}
	release, err := HoldName(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, other := range []string{filepath.Join(dir, "l.json"), filepath.Join(dir, ".", "sub", "..", "f.json")} {
		os.Mkdir(filepath.Join(dir, "sub"), 0o755)
		if _, err := HoldName(other); !errors.Is(err, flock.ErrHeld) {
			t.Errorf("%s while held: %v", other, err)
		}
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	again, err := HoldName(filepath.Join(dir, "l.json"))
	if err != nil {
		t.Fatal(err)
	}
	again()
	locks := lockDir()
	name, _ := lockName(path)
	if _, err := os.Stat(filepath.Join(locks, name)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a lock file left behind: %v", err)
	}
}
