package docs

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"fifteen/internal/testtool"
)

// An example is a shell command that README.md, a page of docs/ or a
// command's --help gives, with the output lines the text shows after it
// (behind a $ prompt).
type example struct {
	where string // file:line, or the command's help
	cmd   string // as written, continuations joined
	shown []string
}

// A rule says how TestExamples runs the examples its pattern matches
// (against the command with `go run ./cmd/NAME` written NAME), where they
// are not run as plain commands that exit 0: skipped, and why; run with a
// small input instead, and why; what their output must hold, where the
// text around them says it; the exit status; and what they need.
type rule struct {
	match  string
	skip   string   // why it is not run
	as     string   // the command run instead, with the input the reason names
	why    string   // why it runs as it does
	want   []string // in its output, as the text around it says
	status int      // its exit status
	before []string // commands run before it, as the text around it says
	tools  []string // the programs it runs besides the commands
	same   string   // a file it writes, which must be the repository's
	five   bool     // it searches 5×5 boards, or builds their databases
}

// rules are TestExamples's table. Every example is matched by at most
// one rule, and every rule matches an example: the table cannot rot.
var rules = []rule{
	// Not run: the tests themselves, a fresh clone's measurement, hours,
	// gigabytes, the network.
	{match: `^go test \./\.\.\.`, skip: "the test command itself"},
	{match: `^(go test -count=1 |FIFTEEN_LONG_TESTS=1 go test )`, skip: "the test command itself, timed from a fresh clone"},
	{match: `^(git clone|export GOPATH)`, skip: "a fresh clone's measurement, with the Go caches emptied"},
	{match: `^go run \.$|^mkdir -p hello|^go mod edit`, skip: "the library example: solver's TestReadmeExample runs it"},
	{match: `benchstat`, skip: "fetches benchstat from the network, and compares two runs of the benchmarks"},
	{match: `--partition 78$|--partition 78 `, skip: "builds the 7-8 databases: minutes and 3.2 GB (performance.md)"},
	{match: `--size 4x5`, skip: "builds the 4×5 databases: minutes and 2.9 GB (performance.md)"},
	{match: `6666x7`, skip: "builds the 5×5 catalogue of seven: 14 minutes and 1.8 GB of tables (performance.md)"},
	{match: `TestOrderCeiling`, skip: "the order experiment: 12 minutes and more (experiments.md)"},
	{match: `TestAStarCeiling`, skip: "the A*+IDA* experiment: 11 minutes and more on 5×5 (experiments.md)"},
	{match: `TestContourCeiling`, skip: "the contour experiment: 20 minutes and more on 5×5 (experiments.md)"},
	{match: `--contour --set korf50 --ids 38,40,25,32,44,37,30,13,1,28`, skip: "the ten easiest 24-puzzles: a minute and more (experiments.md)"},
	{match: `--set korf50 --checkpoint k50`, skip: "all fifty 24-puzzles: days on one machine"},
	{match: `k50\.in 64|solve\.sh k24-50`, skip: "a split job of hours among 64 tasks of a cluster (the local driver runs README's)"},
	{match: `--pdb-dir DIR`, skip: "the order experiment's databases (the experiment is not run)"},

	// Run with a small input, as the reason says.
	{match: `-bench Korf100 -count 6`, as: `go test ./search -run X -bench 'Korf100/pdb771/threads=1' > new.txt`, why: "one configuration, once: six runs of every one take 2 minutes"},
	{match: `--config manhattan\+prune=2\+order=ULRD\+jobs=2`, as: `bench --config manhattan+prune=2+order=ULRD+jobs=2 --out korf1985 --ids 12,55`, why: "Korf's 100 under Manhattan distance take hours: two of them"},
	{match: `^deploy/slurm/solve\.sh k24\.txt 64`, as: `deploy/local/solve.sh k24.txt 64 --goal first --pdb-dir /shared/pdb > k24.jsonl`, why: "the cluster's driver, run by the local one (deploy/slurm/test.sh runs Slurm's)", want: []string{"solved 1 of 1: 96 moves"}, tools: []string{"jq"}, five: true},
	{match: `--set korf50 --ids 1 --checkpoint k1\.json +# Ctrl-C`, as: "timeout --preserve-status -s INT 8 solve --set korf50 --ids 1 --checkpoint k1.json", why: "Ctrl-C after a while: after 8 s", status: 1, want: []string{"interrupted"}, five: true},

	// What the text around them says.
	{match: `^solve --korf100 +#|^solve --korf100$`, want: []string{"solved 100 of 100"}},
	{match: `--set korf50 --ids 38 +# 96 moves`, want: []string{"96 moves"}, five: true},
	{match: `--set korf50 --ids 30 -t 1 -j 1 --contour$`, want: []string{"92 moves"}, five: true}, // experiments.md's node rate: 18 s
	{match: `--set korf50 --ids 38 --checkpoint k\.json`, want: []string{"96 moves"}, five: true},
	{match: `--set korf50 --ids 1 --checkpoint k1\.json --resume`, want: []string{"solved 1 of 1"}, five: true},
	{match: `--set korf50 --ids 38 +# unpacks`, want: []string{"96 moves"}, five: true},
	{match: `^pdbgen --size 5x5( --pdb-dir /shared/pdb)? *(#|$)`, want: []string{"already built"}, five: true}, // in /shared/pdb, not a directory of its own
	{match: `^pdbgen --size 5x5 --check`, five: true},
	{match: `--gif docs/solution\.gif`, want: []string{"30 moves"}, same: "docs/solution.gif"},
	{match: `ref663`, tools: []string{"cc"}},
	{match: `--config pdb:663,pdb:771`, before: []string{"pdbgen --partition 663"}},
}

