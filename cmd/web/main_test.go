package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fifteen/pdb"
	"fifteen/solver"
)

// TestFlags refuses bad flags with status 2 and a message naming the flag.
func TestFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--timeout", "0s"}, "--timeout"},
		{[]string{"--max-solves", "0"}, "--max-solves"},
		{[]string{"--queue-wait", "-1s"}, "--queue-wait"},
		{[]string{"--grace", "-1s"}, "--grace"},
		{[]string{"--partition", "99"}, "99"},
		{[]string{"--partition", "1,2,3,4/5,6,7,8"}, "4x4 and 5x5"},
		{[]string{"--heuristic", "euclid"}, "euclid"},
		{[]string{"--no-such-flag"}, "no-such-flag"},
		{[]string{"extra"}, "extra"},
		{[]string{"--addr", "bogus:99999"}, `port "99999"`}, // issue 57: exit 1
		{[]string{"--addr", "nocolon"}, "missing port"},
		{[]string{"--partition", "663", "--heuristic", "manhattan"}, "only the pdb heuristic"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var stderr bytes.Buffer
			if status := run(context.Background(), c.args, io.Discard, &stderr, nil); status != 2 || !strings.Contains(stderr.String(), c.want) {
				t.Errorf("status %d, %q: want 2 and a message naming %s", status, stderr.String(), c.want)
			}
		})
	}
}

// TestHelp: --help says what web serves, its flags by group, examples and
// exit statuses, on standard output, and serves nothing.
func TestHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if status := run(context.Background(), []string{"--help"}, &stdout, &stderr, nil); status != 0 || stderr.Len() > 0 {
		t.Fatalf("status %d, %s", status, stderr.String())
	}
	for _, want := range []string{"web: serves the puzzle", "/api/solve", "Usage: web [flags]", "Serving:\n", "--max-solves", "Databases:\n", "--build-5x5", "Examples:\n", "Exit status:\n"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the help lacks %q:\n%s", want, stdout.String())
		}
	}
}

// TestShutdown serves on a free port, starts a search that would run for
// minutes (Manhattan distance on Korf's hardest instance), and stops the
// server: the search is stopped after --grace, the request answered 503,
// and run returns 0.
func TestShutdown(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	url, status, stderr := start(ctx, "--timeout", "1h", "--grace", "100ms")
	waitFor(t, "/healthz", func() bool {
		resp, err := http.Get(url + "/healthz")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil && resp.StatusCode == 200
	})
	answer := make(chan string, 1)
	go func() {
		resp, err := http.Post(url+"/api/solve", "application/json", strings.NewReader(`{"tiles": `+tilesJSON(korfHard.Tiles)+`, "goal": "first"}`))
		if err != nil {
			answer <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		answer <- resp.Status + " " + string(b)
	}()
	waitFor(t, "the search to start", func() bool {
		resp, err := http.Get(url + "/healthz")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		var h struct{ Searching int }
		return json.NewDecoder(resp.Body).Decode(&h) == nil && h.Searching == 1
	})
	t0 := time.Now()
	stop()
	if got := <-status; got != 0 {
		t.Errorf("status %d, want 0; stderr:\n%s", got, stderr.String())
	}
	if took := time.Since(t0); took > 5*time.Second {
		t.Errorf("shut down in %v, want about the grace period", took)
	}
	if a := <-answer; !strings.HasPrefix(a, "503") || !strings.Contains(a, "closed") {
		t.Errorf("the search's request got %q, want 503", a)
	}
}

// start runs the server on a free port with Manhattan distance and the
// flags, until ctx ends; it returns the server's address, where run's
// exit status will come, and its standard error.
func start(ctx context.Context, flags ...string) (url string, status chan int, stderr *bytes.Buffer) {
	addr := make(chan net.Addr, 1)
	status, stderr = make(chan int, 1), new(bytes.Buffer)
	go func() {
		status <- run(ctx, append([]string{"--addr", "localhost:0", "--heuristic", "manhattan"}, flags...), io.Discard, stderr, func(a net.Addr) { addr <- a })
	}()
	return "http://" + (<-addr).String(), status, stderr
}

// TestMaxConns serves with --max-conns 1 (netutil.LimitListener): a
// second client is answered once the first's connection, kept alive,
// closes and gives its slot back. (That the second waits meanwhile is
// netutil's to test: it can only be seen by waiting.)
func TestMaxConns(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	url, status, stderr := start(ctx, "--max-conns", "1")
	url += "/" // the page: served at once
	first := &http.Client{Transport: &http.Transport{}}
	resp, err := first.Get(url) // its connection stays open, idle in first's pool
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	second := make(chan error, 1)
	go func() {
		resp, err := (&http.Client{Transport: &http.Transport{}}).Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != 200 {
				err = errors.New(resp.Status)
			}
		}
		second <- err
	}()
	first.CloseIdleConnections()
	if err := <-second; err != nil {
		t.Errorf("the second client: %v", err)
	}
	stop()
	if got := <-status; got != 0 {
		t.Errorf("status %d; stderr:\n%s", got, stderr.String())
	}
}

