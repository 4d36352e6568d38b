package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The files that solve reads back to decide what it answers are sealed
// (issue 76): each test here changes every token of each kind of file in
// turn, and the file is refused, with a word of it, and left as it was.
// The checks of what the files say stay behind the seal: the tests that
// edit a field and seal the file again (editJSON) test those.

// tokens returns the byte spans of the JSON scalars of data, keys
// included, at most most of them, evenly spread, and always the last
// (the seal).
func tokens(t *testing.T, data []byte, most int) [][2]int {
	t.Helper()
	var spans [][2]int
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := tok.(json.Delim); ok {
			continue
		}
		end := int(dec.InputOffset())
		for strings.ContainsRune(",: \n\t", rune(data[start])) {
			start++
		}
		spans = append(spans, [2]int{int(start), end})
	}
	if len(spans) <= most {
		return spans
	}
	picked := make([][2]int, 0, most)
	for i := range most - 1 {
		picked = append(picked, spans[i*len(spans)/(most-1)])
	}
	return append(picked, spans[len(spans)-1])
}

// edited returns data with the token at span changed, still JSON: a
// string or key lengthened, a number's last digit changed, a literal
// swapped.
func edited(data []byte, span [2]int) []byte {
	tok := string(data[span[0]:span[1]])
	switch {
	case tok == "true":
		tok = "false"
	case tok == "false", tok == "null":
		tok = "true"
	case tok[0] == '"':
		tok = tok[:len(tok)-1] + `x"`
	default:
		last := tok[len(tok)-1]
		tok = tok[:len(tok)-1] + string('0'+(last-'0'+1)%10)
	}
	return bytes.Join([][]byte{data[:span[0]], []byte(tok), data[span[1]:]}, nil)
}

// refusesEdits changes each token of the file at path in turn (tokens),
// runs run, and checks that it fails, refusing the file, and leaves it as
// it was; then it puts back the file as it was.
func refusesEdits(t *testing.T, path string, run func() (int, string, string)) {
	t.Helper()
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer os.WriteFile(path, saved, 0o644)
	for _, span := range tokens(t, saved, 40) {
		edit := edited(saved, span)
		if err := os.WriteFile(path, edit, 0o644); err != nil {
			t.Fatal(err)
		}
		status, _, stderr := run()
		after, _ := os.ReadFile(path)
		if status == 0 || !strings.Contains(stderr, filepath.Base(path)+" is refused, and left as it was") || !bytes.Equal(after, edit) {
			t.Errorf("%s with %q for %q: status %d, %s", path, edit[span[0]:span[1]+1], saved[span[0]:span[1]], status, stderr)
		}
	}
}

func TestEditedCheckpoint(t *testing.T) {
	checkpoint := filepath.Join(t.TempDir(), "k.json")
	saveSearch(t, korf88, checkpoint)
	file := writeInput(t, "88.txt", korf88)
	refusesEdits(t, checkpoint, func() (int, string, string) {
		return runSolve(t, "", "--goal", "first", "--heuristic", "manhattan", "--resume", checkpoint, "--checkpoint", checkpoint, file)
	})
}

// TestEditedSplitFiles runs a split search and a split batch to their
// end, then edits each of their files, which the merge reads; and a
// share's checkpoint, which its task reads.
func TestEditedSplitFiles(t *testing.T) {
	search := writeInput(t, "b.txt", "b1: "+hardest+"\n")
	searchFlags := []string{search, "--split", "search", "--split-above", "1", "--heuristic", "manhattan"}
	batchInput := writeInput(t, "a.txt", "a1: "+hardest+"\na2: 1 2 3 4 0 5 7 8 6\n")
	for _, c := range []struct {
		name  string
		flags []string
	}{
		{"search", searchFlags},
		{"batch", []string{batchInput, "--heuristic", "manhattan"}},
	} {
		dir := filepath.Join(t.TempDir(), "results")
		merge := func() (int, string, string) {
			return runSolve(t, "", append([]string{"--results", dir, "--merge"}, c.flags...)...)
		}
		for round := 0; ; round++ {
			runTasks(t, dir, 2, c.flags...)
			status, _, stderr := merge()
			if status == 0 {
				break
			}
			if status != 3 || round == 20 {
				t.Fatalf("%s: merge: status %d: %s", c.name, status, stderr)
			}
		}
		var files []string
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if name := d.Name(); err == nil && !d.IsDir() && name != "status.json" && name != "seal.key" && !strings.HasSuffix(name, ".lock") {
				files = append(files, path)
			}
			return err
		})
		kinds := map[string]bool{}
		for _, path := range files {
			base := filepath.Base(path)
			kind := strings.TrimRight(strings.TrimSuffix(base, filepath.Ext(base)), "0123456789-")
			if filepath.Base(filepath.Dir(path)) != "puzzle-0" && filepath.Dir(path) != dir {
				kind = "found mark"
			}
			kinds[kind] = true
			refusesEdits(t, path, merge)
		}
		t.Logf("%s: %d files of the kinds %v", c.name, len(files), kinds)
	}

	// A share's checkpoint, of a round to run again.
	dir := filepath.Join(t.TempDir(), "results")
	runTasks(t, dir, 2, searchFlags...)
	if status, _, stderr := runSolve(t, "", append([]string{"--results", dir, "--merge"}, searchFlags...)...); status != 3 {
		t.Fatalf("merge: status %d: %s", status, stderr)
	}
	var pf struct{ Plan struct{ Bound int } }
	data, err := os.ReadFile(filepath.Join(dir, "plan.json"))
	if err == nil {
		err = json.Unmarshal(data, &pf)
	}
	if err != nil {
		t.Fatal(err)
	}
	checkpoint := filepath.Join(dir, "puzzle-0", fmt.Sprintf("bound-%d-0.checkpoint.json", pf.Plan.Bound))
	writeSealed(t, checkpoint, map[string]any{"version": 3, "bound": pf.Plan.Bound})
	refusesEdits(t, checkpoint, func() (int, string, string) {
		return runSolve(t, "", append([]string{"--results", dir, "--task", "0/2"}, searchFlags...)...)
	})
}