// TestExamples runs every shell example of README.md and docs/*.md, and
// every Examples line of the commands' --help, as written, and checks
// what each prints against the text around it (issue 67: README's play
// example failed, and the cluster's named a file no one had). The
// commands are built once; `go run ./cmd/NAME` runs that build. Each
// document's examples run in order, in a copy of the repository, where a
// path under /shared (a cluster's shared file system) or /tmp is in a
// directory of the test's, /shared/pdb the databases' directory of the
// tests (FIFTEEN_PDB_DIR, else the user cache directory's). The
// terminal game runs in tmux, until q; a web server runs in the
// background for the examples after it, on a port of its own. The rules
// above say which examples run otherwise, and why. Those that search 5×5
// boards run where the 5×5 databases are built (pdbgen --size 5x5
// --check): their build takes minutes, more than a package's tests may
// (go test's 10), and .ci/run builds them before the tests. An example
// that is the same command as one run before is not run again.
func TestExamples(t *testing.T) {
	testtool.SkipUnlessLong(t, "runs every example of the docs: minutes")
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	env := newRunner(t, root)
	env.checkHeadline(t)
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	used := map[int]bool{}
	for _, doc := range append([]string{filepath.Join(root, "README.md")}, docs...) {
		examples, err := markdownExamples(doc, root)
		if err != nil {
			t.Fatal(err)
		}
		env.runAll(t, filepath.Base(doc), examples, used)
	}
	for _, name := range []string{"solve", "pdbgen", "bench", "play", "web"} {
		env.runAll(t, name+" --help", env.helpExamples(t, name), used)
	}
	for i, r := range rules {
		if !used[i] {
			t.Errorf("the rule for %q matches no example: remove it", r.match)
		}
	}
}

