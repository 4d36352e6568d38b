package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStart(t *testing.T) {
	dir := t.TempDir()
	files := Files{CPU: filepath.Join(dir, "cpu"), Mem: filepath.Join(dir, "mem"), Trace: filepath.Join(dir, "trace")}
	stop, err := Start(files)
	if err != nil {
		t.Fatal(err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{files.CPU, files.Mem, files.Trace} {
		if info, err := os.Stat(name); err != nil || info.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := Start(Files{CPU: filepath.Join(dir, "no", "such", "dir")}); err == nil {
		t.Error("a profile in a missing directory was started")
	}
	stop, err = Start(Files{})
	if err != nil || stop() != nil {
		t.Errorf("no outputs: %v", err)
	}
}

func TestOnePathForTwoOutputs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p")
	if _, err := Start(Files{CPU: path, Trace: path}); err == nil || !strings.Contains(err.Error(), "--cpuprofile and --trace both name") {
		t.Errorf("got %v", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("a file was written")
	}
}
