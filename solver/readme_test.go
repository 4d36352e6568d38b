package solver_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeExample copies README.md's Go program into a module of its
// own outside the repository, which reaches this one by a replace
// directive as README says, and runs it: a user's first program works as
// written, and prints what README says it prints.
func TestReadmeExample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(repo, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	_, rest, ok := strings.Cut(text, "```go\npackage main\n")
	program, after, ok2 := strings.Cut(rest, "```\n")
	_, printed, ok3 := strings.Cut(after, "It prints `")
	want, _, ok4 := strings.Cut(printed, "`")
	if !ok || !ok2 || !ok3 || !ok4 {
		t.Fatal("README.md has no Go program (```go, package main) followed by what it prints")
	}
	// go.sum from the repository: the program's dependencies are the
	// module's, already in the module cache.
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod := "module example\n\ngo 1.26\n\nrequire fifteen v0.0.0\n\nreplace fifteen => " + repo + "\n"
	for name, content := range map[string]string{"main.go": "package main\n" + program, "go.mod": gomod, "go.sum": string(sum)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			out = append(out, exit.Stderr...)
		}
		t.Fatalf("go run: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("the program printed %q, README says %q", got, want)
	}
}
