package bench_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fifteen/bench"
	"fifteen/data"
	"fifteen/internal/testtool"
	"fifteen/puzzle"
	"fifteen/search"
	"fifteen/solver"
)

// TestReportMatchesSolve runs a small set through the harness and through
// the solve command (JSONL), and checks that the report's CSV holds the
// same figures for every instance.
func TestReportMatchesSolve(t *testing.T) {
	set, err := data.ParseSet("random:6:3:3x3")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := bench.ParseConfig("manhattan+prune=2+order=DRLU")
	if err != nil {
		t.Fatal(err)
	}
	run, err := bench.Solve(context.Background(), newSolver(t, cfg), set, cfg, bench.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := bench.WriteReport(dir, set, []*bench.Run{run}, bench.ThisMachine("test")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"report.md", "nodes.svg", "time.svg"} {
		if info, err := os.Stat(filepath.Join(dir, name)); err != nil || info.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	// No published figure is of 3×3 boards: the report says which are,
	// rather than print an empty table (issue 67).
	if report, err := os.ReadFile(filepath.Join(dir, "report.md")); err != nil || !strings.Contains(string(report), "## Published figures\n\nNone of these configurations has a published figure") {
		t.Errorf("report.md's published figures: %v\n%s", err, report)
	}
	f, err := os.Open(filepath.Join(dir, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}

	var input strings.Builder
	for _, in := range set.Instances {
		input.WriteString(in.ID + ": " + joinInts(in.Tiles) + "\n")
	}
	cmd := exec.Command("go", "run", "fifteen/cmd/solve", "--goal", "first", "--heuristic", "manhattan", "--prune-depth", "2", "--order", "DRLU", "--format", "jsonl", "-t", "1", "-j", "1")
	cmd.Stdin = strings.NewReader(input.String())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("solve: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(set.Instances) || len(rows) != len(set.Instances)+1 {
		t.Fatalf("solve printed %d records, the CSV has %d rows, for %d instances", len(lines), len(rows)-1, len(set.Instances))
	}
	header := rows[0]
	col := func(row []string, name string) string {
		for i, h := range header {
			if h == name {
				return row[i]
			}
		}
		t.Fatalf("no column %q", name)
		return ""
	}
	for i, line := range lines {
		var rec struct {
			ID                  string
			Length, H0          int
			Expanded, Generated uint64
			Iterations          []search.Iteration
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		row := rows[i+1]
		var its []string
		for _, it := range rec.Iterations {
			its = append(its, strconv.Itoa(it.Bound)+":"+strconv.FormatUint(it.Expanded, 10)+":"+strconv.FormatUint(it.Generated, 10))
		}
		got := []string{col(row, "id"), col(row, "length"), col(row, "h0"), col(row, "expanded"), col(row, "generated"), col(row, "iterations")}
		want := []string{rec.ID, strconv.Itoa(rec.Length), strconv.Itoa(rec.H0), strconv.FormatUint(rec.Expanded, 10), strconv.FormatUint(rec.Generated, 10), strings.Join(its, " ")}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("report %v, solve %v", got, want)
		}
	}
}

// TestKorf1985 checks the report's comparison with Korf's (1985) table on
// two of his instances: counted his way, every node count equals his; the
// default move order is not his, and is not compared.
func TestKorf1985(t *testing.T) {
	set, _ := data.ParseSet("korf100")
	set.Instances = []puzzle.Puzzle{set.Instances[11], set.Instances[54]}
	var runs []*bench.Run
	for _, config := range []string{"manhattan+prune=2+order=ULRD", "manhattan+prune=2"} {
		cfg, err := bench.ParseConfig(config)
		if err != nil {
			t.Fatal(err)
		}
		run, err := bench.Solve(context.Background(), newSolver(t, cfg), set, cfg, bench.Options{})
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, run)
	}
	dir := t.TempDir()
	if err := bench.WriteReport(dir, set, runs, bench.ThisMachine("test")); err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "### Korf (1985) reproduced: `manhattan+prune=2+order=ULRD`\n\n2 of 2 instances generate exactly the published number of nodes"
	if !strings.Contains(string(report), want) || strings.Count(string(report), "### Korf (1985) reproduced") != 1 {
		t.Errorf("report does not compare the Korf-order run alone, all equal:\n%s", report)
	}
	if !strings.Contains(string(report), "| Korf (1985), Table 1 | Manhattan, IDA* | Korf's 100 |") {
		t.Errorf("report.md has no row of published figures:\n%s", report)
	}
}

func joinInts(xs []int) string {
	var s []string
	for _, x := range xs {
		s = append(s, strconv.Itoa(x))
	}
	return strings.Join(s, " ")
}

// newSolver returns the solver of the configuration, closed when the
// test ends.
func newSolver(t *testing.T, cfg bench.Config) *solver.Solver {
	t.Helper()
	s, err := solver.New(cfg.Solver())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestWrongAnswerFails gives the harness known optima that two of the
// answers contradict: those must fail the length check, and only those.
func TestWrongAnswerFails(t *testing.T) {
	set, _ := data.ParseSet("korf100")
	set.Instances = slices.Clone(set.Instances[:5])
	set.Instances[1].Optimal++
	set.Instances[3].Optimal--
	cfg, _ := bench.ParseConfig("pdb:771")
	run, err := bench.Solve(context.Background(), newSolver(t, cfg), set, cfg, bench.Options{})
	if !errors.Is(err, solver.ErrWrongAnswer) {
		t.Fatalf("contradicted optima passed the checks: %v", err)
	}
	for i, r := range run.Results {
		if wrong := errors.Is(r.Err, solver.ErrWrongAnswer); wrong != (i == 1 || i == 3) {
			t.Errorf("%s: error %v", r.ID, r.Err)
		}
	}
}

// TestInterleave runs two configurations interleaved and each on its
// own: only the times may differ. A cancelled run reports every instance
// as not run.
func TestInterleave(t *testing.T) {
	set, err := data.ParseSet("random:5:7:3x3")
	if err != nil {
		t.Fatal(err)
	}
	var cfgs []bench.Config
	var solvers []bench.Solver
	for _, name := range []string{"manhattan", "misplaced+prune=2"} {
		cfg, err := bench.ParseConfig(name)
		if err != nil {
			t.Fatal(err)
		}
		cfgs, solvers = append(cfgs, cfg), append(solvers, newSolver(t, cfg))
	}
	var done []int
	runs, err := bench.Interleave(context.Background(), solvers, set, cfgs, bench.Options{Progress: func(n int) { done = append(done, n) }})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(done, []int{1, 2, 3, 4, 5}) {
		t.Errorf("progress after %v instances", done)
	}
	for k, cfg := range cfgs {
		alone, err := bench.Solve(context.Background(), solvers[k], set, cfg, bench.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if runs[k].Config.Name != cfg.Name || len(runs[k].Results) != len(set.Instances) {
			t.Fatalf("run %d: %s with %d results", k, runs[k].Config.Name, len(runs[k].Results))
		}
		for i, r := range runs[k].Results {
			a := alone.Results[i]
			if r.ID != a.ID || r.Err != nil || r.Generated != a.Generated || r.Expanded != a.Expanded || r.Length() != a.Length() {
				t.Errorf("%s: %s: interleaved %d nodes, %d moves, %v; alone %s: %d nodes, %d moves", cfg.Name, r.ID, r.Generated, r.Length(), r.Err, a.ID, a.Generated, a.Length())
			}
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	runs, err = bench.Interleave(ctx, solvers, set, cfgs, bench.Options{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	for _, run := range runs {
		for _, r := range run.Results {
			if r.Err == nil || r.Generated != 0 {
				t.Errorf("%s: %s searched after the cancel: %v", run.Config.Name, r.ID, r.Err)
			}
		}
	}
	if _, err := bench.Interleave(context.Background(), solvers[:1], set, cfgs, bench.Options{}); err == nil {
		t.Error("one solver for two configurations")
	}
}

func TestAgree(t *testing.T) {
	a := &bench.Run{Config: bench.Config{Name: "a"}, Results: []bench.Result{{ID: "x", Result: search.Result{Moves: make([]puzzle.Move, 4)}}}}
	b := &bench.Run{Config: bench.Config{Name: "b"}, Results: []bench.Result{{ID: "x", Result: search.Result{Moves: make([]puzzle.Move, 6)}}}}
	if err := bench.Agree([]*bench.Run{a, a}); err != nil {
		t.Errorf("equal runs disagree: %v", err)
	}
	if err := bench.Agree([]*bench.Run{a, b}); !errors.Is(err, solver.ErrWrongAnswer) {
		t.Errorf("lengths 4 and 6 agree: %v", err)
	}
}

func TestParseConfig(t *testing.T) {
	c, err := bench.ParseConfig("pdb:78+noreflect+prune=8+order=DRLU+threads=2+jobs=3")
	if err != nil {
		t.Fatal(err)
	}
	if c.Heuristic != "pdb" || c.Partition != "78" || c.Reflect || c.PruneDepth != 8 || c.Threads != 2 || c.Jobs != 3 ||
		c.Order != [4]puzzle.Move{puzzle.Down, puzzle.Right, puzzle.Left, puzzle.Up} {
		t.Errorf("parsed %+v", c)
	}
	for s, want := range map[string]int{"pdb+frontier=64": 64, "pdb+frontier=0": search.DepthFirst, "pdb": 0} {
		if c, err := bench.ParseConfig(s); err != nil || c.Frontier != want {
			t.Errorf("ParseConfig(%q): frontier %d, %v; want %d", s, c.Frontier, err, want)
		}
	}
	for s, want := range map[string]search.Cut{"pdb+contour": search.CutContour, "pdb+contour=true": search.CutContour, "pdb+contour=false": search.CutFixed, "pdb": search.CutDefault} {
		if c, err := bench.ParseConfig(s); err != nil || c.Cut != want {
			t.Errorf("ParseConfig(%q): cut %v, %v; want %v", s, c.Cut, err, want)
		}
	}
	if _, err := bench.ParseConfig("pdb+contour=no"); err == nil {
		t.Error("ParseConfig(pdb+contour=no) accepted")
	}
	// Partitions joined by '+' before the options, and the default
	// databases (issue 48: neither could be written).
	for s, want := range map[string]bench.Config{
		"pdb:663+555+threads=2": {Heuristic: "pdb", Partition: "663+555", Options: solver.Options{Options: search.Options{Threads: 2}}},
		"pdb:663+555":           {Heuristic: "pdb", Partition: "663+555", Options: solver.Options{Options: search.Options{Threads: 1}}},
		"pdb+noreflect":         {Heuristic: "pdb", Options: solver.Options{Options: search.Options{Threads: 1}}},
		"pdb:6666+jobs=2":       {Heuristic: "pdb", Partition: "6666", Reflect: true, Options: solver.Options{Options: search.Options{Threads: 1}}},
	} {
		c, err := bench.ParseConfig(s)
		if err != nil || c.Heuristic != want.Heuristic || c.Partition != want.Partition || c.Threads != want.Threads ||
			strings.Contains(s, "noreflect") == c.Reflect {
			t.Errorf("ParseConfig(%q) = %+v, %v", s, c, err)
		}
	}
	for _, bad := range []string{"", "pdb:", "manhattan:663", "linear", "pdb:663+threads=0", "pdb:663+threads=257", "pdb:663+order=UULR", "pdb:663+fast", "manhattan+noreflect=1", "pdb+noreflect=1", "pdb+zero", "pdb+frontier=-1", "pdb+frontier=x", "pdb+frontier=70000"} {
		if _, err := bench.ParseConfig(bad); err == nil {
			t.Errorf("ParseConfig(%q) accepted", bad)
		} else if strings.HasPrefix(err.Error(), "bench:") {
			t.Errorf("ParseConfig(%q): %v names the package, which the command's name repeats", bad, err)
		}
	}
	// Issue 57: jobs past solver.MaxJobs panicked the run; an unknown option
	// was called an unknown partition; a repeated option, or one the
	// heuristic has no use for, was taken silently.
	for bad, want := range map[string]string{
		"pdb+jobs=257":            "at most 256",
		"pdb+weight=2":            "unknown option",
		"pdb+bogus":               "unknown option",
		"pdb+noreflect+noreflect": "given twice",
		"manhattan+noreflect":     "only the databases",
		"misplaced+noreflect":     "only the databases",
		// Issue 66: typos got no hint; a frontier with a fixed order was
		// taken, and ranked nothing.
		"pdb+thread=2":              "unknown option (did you mean threads?)",
		"pdb+fronteir=8":            "unknown option (did you mean frontier?)",
		"pdb+frontier=1+order=ULRD": "not with order",
		"pdb+contour+order=ULRD":    "not with order",
		"pdb+contour+frontier=0":    "not with frontier=0",
		"pdb+contour=1":             "want +contour, +contour=true or +contour=false",
	} {
		if _, err := bench.ParseConfig(bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseConfig(%q): %v, want %q", bad, err, want)
		}
	}
}

// TestKorf50 checks the report's comparison with the published counts on
// the 24-puzzles, instance by instance, on a run made up: one instance
// solved in a tenth of Korf and Felner's generated nodes and half of
// Clausecker and Reinefeld's expanded ones, one unsolved.
func TestKorf50(t *testing.T) {
	set, err := data.ParseSet("korf50")
	if err == nil {
		set, err = set.Pick([]int{38, 40})
	}
	cfg, _ := bench.ParseConfig("pdb:771")
	if err != nil {
		t.Fatal(err)
	}
	published := data.Korf50Effort()["k24-38"]
	solved := bench.Result{ID: "k24-38", Optimal: 96, Result: search.Result{Moves: make([]puzzle.Move, 96), Solved: true, Generated: published.KorfFelner2002 / 10, Expanded: published.Clausecker2019 / 2}}
	unsolved := bench.Result{ID: "k24-40", Optimal: 82, Err: errors.New("timed out")}
	run := &bench.Run{Config: cfg, Results: []bench.Result{solved, unsolved}}
	dir := t.TempDir()
	if err := bench.WriteReport(dir, set, []*bench.Run{run}, bench.ThisMachine("test")); err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| k24-38 | 96 | 3,817,350 | 38,173,507 | 0.100× | 1,725,416 | 1,638,334 | 1.053× | 3,450,832 | 0.500× |",
		"| k24-40 | unsolved: timed out |",
		"| solved, in all | | 3,817,350 | 38,173,507 | 0.100× | 1,725,416 | 1,638,334 | 1.053× | 3,450,832 | 0.500× | |",
	} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
}

// TestYardstick runs the C yardstick (skipped without a C compiler) as a
// configuration on Korf's first five instances, and checks its answers
// (replayed to the goal, of the optimal length) and its counts against
// those recorded in search/testdata/ref663.txt, plus the root; and that
// it refuses a board it does not solve, with an error for that puzzle.
func TestYardstick(t *testing.T) {
	testtool.SkipUnlessLong(t, "builds the yardstick's databases: seconds")
	testtool.Need(t, "apt-get install gcc", "cc")
	if _, err := bench.ParseConfig("ref663+threads=2"); err == nil {
		t.Error("ref663 took an option")
	}
	cfg, err := bench.ParseConfig(bench.YardstickName)
	if err != nil {
		t.Fatal(err)
	}
	y, err := bench.StartYardstick(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := y.Close(); err != nil {
			t.Error(err)
		}
	}()
	set, err := data.ParseSet("korf100")
	if err != nil {
		t.Fatal(err)
	}
	set.Instances = set.Instances[:5]
	run, err := bench.Solve(context.Background(), y, set, cfg, bench.Options{})
	if err != nil {
		t.Fatal(err)
	}
	recorded := recordedYardstick(t)
	for _, r := range run.Results {
		if want := recorded[r.ID]; r.Generated != want[1]+1 || uint64(r.Length()) != want[0] || uint64(r.H0) != want[2] {
			t.Errorf("%s: %d moves, %d nodes, h0 %d; recorded %d, %d (+1 for the root), %d", r.ID, r.Length(), r.Generated, r.H0, want[0], want[1], want[2])
		}
	}
	other := data.Set{Name: "3x3", Goal: puzzle.GoalFirst, Instances: []puzzle.Puzzle{puzzle.Solved(puzzle.Size{Rows: 3, Cols: 3}, puzzle.GoalFirst), set.Instances[0]}}
	run, err = bench.Solve(context.Background(), y, other, cfg, bench.Options{})
	if err == nil || run.Results[0].Err == nil || run.Results[1].Err != nil {
		t.Errorf("a 3x3 board: %v; results %v, %v", err, run.Results[0].Err, run.Results[1].Err)
	}
}

// recordedYardstick reads search/testdata/ref663.txt: length, nodes
// generated (the root not counted) and h0 by Korf's 100's ids.
func recordedYardstick(t *testing.T) map[string][3]uint64 {
	text, err := os.ReadFile("../search/testdata/ref663.txt")
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string][3]uint64{}
	for line := range strings.Lines(string(text)) {
		if strings.HasPrefix(line, "#") {
			continue
		}
		var id int
		var c [3]uint64
		if _, err := fmt.Sscan(line, &id, &c[0], &c[1], &c[2]); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		counts[fmt.Sprintf("korf%d", id)] = c
	}
	return counts
}