// markdownExamples returns the commands of a Markdown file's sh blocks.
func markdownExamples(path, root string) ([]example, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rel, _ := filepath.Rel(root, path)
	var examples []example
	in, prompts := false, false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case line == "```sh":
			in, prompts = true, false
		case !in:
		case line == "```":
			in = false
		case strings.HasPrefix(line, "$ "):
			prompts = true
			examples = append(examples, example{where: fmt.Sprintf("%s:%d", rel, n), cmd: line[2:]})
		case prompts:
			last := &examples[len(examples)-1]
			last.shown = append(last.shown, line)
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
		case len(examples) > 0 && strings.HasSuffix(examples[len(examples)-1].cmd, `\`):
			last := &examples[len(examples)-1]
			last.cmd = strings.TrimSuffix(last.cmd, `\`) + " " + strings.TrimSpace(line)
		default:
			examples = append(examples, example{where: fmt.Sprintf("%s:%d", rel, n), cmd: line})
		}
	}
	return examples, sc.Err()
}

// runner runs the examples: the commands built into bin, a copy of the
// repository for each document or help, a directory that stands for
// /shared, and the web server of a document's examples, if one runs.
type runner struct {
	root, bin, shared string
	env               []string
	five              string            // why the 5×5 examples are not run, if they are not
	ran               map[string]bool   // the commands run so far, without their comments
	server            *exec.Cmd         // the web server running, if any
	port              string            // the web examples' port, in place of 8080
	paths             *strings.Replacer // /shared/ and /tmp/ to directories of the test's
}

func newRunner(t *testing.T, root string) *runner {
	r := &runner{root: root, bin: t.TempDir(), shared: t.TempDir(), ran: map[string]bool{}}
	// One pass: the directory that /shared/ becomes is under /tmp/ too.
	r.paths = strings.NewReplacer("/shared/", r.shared+"/", "/tmp/", r.shared+"/tmp/")
	build := exec.Command("go", "build", "-o", r.bin, "./cmd/...")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The tests' databases: where the commands' default puts them, unless
	// FIFTEEN_PDB_DIR says otherwise; /shared/pdb is that directory too.
	pdbDir := os.Getenv("FIFTEEN_PDB_DIR")
	if pdbDir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			t.Skip("no user cache directory for the databases:", err)
		}
		pdbDir = filepath.Join(cache, "fifteen")
	}
	if err := os.Symlink(pdbDir, filepath.Join(r.shared, "pdb")); err != nil {
		t.Fatal(err)
	}
	r.env = append(os.Environ(), "PATH="+r.bin+string(os.PathListSeparator)+os.Getenv("PATH"), "FIFTEEN_PDB_DIR="+pdbDir, "FIFTEEN_SOLVE="+filepath.Join(r.bin, "solve"))
	t.Cleanup(r.stopServer)
	check := exec.Command(filepath.Join(r.bin, "pdbgen"), "--size", "5x5", "--check")
	check.Env = r.env
	if out, err := check.CombinedOutput(); err != nil {
		r.five = fmt.Sprintf("the 5x5 databases are not built (pdbgen --size 5x5: 3–4 minutes, which .ci/run takes before the tests): %s", bytes.TrimSpace(out))
	}
	return r
}

// helpExamples returns the Examples lines of the command's --help.
func (r *runner) helpExamples(t *testing.T, name string) []example {
	out, err := exec.Command(filepath.Join(r.bin, name), "--help").Output()
	if err != nil {
		t.Fatalf("%s --help: %v", name, err)
	}
	_, text, _ := strings.Cut(string(out), "\nExamples:\n")
	text, _, _ = strings.Cut(text, "\n\n")
	var examples []example
	for line := range strings.Lines(text) {
		examples = append(examples, example{where: name + " --help", cmd: strings.TrimSpace(line)})
	}
	return examples
}

// runAll runs one document's examples in order, in a copy of the
// repository, marking the rules they use.
func (r *runner) runAll(t *testing.T, doc string, examples []example, used map[int]bool) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(r.root)); err != nil {
		t.Fatal(err)
	}
	for _, e := range examples {
		cmd := regexp.MustCompile(`go run \./cmd/(\w+)`).ReplaceAllString(e.cmd, "$1")
		rule, i := ruleFor(t, e, cmd)
		if i >= 0 {
			used[i] = true
		}
		t.Run(doc+"/"+e.cmd, func(t *testing.T) {
			switch {
			case rule.skip != "":
				t.Skipf("%s: %s", e.where, rule.skip)
			case rule.five && r.five != "":
				t.Skipf("%s: %s", e.where, r.five)
			}
			for _, tool := range rule.tools {
				testtool.Need(t, "", tool)
			}
			if rule.as != "" {
				t.Logf("%s: run as %q: %s", e.where, rule.as, rule.why)
				cmd = rule.as
			}
			bare := uncomment(cmd)
			if r.ran[bare] && !strings.HasPrefix(cmd, "web") {
				t.Skipf("%s: the same command as one run above", e.where)
			}
			r.ran[bare] = true
			for _, b := range rule.before {
				r.run(t, e, dir, b, rule)
			}
			r.run(t, e, dir, cmd, rule)
		})
	}
	r.stopServer()
}

// ruleFor returns the rule that matches the command, and its index, or
// the zero rule and -1.
func ruleFor(t *testing.T, e example, cmd string) (rule, int) {
	found := -1
	for i, r := range rules {
		if regexp.MustCompile(r.match).MatchString(cmd) {
			if found >= 0 {
				t.Errorf("%s: %q: matched by the rules for %q and %q", e.where, e.cmd, rules[found].match, r.match)
				return rule{skip: "matched by two rules"}, found
			}
			found = i
		}
	}
	if found < 0 {
		return rule{}, -1
	}
	return rules[found], found
}

// uncomment returns the command without its comment.
func uncomment(cmd string) string {
	return regexp.MustCompile(`\s+# .*$`).ReplaceAllString(cmd, "")
}

// run runs one command of an example in dir, and checks its exit status
// and output against the example's text and its rule.
func (r *runner) run(t *testing.T, e example, dir, cmd string, rl rule) {
	cmd = r.paths.Replace(uncomment(cmd))
	switch {
	case strings.HasPrefix(cmd, "play"):
		r.play(t, e, dir, cmd)
		return
	case strings.HasPrefix(cmd, "web"):
		r.startServer(t, e, dir, cmd)
		return
	case r.port != "":
		cmd = strings.ReplaceAll(cmd, "8080", r.port)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, "bash", "-c", cmd)
	c.Dir, c.Env = dir, r.env
	out, err := c.CombinedOutput()
	status := 0
	if exit, ok := err.(*exec.ExitError); ok {
		status = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %s: %v", e.where, cmd, err)
	}
	if status != rl.status {
		t.Errorf("%s: %s: exit status %d, want %d\n%s", e.where, cmd, status, rl.status, tail(out))
	}
	for _, w := range rl.want {
		if !bytes.Contains(out, []byte(w)) {
			t.Errorf("%s: %s: %q not in its output, as the text says\n%s", e.where, cmd, w, tail(out))
		}
	}
	if rl.same != "" {
		got, err1 := os.ReadFile(filepath.Join(dir, rl.same))
		want, err2 := os.ReadFile(filepath.Join(r.root, rl.same))
		if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %s: %s is not the repository's (%v, %v)", e.where, cmd, rl.same, err1, err2)
		}
	}
	for _, shown := range e.shown {
		if !slices.Contains(strings.Split(mask(string(out)), "\n"), mask(shown)) {
			t.Errorf("%s: %s: the docs show %q, not in its output\n%s", e.where, cmd, shown, tail(out))
		}
	}
}

