package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"fifteen/cmd/internal/batch"
	"fifteen/search"
)

// korf88 is Korf's 88th instance, which Manhattan distance takes billions
// of nodes to solve: a search of it runs past any timeout of a test.
const korf88 = "88: 15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4\n"

// saveSearch saves a search of the input's puzzles into checkpoint,
// stopped by a timeout in Korf's 88th, and returns the file's bytes.
func saveSearch(t *testing.T, input, checkpoint string) []byte {
	t.Helper()
	file := writeInput(t, "in.txt", input)
	status, _, stderr := runSolve(t, "", "--goal", "first", "--heuristic", "manhattan", "-t", "2", "--checkpoint", checkpoint, "--timeout", "300ms", file)
	if status != 1 || !strings.Contains(stderr, "88: timed out") {
		t.Fatalf("status %d: %s", status, stderr)
	}
	f, err := batch.ReadCheckpoint(checkpoint, search.Options{}, keyFor(t, checkpoint))
	if err != nil || f.Done || f.Checkpoint == nil || f.ID != "88" {
		t.Fatalf("a search timed out is saved as %+v (%v)", f, err)
	}
	saved, err := os.ReadFile(checkpoint)
	if err != nil {
		t.Fatal(err)
	}
	return saved
}

// TestResumeKeepsTheFile resumes a saved search in ways that cannot go on
// (issue 66): refused for another frontier, heuristic or version, stopped
// within microseconds while it cuts its frontiers again, timed out, and
// with an input that lacks its puzzle. Each leaves the checkpoint a
// search, never marked done, and the ones refused leave it as it was.
func TestResumeKeepsTheFile(t *testing.T) {
	checkpoint := filepath.Join(t.TempDir(), "k.json")
	saved := saveSearch(t, korf88, checkpoint)
	restore := func(data []byte) {
		if err := os.WriteFile(checkpoint, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	other := resealed(t, checkpoint, bytes.Replace(saved, []byte(fmt.Sprintf(`"version":%d`, search.CheckpointVersion)), []byte(`"version":2`), 1))
	if bytes.Equal(other, saved) {
		t.Fatal("no version in the checkpoint")
	}
	file := writeInput(t, "88.txt", korf88)
	flags := []string{"--goal", "first", "--heuristic", "manhattan", "-t", "2", "--resume", checkpoint, "--checkpoint", checkpoint}
	for _, c := range []struct {
		name  string
		file  []byte
		args  []string
		input string
		want  string // in stderr
		kept  bool   // the file as it was
	}{
		{"another frontier", saved, []string{"--frontier", "0", file}, "", "is left as it was", true},
		{"another heuristic", saved, []string{"--heuristic", "misplaced", file}, "", "is left as it was", true},
		{"another version", other, []string{file}, "", "version 2", true},
		{"an input without its puzzle", saved, []string{writeInput(t, "easy.txt", "easy: 1 0 2 3 4 5 6 7 8\n")}, "", "not among the puzzles", true},
		{"stopped at once", saved, []string{"--timeout", "1us", file}, "", "88: timed out", false},
		// Text from the file reaches the terminal escaped (issue 66: raw).
		{"a search described with escapes", resealed(t, checkpoint, bytes.Replace(saved, []byte(`"search":"`), []byte(`"search":"\u001b[31m\n`), 1)), []string{file}, "", `(\x1b[31m\n`, true},
		{"an id with escapes", resealed(t, checkpoint, bytes.Replace(saved, []byte(`"id":"88"`), []byte(`"id":"88\u0007"`), 1)), []string{file}, "", `puzzle 88\a is not among`, true},
		{"timed out", saved, []string{"--timeout", "200ms", file}, "", "88: timed out", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			restore(c.file)
			status, out, stderr := runSolve(t, c.input, append(flags, c.args...)...)
			if status != 1 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "another search") && !c.kept {
				t.Errorf("status %d: %s%s", status, out, stderr)
			}
			after, err := os.ReadFile(checkpoint)
			if err != nil {
				t.Fatal(err)
			}
			if c.kept && !bytes.Equal(after, c.file) {
				t.Errorf("the checkpoint was rewritten: %s", after)
			}
			if strings.ContainsAny(stderr, "\x1b\a") {
				t.Errorf("raw control characters: %q", stderr)
			}
			if f, err := batch.ReadCheckpoint(checkpoint, search.Options{}, keyFor(t, checkpoint)); err != nil || f.Done || !strings.HasPrefix(f.ID, "88") {
				t.Errorf("the checkpoint is now %+v (%v)", f, err)
			}
		})
	}
}

