// Command web serves the puzzle in a browser, and a JSON API: play,
// shuffle, hints, optimal and constructive (row by row) solutions animated, GIFs.
//
// Usage:
//
//	web [--addr localhost:8080] [--timeout 10s] [--max-solves N] [--queue-wait 5s] [--pdb-dir DIR] [--partition P] [--build-5x5]
//
// It opens the pattern databases once, building missing ones (the page and
// /healthz show the build meanwhile), and shares them across requests.
// The 5×5 databases are opened when present, and built with --build-5x5;
// without them, 5×5 boards are solved constructively, row by row.
// SIGINT or SIGTERM shuts it down: the requests under way get --grace to
// finish, and then their searches are stopped.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"time"

	"golang.org/x/net/netutil"

	"fifteen/cmd/internal/cli"
	"fifteen/pdb"
	"fifteen/solver"
)

type config struct {
	addr     string
	solver   solver.Config
	build5x5 bool
	limits
	maxConns int
	grace    time.Duration
}

func main() {
	ctx, stop := cli.Context()
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil))
}

// flags defines web's flags, stored in cfg, and returns their check.
func flags(cfg *config) (*cli.Command, func() error) {
	cmd := cli.NewCommand("web", "[flags]",
		"serves the puzzle in a browser, with hints and optimal or row-by-row solutions\n"+
			"animated, and the JSON API: /api/solve, /api/hint, /api/random, /api/solve.gif and\n"+
			"/healthz (docs/cli.md). Ctrl-C or SIGTERM shuts it down.")
	cmd.Hints = map[string]string{"port": "--addr"}
	cmd.Examples = `
  web                              # then open http://localhost:8080
  web --addr :8080 --max-solves 4  # on every interface, four searches at once
  web --build-5x5                  # 5x5 boards solved optimally too, once their databases are built`
	cmd.Exits = `
  0  shut down by Ctrl-C or SIGTERM
  1  the address could not be listened on, or the databases could not be opened
  2  a bad flag`
	fs := cmd.FlagSet
	cmd.Group("Serving")
	fs.StringVar(&cfg.addr, "addr", "localhost:8080", "address to listen on, `HOST:PORT` (:8080 for every interface)")
	fs.DurationVar(&cfg.timeout, "timeout", 10*time.Second, "longest search of one request (504 past it)")
	fs.IntVar(&cfg.maxSolves, "max-solves", runtime.NumCPU(), "searches run at once, one thread each")
	fs.DurationVar(&cfg.queueWait, "queue-wait", 5*time.Second, "longest wait of a request for a search slot (503 past it)")
	fs.IntVar(&cfg.maxConns, "max-conns", 1024, "connections open at once; past them new ones wait")
	fs.DurationVar(&cfg.grace, "grace", 5*time.Second, "on SIGINT or SIGTERM, how long the requests under way may finish before their searches are stopped")
	cmd.Group("Databases")
	fs.BoolVar(&cfg.build5x5, "build-5x5", false, "build the 5x5 databases if missing (minutes, once): without them, 5x5 boards are solved constructively, row by row")
	cli.SolverFlags(fs, &cfg.solver)
	fs.Lookup("partition").Usage = cli.NamedSizesPartitionHelp + "; the other size's boards are searched with its default"
	return cmd, func() error {
		switch {
		case fs.NArg() > 0:
			return fmt.Errorf("unexpected argument %q", fs.Arg(0))
		case cfg.timeout <= 0:
			return fmt.Errorf("--timeout %v: want above 0", cfg.timeout)
		case cfg.maxSolves < 1:
			return fmt.Errorf("--max-solves %d: want at least 1", cfg.maxSolves)
		case cfg.queueWait < 0:
			return fmt.Errorf("--queue-wait %v: want 0 or more", cfg.queueWait)
		case cfg.maxConns < 1:
			return fmt.Errorf("--max-conns %d: want at least 1", cfg.maxConns)
		case cfg.grace < 0:
			return fmt.Errorf("--grace %v: want 0 or more", cfg.grace)
		}
		if err := checkAddr(cfg.addr); err != nil {
			return err
		}
		if err := cfg.solver.Validate(); err != nil {
			return err
		}
		if p := cfg.solver.Partition; p != "" && !cfg.solver.Fits(size4) && !cfg.solver.Fits(size5) {
			return fmt.Errorf("--partition %s: the page searches 4x4 and 5x5 boards with databases; want a partition of either", p)
		}
		return nil
	}
}

// checkAddr reports an --addr that is no HOST:PORT with a port number
// (a usage error, where a host that cannot be listened on is found only
// by the listen).
func checkAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err == nil {
		if _, perr := strconv.ParseUint(port, 10, 16); perr != nil && !isService(port) {
			err = fmt.Errorf("port %q: want a number from 0 to 65535", port)
		}
	}
	if err != nil {
		return fmt.Errorf("--addr %s: %v", addr, err)
	}
	return nil
}

