package main

import (
	"bytes"
	"cmp"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fifteen/bitboard"
	"fifteen/construct"
	"fifteen/internal/record"
	"fifteen/render"
	"fifteen/search"
	"fifteen/solver"
)

// maxBody bounds a request's body: a 255-cell puzzle is well under it.
const maxBody = 64 << 10

//go:embed static
var static embed.FS

// limits are the server's bounds on the work a request may ask for.
type limits struct {
	timeout   time.Duration // one search's
	maxSolves int           // searches at once
	queueWait time.Duration // a request's wait for a search slot
}

// server answers the page and the API from one solver.
type server struct {
	solver *solver.Solver
	limits
	log       *log.Logger   // internal errors; nil drops them
	slots     chan struct{} // a search, or a GIF's drawing, holds one
	searching atomic.Int64  // the slots held, for /healthz

	mu     sync.Mutex
	ready  bool   // the 4×4 databases are open: until then 4×4 searches get 503
	status string // what opening them does now, or why it failed
}

func newServer(s *solver.Solver, l limits) *server {
	return &server{solver: s, limits: l, slots: make(chan struct{}, l.maxSolves), status: "opening the pattern databases"}
}

// setStatus records what opening the databases does, for /healthz and the
// page; ready says they are open.
func (s *server) setStatus(status string, ready bool) {
	s.mu.Lock()
	s.status, s.ready = status, ready
	s.mu.Unlock()
}

func (s *server) state() (status string, ready bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status, s.ready
}

// size4 is the board whose databases are files, built on first use; the
// other sizes' are built in memory in a second or two.
var size4 = bitboard.Size{Rows: 4, Cols: 4}

// prepare opens the 4×4 databases, building missing ones; the solver's
// Progress callback reports the build through setStatus.
func (s *server) prepare(ctx context.Context) error {
	for _, goal := range []bitboard.Goal{bitboard.GoalLast, bitboard.GoalFirst} {
		if err := s.solver.Prepare(ctx, size4, goal); err != nil {
			s.setStatus(err.Error(), false)
			return err
		}
	}
	s.setStatus("ready", true)
	return nil
}

func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	// The page's files each have a route, so that a GET of an API path
	// is 405, not a missing file.
	files, _ := fs.Sub(static, "static") // the directory is embedded
	serveFiles := http.FileServerFS(files)
	mux.Handle("GET /{$}", serveFiles)
	entries, _ := fs.ReadDir(files, ".")
	for _, e := range entries {
		mux.Handle("GET /"+e.Name(), serveFiles)
	}
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.Handle("POST /api/solve", s.answer(s.solveJSON))
	mux.Handle("POST /api/hint", s.answer(s.hint))
	mux.Handle("GET /api/random", s.answer(s.random))
	mux.Handle("GET /api/solve.gif", s.answer(s.gif))
	return mux
}

// answer adapts an API handler that returns its error, answered by
// writeError; an internal error is logged, unless the client went away.
func (s *server) answer(h func(http.ResponseWriter, *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil && writeError(w, err) == http.StatusInternalServerError && r.Context().Err() == nil && s.log != nil {
			s.log.Printf("%s %s: %v", r.Method, r.URL, err)
		}
	}
}

// apiError is an answer other than 200: its status and the JSON error
// body, with the search's counts when a search ran.
type apiError struct {
	status int
	err    error
	record *record.Record
}

func (e *apiError) Error() string { return e.err.Error() }

func fail(status int, format string, args ...any) *apiError {
	return &apiError{status: status, err: fmt.Errorf(format, args...)}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// writeError answers err: an *apiError with its status, anything else
// (a bug) with 500. It returns the status.
func writeError(w http.ResponseWriter, err error) int {
	var e *apiError
	if !errors.As(err, &e) {
		e = &apiError{status: http.StatusInternalServerError, err: err}
	}
	if e.status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	if e.record != nil {
		writeJSON(w, e.status, e.record)
	} else {
		writeJSON(w, e.status, map[string]string{"error": e.err.Error()})
	}
	return e.status
}

func (s *server) healthz(w http.ResponseWriter, r *http.Request) {
	status, ready := s.state()
	code := http.StatusOK
	if !ready {
		code = http.StatusServiceUnavailable
		w.Header().Set("Retry-After", "5")
	}
	writeJSON(w, code, map[string]any{"status": status, "ready": ready, "searching": s.searching.Load()})
}

// request is a puzzle as the API takes it.
type request struct {
	ID     string  `json:"id"`
	Tiles  []int   `json:"tiles"`
	Size   string  `json:"size"`
	Goal   string  `json:"goal"`
	Mode   string  `json:"mode"`
	Weight float64 `json:"weight"`
}

// decode reads a JSON request body of at most maxBody bytes.
func decode(w http.ResponseWriter, r *http.Request) (*request, error) {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.DisallowUnknownFields()
	var req request
	if err := dec.Decode(&req); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, fail(http.StatusRequestEntityTooLarge, "the body is over %d bytes", maxBody)
		}
		return nil, fail(http.StatusBadRequest, "malformed JSON: %v", err)
	}
	if dec.More() {
		return nil, fail(http.StatusBadRequest, "malformed JSON: more than one value")
	}
	return &req, nil
}

