package batch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"iter"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"fifteen/cmd/internal/cli"
	"fifteen/cmd/internal/record"
	"fifteen/internal/seal"
	"fifteen/pdb"
	"fifteen/puzzle"
	"fifteen/search"
	"fifteen/solver"
)

// read returns the puzzles of text, as solve reads a file, and a read
// error after them if readErr is set.
func read(text string, readErr error) iter.Seq2[puzzle.Puzzle, error] {
	return func(yield func(puzzle.Puzzle, error) bool) {
		r := puzzle.NewReader(strings.NewReader(text), "")
		for {
			p, err := r.Next()
			if err == io.EOF {
				break
			}
			if !yield(p, err) {
				return
			}
		}
		if readErr != nil {
			yield(puzzle.Puzzle{}, ReadError{readErr})
		}
	}
}

// small is a batch of 3×3 puzzles searched with Manhattan distance: no
// database, milliseconds each.
func small() *Config {
	return &Config{Solver: solver.Config{Heuristic: "manhattan"}, Format: "text"}
}

// Three 3×3 puzzles: 2, 4 and 0 moves from the goal.
const (
	twoMoves  = "a: 1 2 3 4 5 6 0 7 8\n"
	fourMoves = "b: 1 2 3 0 4 6 7 5 8\n"
	solved    = "c: 1 2 3 4 5 6 7 8 0\n"
	malformed = "d: 1 2 3\n"
)

// TestSolve checks what a batch prints and returns: the answers in input
// order, a malformed puzzle reported on its own line, and the errors that
// stop a batch.
func TestSolve(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name    string
		ctx     context.Context
		config  func(*Config)
		input   string
		readErr error
		err     error  // the error returned, matched with errors.Is or by type
		stdout  string // the ids answered, in order
		stderr  string
	}{
		{name: "answers", input: twoMoves + fourMoves + solved, stdout: "a b c", stderr: "solved 3 of 3: 5 moves"},
		{name: "malformed", input: twoMoves + malformed + solved, err: cli.ErrReported, stdout: "a c", stderr: "d: 3 tiles"},
		{name: "read error", input: twoMoves, readErr: errors.New("disk on fire"), err: ReadError{}, stdout: "a"},
		{name: "interrupted", ctx: cancelled, input: fourMoves, err: ErrInterrupted},
		{name: "one gif, two puzzles", config: func(c *Config) { c.GIFFile = "x.gif" }, input: twoMoves + fourMoves, err: &cli.UsageError{}},
		{name: "no such heuristic", config: func(c *Config) { c.Solver.Heuristic = "bogus" }, input: twoMoves, err: &cli.UsageError{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := small()
			if c.config != nil {
				c.config(cfg)
			}
			ctx := c.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			var stdout, stderr bytes.Buffer
			err := Solve(ctx, cfg, read(c.input, c.readErr), &stdout, &stderr)
			if !sameKind(err, c.err) {
				t.Errorf("error %v, want %T %v", err, c.err, c.err)
			}
			var ids []string
			for line := range strings.Lines(stdout.String()) {
				id, _, _ := strings.Cut(line, ":")
				ids = append(ids, id)
			}
			if got := strings.Join(ids, " "); got != c.stdout {
				t.Errorf("answered %q, want %q:\n%s", got, c.stdout, stdout.String())
			}
			if !strings.Contains(stderr.String(), c.stderr) {
				t.Errorf("stderr %q, want %q in it", stderr.String(), c.stderr)
			}
		})
	}
}

// TestSummaryBuilding: the summary tells the time spent building
// databases on first use from the time spent loading them (issue 59: a
// first run's build was called loading).
func TestSummaryBuilding(t *testing.T) {
	dir := t.TempDir()
	for _, want := range []string{"s building databases; ", ""} {
		cfg := small()
		// Five 3-tile patterns of the 4×4: built in milliseconds.
		cfg.Solver = solver.Config{Partition: "1,2,3/4,5,6/7,8,9/10,11,12/13,14,15", Dir: dir, Build: pdb.BuildAny}
		var stdout, stderr bytes.Buffer
		if err := Solve(context.Background(), cfg, read("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n", nil), &stdout, &stderr); err != nil {
			t.Fatal(err)
		}
		summary := stderr.String()[strings.LastIndex(stderr.String(), "solved 1 of 1"):]
		if built := strings.Contains(summary, "building"); built != (want != "") || !strings.Contains(summary, want+"0.") || !strings.HasSuffix(summary, " s loading)\n") {
			t.Errorf("summary %q, want %q before the loading time", summary, want)
		}
	}
}