// spec555 is a 5-5-5 partition, built in seconds, and not a default one.
const spec555 = "1,2,3,6,7/4,5,8,9,12/10,11,13,14,15"

// TestBuildOnFirstUse serves with databases still to build (the 5-5-5
// partition, under a policy that builds it): /healthz answers 503 until
// they are built, then 200, and a search is answered.
func TestBuildOnFirstUse(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	addr := make(chan net.Addr, 1)
	status := make(chan error, 1)
	var stderr bytes.Buffer
	cfg := &config{}
	cmd, check := flags(cfg)
	if err := errors.Join(cmd.Parse([]string{"--addr", "localhost:0", "--pdb-dir", t.TempDir(), "--partition", spec555}), check()); err != nil {
		t.Fatal(err)
	}
	cfg.solver.Build = pdb.BuildAny
	go func() {
		status <- serve(ctx, cfg, log.New(&stderr, "web: ", 0), func(a net.Addr) { addr <- a })
	}()
	defer func() {
		stop()
		if err := <-status; err != nil {
			t.Errorf("%v; stderr:\n%s", err, stderr.String())
		}
	}()
	url := "http://" + (<-addr).String()
	healthz := func() int {
		resp, err := http.Get(url + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := healthz(); got != http.StatusServiceUnavailable {
		t.Errorf("/healthz while building: %d, want 503", got)
	}
	waitFor(t, "the databases", func() bool { return healthz() == http.StatusOK })
	resp, err := http.Post(url+"/api/solve", "application/json", strings.NewReader(`{"tiles": `+tilesJSON(korf79.Tiles)+`, "goal": "first"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"length":42`) {
		t.Errorf("status %d, %s: want 42 moves", resp.StatusCode, b)
	}
}

// TestDatabaseFailure serves with a database directory that is a file:
// the databases cannot be built, and the server says why and exits 1.
func TestDatabaseFailure(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	status := run(context.Background(), []string{"--addr", "localhost:0", "--pdb-dir", file, "--partition", spec555}, io.Discard, &stderr, nil)
	if status != 1 || !strings.Contains(stderr.String(), file) {
		t.Errorf("status %d, stderr:\n%s", status, stderr.String())
	}
}

// TestNamedPartitionNotBuilt serves a named partition whose databases are
// missing: as solve, the server builds only the default ones on first
// use, and says how to build the others (pdbgen), and exits 1.
func TestNamedPartitionNotBuilt(t *testing.T) {
	dir := t.TempDir()
	var stderr bytes.Buffer
	status := run(context.Background(), []string{"--addr", "localhost:0", "--pdb-dir", dir, "--partition", spec555}, io.Discard, &stderr, nil)
	if status != 1 || !strings.Contains(stderr.String(), "go run ./cmd/pdbgen --partition "+spec555+" --pdb-dir "+dir) {
		t.Errorf("status %d, stderr:\n%s", status, stderr.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("%d files built in %s", len(entries), dir)
	}
}

// TestPartitionSizes gives --partition to the solver of its size, 4x4 or
// 5x5, and the other its default (issue 48: a 5x5 one was refused).
func TestPartitionSizes(t *testing.T) {
	for _, c := range []struct{ partition, four, five string }{
		{"", "", ""},
		{"663", "663", ""},
		{spec555, spec555, ""},
		{"6666x2", "", "6666x2"},
		{"6666x2+6666", "", "6666x2+6666"},
	} {
		four, five := split(solver.Config{Partition: c.partition})
		if four.Partition != c.four || five.Partition != c.five {
			t.Errorf("%q: 4x4 %q, 5x5 %q; want %q and %q", c.partition, four.Partition, five.Partition, c.four, c.five)
		}
	}
}

// TestFiveFailureLogged opens 5x5 databases that are not there: the log
// says so, and not only /healthz (issue 48).
func TestFiveFailureLogged(t *testing.T) {
	s, err := solver.New(solver.Config{Heuristic: "manhattan"})
	if err != nil {
		t.Fatal(err)
	}
	s5, err := solver.New(solver.Config{Dir: t.TempDir(), Build: pdb.NeverBuild})
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(s, s5, limits{timeout: time.Second, maxSolves: 1})
	defer srv.close()
	var logged bytes.Buffer
	srv.log = log.New(&logged, "", 0)
	if err := srv.prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logged.String(), "5x5 boards are solved constructively: the 6-6-6-6 databases are not in") {
		t.Errorf("log:\n%s", logged.String())
	}
}
