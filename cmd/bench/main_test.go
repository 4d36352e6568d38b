package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"fifteen/internal/signaltest"
	"fifteen/internal/testtool"
	"fifteen/pdb"
)

// runBench runs bench with args and returns its exit status, and its
// standard output and error.
func runBench(args ...string) (code int, stdout, stderr string) {
	var out, errs bytes.Buffer
	code = run(args, &out, &errs)
	return code, out.String(), errs.String()
}

// TestReport runs two configurations: the report holds both, and the
// summary on standard output gives each one's counts and its ratios to
// the first's, the report's path last on standard error.
func TestReport(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report")
	code, stdout, stderr := runBench("--set", "random:4:9:3x3", "--config", "manhattan,manhattan+prune=2+jobs=2", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	report, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Benchmark: random:4:9:3x3", "| `manhattan` | 4/4 |", "| `manhattan+prune=2+jobs=2` | 4/4 |", "nodes.svg"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	// Progress, on a standard error that is not a terminal, in a few lines
	// (issue 67: one an instance).
	if !strings.Contains(stderr, "manhattan: 1/4 instances") || strings.Contains(stderr, "manhattan: 2/4") || !strings.Contains(stderr, "manhattan: 4 instances in ") ||
		!strings.HasSuffix(stderr, "report: "+filepath.Join(out, "report.md")+"\n") {
		t.Errorf("no progress, a line an instance, or no report's path last: %s", stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("the summary has %d lines, want a heading and a line a configuration:\n%s", len(lines), stdout)
	}
	for i, want := range [][]string{
		{"configuration", "solved", "generated", "search s", "wall s", "Mnodes/s", "search vs first", "wall vs first", "nodes vs first"},
		{"manhattan ", "4/4", "1.000×  "},
		{"manhattan+prune=2+jobs=2 ", "4/4", "×"},
	} {
		for _, w := range want {
			if !strings.Contains(lines[i], w) {
				t.Errorf("summary line %d lacks %q:\n%s", i, w, stdout)
			}
		}
	}
}

// TestHelp: --help says what bench does, names every configuration, the
// yardstick with what it needs, and gives examples and exit statuses.
func TestHelp(t *testing.T) {
	code, stdout, stderr := runBench("--help")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, %s", code, stderr)
	}
	want := []string{"bench: runs", "Usage: bench [flags]", "manhattan, linear-conflict, misplaced", "ref663", "C compiler", "+frontier=MIB", "Examples:\n", "Exit status:\n"}
	for _, size := range pdb.DefaultSizes() {
		want = append(want, pdb.Names(size)...)
	}
	for _, w := range want {
		if !strings.Contains(stdout, w) {
			t.Errorf("the help lacks %q:\n%s", w, stdout)
		}
	}
}

// TestInterleave runs two configurations interleaved: the report and its
// CSV hold both, the CSV each configuration's instances in the set's order.
func TestInterleave(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report")
	code, _, stderr := runBench("--set", "korf100", "--ids", "55,12", "--config", "manhattan,manhattan+prune=2", "--interleave", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "interleaved: 1/2 instances") || !strings.Contains(stderr, "interleaved: 2 instances in ") {
		t.Errorf("no progress: %s", stderr)
	}
	csv, err := os.ReadFile(filepath.Join(out, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, line := range strings.Split(strings.TrimSpace(string(csv)), "\n")[1:] {
		f := strings.Split(line, ",")
		rows = append(rows, f[1]+" "+f[2])
	}
	want := []string{"manhattan korf55", "manhattan korf12", "manhattan+prune=2 korf55", "manhattan+prune=2 korf12"}
	if strings.Join(rows, "; ") != strings.Join(want, "; ") {
		t.Errorf("results.csv rows %q, want %q", rows, want)
	}
}

// TestIDs runs two instances picked from Korf's 100, in the order given.
func TestIDs(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report")
	if code, _, stderr := runBench("--set", "korf100", "--ids", "55,12", "--config", "manhattan", "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	csv, err := os.ReadFile(filepath.Join(out, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if i, j := strings.Index(string(csv), "korf55,"), strings.Index(string(csv), "korf12,"); i < 0 || j < i || strings.Count(string(csv), "\n") != 3 {
		t.Errorf("results.csv does not hold korf55 then korf12 alone:\n%s", csv)
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--set", "nope"}, 2, "unknown set"},
		{[]string{"--set", ""}, 2, "no --set"},
		{[]string{"--set", "korf50", "--ids", "0"}, 2, "no instance 0"},
		{[]string{"--config", "fast"}, 2, "config"},
		{[]string{"--limit", "-1"}, 2, "--limit"},
		{[]string{"extra"}, 2, "unexpected"},
		{[]string{"--bogus"}, 2, "unknown flag"},
		{[]string{"--limit", "1", "--config", "pdb:555", "--pdb-dir", dir, "--out", filepath.Join(dir, "r")}, 1, "pdbgen --partition 555"},
		{[]string{"--config", "manhattan+prune=99"}, 2, "pruning depth 99"},
		{[]string{"--interleave", "--config", "manhattan,manhattan+jobs=2"}, 2, "--interleave solves one instance at a time"},
		{[]string{"--config", "pdb:663+555+fast"}, 2, `option "fast": unknown option`},
		{[]string{"--config", "pdb+jobs=257", "--limit", "1"}, 2, "at most 256"}, // issue 57: a panic
		{[]string{"--set", "random:1:1:3x3", "--config", "manhattan", "--out", file}, 1, file},
		{[]string{"--set", "random:1:1:3x3", "--config", "manhattan", "--out", filepath.Join(file, "sub")}, 1, file},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, _, stderr := runBench(c.args...)
			if code != c.code || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "instances in") || strings.Contains(stderr, "bench: bench:") {
				t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, stderr, c.code, c.want)
			}
		})
	}
}

