package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"fifteen/pdb"
	"fifteen/puzzle"
	"fifteen/solver"
)

// TestStatus checks the status and the message of each kind of error.
func TestStatus(t *testing.T) {
	plain := errors.New("disk full")
	usage := &UsageError{Err: errors.New("--gif draws one puzzle")}
	for _, c := range []struct {
		err    error
		status int
		out    string
	}{
		{nil, StatusOK, ""},
		{ErrReported, StatusFailed, ""},
		{plain, StatusFailed, "x: disk full\n"},
		{usage, StatusUsage, "x: --gif draws one puzzle\n"},
		{fmt.Errorf("opening: %w", usage), StatusUsage, "x: opening: --gif draws one puzzle\n"},
	} {
		var out bytes.Buffer
		if status := Status("x", c.err, &out); status != c.status || out.String() != c.out {
			t.Errorf("%v: status %d, %q; want %d, %q", c.err, status, out.String(), c.status, c.out)
		}
	}
}

// TestMessagesUnprefixed checks that the packages under the commands make
// their errors without their names in front, so that the commands say
// them as they are, in the user's words: an error edited after the fact
// edited the user's own paths too (issue 66: --gif "o: render: d/x.gif"
// was reported as "o: d/x.gif"); and that a path is reported whole.
func TestMessagesUnprefixed(t *testing.T) {
	prefixed := regexp.MustCompile(`"(solver|search|pdb|pdbcore|data|construct|render): `)
	for _, dir := range []string{"solver", "search", "pdb", "internal/pdbcore", "data", "construct", "render"} {
		files, err := filepath.Glob(filepath.Join("..", "..", "..", dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if m := prefixed.Find(text); m != nil {
				t.Errorf("%s: an error begins with its package's name: %s", file, m)
			}
		}
	}
	var out bytes.Buffer
	Status("x", &os.PathError{Op: "create", Path: "o: render: d/x.gif", Err: os.ErrNotExist}, &out)
	if want := "x: create o: render: d/x.gif: file does not exist\n"; out.String() != want {
		t.Errorf("%q, want %q", out.String(), want)
	}
}

// TestParse checks the statuses of --help, of a bad flag and of a failed
// check, where each writes, and that the flags are set before the check
// runs; a mistyped flag gets the nearest one suggested.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		args           []string
		check          error
		status         int
		ok             bool
		stdout, stderr string
	}{
		{[]string{"--n", "3"}, nil, StatusOK, true, "", ""},
		{[]string{"--help"}, nil, StatusOK, false, "x: counts\n\nUsage: x [flags]\n", ""},
		{[]string{"--no-such"}, nil, StatusUsage, false, "", "x: unknown flag: --no-such\n"},
		{[]string{"--n", "3"}, errors.New("n is odd"), StatusUsage, false, "", "x: n is odd\n"},
		{[]string{"--korf10"}, nil, StatusUsage, false, "", "x: unknown flag: --korf10 (did you mean --korf100?)\n"},
		{[]string{"--partiton", "78"}, nil, StatusUsage, false, "", "x: unknown flag: --partiton (did you mean --partition?)\n"},
		{[]string{"--part", "78"}, nil, StatusUsage, false, "", "x: unknown flag: --part (did you mean --partition?)\n"},
		{[]string{"--m", "3"}, nil, StatusUsage, false, "", "x: unknown flag: --m (did you mean --n?)\n"},
		{[]string{"--xyz", "3"}, nil, StatusUsage, false, "", "x: unknown flag: --xyz\n"},
		{[]string{"-z"}, nil, StatusUsage, false, "", "x: unknown shorthand flag: 'z' in -z\n"},
		// issue 66: a hint of the command's own, and long flags given one dash
		{[]string{"--korf50"}, nil, StatusUsage, false, "", "x: unknown flag: --korf50 (did you mean --set korf50?)\n"},
		{[]string{"-threads", "2"}, nil, StatusUsage, false, "", "x: -threads: a long flag takes two dashes: --threads\n"},
		{[]string{"-korf100"}, nil, StatusUsage, false, "", "x: -korf100: a long flag takes two dashes: --korf100\n"},
		{[]string{"-partition=78"}, nil, StatusUsage, false, "", "x: -partition=78: a long flag takes two dashes: --partition=78\n"},
		// issue 76: a value that is a flag's name is no flag
		{[]string{"--n", "3", "--partition", "korf100"}, errors.New("bad partition"), StatusUsage, false, "", "x: bad partition\n"},
	} {
		cmd := NewCommand("x", "[flags]", "counts")
		cmd.Hints = map[string]string{"korf50": "--set korf50"}
		cmd.IntP("threads", "t", 1, "goroutines")
		n := cmd.Int("n", 0, "a number")
		cmd.Bool("korf100", false, "Korf's 100")
		cmd.String("partition", "", "databases")
		var stdout, stderr bytes.Buffer
		status, ok := Parse(cmd, c.args, &stdout, &stderr, func() error {
			if *n != 3 {
				t.Errorf("%v: the check ran with n = %d", c.args, *n)
			}
			return c.check
		})
		if status != c.status || ok != c.ok || !strings.HasPrefix(stdout.String(), c.stdout) || stderr.String() != c.stderr {
			t.Errorf("%v: %d, %v, %q, %q; want %d, %v, %q, %q", c.args, status, ok, stdout.String(), stderr.String(), c.status, c.ok, c.stdout, c.stderr)
		}
	}
}