// isService reports whether port names a service, such as "http".
func isService(port string) bool {
	_, err := net.LookupPort("tcp", port)
	return err == nil
}

// split returns the configurations of the 4x4 and the 5x5 solvers:
// --partition is the one size's, and the other keeps its default.
func split(c solver.Config) (four, five solver.Config) {
	four, five = c, c
	if !c.Fits(size4) && c.Fits(size5) {
		four.Partition = ""
	} else {
		five.Partition = ""
	}
	return four, five
}

// run serves until ctx ends and returns the exit status. When listening
// is not nil, it is told the address once the server listens (for tests,
// which ask for port 0).
func run(ctx context.Context, args []string, stdout, stderr io.Writer, listening func(net.Addr)) int {
	cfg := &config{}
	cmd, check := flags(cfg)
	if status, ok := cli.Parse(cmd, args, stdout, stderr, check); !ok {
		return status
	}
	logger := log.New(stderr, "web: ", log.LstdFlags)
	if err := serve(ctx, cfg, logger, listening); err != nil {
		logger.Print(cli.Explain(err))
		return 1
	}
	return 0
}

// serve serves the page and the API on cfg's address until ctx ends, and
// then shuts down within cfg's grace period.
func serve(ctx context.Context, cfg *config, logger *log.Logger, listening func(net.Addr)) error {
	srv, err := openServer(cfg, logger)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		srv.close()
		return err
	}
	logger.Printf("serving http://%s", ln.Addr())
	if listening != nil {
		listening(ln.Addr())
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok {
		srv.anyHost = !tcp.IP.IsLoopback()
	}
	return serveOn(ctx, srv, ln, cfg, logger)
}

// openServer returns the server, with its two solvers: the 4×4 one,
// which serves the boards of every other size too, and the 5×5 one,
// which builds its databases only with --build-5x5. What their builds
// report goes to the page's status.
func openServer(cfg *config, logger *log.Logger) (*server, error) {
	var srv *server
	cfg.solver.Progress = func(p pdb.Progress) {
		srv.setOpening(size4, opening{Status: "building the pattern databases: " + p.String(), Pending: true})
	}
	cfg.solver.Log = func(s string) { logger.Print(s) }
	four, five := split(cfg.solver)
	five.Progress = func(p pdb.Progress) {
		srv.setOpening(size5, opening{Status: "building the 5x5 databases: " + p.String(), Pending: true})
	}
	if !cfg.build5x5 {
		five.Build = pdb.NeverBuild
	}
	s, err := solver.New(four)
	if err != nil {
		return nil, err
	}
	s5, err := solver.New(five)
	if err != nil {
		s.Close()
		return nil, err
	}
	srv = newServer(s, s5, cfg.limits)
	srv.log = logger
	return srv, nil
}

// serveOn serves srv on ln while the databases open, until ctx ends or
// they fail to open (not stopped by ctx): that failure shuts the server
// down and is its error.
func serveOn(ctx context.Context, srv *server, ln net.Listener, cfg *config, logger *log.Logger) error {
	// A client may not hold a connection, idle or sending slowly, for
	// ever, nor open more than the cap: the others would find none.
	httpSrv := &http.Server{
		Handler:           srv.handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       time.Minute,
		ErrorLog:          logger,
	}
	ln = netutil.LimitListener(ln, cfg.maxConns) // past the cap, Accept waits for a connection to close
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var failed error
	prepared := make(chan struct{})
	go func() {
		defer close(prepared)
		if err := srv.prepare(ctx); err != nil && ctx.Err() == nil {
			failed = err
			cancel()
		}
	}()
	served := make(chan error, 1)
	go func() { served <- httpSrv.Serve(ln) }()
	select {
	case err := <-served:
		srv.close()
		<-prepared
		return err
	case <-ctx.Done():
	}
	logger.Print("shutting down")
	closeErr := shutdown(httpSrv, srv, cfg.grace)
	<-prepared
	if failed == nil && !errors.Is(closeErr, solver.ErrClosed) {
		failed = closeErr
	}
	return failed
}

// shutdown gives the requests under way the grace period; then Close
// stops their searches, which answer 503 at once, and the server closes.
// It returns the error of closing srv.
func shutdown(httpSrv *http.Server, srv *server, grace time.Duration) error {
	graceCtx, stop := context.WithTimeout(context.Background(), grace)
	defer stop()
	if httpSrv.Shutdown(graceCtx) != nil {
		srv.close()
		shortCtx, stop := context.WithTimeout(context.Background(), time.Second)
		defer stop()
		if httpSrv.Shutdown(shortCtx) != nil {
			httpSrv.Close()
		}
	}
	return srv.close()
}