// mask writes the figures that change from run to run, times and rates,
// as #.
func mask(s string) string {
	return regexp.MustCompile(`[0-9]+(\.[0-9]+)? (s|Mnodes/s)\b`).ReplaceAllString(s, "# $2")
}

// tail returns the end of a command's output, for a message.
func tail(out []byte) string {
	if len(out) > 2000 {
		return "…" + string(out[len(out)-2000:])
	}
	return string(out)
}

// play runs the terminal game in tmux until its board shows, then quits
// it with q: it must start and end with status 0.
func (r *runner) play(t *testing.T, e example, dir, cmd string) {
	testtool.Need(t, "apt-get install tmux", "tmux")
	socket := fmt.Sprintf("fifteen-examples-%d-%d", os.Getpid(), time.Now().UnixNano()) // a server of its own
	status := filepath.Join(t.TempDir(), "status")
	tmux := func(args ...string) string {
		out, err := exec.Command("tmux", append([]string{"-L", socket}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	script := fmt.Sprintf("cd %q && PATH=%q FIFTEEN_PDB_DIR=%q %s; echo $? >%q", dir, r.bin+":"+os.Getenv("PATH"), envValue(r.env, "FIFTEEN_PDB_DIR"), cmd, status)
	tmux("new-session", "-d", "-x", "100", "-y", "30", "bash", "-c", script+"; sleep 60")
	defer exec.Command("tmux", "-L", socket, "kill-server").Run()
	screen := ""
	for deadline := time.Now().Add(time.Minute); !strings.Contains(screen, "Moves: 0"); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s: the board never showed:\n%s", e.where, cmd, screen)
		}
		screen = tmux("capture-pane", "-p")
	}
	tmux("send-keys", "q")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if data, err := os.ReadFile(status); err == nil {
			if got := strings.TrimSpace(string(data)); got != "0" {
				t.Errorf("%s: %s: exit status %s after q", e.where, cmd, got)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s: q did not quit", e.where, cmd)
		}
	}
}

// envValue returns the value of the variable name in env.
func envValue(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, _ := strings.Cut(kv, "="); k == name {
			v = val
		}
	}
	return v
}

