package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fifteen/pdb"
	"fifteen/puzzle"
)

func runPdbgen(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	if stdout.Len() > 0 {
		t.Errorf("pdbgen %q wrote on standard output: %s", args, stdout.String())
	}
	return code, stderr.String()
}

// TestHelp: --help says what pdbgen does, how it is called, its flags by
// group, examples and exit statuses, on standard output.
func TestHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--help"}, &stdout, &stderr); code != 0 || stderr.Len() > 0 {
		t.Fatalf("exit %d, %s", code, stderr.String())
	}
	for _, want := range []string{"pdbgen: builds", "Usage: pdbgen [flags]", "Databases:\n", "--blank-free", "Profiling:\n", "Examples:\n  pdbgen ", "\n  pdbgen --size 5x5 ", "Exit status:\n  0  "} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the help lacks %q:\n%s", want, stdout.String())
		}
	}
}

func TestBuildsLoadableDatabases(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--size", "3x3", "--partition", "1,2,3,4/5,6,7,8", "--pdb-dir", dir, "-t", "2"}
	// --check builds nothing, and says whether they are built.
	if code, out := runPdbgen(t, append(args, "--check")...); code != 1 || !strings.Contains(out, "is not built in "+dir+": 2 of its 2 databases are missing") {
		t.Errorf("--check before the build: exit %d: %s", code, out)
	}
	code, out := runPdbgen(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	// One removed: said as one (issue 76: "1 of its databases are").
	one, _ := filepath.Glob(filepath.Join(dir, "*-1.2.3.4.pdb"))
	if len(one) != 1 || os.Remove(one[0]) != nil {
		t.Fatalf("no database of 1,2,3,4 in %s", dir)
	}
	if code, out := runPdbgen(t, append(args, "--check")...); code != 1 || !strings.Contains(out, ": 1 of its 2 databases is missing (pdbgen without --check builds it)") {
		t.Errorf("--check with one missing: exit %d: %s", code, out)
	}
	if code, out := runPdbgen(t, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	if code, out := runPdbgen(t, append(args, "--check")...); code != 0 || !strings.Contains(out, "is built in "+dir) {
		t.Errorf("--check after the build: exit %d: %s", code, out)
	}
	// Progress ends with one summary line per database (stderr is not a
	// terminal here, so layers are plain lines too).
	for _, want := range []string{"pattern [1 2 3 4]: depth 0", "pattern [1 2 3 4]: 65536 entries (3024 placements), max ", "pattern [5 6 7 8]: 65536 entries"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	p, err := pdb.ParsePartition("1,2,3,4/5,6,7,8", puzzle.Size{Rows: 3, Cols: 3})
	if err != nil {
		t.Fatal(err)
	}
	sameAsBuilt := func(blankFree bool) {
		t.Helper()
		tables, err := p.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, table := range tables {
			want, err := pdb.Build(context.Background(), table.Size, table.Goal, table.Tiles, pdb.BuildOptions{Scheme: table.Scheme(), BlankFree: blankFree})
			if err != nil {
				t.Fatal(err)
			}
			if table.Values() != want.Values() || table.Regions != want.Regions || blankFree != (table.Regions == 0) {
				t.Errorf("pattern %v: the file's table (%d regions) differs from a fresh build (%d)", table.Tiles, table.Regions, want.Regions)
			}
			table.Close()
		}
	}
	sameAsBuilt(false)

	code, out = runPdbgen(t, args...)
	if code != 0 || !strings.Contains(out, "already built") {
		t.Errorf("second run: exit %d: %s", code, out)
	}
	code, out = runPdbgen(t, append(args, "--force", "--blank-free")...)
	if code != 0 || strings.Count(out, "entries") != 2 {
		t.Errorf("--force: exit %d: %s", code, out)
	}
	sameAsBuilt(true)
}

// TestSharedPatterns builds a pattern that two partitions share once.
func TestSharedPatterns(t *testing.T) {
	args := []string{"--size", "3x3", "--partition", "1,2,3,4/5,6,7,8+1,2,3,4/5,6/7,8", "--pdb-dir", t.TempDir()}
	for _, force := range []bool{false, true} {
		if force {
			args = append(args, "--force")
		}
		code, out := runPdbgen(t, args...)
		if code != 0 || strings.Count(out, "entries") != 4 {
			t.Errorf("force %v: exit %d, want the 4 distinct patterns built once each:\n%s", force, code, out)
		}
	}
}

func TestErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--bogus"}, 2, "unknown flag"},
		{[]string{"--size", "9x9"}, 2, "9x9"},
		{[]string{"--partition", "1,2/2,3"}, 2, "partition"},
		{[]string{"--partition", "nope"}, 2, "nope"},
		{[]string{"extra"}, 2, "unexpected arguments"},
		{[]string{"-t", "-1"}, 2, "--threads\" flag: want 0 to 256"},
		{[]string{"--size", "2x8", "--partition", "1,2,3/4,5,6,7,8,9,10,11,12,13,14,15"}, 2, "too many to build"},
		{[]string{"--size", "3x3", "--partition", "1,2,3,4/5,6,7,8", "--pdb-dir", filepath.Join(file, "sub")}, 1, "pdbgen: "},
		{[]string{"--size", "3x3"}, 2, "perfect database is built in memory"},
		{[]string{"--size", "4x4", "--goal", "1 2 3 4 0 5 6 7 8"}, 2, "--size 4x4, but --goal is a 3x3 board"},
		// Issue 76: a convention's goal board keeps its size.
		{[]string{"--size", "4x4", "--goal", "1 2 3 4 5 6 7 8 0"}, 2, "--size 4x4, but --goal is a 3x3 board"},
		{[]string{"--goal", "middle"}, 2, "bad goal"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out := runPdbgen(t, c.args...)
			if code != c.code || !strings.Contains(out, c.want) || strings.Contains(out, "panic") {
				t.Errorf("%v: exit %d, output %q; want exit %d and %q", c.args, code, out, c.code, c.want)
			}
		})
	}
}

