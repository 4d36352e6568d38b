//go:build unix

package atomicfile

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"fifteen/internal/flock"
)

// TestRemoveStale leaves three temporary files of a target behind, as
// killed writers would: the one whose writer is gone is removed by the
// next write; one still locked by its writer, and one too recent to
// judge, stay.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "f")
	old := time.Now().Add(-2 * staleAfter)
	mk := func(name string, mtime time.Time) *os.File {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(f.Name(), mtime, mtime); err != nil {
			t.Fatal(err)
		}
		return f
	}
	mk(".f.tmp1", old).Close()
	live := mk(".f.tmp2", old)
	defer live.Close()
	if ok, err := flock.TryLock(live); !ok || err != nil {
		t.Fatal(ok, err)
	}
	mk(".f.tmp3", time.Now()).Close()
	mk(".other.tmp4", old).Close()
	if err := WriteFile(target, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{".f.tmp1": false, ".f.tmp2": true, ".f.tmp3": true, ".other.tmp4": true, "f": true} {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != want {
			t.Errorf("%s: there %v, want %v", name, err == nil, want)
		}
	}
}
