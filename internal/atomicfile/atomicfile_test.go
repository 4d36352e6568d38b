package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := WriteFile(path, func(w io.Writer) error { _, err := io.WriteString(w, "old"); return err }); err != nil {
		t.Fatal(err)
	}
	// A failing write leaves the old file whole and no temporary behind.
	failed := errors.New("failed")
	if err := WriteFile(path, func(w io.Writer) error { io.WriteString(w, "new, but cut"); return failed }); !errors.Is(err, failed) {
		t.Fatalf("got %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("file holds %q after a failed write", b)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("%d files left, want 1", len(entries))
	}
	if err := WriteFile(filepath.Join(path, "sub"), func(io.Writer) error { return nil }); err == nil {
		t.Error("a file under a file was written")
	}
}