// TestResumeVersion3 resumes a search saved in the search's checkpoint
// format of version 3, from before the contour took checkpoints (issue
// 78), whose searches all cut their rounds at fixed depths: under the
// default cut, a 4×4's contour, it resumes at fixed depths; with
// --contour, it is another search's, and left as it was.
func TestResumeVersion3(t *testing.T) {
	checkpoint := filepath.Join(t.TempDir(), "k.json")
	file := writeInput(t, "88.txt", korf88)
	flags := []string{"--goal", "first", "--heuristic", "manhattan", "-t", "2", "--timeout", "300ms"}
	if status, _, stderr := runSolve(t, "", append(flags, "--contour=false", "--checkpoint", checkpoint, file)...); status != 1 || !strings.Contains(stderr, "88: timed out") {
		t.Fatalf("status %d: %s", status, stderr)
	}
	editJSON(t, checkpoint, func(v map[string]any) {
		cp, ok := v["checkpoint"].(map[string]any)
		if !ok || cp["version"] != float64(search.CheckpointVersion) || cp["contour"] != nil {
			t.Fatalf("the search saved: %v", v["checkpoint"])
		}
		cp["version"] = 3
	})
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "88: timed out"},
		{[]string{"--contour"}, "is left as it was"},
	} {
		status, _, stderr := runSolve(t, "", append(append(flags, c.args...), "--resume", checkpoint, file)...)
		if status != 1 || !strings.Contains(stderr, c.want) || c.args == nil && strings.Contains(stderr, "left as it was") {
			t.Errorf("resumed with %q: status %d: %s", c.args, status, stderr)
		}
	}
}

// TestResumeAmongOthers saves a batch's search of Korf's 88th after an
// answer written, and resumes it from an input that holds the 88th alone
// (issue 66: "the checkpoint's puzzle … is not among the puzzles", naming
// the puzzle written), and from one whose first puzzle is another.
func TestResumeAmongOthers(t *testing.T) {
	checkpoint := filepath.Join(t.TempDir(), "k.json")
	saved := saveSearch(t, "easy: 1 0 2 3 4 5 6 7 8\n"+korf88, checkpoint)
	var f batch.CheckpointFile
	if err := json.Unmarshal(saved, &f); err != nil || f.Written == nil || f.Written.ID != "easy" {
		t.Fatalf("the search of 88 after easy's answer: %+v (%v)", f, err)
	}
	for _, input := range []string{korf88, "other: 1 2 0 3 4 5 6 7 8\n" + korf88} {
		status, out, stderr := runSolve(t, "", "--goal", "first", "--heuristic", "manhattan", "--resume", checkpoint, "--timeout", "100ms", writeInput(t, "in.txt", input))
		if status != 1 || strings.Contains(stderr, "not among") || !strings.Contains(out, "88: ") || !strings.Contains(stderr, "88: timed out") {
			t.Errorf("resumed from %q: status %d: %s%s", input, status, out, stderr)
		}
	}
}

// TestCheckpointLocked runs solve with a --checkpoint file that another
// run is saving its search in, by its name and through a symbolic link:
// each is refused, and the first run's file is its own (issue 66: neither
// was told, and one search was lost; issue 76: the link was not refused).
// Through a hard link, the second run replaces its own name, and the
// first's file stays its own. Once the first run ends, nothing is left
// beside the file.
func TestCheckpointLocked(t *testing.T) {
	dir := t.TempDir()
	checkpoint := filepath.Join(dir, "k.json")
	file := writeInput(t, "88.txt", korf88)
	flags := []string{"--goal", "first", "--heuristic", "manhattan", "--checkpoint-every", "10ms", file}
	first := child(append(flags, "--checkpoint", checkpoint)...)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		first.Process.Signal(syscall.SIGTERM)
		first.Wait()
	}()
	// The first run holds the lock before its search saves anything.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(checkpoint); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first run saved no checkpoint")
		}
	}
	symlink, hardlink := filepath.Join(dir, "l.json"), filepath.Join(dir, "h.json")
	if err := errors.Join(os.Symlink("k.json", symlink), os.Link(checkpoint, hardlink)); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{checkpoint, symlink} {
		status, _, stderr := runSolve(t, "", append(flags, "--checkpoint", name)...)
		if status != 1 || !strings.Contains(stderr, "is saving its search there") {
			t.Errorf("a second run through %s: status %d: %s", name, status, stderr)
		}
	}
	status, _, stderr := runSolve(t, "", append(flags, "--checkpoint", hardlink, "--timeout", "100ms")...)
	k, err1 := os.Stat(checkpoint)
	h, err2 := os.Stat(hardlink)
	if status != 1 || !strings.Contains(stderr, "timed out") || err1 != nil || err2 != nil || os.SameFile(k, h) {
		t.Errorf("a second run through a hard link: status %d: %s", status, stderr)
	}
	first.Process.Signal(syscall.SIGTERM)
	first.Wait()
	os.Remove(symlink)
	os.Remove(hardlink)
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left beside the checkpoint: %v", entries)
	}
	if f, err := batch.ReadCheckpoint(checkpoint, search.Options{}, keyFor(t, checkpoint)); err != nil || f.ID != "88" {
		t.Errorf("the first run's checkpoint: %+v, %v", f, err)
	}
}
