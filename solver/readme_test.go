package solver_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fifteen/internal/testtool"
)

// TestReadmeExample saves README.md's Go program outside the repository
// and runs README's commands on it, which make it a module that reaches
// this one by a replace directive: a user's first program works as
// written, and prints what README says it prints (issue 59: the commands
// left out go mod init).
func TestReadmeExample(t *testing.T) {
	testtool.SkipUnlessLong(t, "builds a program")
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
	_, commands, ok5 := strings.Cut(printed, "```sh\nmkdir -p hello")
	commands, _, ok6 := strings.Cut(commands, "```\n")
	if !ok || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 {
		t.Fatal("README.md has no Go program (```go, package main) followed by what it prints and the commands that run it (```sh, mkdir -p hello)")
	}
	// The checkout is the repository, wherever it is; the program is
	// saved where the commands make the module.
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "hello"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hello", "main.go"), []byte("package main\n"+program), 0o644); err != nil {
		t.Fatal(err)
	}
	script := "set -e\nmkdir -p hello" + strings.ReplaceAll(commands, "../fifteen", repo)
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = dir
	// The dependencies are the repository's, already in the module cache
	// and checked against its go.sum: the test asks no server for them.
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOSUMDB=off", "GOFLAGS=-mod=mod")
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