// sameKind reports whether err is want, or has want's type where want is
// a value of a type.
func sameKind(err, want error) bool {
	switch want.(type) {
	case nil:
		return err == nil
	case ReadError:
		return errors.As(err, new(ReadError))
	case *cli.UsageError:
		return errors.As(err, new(*cli.UsageError))
	}
	return errors.Is(err, want)
}

// TestParallelism checks the defaults of --jobs and --threads.
func TestParallelism(t *testing.T) {
	cpus := min(runtime.GOMAXPROCS(0), search.MaxThreads)
	for _, c := range []struct {
		name                 string
		jobs, threads        int
		checkpoint           bool
		many                 bool
		wantJobs, wantThread int
	}{
		{"one puzzle", 0, 0, false, false, 1, cpus},
		{"a batch", 0, 0, false, true, runtime.GOMAXPROCS(0), 1},
		{"a batch, threads named", 0, 2, false, true, 1, 2},
		{"a batch, checkpointed", 0, 0, true, true, 1, cpus},
		{"jobs named", 3, 0, false, true, 3, 1},
	} {
		cfg := Config{Jobs: c.jobs, Options: solver.Options{Options: search.Options{Threads: c.threads, Frontier: search.DefaultFrontier}}}
		if c.checkpoint {
			cfg.Checkpoint = "x"
		}
		cfg.Parallelism(c.many)
		if cfg.Jobs != c.wantJobs || cfg.Options.Threads != c.wantThread {
			t.Errorf("%s: jobs %d, threads %d; want %d, %d", c.name, cfg.Jobs, cfg.Options.Threads, c.wantJobs, c.wantThread)
		}
	}
}

// TestPrintOutcomes checks the order, the escaping and the verdict of
// outcomes read back from files.
func TestPrintOutcomes(t *testing.T) {
	length := 2
	solvedRec := &record.Record{ID: "a", Size: "3x3", Solved: true, Length: &length, Moves: "LU", Mode: solver.Optimal}
	unsolved := []Outcome{{Record: &record.Record{ID: "c", Error: "timed out\u202e"}}}
	for _, c := range []struct {
		name     string
		format   string
		outcomes []Outcome
		err      error
		stdout   string
		stderr   string
	}{
		{"all solved", "text", []Outcome{{Record: solvedRec}, {Record: solvedRec}}, nil, "a: 2 moves LU", "solved 2 of 2"},
		{"a message", "text", []Outcome{{Msg: "b: \x1b[2Jbad"}, {Record: solvedRec}}, cli.ErrReported, "a: 2 moves", `b: \x1b[2Jbad`},
		{"unsolved", "text", unsolved, cli.ErrReported, "c: unsolved", "solved 0 of 1: 0 moves, 0 nodes generated, 0 expanded, 0.000 s searching (median 0.0000 s, max 0.0000 s), 0.0 Mnodes/s\n"},
		{"unsolved, its error escaped", "jsonl", unsolved, cli.ErrReported, `"error":"timed out\\u202e"`, "solved 0 of 1"},
	} {
		cfg := small()
		cfg.Format = c.format
		var stdout, stderr bytes.Buffer
		err := PrintOutcomes(cfg, len(c.outcomes), func(i int) Outcome { return c.outcomes[i] }, &stdout, &stderr)
		if !errors.Is(err, c.err) || !strings.Contains(stdout.String(), c.stdout) || !strings.Contains(stderr.String(), c.stderr) {
			t.Errorf("%s: %v\nstdout %q\nstderr %q", c.name, err, stdout.String(), stderr.String())
		}
	}
}

// TestCheckpointFile checks the --checkpoint file of a batch: each puzzle
// past marked Done, and --resume from it solving only those after.
func TestCheckpointFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cp.json")
	key := testKey(t)
	cfg := small()
	cfg.Checkpoint, cfg.Seal = path, key
	var out bytes.Buffer
	if err := Solve(context.Background(), cfg, read(twoMoves+fourMoves, nil), &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	f, err := ReadCheckpoint(path, search.Options{}, key)
	if err != nil || !f.Done || f.ID != "b" || f.Version != checkpointVersion {
		t.Fatalf("%+v, %v", f, err)
	}
	cfg = small()
	cfg.Resume = f
	out.Reset()
	if err := Solve(context.Background(), cfg, read(twoMoves+fourMoves+solved, nil), &out, io.Discard); err != nil || !strings.HasPrefix(out.String(), "c:") || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("resumed: %v\n%s", err, out.String())
	}
}

