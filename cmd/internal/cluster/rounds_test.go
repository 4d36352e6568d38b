package cluster

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fifteen/internal/seal"
	"fifteen/internal/testtool"
)

// TestWorkIn checks that the work counted in a results directory grows
// with each subtree a share's checkpoint adds, each outcome and each round
// file, though the merge's why stays the same.
func TestWorkIn(t *testing.T) {
	dir := t.TempDir()
	key, err := seal.LoadKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		t.Helper()
		path := filepath.Join(dir, name)
		var sealed []byte
		for line := range strings.Lines(text) {
			data, err := key.Seal([]byte(line))
			if err != nil {
				t.Fatal(err)
			}
			sealed = append(sealed, data...)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, sealed, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	last := workIn(dir, key)
	for _, step := range []struct{ name, text string }{
		{"puzzle-0/first-1.json", "{}"},
		{"puzzle-0/bound-55-0.checkpoint.json", `{"iterations":[{}],"done":{"runs":[0,1],"expanded":[1],"generated":[1],"next":[0]}}`},
		{"puzzle-0/bound-55-0.checkpoint.json", `{"iterations":[{}],"done":{"runs":[0,2],"expanded":[1,1],"generated":[1,1],"next":[0,0]}}`},
		{"batch-0.jsonl", "{}\n"},
		{"batch-0.checkpoint.json", `{"id":"a","checkpoint":{"iterations":[{},{}]}}`},
		{"batch-0.jsonl", "{}\n{}\n"},
	} {
		write(step.name, step.text)
		if work := workIn(dir, key); work <= last {
			t.Errorf("after %s %s: work %d, was %d", step.name, step.text, work, last)
		} else {
			last = work
		}
	}
}

// need skips the test without the tools, saying which is missing.
func need(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		testtool.Need(t, "", tool)
	}
}

// TestRoundsGuard runs deploy/rounds.sh's loop with a merge that says the
// same why each round: it goes on while status.json's work grows (issue
// 48: it gave up on tasks that made progress), and gives up after
// FIFTEEN_TRIES rounds that add none.
func TestRoundsGuard(t *testing.T) {
	need(t, "bash", "jq")
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

// TestRoundsMalformedStatus runs deploy/rounds.sh's loop on statuses that
// it cannot take: each is refused, with status 1 (issue 57: empty fields
// ran together and shifted the others, and an exit of 256 was 0).
func TestRoundsMalformedStatus(t *testing.T) {
	need(t, "bash", "jq")
	script, err := filepath.Abs("../../../deploy/rounds.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ status, want string }{
		{`{"version":1,"state":"done","exit":0}`, "status 0"},
		{`{"version":1,"state":"done","exit":256}`, "malformed status"},
		{`{"version":1,"state":"done","exit":-1}`, "malformed status"},
		{`{"version":1,"state":"done","exit":"0"}`, "malformed status"},
		{`{"version":1,"state":"again","why":"","work":3}`, "malformed status"},
		{`{"version":1,"state":"failed","exit":1,"why":""}`, "the job failed"},
		{`{"version":1,"exit":0}`, "state ''"},
	} {
		t.Run(c.status, func(t *testing.T) {
			cmd := exec.Command("bash", "-c", `
status=$1 dir=$2
source "$0"
run() { :; }
merge() { echo "$status" >"$dir/status.json"; }
rounds "$dir" run merge
echo "status $?"`, script, c.status, t.TempDir())
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), c.want) || c.want != "status 0" && !strings.HasSuffix(string(out), "status 1\n") {
				t.Errorf("%v\n%s", err, out)
			}
		})
	}
}