// parse checks the request and returns the puzzle and the options that
// solve it: 400 for a malformed puzzle or option, 422 for an unsolvable
// puzzle, or one too large for the mode.
func (req *request) parse(l limits) (solver.Puzzle, solver.Options, error) {
	opts := solver.Options{Weight: req.Weight, Timeout: l.timeout, Threads: 1}
	p := solver.Puzzle{ID: req.ID, Tiles: req.Tiles}
	var err error
	if opts.Goal, err = parseGoal(req.Goal); err != nil {
		return p, opts, err
	}
	switch req.Mode {
	case "", "optimal":
		opts.Mode = solver.Optimal
	case "weighted":
		opts.Mode = solver.Weighted
	case "human":
		opts.Mode = solver.Human
	default:
		return p, opts, fail(http.StatusBadRequest, "mode %q: want optimal, weighted or human", req.Mode)
	}
	if err := opts.Validate(); err != nil {
		return p, opts, fail(http.StatusBadRequest, "%v", err)
	}
	if p.Size, err = parseSize(req.Size, len(req.Tiles)); err != nil {
		return p, opts, err
	}
	if err := check(p, opts); err != nil {
		return p, opts, err
	}
	return p, opts, nil
}

func parseGoal(s string) (bitboard.Goal, error) {
	if s == "" {
		return bitboard.GoalLast, nil
	}
	g, err := bitboard.ParseGoal(s)
	if err != nil {
		return g, fail(http.StatusBadRequest, "%v", err)
	}
	return g, nil
}

// parseSize parses a size, or, when s is empty, takes the square board
// of n cells.
func parseSize(s string, n int) (bitboard.Size, error) {
	if s == "" {
		side := int(math.Sqrt(float64(n)))
		if side*side != n {
			return bitboard.Size{}, fail(http.StatusBadRequest, "no size given, and %d tiles make no square board", n)
		}
		s = strconv.Itoa(side)
	}
	size, err := bitboard.ParseSizeUpTo(s, construct.MaxCells)
	if err != nil {
		return size, fail(http.StatusBadRequest, "%v", err)
	}
	return size, nil
}

// maxSearchCells bounds the boards the server searches: those its 4×4
// databases serve. A 5×5 search takes minutes to hours (solve does them),
// far past a request's timeout.
const maxSearchCells = 16

// check reports a malformed puzzle (400), or one that cannot be solved in
// the mode (422), before the request waits for a search slot.
func check(p solver.Puzzle, opts solver.Options) error {
	var err error
	solvable := false
	if p.Size.Cells() <= bitboard.MaxCells {
		var b bitboard.Board
		b, err = bitboard.New(p.Size, p.Tiles)
		solvable = err == nil && b.Solvable(opts.Goal)
	} else {
		g := construct.Grid{Rows: p.Size.Rows, Cols: p.Size.Cols, Tiles: p.Tiles}
		err = g.Check()
		solvable = err == nil && g.Solvable(opts.Goal)
	}
	switch {
	case err != nil:
		return fail(http.StatusBadRequest, "%v", err)
	case !solvable:
		return fail(http.StatusUnprocessableEntity, "%v", bitboard.ErrUnsolvable)
	case opts.Mode != solver.Human && p.Size.Cells() > maxSearchCells:
		return fail(http.StatusUnprocessableEntity, "a %v board: the %v mode solves boards of up to %d cells here, the human mode any size", p.Size, opts.Mode, maxSearchCells)
	}
	return nil
}