// TestSmallBoardDefault runs plain pdb on a 3x3 set, whose databases
// are built in memory and have no name (issue 48: config "pdb:"), and a
// spec, quoted so that its commas do not split the list.
func TestSmallBoardDefault(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r")
	if code, _, stderr := runBench("--set", "random:2:1:3x3", "--config", `pdb,pdb+threads=2,"pdb:1,2,3,4/5,6,7,8"`, "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

// TestMain lets a test run bench in a child process, which it signals.
func TestMain(m *testing.M) {
	if os.Getenv("FIFTEEN_RUN_BENCH") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// TestTerminate stops a run of the C yardstick with SIGTERM, as a
// scheduler does, once it has solved an instance: bench says it was
// interrupted, exits 1, and leaves none of the yardstick's files (issue
// 57: it exited 143 and left them; on SIGINT, handled alike, it said
// "context canceled"). The yardstick builds its databases first: seconds.
func TestTerminate(t *testing.T) {
	testtool.SkipUnlessLong(t, "builds the yardstick's databases: seconds")
	testtool.Need(t, "apt-get install gcc", "cc")
	for _, sig := range []os.Signal{syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			tmp := t.TempDir()
			cmd := exec.Command(os.Args[0], "--config", "ref663", "--out", filepath.Join(t.TempDir(), "report"))
			cmd.Env = append(os.Environ(), "FIFTEEN_RUN_BENCH=1", "TMPDIR="+tmp)
			_, stderr, err := signaltest.When(t, cmd, sig, func(line string) bool { return strings.HasPrefix(line, "ref663: 1/") })
			if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 || !strings.Contains(stderr, "bench: interrupted\n") {
				t.Errorf("%v: %s", err, stderr)
			}
			if left, _ := filepath.Glob(filepath.Join(tmp, "fifteen-yardstick-*")); len(left) > 0 {
				t.Errorf("left %v", left)
			}
		})
	}
}
