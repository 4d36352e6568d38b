package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"fifteen/internal/testtool"
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

// TestNotRegular checks that an output FIFO is written in place, not
// replaced, and that a symbolic link is followed, not replaced.
func TestNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	testtool.Mkfifo(t, fifo)
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	// The reader may open the FIFO after the writer tries: until then
	// there is no reader to write to.
	for {
		err := WriteOutput(fifo, func(w io.Writer) error { _, err := io.WriteString(w, "through"); return err })
		if err == nil {
			break
		} else if !errors.Is(err, errNoReader) {
			t.Fatal(err)
		}
		runtime.Gosched()
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v %v", info.Mode(), err)
	}
	select {
	case s := <-got:
		if s != "through" {
			t.Errorf("the FIFO's reader got %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the FIFO's reader got nothing")
	}

	target, link, dangling := filepath.Join(dir, "target"), filepath.Join(dir, "link"), filepath.Join(dir, "dangling")
	if err := errors.Join(os.WriteFile(target, []byte("old"), 0o644), os.Symlink("target", link), os.Symlink("new", dangling)); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{link, dangling} {
		if err := WriteFile(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
			t.Fatal(err)
		}
		if info, err := os.Lstat(path); err != nil || info.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: the link was replaced", path)
		}
		if b, err := os.ReadFile(path); err != nil || string(b) != "new" {
			t.Errorf("%s: reads %q, %v", path, b, err)
		}
	}
}

// TestErrorsNameThePath checks that errors name the path given, not the
// temporary file, and that Check finds them before anything is written.
func TestErrorsNameThePath(t *testing.T) {
	dir := t.TempDir()
	for _, path := range []string{filepath.Join(dir, "missing", "f"), dir} {
		err := Check(path)
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Path != path {
			t.Errorf("Check(%s) = %v", path, err)
		}
		if _, err := Create(path); err == nil || !strings.Contains(err.Error(), path+":") || strings.Contains(err.Error(), ".tmp") {
			t.Errorf("Create(%s) = %v", path, err)
		}
	}
	if err := Check(filepath.Join(dir, "new")); err != nil {
		t.Errorf("a new file in a writable directory: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("Check left %d files", len(entries))
	}
}

// TestMagicLink writes through a link that names no file, as /dev/stdout
// does when it is a pipe.
func TestMagicLink(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	path := fmt.Sprintf("/proc/self/fd/%d", w.Fd())
	if _, err := os.Stat(path); err != nil {
		t.Skip(err)
	}
	err = WriteOutput(path, func(w io.Writer) error { _, err := io.WriteString(w, "piped"); return err })
	w.Close()
	if b, _ := io.ReadAll(r); err != nil || string(b) != "piped" {
		t.Errorf("read %q, %v", b, err)
	}
}

// TestReadFile reads back what WriteFile wrote, and refuses a file over
// its bound.
func TestReadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := WriteFile(path, func(w io.Writer) error { _, err := io.WriteString(w, "state"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(path, 5); err != nil || string(b) != "state" {
		t.Errorf("read %q, %v", b, err)
	}
	if _, err := ReadFile(path, 4); err == nil {
		t.Error("a file over its bound was read")
	}
	if _, err := ReadFile(path+"x", 4); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}

// TestReadShared checks that a symbolic link in a shared directory is
// refused before it is read, as WriteShared refuses to write through it
// (issue 57: a task read another job's file through a link, then refused
// to write it).
func TestReadShared(t *testing.T) {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "target"), filepath.Join(dir, "link")
	if err := WriteFile(target, func(w io.Writer) error { _, err := io.WriteString(w, "state"); return err }); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadShared(target, 5); err != nil || string(b) != "state" {
		t.Errorf("read %q, %v", b, err)
	}
	if b, err := ReadShared(link, 5); !errors.Is(err, ErrLink) || b != nil {
		t.Errorf("read %q through a link: %v", b, err)
	}
	if b, err := ReadFile(link, 5); err != nil || string(b) != "state" {
		t.Errorf("ReadFile follows a link: %q, %v", b, err)
	}
}

// TestWriteShared checks that a file of a shared directory is written
// as a regular file, and that a symbolic link there, to a file or to
// nothing, is refused and left as it is: the file it names is untouched,
// and nothing is created where a dangling one points (issue 48).
func TestWriteShared(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	victim, link, dangling := filepath.Join(outside, "victim"), filepath.Join(dir, "link"), filepath.Join(dir, "dangling")
	if err := errors.Join(os.WriteFile(victim, []byte("mine"), 0o644), os.Symlink(victim, link), os.Symlink(filepath.Join(outside, "new"), dangling)); err != nil {
		t.Fatal(err)
	}
	write := func(w io.Writer) error { _, err := io.WriteString(w, "table"); return err }
	for _, path := range []string{link, dangling} {
		if err := WriteShared(path, write); !errors.Is(err, ErrLink) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want ErrLink naming it", path, err)
		}
		if info, err := os.Lstat(path); err != nil || info.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: the link was replaced", path)
		}
	}
	if b, err := os.ReadFile(victim); err != nil || string(b) != "mine" {
		t.Errorf("the victim reads %q, %v", b, err)
	}
	if _, err := os.Lstat(filepath.Join(outside, "new")); err == nil {
		t.Error("a file was created where the dangling link points")
	}
	plain := filepath.Join(dir, "plain")
	for range 2 { // created, then replaced
		if err := WriteShared(plain, write); err != nil {
			t.Fatal(err)
		}
	}
	if b, err := os.ReadFile(plain); err != nil || string(b) != "table" {
		t.Errorf("plain reads %q, %v", b, err)
	}
	if err := WriteShared(dir, write); !errors.Is(err, syscall.EISDIR) {
		t.Errorf("a directory: %v", err)
	}
}
