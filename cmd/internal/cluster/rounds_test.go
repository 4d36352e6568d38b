package cluster

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkIn checks that the work counted in a results directory grows
// with each subtree a share's checkpoint adds, each outcome and each round
// file, though the merge's why stays the same.
func TestWorkIn(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	last := workIn(dir)
	for _, step := range []struct{ name, text string }{
		{"puzzle-0/first-1.json", "{}"},
		{"puzzle-0/bound-55-0.checkpoint.json", `{"iterations":[{}],"tasks":[{"task":0}]}`},
		{"puzzle-0/bound-55-0.checkpoint.json", `{"iterations":[{}],"tasks":[{"task":0},{"task":1}]}`},
		{"batch-0.jsonl", "{}\n"},
		{"batch-0.checkpoint.json", `{"id":"a","checkpoint":{"iterations":[{},{}]}}`},
		{"batch-0.jsonl", "{}\n{}\n"},
	} {
		write(step.name, step.text)
		if work := workIn(dir); work <= last {
			t.Errorf("after %s %s: work %d, was %d", step.name, step.text, work, last)
		} else {
			last = work
		}
	}
}

// TestRoundsGuard runs deploy/rounds.sh's loop with a merge that says the
// same why each round: it goes on while status.json's work grows (issue
// 48: it gave up on tasks that made progress), and gives up after
// FIFTEEN_TRIES rounds that add none.
func TestRoundsGuard(t *testing.T) {
	for _, tool := range []string{"bash", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip("no", tool)
		}
	}
	script, err := filepath.Abs("../../../deploy/rounds.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		works  string // the work each round's merge reports, then done
		status string
	}{
		{"progress", "1 2 3 4 5 6", "0"},
		{"stuck", "1 2 2 2 2 9", "1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command("bash", "-c", `
source "$0"
works=($1) dir=$2
run() { :; }
merge() {
	local w=${works[$((round - 1))]:-}
	if [[ -z $w ]]; then
		echo '{"version":1,"state":"done","exit":0}' >"$dir/status.json"
	else
		echo '{"version":1,"state":"again","why":"korf3: bound 55: tasks [0] have not finished","exit":3,"work":'"$w"'}' >"$dir/status.json"
	fi
}
rounds "$2" run merge
echo "status $?"`, script, c.works, dir)
			cmd.Env = append(os.Environ(), "FIFTEEN_TRIES=3")
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.HasSuffix(string(out), "status "+c.status+"\n") {
				t.Errorf("%v\n%s", err, out)
			}
		})
	}
}

// TestLocalTaskCount checks that deploy/local/solve.sh refuses an N that
// is not a number of tasks, before it runs anything.
func TestLocalTaskCount(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	for _, n := range []string{"0", "-1", "abc", "1.5", "16385", "99999999999999999999"} {
		cmd := exec.Command("bash", "../../../deploy/local/solve.sh", "no-such-file", n)
		cmd.Env = append(os.Environ(), "FIFTEEN_SOLVE=/bin/false", "FIFTEEN_RESULTS="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 2 || !strings.Contains(string(out), "bad N") {
			t.Errorf("N %q: %v: %s", n, err, out)
		}
	}
}
