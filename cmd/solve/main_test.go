package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"fifteen/bitboard"
	"fifteen/internal/bfs"
)

func runSolve(t *testing.T, stdin string, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	status = run(args, strings.NewReader(stdin), &out, &errOut)
	return status, out.String(), errOut.String()
}

func TestJSONL(t *testing.T) {
	input := "korf12: 14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15\n8p: 8 6 7 2 5 4 3 0 1\n"
	status, out, stderr := runSolve(t, input, "--goal", "first", "--format", "jsonl", "--heuristic", "manhattan")
	if status != 0 {
		t.Fatalf("status %d, stderr %s", status, stderr)
	}
	wantLen := map[string]int{"korf12": 45}
	for _, p := range bfs.All(bitboard.Size{Rows: 3, Cols: 3}, bitboard.GoalFirst) {
		if p.Board.String() == "8 6 7 2 5 4 3 0 1" {
			wantLen["8p"] = p.Dist
		}
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	n := 0
	for sc.Scan() {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		n++
		size, err := bitboard.ParseSize(r.Size)
		if err != nil {
			t.Fatal(err)
		}
		b, err := bitboard.New(size, r.Start)
		if err != nil {
			t.Fatal(err)
		}
		moves, err := bitboard.ParseMoves(r.Moves)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range moves {
			var tile int
			b, tile, _ = b.Move(m)
			if tile != r.Tiles[i] {
				t.Errorf("%s: step %d moves tile %d, record says %d", r.ID, i, tile, r.Tiles[i])
			}
		}
		if b != bitboard.Solved(size, bitboard.GoalFirst) || r.Length == nil || *r.Length != wantLen[r.ID] || !r.Solved || !r.Optimal {
			t.Errorf("%s: does not replay to an optimal solution: %+v", r.ID, r)
		}
		var gen uint64
		for _, it := range r.Iterations {
			gen += it.Generated
		}
		if gen != r.Generated || r.Goal != "first" || r.H0 > *r.Length {
			t.Errorf("%s: inconsistent stats %+v", r.ID, r)
		}
	}
	if n != 2 {
		t.Errorf("%d records, want 2", n)
	}
}

func TestBadInput(t *testing.T) {
	input := "ok: 1 2 3 4 5 6 7 0 8\nswap: 2 1 3 4 5 6 7 8 0\ndup: 1 1 3 4 5 6 7 8 0\n1 2 3\n"
	status, out, stderr := runSolve(t, input, "--heuristic", "manhattan")
	if status != 1 {
		t.Errorf("status %d, want 1", status)
	}
	if !strings.HasPrefix(out, "ok: 1 moves R ") {
		t.Errorf("stdout %q: the good puzzle is not solved", out)
	}
	for _, want := range []string{
		"swap: unsolvable: permutation parity does not match the blank's position",
		"dup: bad tile: tile 1 appears twice",
		"4: 3 tiles",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--format", "xml"},
		{"--goal", "middle"},
		{"--korf100", "--goal", "last"},
		{"--jobs", "-1"},
		{"--no-such-flag"},
		{"--prune-depth", "1"},
	} {
		if status, _, _ := runSolve(t, "", args...); status != 2 {
			t.Errorf("%v: status %d, want 2", args, status)
		}
	}
	if status, _, _ := runSolve(t, "", "no/such/file"); status != 1 {
		t.Errorf("missing file: status %d, want 1", status)
	}
}

func TestMissingDatabases(t *testing.T) {
	dir := t.TempDir()
	status, _, stderr := runSolve(t, "", "--korf100", "--partition", "555", "--pdb-dir", dir)
	if status != 1 || !strings.Contains(stderr, "go run ./cmd/pdbgen --partition 555 --pdb-dir "+dir) {
		t.Errorf("status %d, stderr %s", status, stderr)
	}
	status, _, stderr = runSolve(t, "1 2 3 4 5 6 7 0 8\n", "--pdb-dir", dir)
	if status != 1 || !strings.Contains(stderr, "serves 4x4 boards") {
		t.Errorf("3x3 with pdb: status %d, stderr %s", status, stderr)
	}
}

func TestTimeout(t *testing.T) {
	// Korf's instance 88 takes Manhattan distance billions of nodes.
	input := "88: 15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4\n"
	status, out, stderr := runSolve(t, input, "--goal", "first", "--timeout", "50ms", "--format", "jsonl", "--heuristic", "manhattan")
	if status != 1 || !strings.Contains(stderr, "88: timed out after 50ms") || !strings.Contains(out, `"solved":false`) {
		t.Errorf("status %d\nstdout %s\nstderr %s", status, out, stderr)
	}
}