// testKey returns a key of the test's own.
func testKey(t *testing.T) *seal.Key {
	t.Helper()
	key, err := seal.LoadKey(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// TestReadCheckpoint checks that what is not a checkpoint is refused:
// sealed, but for the unsealed ones, which an earlier version wrote.
func TestReadCheckpoint(t *testing.T) {
	dir := t.TempDir()
	key := testKey(t)
	for _, c := range []struct {
		name, text string
		ok         bool
	}{
		{"done", `{"id":"a","start":[1],"done":true,"version":3}`, true},
		{"search", `{"id":"a","start":[1],"checkpoint":{},"version":3}`, true},
		{"version 2", `{"id":"a","start":[1],"done":true,"version":2}`, false},
		{"no id", `{"done":true,"version":3}`, false},
		{"neither done nor a search", `{"id":"a","version":3}`, false},
		{"unsealed", `{"id":"a","start":[1],"done":true,"version":3}`, false},
		{"not JSON", `{"id":`, false},
	} {
		path := filepath.Join(dir, c.name)
		data, err := key.Seal([]byte(c.text))
		if c.name == "unsealed" || c.name == "not JSON" {
			data, err = []byte(c.text), nil
		}
		if err == nil {
			err = os.WriteFile(path, data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ReadCheckpoint(path, search.Options{}, key); (err == nil) != c.ok {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if _, err := ReadCheckpoint(filepath.Join(dir, "none"), search.Options{}, key); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
	// What a search with the options may write is read, and no more
	// (issue 66: a checkpoint of 4.6 M tasks, in the writer's own format,
	// was refused).
	opts := search.Options{Frontier: 1}
	most := search.MaxCheckpointSize(opts)
	for _, size := range []int64{most, most + 1} {
		path := filepath.Join(dir, "large")
		text := `{"id":"a","start":[1],"version":3,"checkpoint":{"search":"`
		sealing, _ := key.Seal([]byte(`{"a":1}`))
		text += strings.Repeat("x", int(size)-len(text)-3-(len(sealing)-len(`{"a":1}`))) + `"}}`
		data, err := key.Seal([]byte(text))
		if err == nil {
			err = os.WriteFile(path, data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ReadCheckpoint(path, opts, key); (err == nil) != (size <= most) {
			t.Errorf("a checkpoint of %d bytes, where a search writes %d at most: %v", size, most, err)
		}
	}
}

// TestResumed checks where --resume takes the batch up again, with ids
// that repeat: the second "a" is the same puzzle as the first, the third
// another puzzle of the same id.
func TestResumed(t *testing.T) {
	input := "a: 1 2 3 4 5 6 0 7 8\nb: 1 2 3 0 4 6 7 5 8\na: 1 2 3 4 5 6 0 7 8\na: 1 2 3 4 5 6 7 0 8\nc: 1 2 3 4 5 6 7 8 0\n"
	var all []puzzle.Puzzle
	for p, err := range read(input, nil) {
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, p)
	}
	mark := func(i, occurrence int) Mark { return Mark{all[i].ID, all[i].Tiles, occurrence} }
	for _, c := range []struct {
		name string
		from CheckpointFile
		want int // the index of the first puzzle solved; -1 for an error
	}{
		{"past b", CheckpointFile{Mark: mark(1, 0), Done: true, Version: checkpointVersion}, 2},
		{"past the second a", CheckpointFile{Mark: mark(2, 1), Done: true, Version: checkpointVersion}, 3},
		{"past the a of another start", CheckpointFile{Mark: mark(3, 0), Done: true, Version: checkpointVersion}, 4},
		{"searching b, nothing written", CheckpointFile{Mark: mark(1, 0), Checkpoint: &search.Checkpoint{}, Version: checkpointVersion}, 0},
		{"searching the second a, b written", CheckpointFile{Mark: mark(2, 1), Checkpoint: &search.Checkpoint{}, Version: checkpointVersion, Written: new(mark(1, 0))}, 2},
		{"past a puzzle not in the input", CheckpointFile{Mark: Mark{ID: "z"}, Done: true, Version: checkpointVersion}, -1},
	} {
		n, failed := 0, false // the stream is a suffix of the input: n tells where it starts
		for _, err := range resumed(read(input, nil), &c.from) {
			if err != nil {
				failed = errors.As(err, new(ReadError))
				break
			}
			n++
		}
		switch {
		case c.want < 0 && !failed:
			t.Errorf("%s: no error", c.name)
		case c.want >= 0 && n != len(all)-c.want:
			t.Errorf("%s: %d puzzles solved, want %d", c.name, n, len(all)-c.want)
		}
	}
}