// TestHelp checks the help's parts: what the command does, its usage
// line, each group's flags under its heading in the order defined, the
// flags defined before any group first, the examples and the exit
// statuses.
func TestHelp(t *testing.T) {
	cmd := NewCommand("x", "[flags] FILE", "does things.")
	cmd.Bool("first", false, "a flag before any group")
	cmd.Group("Input")
	cmd.String("zeta", "", "read from `FILE`")
	cmd.Int("alpha", 1, "how many")
	cmd.Group("Output")
	cmd.BoolP("quiet", "q", false, "say less")
	cmd.Examples = `
  x --zeta f           # read f
  x -q --alpha 2 FILE  # quietly
`
	cmd.Exits = `
  0  done
  2  a bad flag`
	var help bytes.Buffer
	cmd.WriteHelp(&help)
	want := `x: does things.

Usage: x [flags] FILE

Flags:
      --first   a flag before any group

Input:
      --zeta FILE   read from FILE
      --alpha int   how many (default 1)

Output:
  -q, --quiet   say less

Examples:
  x --zeta f           # read f
  x -q --alpha 2 FILE  # quietly

Exit status:
  0  done
  2  a bad flag
`
	if help.String() != want {
		t.Errorf("help:\n%s\nwant:\n%s", help.String(), want)
	}
}

// TestFlags checks the shared flags' values, and that each refuses a bad
// one as it is set.
func TestFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		ok   bool
		want string // goal size threads jobs set ids, as set
	}{
		{nil, true, "last 4x4 0 0 korf100 []"},
		{[]string{"--goal", "first", "--size", "3", "-t", "4", "-j", "2", "--set", "korf50", "--ids", "3,1"}, true, "first 3x3 4 2 korf50 [3 1]"},
		{[]string{"--goal", "middle"}, false, ""},
		{[]string{"--size", "6x6"}, false, ""},
		{[]string{"-t", "9"}, false, ""},
		{[]string{"-t", "-1"}, false, ""},
		{[]string{"-j", "9"}, false, ""},
		{[]string{"-j", "-1"}, false, ""},
	} {
		fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
		fs.SetOutput(new(bytes.Buffer))
		var goal puzzle.Goal
		var size puzzle.Size
		var threads, jobs int
		GoalVar(fs, &goal, nil, nil, "")
		SizeVar(fs, &size, puzzle.Size{Rows: 4, Cols: 4}, 25, "")
		ThreadsVar(fs, &threads, 8, "")
		JobsVar(fs, &jobs, 8, "")
		in := InstancesVar(fs, "korf100", "", "")
		err := fs.Parse(c.args)
		if (err == nil) != c.ok {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		if got := fmt.Sprint(goal, " ", size, " ", threads, " ", jobs, " ", in.Name(), " ", in.ids); err == nil && got != c.want {
			t.Errorf("%v: %s, want %s", c.args, got, c.want)
		}
	}
}

