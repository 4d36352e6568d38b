package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"image/gif"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"fifteen/cmd/internal/batch"
	"fifteen/cmd/internal/record"
	"fifteen/internal/bfs"
	"fifteen/internal/signaltest"
	"fifteen/pdb"
	"fifteen/puzzle"
	"fifteen/search"
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
	for _, p := range bfs.All(puzzle.Size{Rows: 3, Cols: 3}, puzzle.GoalFirst) {
		if p.Board.String() == "8 6 7 2 5 4 3 0 1" {
			wantLen["8p"] = p.Dist
		}
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	n := 0
	for sc.Scan() {
		var r record.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		n++
		size, err := puzzle.ParseSize(r.Size)
		if err != nil {
			t.Fatal(err)
		}
		b, err := puzzle.NewBoard(size, r.Start)
		if err != nil {
			t.Fatal(err)
		}
		moves, err := puzzle.ParseMoves(r.Moves)
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
		if b != puzzle.SolvedBoard(size, puzzle.GoalFirst) || r.Length == nil || *r.Length != wantLen[r.ID] || !r.Solved || !r.Optimal {
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
	input := "ok: 1 2 3 4 5 6 7 0 8\nswap: 2 1 3 4 5 6 7 8 0\ndup: 1 1 3 4 5 6 7 8 0\n1 2 3\n" +
		strings.Repeat("7", 1<<16) + "\nlast\x07: 1 2 3 4 5 6 7 0 8\n"
	status, out, stderr := runSolve(t, input, "--heuristic", "manhattan")
	if status != 1 {
		t.Errorf("status %d, want 1", status)
	}
	if !strings.HasPrefix(out, "ok: 1 moves R ") || !strings.Contains(out, "\nlast\\a: 1 moves R ") {
		t.Errorf("stdout %q: the good puzzles are not solved", out)
	}
	for _, want := range []string{
		"swap: unsolvable: permutation parity does not match the blank's position",
		"dup: bad tile: tile 1 appears twice",
		"4: 3 tiles",
		"5: line longer than 65536 bytes",
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
		{"--threads", "257"},
		{"--no-such-flag"},
		{"--prune-depth", "1"},
		{"--order", "ULLD"},
		{"--partition", "99"},
		{"--heuristic", "euclid"},
		{"--weight", "0.5"},
		{"--set", "korf7"},
		{"--progress", "-1s"},
		{"--set", "korf50", "--goal", "last"},
		{"--set", "korf50", "--ids", "51"},
		{"--set", "korf50", "--korf100"},
		{"--set", "korf50", "some-file"},
		{"--ids", "3"},
		{"--ids", "x", "--set", "korf50"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			// Refused once, before the input is read.
			status, out, stderr := runSolve(t, "a: 1 2 3 4 5 6 7 0 8\nb: 1 2 3 4 5 6 0 7 8\n", args...)
			if status != 2 || out != "" || strings.Count(stderr, "\n") > 30 || strings.Contains("\n"+stderr, "\na:") {
				t.Errorf("status %d, want 2; stdout %q, stderr %s", status, out, stderr)
			}
		})
	}
	if status, _, _ := runSolve(t, "", "no/such/file"); status != 1 {
		t.Errorf("missing file: status %d, want 1", status)
	}
}

// TestProgress reports a search of a tenth of a second or so (Manhattan
// distance on Korf's instance 2) every 10 ms, and a quick one not at all.
func TestProgress(t *testing.T) {
	status, _, stderr := runSolve(t, "", "--set", "korf100", "--ids", "2", "--heuristic", "manhattan", "--progress", "10ms", "-t", "1")
	if status != 0 || !strings.Contains(stderr, "korf2: bound 55: ") || !strings.Contains(stderr, " nodes of about ") || !strings.Contains(stderr, ", done, ") {
		t.Errorf("status %d, stderr:\n%s", status, stderr)
	}
	if _, _, stderr := runSolve(t, "", "--set", "korf100", "--ids", "79", "--progress", "1m"); strings.Contains(stderr, "bound") {
		t.Errorf("a quick search reported:\n%s", stderr)
	}
}

// TestSets solves instances picked from the sets: Korf's 79th 15-puzzle
// optimally, two of Korf and Felner's 24-puzzles the human way, and
// random 5×5s. (TestFiveByFive solves 24-puzzles optimally.)
func TestSets(t *testing.T) {
	status, out, stderr := runSolve(t, "", "--set", "korf100", "--ids", "79", "--format", "jsonl")
	if status != 0 || strings.Count(out, "\n") != 1 || !strings.Contains(out, `"id":"korf79"`) || !strings.Contains(out, `"length":42`) {
		t.Errorf("--set korf100 --ids 79: status %d\n%s%s", status, out, stderr)
	}
	status, out, stderr = runSolve(t, "", "--set", "korf50", "--ids", "38,25", "--constructive", "--format", "jsonl")
	var ids []string
	for line := range strings.Lines(out) {
		var r record.Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if !r.Solved || r.Size != "5x5" || r.Goal != "first" {
			t.Errorf("%s: %+v", r.ID, r)
		}
		ids = append(ids, r.ID)
	}
	if status != 0 || !slices.Equal(ids, []string{"k24-38", "k24-25"}) {
		t.Errorf("--set korf50 --ids 38,25 --constructive: status %d, ids %v\n%s", status, ids, stderr)
	}
	if status, out, stderr := runSolve(t, "", "--set", "random:3:1:5x5", "--constructive"); status != 0 || strings.Count(out, "\n") != 3 {
		t.Errorf("--set random:3:1:5x5: status %d\n%s%s", status, out, stderr)
	}
}

// TestFiveByFive solves 24-puzzles 40 random moves from the goal
// optimally with a partition of 4-tile databases: not built on first use,
// as only the default ones are, so first the error names the command that
// builds them; once built, the lengths agree with those Manhattan
// distance's search finds.
func TestFiveByFive(t *testing.T) {
	size := puzzle.Size{Rows: 5, Cols: 5}
	rng := rand.New(rand.NewPCG(5, 5))
	var input strings.Builder
	for range 3 {
		b := puzzle.SolvedBoard(size, puzzle.GoalLast)
		for range 40 {
			b, _, _ = b.Move(puzzle.Move(rng.IntN(4)))
		}
		fmt.Fprintln(&input, b)
	}
	dir := t.TempDir()
	spec := "1,2,5,6/3,4,8,9/7,12,13,14/10,11,15,16/17,18,19,24/20,21,22,23"
	pdbArgs := []string{"--partition", spec, "--pdb-dir", dir}
	status, _, stderr := runSolve(t, input.String(), pdbArgs...)
	if status != 1 || !strings.Contains(stderr, "go run ./cmd/pdbgen --size 5x5 --partition "+spec+" --pdb-dir "+dir) {
		t.Fatalf("5x5 databases missing: status %d, %s", status, stderr)
	}
	p, err := pdb.ParsePartition(spec, size)
	if err != nil {
		t.Fatal(err)
	}
	store, err := pdb.OpenStore(dir, pdb.StoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Build(t.Context(), []pdb.Partition{p}, false); err != nil {
		t.Fatal(err)
	}
	lengths := func(args ...string) []int {
		t.Helper()
		status, out, stderr := runSolve(t, input.String(), append(args, "--format", "jsonl")...)
		var ls []int
		for line := range strings.Lines(out) {
			var r record.Record
			if err := json.Unmarshal([]byte(line), &r); err != nil || !r.Solved || r.Size != "5x5" || r.Length == nil {
				t.Fatalf("%s: %v", line, err)
			}
			ls = append(ls, *r.Length)
		}
		if status != 0 || len(ls) != 3 {
			t.Fatalf("%v: status %d, %d solved\n%s", args, status, len(ls), stderr)
		}
		return ls
	}
	if got, want := lengths(pdbArgs...), lengths("--heuristic", "manhattan"); !slices.Equal(got, want) {
		t.Errorf("lengths %v with the databases, %v with Manhattan distance", got, want)
	}
}

func TestMissingDatabases(t *testing.T) {
	dir := t.TempDir()
	status, _, stderr := runSolve(t, "", "--korf100", "--partition", "555", "--pdb-dir", dir)
	if status != 1 || !strings.Contains(stderr, "go run ./cmd/pdbgen --partition 555 --pdb-dir "+dir) {
		t.Errorf("status %d, stderr %s", status, stderr)
	}
}

// TestSmallBoards solves 3×3 (a perfect database, built in memory: the
// search expands only the solution's path) and 3×4 boards with the
// default heuristic, and rejects a 4×4 partition on them.
func TestSmallBoards(t *testing.T) {
	status, out, stderr := runSolve(t, "8 6 7 2 5 4 3 0 1\n", "--format", "jsonl", "-t", "1")
	var rec struct {
		Length   int
		Expanded uint64
	}
	if err := json.Unmarshal([]byte(out), &rec); status != 0 || err != nil || rec.Length != 31 || rec.Expanded != 31 {
		t.Errorf("3x3: status %d, %+v, %v, %s", status, rec, err, stderr)
	}
	status, out, _ = runSolve(t, "3x4\n1 2 3 4\n5 6 7 8\n9 10 0 11\n", "--format", "jsonl")
	if status != 0 || !strings.Contains(out, `"length":1`) || !strings.Contains(out, `"heuristic":"pdb:74"`) {
		t.Errorf("3x4: status %d, %s", status, out)
	}
	status, _, stderr = runSolve(t, "1 2 3 4 5 6 7 0 8\n", "--partition", "555")
	if status != 1 || !strings.Contains(stderr, "partition 555 is for 4x4 boards") {
		t.Errorf("3x3 with 555: status %d, stderr %s", status, stderr)
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

// TestMain lets a test run this package's main in a child process: the
// interruption tests signal it.
func TestMain(m *testing.M) {
	if os.Getenv("FIFTEEN_RUN_SOLVE") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// interruptWhen starts cmd, and sends it SIGINT once a line of its
// standard error satisfies ready (signaltest.When).
func interruptWhen(t *testing.T, cmd *exec.Cmd, ready func(line string) bool) (time.Duration, string, error) {
	t.Helper()
	return signaltest.When(t, cmd, os.Interrupt, ready)
}

// child returns the command that runs solve with args in a child process.
func child(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "FIFTEEN_RUN_SOLVE=1")
	return cmd
}

func TestInterrupt(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send")
	}
	// An easy puzzle, then Korf's 88, which Manhattan distance takes
	// billions of nodes to solve.
	input := "easy: 1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n88: 15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4\n"
	// Interrupted once 88's search reports that it runs.
	cmd := child("--goal", "first", "--heuristic", "manhattan", "--format", "jsonl", "-j", "1", "--progress", "20ms")
	cmd.Stdin = strings.NewReader(input)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	_, stderr, err := interruptWhen(t, cmd, func(line string) bool { return strings.HasPrefix(line, "88: ") })
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v, want status 1\n%s", err, stderr)
	}
	var records []map[string]any
	for line := range strings.Lines(stdout.String()) {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		records = append(records, r)
	}
	if len(records) != 2 || records[0]["solved"] != true || records[1]["solved"] != false || records[1]["generated"].(float64) == 0 {
		t.Errorf("want the easy puzzle solved and 88's partial counts, got\n%s", stdout.String())
	}
	for _, want := range []string{"88: interrupted at bound", "solved 1 of 2", "solve: interrupted"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// TestGIFPaths checks that an unwritable --gif is refused before any
// solving, and that ids that make one file name in --gif-dir make two
// files.
func TestGIFPaths(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing", "x.gif")
	status, out, stderr := runSolve(t, "1 2 3 4 5 6 0 7 8\n", "--gif", missing)
	if status != 1 || out != "" || !strings.Contains(stderr, missing) {
		t.Errorf("--gif %s: status %d, stdout %q, stderr %s", missing, status, out, stderr)
	}
	if status, _, stderr := runSolve(t, "a/b: 1 2 3 4 5 6 0 7 8\na_b: 1 2 3 4 0 6 7 5 8\n", "--gif-dir", dir); status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	for _, name := range []string{"a_b.gif", "a_b-2.gif"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
}

func TestGIFFlags(t *testing.T) {
	dir := t.TempDir()
	two := "a: 1 2 3 4 5 6 0 7 8\nb/c: 1 2 3 4 0 6 7 5 8\n"
	if status, _, stderr := runSolve(t, two, "--gif-dir", dir); status != 0 {
		t.Fatalf("--gif-dir: status %d: %s", status, stderr)
	}
	for _, name := range []string{"a.gif", "b_c.gif"} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		anim, err := gif.DecodeAll(f)
		f.Close()
		if err != nil || len(anim.Image) != 3 {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, c := range []struct {
		input string
		args  []string
		want  string
	}{
		{two, []string{"--gif", filepath.Join(dir, "x.gif")}, "--gif draws one puzzle"},
		{two, []string{"--gif", "x.gif", "--gif-dir", dir}, "exclude each other"},
		{two, []string{"--gif-dir", dir, "--gif-cell", "2"}, "bad --gif-cell"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			if status, _, stderr := runSolve(t, c.input, c.args...); status != 2 || !strings.Contains(stderr, c.want) {
				t.Errorf("%v: status %d, %s", c.args, status, stderr)
			}
		})
	}
}

func TestRandom(t *testing.T) {
	status, a, _ := runSolve(t, "", "--random", "5", "--seed", "9", "--print-only")
	_, b, _ := runSolve(t, "", "--random", "5", "--seed", "9", "--print-only")
	_, c, _ := runSolve(t, "", "--random", "5", "--seed", "10", "--print-only")
	if status != 0 || a != b || a == c || strings.Count(a, "\n") != 5 || !strings.HasPrefix(a, "random1: ") {
		t.Fatalf("status %d; seed 9 twice:\n%s%s; seed 10:\n%s", status, a, b, c)
	}
	// The printed puzzles read back, and solve.
	status, out, stderr := runSolve(t, a, "--format", "jsonl", "-t", "1")
	if status != 0 || strings.Count(out, `"solved":true`) != 5 {
		t.Errorf("solving the printed puzzles: status %d\n%s", status, stderr)
	}
	status, out, _ = runSolve(t, "", "--random", "4", "--size", "3", "--goal", "first", "--format", "jsonl")
	if status != 0 || strings.Count(out, `"solved":true`) != 4 || strings.Count(out, `"size":"3x3"`) != 4 {
		t.Errorf("--random 4 --size 3: status %d\n%s", status, out)
	}
	for _, args := range [][]string{{"--random", "-1"}, {"--random", "1000001"}, {"--random", "2", "--korf100"}, {"--random", "2", "--size", "9x9"}, {"--random", "2", "x.txt"}} {
		if status, _, _ := runSolve(t, "", args...); status != 2 {
			t.Errorf("%v: status %d, want 2", args, status)
		}
	}
}

// TestFastModes checks the modes that are not optimal: every answer
// replays (solve checks it, and exits 1 otherwise), is labelled not
// optimal, and weighted answers stay within their bound of Korf's optima
// (solve checks that too).
func TestFastModes(t *testing.T) {
	for _, args := range [][]string{{"--constructive"}, {"--weight", "2", "--heuristic", "linear-conflict"}, {"--greedy", "--heuristic", "linear-conflict"}} {
		status, out, stderr := runSolve(t, "", append(args, "--korf100", "--format", "jsonl")...)
		if status != 0 || strings.Count(out, `"optimal":false`) != 100 || strings.Contains(out, `"optimal":true`) {
			t.Errorf("%v: status %d\n%s", args, status, stderr)
		}
	}
	for _, args := range [][]string{{"--weight", "0.5"}, {"--weight", "2", "--constructive"}, {"--greedy", "--constructive"}} {
		if status, _, _ := runSolve(t, "", args...); status != 2 {
			t.Errorf("%v: status %d, want 2", args, status)
		}
	}
}

// TestLargeBoards solves boards too big to pack with --constructive, from
// a block and from --random, checks that each answer replays (solve does,
// and exits 1 otherwise), and rejects them, clearly, without it.
func TestLargeBoards(t *testing.T) {
	block := "7x8\n"
	for r := range 7 {
		var row []string
		for c := range 8 {
			row = append(row, strconv.Itoa((r*8+c+1)%56))
		}
		block += strings.Join(row, " ") + "\n"
	}
	// The goal with its last two tiles swapped, and with the blank moved up.
	unsolvable := strings.Replace(block, "54 55 0", "55 54 0", 1)
	solvable := strings.Replace(strings.Replace(block, "47 48\n", "47 0\n", 1), "55 0\n", "55 48\n", 1)
	status, out, stderr := runSolve(t, solvable+unsolvable, "--constructive", "--format", "jsonl")
	if status != 1 || strings.Count(out, `"solved":true`) != 1 || !strings.Contains(out, `"size":"7x8"`) || !strings.Contains(stderr, "unsolvable") {
		t.Errorf("7x8 blocks: status %d\n%s\n%s", status, out, stderr)
	}
	status, out, _ = runSolve(t, "", "--constructive", "--random", "3", "--size", "10x10", "--format", "jsonl")
	if status != 0 || strings.Count(out, `"solved":true`) != 3 {
		t.Errorf("--random 3 --size 10x10: status %d\n%s", status, out)
	}
	if status, _, stderr := runSolve(t, solvable); status != 1 || !strings.Contains(stderr, "at most 32 cells") {
		t.Errorf("7x8 without --constructive: status %d, %s", status, stderr)
	}
	if status, _, _ := runSolve(t, "", "--random", "1", "--size", "6x6"); status != 2 {
		t.Errorf("--random on 6x6 without --constructive: status %d, want 2", status)
	}
}

// TestStreams checks that solve answers a puzzle while its input is still
// open: it reads, solves and prints as it goes.
func TestStreams(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"--heuristic", "manhattan"}, inR, outW, io.Discard)
		outW.Close()
	}()
	fmt.Fprint(inW, "a: 1 2 3 4 5 6 7 0 8\nb: 1 2 3 4 5 6 0 7 8\nc: 1 2 3 4 0 6 7 5 8\n")
	first := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(outR).ReadString('\n')
		first <- line
		io.Copy(io.Discard, outR)
	}()
	select {
	case line := <-first:
		if !strings.HasPrefix(line, "a: 1 moves R ") {
			t.Errorf("first answer %q", line)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no answer while the input is open")
	}
	inW.Close()
	if status := <-done; status != 0 {
		t.Errorf("status %d", status)
	}
}

// TestCheckpoint interrupts a search that saves checkpoints and resumes
// it: on one thread the resumed search finds the solution, with the
// counts, of one never stopped. The checkpoint then records the batch
// past the puzzle, so that resuming again solves nothing.
func TestCheckpoint(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send")
	}
	// Korf's 26th: Manhattan distance takes about 90 M nodes.
	input := "26: 5 7 3 12 15 13 14 8 0 10 9 6 1 4 2 11\n"
	dir := t.TempDir()
	file := filepath.Join(dir, "26.json")
	args := []string{"--goal", "first", "--heuristic", "manhattan", "--format", "jsonl", "-t", "1", "--progress", "0"}
	// Interrupted once the checkpoint holds an iteration done, looked at
	// at each progress report.
	cmd := child(append(args, "--checkpoint", file, "--checkpoint-every", "50ms", "--progress", "20ms")...)
	cmd.Stdin = strings.NewReader(input)
	checkpointed := func(string) bool {
		f, err := batch.ReadCheckpoint(file, search.Options{}, keyFor(t, file))
		return err == nil && f.Checkpoint != nil && len(f.Checkpoint.Iterations) > 0
	}
	if _, _, err := interruptWhen(t, cmd, checkpointed); err == nil {
		t.Fatal("solved before the interrupt")
	}
	saved, err := batch.ReadCheckpoint(file, search.Options{}, keyFor(t, file))
	if err != nil || saved.ID != "26" || saved.Done || len(saved.Checkpoint.Iterations) == 0 {
		t.Fatalf("checkpoint on the interrupt: %+v, %v", saved, err)
	}
	solve := func(args ...string) record.Record {
		t.Helper()
		status, out, stderr := runSolve(t, input, args...)
		var r record.Record
		if err := json.Unmarshal([]byte(out), &r); status != 0 || err != nil || !r.Solved {
			t.Fatalf("%v: status %d, %v\n%s%s", args, status, err, out, stderr)
		}
		return r
	}
	resumed := solve(append(args, "--resume", file, "--checkpoint", file)...)
	whole := solve(append(args, "--checkpoint", filepath.Join(dir, "whole.json"))...)
	if *resumed.Length != *whole.Length || resumed.Generated != whole.Generated || resumed.Expanded != whole.Expanded {
		t.Errorf("resumed: %d moves, %d nodes generated, %d expanded; never stopped: %d, %d, %d",
			*resumed.Length, resumed.Generated, resumed.Expanded, *whole.Length, whole.Generated, whole.Expanded)
	}
	if status, out, stderr := runSolve(t, input, append(args, "--resume", file)...); status != 0 || out != "" {
		t.Errorf("resumed past the batch: status %d\n%s%s", status, out, stderr)
	}
	if status, _, stderr := runSolve(t, "other: "+input[4:], append(args, "--resume", file)...); status != 1 || !strings.Contains(stderr, "not among the puzzles") {
		t.Errorf("resumed in another batch: status %d, %s", status, stderr)
	}
	if status, _, _ := runSolve(t, input, append(args, "--resume", filepath.Join(dir, "missing.json"))...); status != 2 {
		t.Errorf("a missing checkpoint: status %d, want 2", status)
	}
}

// TestInterruptBuild interrupts the first-use build of the default
// databases: solve stops within a second, exits 1, and leaves no file
// but the directory's lock.
func TestInterruptBuild(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send")
	}
	dir := t.TempDir()
	cmd := child("--korf100", "--pdb-dir", dir)
	// Interrupted once the build reports its first layer.
	waited, stderr, err := interruptWhen(t, cmd, func(line string) bool { return strings.Contains(line, ": depth ") })
	if waited > time.Second {
		t.Errorf("exited %v after the interrupt", waited)
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("exit: %v, want status 1\n%s", err, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 || entries[0].Name() != ".lock" {
		t.Errorf("files left in the database directory: %v", entries)
	}
	if !strings.Contains(stderr, "solve: interrupted") {
		t.Errorf("stderr:\n%s", stderr)
	}
}