// startServer starts the web server of an example on a port of its own,
// for the examples after it, and waits until it answers.
func (r *runner) startServer(t *testing.T, e example, dir, cmd string) {
	r.stopServer()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, r.port, _ = net.SplitHostPort(l.Addr().String())
	l.Close()
	cmd = strings.ReplaceAll(cmd, "8080", r.port)
	if !strings.Contains(cmd, "--addr") {
		cmd += " --addr localhost:" + r.port
	}
	r.server = exec.Command("bash", "-c", "exec "+cmd)
	r.server.Dir, r.server.Env = dir, r.env
	var log bytes.Buffer
	r.server.Stdout, r.server.Stderr = &log, &log
	if err := r.server.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get("http://localhost:" + r.port + "/healthz"); err == nil {
			resp.Body.Close()
			return
		}
		if time.Now().After(deadline) || r.server.ProcessState != nil {
			t.Fatalf("%s: %s: the server never answered\n%s", e.where, cmd, log.String())
		}
	}
}

// stopServer stops the web server, if one runs.
func (r *runner) stopServer() {
	if r.server != nil {
		r.server.Process.Signal(os.Interrupt)
		r.server.Wait()
		r.server, r.port = nil, ""
	}
}

// checkHeadline checks README's count of Korf's 100 on one thread against
// solve's (issue 67: README said 3,912,362, solve 3,707,470).
func (r *runner) checkHeadline(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(r.root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`Korf's 100 on one thread: ([0-9,]+) nodes generated`).FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md gives no count of Korf's 100 on one thread")
	}
	c := exec.Command(filepath.Join(r.bin, "solve"), "--korf100", "-t", "1", "-j", "1")
	c.Env = r.env
	out, err := c.CombinedOutput()
	if want := strings.ReplaceAll(string(m[1]), ",", "") + " nodes generated"; err != nil || !bytes.Contains(out, []byte(want)) {
		t.Errorf("README.md says Korf's 100 take %s nodes on one thread; solve --korf100 -t 1 -j 1: %v\n%s", m[1], err, tail(out))
	}
}