// TestLocalDriverArguments runs deploy/local/solve.sh with a solve that
// logs its arguments: a {} in the results directory's path, a flag or the
// file reaches each task as it is (issue 57: xargs -I made it the task's
// number, and task 0 wrote into another job's directory).
func TestLocalDriverArguments(t *testing.T) {
	need(t, "bash", "jq", "xargs", "seq")
	dir := t.TempDir()
	logs, fake := filepath.Join(dir, "args"), filepath.Join(dir, "solve")
	if err := os.Mkdir(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	// Each call logs its arguments in a file of its own, as the tasks run
	// two at a time; the merge says the job is done.
	script := `#!/bin/bash
printf '%s\n' "$@" >"$(mktemp "$LOGS/call.XXXXXX")"
for a; do [[ $a == --merge ]] && echo '{"version":1,"state":"done","exit":0}' >"$2/status.json"; done
exit 0
`
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(dir, "r{}")
	if err := os.WriteFile(filepath.Join(dir, "in{}.txt"), []byte("1 2 3 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "../../../deploy/local/solve.sh", filepath.Join(dir, "in{}.txt"), "2", "--label", "{}")
	cmd.Env = append(os.Environ(), "FIFTEEN_SOLVE="+fake, "FIFTEEN_RESULTS="+results, "LOGS="+logs)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	calls, err := os.ReadDir(logs)
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, c := range calls {
		data, err := os.ReadFile(filepath.Join(logs, c.Name()))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, string(data))
	}
	for _, k := range []string{"0", "1"} {
		task := strings.Join([]string{"--results", results, "--task", k + "/2", "--label", "{}", filepath.Join(dir, "in{}.txt")}, "\n") + "\n"
		if !slices.Contains(all, task) {
			t.Errorf("task %s's arguments not among %q", k, all)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "r0")); err == nil {
		t.Error("a task wrote into r0")
	}
}

// TestDriverWithoutJq runs deploy/local/solve.sh where jq is missing: it
// says so, and makes nothing (issue 57: it made the results directory, and
// cat complained of a merge.err no merge wrote).
func TestDriverWithoutJq(t *testing.T) {
	bin := t.TempDir()
	for _, tool := range []string{"bash", "dirname"} {
		if err := os.Symlink(testtool.Need(t, "", tool), filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	results := filepath.Join(t.TempDir(), "results")
	in := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(in, []byte("1 2 3 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(bin, "bash"), "../../../deploy/local/solve.sh", in, "2")
	cmd.Env = []string{"PATH=" + bin, "FIFTEEN_SOLVE=/bin/false", "FIFTEEN_RESULTS=" + results}
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 || !strings.Contains(string(out), "needs jq") || strings.Contains(string(out), "cat:") {
		t.Errorf("%v: %s", err, out)
	}
	if _, err := os.Stat(results); err == nil {
		t.Error("the results directory was made")
	}
}

// TestLocalTaskCount checks that deploy/local/solve.sh refuses an N that
// is not a number of tasks, before it runs anything.
func TestLocalTaskCount(t *testing.T) {
	need(t, "bash")
	for _, n := range []string{"0", "-1", "abc", "1.5", "16385", "99999999999999999999"} {
		cmd := exec.Command("bash", "../../../deploy/local/solve.sh", "no-such-file", n)
		cmd.Env = append(os.Environ(), "FIFTEEN_SOLVE=/bin/false", "FIFTEEN_RESULTS="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 2 || !strings.Contains(string(out), "bad N") {
			t.Errorf("N %q: %v: %s", n, err, out)
		}
	}
}

// TestSlurmDriverChecks runs deploy/slurm/solve.sh with fake Slurm tools:
// an input that is not there, a controller that does not answer, and an
// sbatch that submits nothing are each said at once, and leave no results
// directory in $HOME (issue 67: "job array  of 64 tasks", a missing input
// said last, and a directory left behind).
func TestSlurmDriverChecks(t *testing.T) {
	need(t, "bash", "jq")
	in := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(in, []byte("1 2 3 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, file, ping, sbatch string
		status                   int
		want                     string
	}{
		{"no input", filepath.Join(t.TempDir(), "k24.txt"), "is UP", "echo 7", 2, "k24.txt: no such file to read"},
		{"no controller", in, "is DOWN", "echo 7", 1, "Slurm's controller does not answer"},
		{"no job id", in, "is UP", "echo 'sbatch: error: Batch job submission failed' >&2; exit 1", 1, "sbatch gave no job id"},
		{"an empty job id", in, "is UP", "echo", 1, "sbatch gave no job id"},
	} {
		t.Run(c.name, func(t *testing.T) {
			bin, home := t.TempDir(), t.TempDir()
			for name, body := range map[string]string{"sbatch": c.sbatch, "squeue": "true", "scontrol": "echo 'Slurmctld(primary) at vm " + c.ping + "'"} {
				if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/bash\n"+body+"\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command("bash", "../../../deploy/slurm/solve.sh", c.file, "4")
			cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "HOME="+home, "FIFTEEN_SOLVE=/bin/false")
			out, err := cmd.CombinedOutput()
			left, _ := os.ReadDir(home)
			if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != c.status || !strings.Contains(string(out), c.want) || len(left) > 0 {
				t.Errorf("%v, %d left in $HOME: %s", err, len(left), out)
			}
		})
	}
}