// TestGoalAndRule builds the rule's default of a 2×5 board, for Korf's
// goal and for a goal with the blank on cell 6, whose orbit's first cell
// is 1: the files name their goals.
func TestGoalAndRule(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"--size", "2x5"}, {"--goal", "2x5 1 2 3 4 5 6 0 7 8 9"}} {
		if code, out := runPdbgen(t, append(args, "--pdb-dir", dir)...); code != 0 || strings.Count(out, "entries") != 2 {
			t.Fatalf("%v: exit %d: %s", args, code, out)
		}
	}
	for _, name := range []string{"2x5-first-1.2.3.5.6.7.8.pdb", "2x5-first-4.9.pdb", "2x5-blank1-1.2.3.5.6.7.8.pdb", "2x5-blank1-4.9.pdb"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
}

// TestRebuildsDamaged damages a built database: pdbgen, asked again
// without --force, says so, moves it aside and builds it again, and the
// file loads.
func TestRebuildsDamaged(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--size", "3x3", "--partition", "1,2,3,4/5,6,7,8", "--pdb-dir", dir}
	if code, out := runPdbgen(t, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	size := puzzle.Size{Rows: 3, Cols: 3}
	path := filepath.Join(dir, pdb.FileName(size, pdb.Goal, []int{1, 2, 3, 4}))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 0xff
	if err := os.WriteFile(path, b, 0o644); err != nil { // no unpacked copy yet: pdbgen makes none
		t.Fatal(err)
	}
	code, out := runPdbgen(t, args...)
	if code != 0 || !strings.Contains(out, path+": corrupt") || !strings.Contains(out, "moved aside to "+path+".damaged, to be built again") {
		t.Fatalf("exit %d: %s", code, out)
	}
	if _, err := pdb.Load(dir, size, pdb.Goal, []int{1, 2, 3, 4}); err != nil {
		t.Errorf("after the rebuild: %v", err)
	}
	if code, out := runPdbgen(t, args...); code != 0 || !strings.Contains(out, "already built") {
		t.Errorf("a third run: exit %d: %s", code, out)
	}
}
