//go:build unix

package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"fifteen/internal/flock"
)

// leave makes the temporary files that killed writers leave behind, and
// returns a live writer's, locked: it must stay.
func leave(t *testing.T, dir string, names ...string) (live *os.File) {
	t.Helper()
	for _, name := range names {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	live, err := os.Create(filepath.Join(dir, ".live.tmp9"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { live.Close() })
	if ok, err := flock.TryLock(live); !ok || err != nil {
		t.Fatal(ok, err)
	}
	return live
}

func exist(t *testing.T, dir string, want map[string]bool) {
	t.Helper()
	for name, want := range want {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != want {
			t.Errorf("%s: there %v, want %v", name, err == nil, want)
		}
	}
}

// TestRemoveStale leaves temporary files behind, as killed writers
// would, however recently: the next write of their target removes its
// own whose writer is gone, and no other file.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	leave(t, dir, ".f.tmp1", ".other.tmp4", ".f.tmpx")
	if err := WriteFile(filepath.Join(dir, "f"), func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
		t.Fatal(err)
	}
	exist(t, dir, map[string]bool{".f.tmp1": false, ".live.tmp9": true, ".other.tmp4": true, ".f.tmpx": true, "f": true})
}

// TestSweep checks that Sweep removes every temporary file of the
// directory whose writer is gone, and nothing else.
func TestSweep(t *testing.T) {
	dir := t.TempDir()
	leave(t, dir, ".a.pdb.raw.tmp123", ".b.tmp4", "c.tmp5", ".d.tmp", "e")
	Sweep(dir)
	exist(t, dir, map[string]bool{".a.pdb.raw.tmp123": false, ".b.tmp4": false, ".live.tmp9": true, "c.tmp5": true, ".d.tmp": true, "e": true})
}

// TestNoReader checks that an output FIFO that no process reads is an
// error at once, not a wait for ever, and that a file read back is
// refused where a FIFO or a device is.
func TestNoReader(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	if err := WriteOutput(fifo, func(io.Writer) error { return nil }); err == nil {
		t.Error("an output FIFO without a reader was written")
	}
	if err := WriteFile(fifo, func(io.Writer) error { return nil }); !errors.Is(err, ErrNotRegular) {
		t.Errorf("WriteFile of a FIFO: %v", err)
	}
	if err := Check(fifo); !errors.Is(err, ErrNotRegular) {
		t.Errorf("Check of a FIFO: %v", err)
	}
	for _, path := range []string{fifo, "/dev/zero"} {
		if _, err := ReadFile(path, 1<<20); !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadFile(%s): %v", path, err)
		}
	}
}