// TestGoalBoardFlag checks --goal's board form: a board, a board that is
// a convention's goal, and boards refused.
func TestGoalBoardFlag(t *testing.T) {
	for _, c := range []struct {
		arg  string
		want string // the goal, and the board if any
	}{
		{"1 2 3 4 0 5 6 7 8", "last 3x3 1 2 3 4 0 5 6 7 8"},
		{"2x4 1 2 3 0 4 5 6 7", "last 2x4 1 2 3 0 4 5 6 7"},
		{"0,1,2,3,4,5,6,7,8", "first of 3x3"},
		{"1 2 3 4 5 6 7 8 0", "last of 3x3"},
		{"first", "first"},
		{"g: 1 2 3 0", "error: bad goal \"g: 1 2 3 0\": want first, last or a board's tiles (a goal board takes no label)"},
		{"1 2 3 0\n1 2 3 0", "error: bad goal \"1 2 3 0\\n1 2 3 0\": want first, last or a board's tiles (more than one board)"},
		{"", "error: bad goal \"\": want first, last or a board's tiles (no tiles)"},
		{"1 2 3 4 5 6 7 8", "error: bad goal \"1 2 3 4 5 6 7 8\": want first, last or a board's tiles (8 tiles: a 3x3 board has 9, 0 to 8; 0 is missing (other shapes use a ROWSxCOLS block header))"},
		{"1 1 2 3 4 5 6 7 8", "error"},
		{"middle", "error"},
	} {
		fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
		fs.SetOutput(new(bytes.Buffer))
		var goal puzzle.Goal
		var board *puzzle.Puzzle
		var size puzzle.Size
		GoalVar(fs, &goal, &board, &size, "")
		err := fs.Parse([]string{"--goal", c.arg})
		got := goal.String()
		if board == nil && size != (puzzle.Size{}) {
			got += " of " + size.String()
		}
		if err != nil {
			got = "error"
			if strings.Contains(c.want, ":") {
				got += ": " + strings.TrimPrefix(err.Error(), fmt.Sprintf("invalid argument %q for \"--goal\" flag: ", c.arg))
			}
		} else if board != nil {
			got += " " + board.Size.String() + " " + board.String()
		}
		if got != c.want {
			t.Errorf("--goal %q: %s, want %s", c.arg, got, c.want)
		}
	}
}

// TestSolverFlags checks the flags that choose the heuristic.
func TestSolverFlags(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	var cfg solver.Config
	SolverFlags(fs, &cfg)
	if err := fs.Parse([]string{"--heuristic", "linear-conflict", "--partition", "663", "--pdb-dir", "/d", "--no-reflect"}); err != nil {
		t.Fatal(err)
	}
	if want := (solver.Config{Heuristic: "linear-conflict", Partition: "663", Dir: "/d", NoReflect: true}); cfg.Heuristic != want.Heuristic ||
		cfg.Partition != want.Partition || cfg.Dir != want.Dir || cfg.NoReflect != want.NoReflect {
		t.Errorf("%+v, want %+v", cfg, want)
	}
}

// TestInstances checks Pick: a set and its instances in the order asked,
// or why not.
func TestInstances(t *testing.T) {
	for _, c := range []struct {
		name string
		ids  []int
		want []string // the instances' ids; nil for no set
		err  bool
	}{
		{"", nil, nil, false},
		{"", []int{1}, nil, true},
		{"korf100", []int{88, 1}, []string{"korf88", "korf1"}, false},
		{"korf100", []int{101}, nil, true},
		{"no-such", nil, nil, true},
	} {
		in := &Instances{}
		in.Use(c.name)
		in.ids = c.ids
		set, err := in.Pick()
		if (err != nil) != c.err {
			t.Errorf("%s %v: %v", c.name, c.ids, err)
			continue
		}
		var got []string
		if set != nil {
			for _, p := range set.Instances {
				got = append(got, p.ID)
			}
		}
		if err == nil && fmt.Sprint(got) != fmt.Sprint(c.want) || err == nil && (set == nil) != (c.want == nil) {
			t.Errorf("%s %v: %v, want %v", c.name, c.ids, got, c.want)
		}
	}
}

// TestReporter checks that database builds are shown a line each off a
// terminal, the log's lines among them.
func TestReporter(t *testing.T) {
	var out bytes.Buffer
	progress, log := Reporter(&out)
	progress(pdb.Progress{})
	log("built 4x4-first-1.pdb")
	if got := out.String(); strings.Count(got, "\n") != 2 || !strings.HasSuffix(got, "built 4x4-first-1.pdb\n") {
		t.Errorf("%q", got)
	}
}