// acquire waits for a search slot, at most queueWait (503), and returns
// the function that frees it.
func (s *server) acquire(ctx context.Context) (release func(), err error) {
	wait := time.NewTimer(s.queueWait)
	defer wait.Stop()
	select {
	case s.slots <- struct{}{}:
		s.searching.Add(1)
		return func() {
			s.searching.Add(-1)
			<-s.slots
		}, nil
	case <-wait.C:
		return nil, fail(http.StatusServiceUnavailable, "all %d search slots stayed busy for %v", s.maxSolves, s.queueWait)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// run solves a checked puzzle. A search waits for a slot (see acquire),
// and runs at most the timeout (504, with its counts); the human mode,
// instant, needs no slot. A client that goes away stops it.
func (s *server) run(ctx context.Context, p solver.Puzzle, opts solver.Options) (solver.Result, error) {
	if opts.Mode != solver.Human {
		if status, ready := s.state(); !ready && p.Size == size4 {
			return solver.Result{}, fail(http.StatusServiceUnavailable, "the pattern databases are not open yet: %s", status)
		}
		release, err := s.acquire(ctx)
		if err != nil {
			return solver.Result{}, err
		}
		defer release()
	}
	res, err := s.solver.Solve(ctx, p, opts)
	switch {
	case err == nil:
		return res, nil
	case errors.Is(err, context.DeadlineExceeded):
		rec := record.New(&res, err, opts)
		return res, &apiError{status: http.StatusGatewayTimeout, err: err, record: &rec}
	case errors.Is(err, solver.ErrClosed):
		return res, &apiError{status: http.StatusServiceUnavailable, err: err}
	case errors.Is(err, bitboard.ErrUnsolvable):
		return res, &apiError{status: http.StatusUnprocessableEntity, err: err}
	}
	var dbErr *solver.DatabaseError
	if errors.As(err, &dbErr) {
		return res, &apiError{status: http.StatusServiceUnavailable, err: err}
	}
	return res, err
}

// solve parses the request, checks it, and solves it (see run).
func (s *server) solve(ctx context.Context, req *request) (solver.Result, solver.Options, error) {
	p, opts, err := req.parse(s.limits)
	if err != nil {
		return solver.Result{}, opts, err
	}
	res, err := s.run(ctx, p, opts)
	return res, opts, err
}

func (s *server) solveJSON(w http.ResponseWriter, r *http.Request) error {
	req, err := decode(w, r)
	if err != nil {
		return err
	}
	res, opts, err := s.solve(r.Context(), req)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, record.New(&res, nil, opts))
	return nil
}

// hintAnswer is /api/hint's: the first move of a solution, the tile it
// slides, and the solution's length; optimal unless the board is too large
// for the databases, when the human mode gives them.
type hintAnswer struct {
	Move     string `json:"move"`
	Tile     int    `json:"tile"`
	Distance int    `json:"distance"`
	Optimal  bool   `json:"optimal"`
}

func (s *server) hint(w http.ResponseWriter, r *http.Request) error {
	req, err := decode(w, r)
	if err != nil {
		return err
	}
	if req.Mode != "" || req.Weight != 0 {
		return fail(http.StatusBadRequest, "a hint takes no mode or weight: it is optimal where the databases serve the board")
	}
	if size, err := parseSize(req.Size, len(req.Tiles)); err == nil && size.Cells() > maxSearchCells {
		req.Mode = "human"
	}
	res, _, err := s.solve(r.Context(), req)
	if err != nil {
		return err
	}
	ans := hintAnswer{Distance: res.Length(), Optimal: res.Optimal}
	if len(res.Moves) > 0 {
		ans.Move, ans.Tile = res.Moves[0].String(), res.Tiles[0]
	}
	writeJSON(w, http.StatusOK, ans)
	return nil
}

// randomAnswer is /api/random's.
type randomAnswer struct {
	Tiles []int  `json:"tiles"`
	Size  string `json:"size"`
	Goal  string `json:"goal"`
	Seed  uint64 `json:"seed"`
}

// random draws a uniformly random solvable position: with the seed of
// solve --random, the same position as that command's first.
func (s *server) random(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	size, err := parseSize(cmp.Or(q.Get("size"), "4x4"), 0)
	if err != nil {
		return err
	}
	goal, err := parseGoal(q.Get("goal"))
	if err != nil {
		return err
	}
	seed := rand.Uint64() >> 11 // exact in a JavaScript number
	if v := q.Get("seed"); v != "" {
		if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			return fail(http.StatusBadRequest, "seed %q: want a number from 0 to %d", v, uint64(math.MaxUint64))
		}
	}
	// As solve --random draws them.
	rng := rand.New(rand.NewPCG(seed, 0))
	var tiles []int
	if size.Cells() <= search.MaxCells {
		b, _ := bitboard.Random(rng, size, goal) // the size is valid
		tiles = b.Tiles()
	} else {
		g, _ := construct.Random(rng, size.Rows, size.Cols, goal)
		tiles = g.Tiles
	}
	writeJSON(w, http.StatusOK, randomAnswer{Tiles: tiles, Size: size.String(), Goal: goal.String(), Seed: seed})
	return nil
}

// gif answers a GIF of the solution of the puzzle in the query: tiles
// comma-separated, with size, goal, mode and weight as /api/solve takes
// them.
func (s *server) gif(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	req := request{Size: q.Get("size"), Goal: q.Get("goal"), Mode: q.Get("mode")}
	for _, f := range strings.Split(q.Get("tiles"), ",") {
		t, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fail(http.StatusBadRequest, "tiles: %q is not a number", f)
		}
		req.Tiles = append(req.Tiles, t)
	}
	if v := q.Get("weight"); v != "" {
		var err error
		if req.Weight, err = strconv.ParseFloat(v, 64); err != nil {
			return fail(http.StatusBadRequest, "weight %q is not a number", v)
		}
	}
	res, _, err := s.solve(r.Context(), &req)
	if err != nil {
		return err
	}
	// Drawing a long solution on a large board takes seconds: a slot too.
	release, err := s.acquire(r.Context())
	if err != nil {
		return err
	}
	defer release()
	p := res.Puzzle
	var buf bytes.Buffer
	if err := render.GIF(&buf, construct.Grid{Rows: p.Size.Rows, Cols: p.Size.Cols, Tiles: p.Tiles}, res.Moves, render.Options{Cell: 48}); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "image/gif")
	w.Header().Set("Content-Disposition", `attachment; filename="solution.gif"`)
	buf.WriteTo(w)
	return nil
}
