package main

import (
	"bytes"
	"cmp"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fifteen/cmd/internal/cli"
	"fifteen/cmd/internal/record"
	"fifteen/game"
	"fifteen/pdb"
	"fifteen/puzzle"
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

// server answers the page and the API from two solvers: the 5×5 boards'
// optimal and weighted searches have their own, whose databases are
// opened only if present, or built on request (web --build-5x5).
type server struct {
	solver *solver.Solver
	five   *solver.Solver
	limits
	log       *log.Logger   // internal errors; nil drops them
	slots     chan struct{} // a search, a constructive solve, or a GIF's drawing holds one
	searching atomic.Int64  // the slots held, for /healthz
	// closing ends when the server closes (close): the GIFs being drawn
	// stop then, as the searches do.
	closing   context.Context
	closeWork context.CancelFunc
	// anyHost says whether the server answers requests for any host:
	// one that listens on loopback alone answers only those named
	// localhost or by a loopback address, which a DNS rebinding cannot
	// forge.
	anyHost bool

	mu     sync.Mutex
	opened map[puzzle.Size]opening // of size4 and size5
}

// opening is where opening a size's database files stands: what it does
// now, or why it failed; whether it goes on (searches of the size get 503
// meanwhile); whether they are open (if not, 422).
type opening struct {
	Status  string `json:"status"`
	Pending bool   `json:"pending"`
	Ready   bool   `json:"ready"`
}

func newServer(s, five *solver.Solver, l limits) *server {
	srv := &server{solver: s, five: five, limits: l, slots: make(chan struct{}, l.maxSolves), opened: map[puzzle.Size]opening{
		size4: {Status: "opening the pattern databases", Pending: true},
		size5: {Status: "waiting for the 4×4 databases", Pending: true},
	}}
	srv.closing, srv.closeWork = context.WithCancel(context.Background())
	return srv
}

// close stops the searches and drawings under way, which answer 503, and
// closes the solvers.
func (s *server) close() error {
	s.closeWork()
	return errors.Join(s.solver.Close(), s.five.Close())
}

// setOpening records where opening the databases of size (size4 or
// size5) stands, for the searches, /healthz and the page.
func (s *server) setOpening(size puzzle.Size, o opening) {
	s.mu.Lock()
	s.opened[size] = o
	s.mu.Unlock()
}

// opening returns where opening the databases of size stands; on sizes
// without files, the zero opening.
func (s *server) opening(size puzzle.Size) opening {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opened[size]
}

// size4 is the board whose databases are opened at the start, built if
// need be; size5's are opened when present. The other boards' are built
// on first use, in memory up to 9 cells, into the database directory
// above: up to 16 cells, the most the server searches, no set is larger
// than 4×4's.
var (
	size4 = puzzle.Size{Rows: 4, Cols: 4}
	size5 = puzzle.Size{Rows: 5, Cols: 5}
)

// goals are both goal conventions, whose searches share the databases.
var goals = []puzzle.Goal{puzzle.GoalLast, puzzle.GoalFirst}

// prepare opens the 4×4 databases, building missing ones, and then the
// 5×5 ones as the five solver's policy allows; the solvers' Progress
// callbacks report the builds. Only a failure on 4×4 is its error: one
// on 5×5 leaves those boards to the constructive mode, and says why.
func (s *server) prepare(ctx context.Context) error {
	for _, goal := range goals {
		if err := s.solver.Prepare(ctx, size4, goal); err != nil {
			s.setOpening(size4, opening{Status: cli.Explain(err)})
			return err
		}
	}
	s.setOpening(size4, opening{Status: "ready", Ready: true})
	s.setOpening(size5, opening{Status: "opening the 5×5 databases", Pending: true})
	for _, goal := range goals {
		if err := s.five.Prepare(ctx, size5, goal); err != nil {
			why := cli.Explain(err)
			if errors.Is(err, pdb.ErrMissing) {
				why += ", or start web with --build-5x5"
			}
			s.setOpening(size5, opening{Status: why})
			if s.log != nil {
				s.log.Printf("5x5 boards are solved constructively: %s", why)
			}
			return nil
		}
	}
	s.setOpening(size5, opening{Status: "ready", Ready: true})
	return nil
}

func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	// Every answer is JSON, a missing page and a wrong method included.
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		var allow []string
		for _, m := range []string{http.MethodGet, http.MethodPost} {
			probe := r.Clone(r.Context())
			probe.Method = m
			if _, pattern := mux.Handler(probe); pattern != "/" {
				allow = append(allow, m)
			}
		}
		if len(allow) == 0 {
			writeError(w, fail(http.StatusNotFound, "no page %s", r.URL.Path))
			return
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeError(w, fail(http.StatusMethodNotAllowed, "%s %s: want %s", r.Method, r.URL.Path, strings.Join(allow, " or ")))
	})
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
	return s.guard(mux)
}

// guard refuses, with 403, a request for a host the server does not
// answer for (see anyHost), and an API request made by another site's
// page: a cross-origin Origin, or a Sec-Fetch-Site that is neither the
// server's own page nor the user's own navigation. An <img> or a form on
// another site could otherwise make the server work for it.
func (s *server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.anyHost && !loopbackHost(r.Host) {
			writeError(w, fail(http.StatusForbidden, "host %q: this server answers for localhost only", r.Host))
			return
		}
		if strings.HasPrefix(r.URL.Path, "/api/") {
			site := r.Header.Get("Sec-Fetch-Site")
			origin := r.Header.Get("Origin")
			if site != "" && site != "same-origin" && site != "none" || origin != "" && !sameOrigin(origin, r.Host) {
				writeError(w, fail(http.StatusForbidden, "a request from another site's page"))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// loopbackHost reports whether the Host header names this machine by a
// loopback name or address.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// sameOrigin reports whether the Origin header names the server's host.
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, host)
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
func (e *apiError) Unwrap() error { return e.err }

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
	four := s.opening(size4)
	code := http.StatusOK
	if !four.Ready {
		code = http.StatusServiceUnavailable
		w.Header().Set("Retry-After", "5")
	}
	writeJSON(w, code, map[string]any{"status": four.Status, "ready": four.Ready, "searching": s.searching.Load(), "5x5": s.opening(size5),
		"timeout_s": s.timeout.Seconds(), "hint_timeout_s": s.limits.hint().timeout.Seconds()})
}

// request is a puzzle as the API takes it.
type request struct {
	ID     string    `json:"id"`
	Tiles  []int     `json:"tiles"`
	Size   string    `json:"size"`
	Goal   goalField `json:"goal"`
	Mode   string    `json:"mode"`
	Weight float64   `json:"weight"`
}

// goalField is a request's goal: a convention's name, or the tiles of a
// goal board of the puzzle's size.
type goalField struct {
	name  string
	tiles []int
}

func (g *goalField) UnmarshalJSON(b []byte) error {
	if json.Unmarshal(b, &g.name) == nil {
		return nil
	}
	if json.Unmarshal(b, &g.tiles) != nil {
		return errors.New(goalWant)
	}
	return nil
}

// goalWant says what "goal" takes.
const goalWant = `"goal": want "first", "last", or a goal board's tiles in rows, as an array such as [1,2,3,0] or as solve --goal takes them, such as "1 2 3 0"`

// parse returns the goal convention that a goal's name names, or the
// board that its string form gives (solve --goal's, whose size it says).
func (g *goalField) parse() (puzzle.Goal, *puzzle.Puzzle, error) {
	if g.name == "" {
		return puzzle.GoalLast, nil, nil
	}
	goal, board, size, err := cli.ParseGoal(g.name)
	if err != nil {
		return goal, nil, fail(http.StatusBadRequest, "%s: %v", goalWant, err)
	}
	if board == nil && size != (puzzle.Size{}) {
		board = new(puzzle.Solved(size, goal))
	}
	return goal, board, nil
}

// requestFields are the request's JSON fields, spelt exactly.
var requestFields = []string{"id", "tiles", "size", "goal", "mode", "weight"}

// decode reads a JSON request body of at most maxBody bytes: one object
// whose fields are among requestFields, spelt exactly (encoding/json
// would match "TILES" too), each at most once.
func decode(w http.ResponseWriter, r *http.Request) (*request, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return nil, fail(http.StatusRequestEntityTooLarge, "the body is over %d bytes", maxBody)
	case err != nil:
		return nil, fail(http.StatusBadRequest, "reading the body: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var req request
	if err := dec.Decode(&req); err != nil {
		return nil, fail(http.StatusBadRequest, "malformed JSON: %v", err)
	}
	if dec.More() {
		return nil, fail(http.StatusBadRequest, "malformed JSON: more than one value")
	}
	if err := checkFields(body); err != nil {
		return nil, fail(http.StatusBadRequest, "malformed JSON: %v", err)
	}
	return &req, nil
}

// checkFields checks that the object in body, well formed, names each of
// its fields once, spelt as requestFields spells it.
func checkFields(body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.Token() // the object's '{'
	seen := map[string]bool{}
	for dec.More() {
		t, _ := dec.Token()
		key, _ := t.(string)
		switch {
		case !slices.Contains(requestFields, key):
			return fmt.Errorf("field %q: want one of %s, spelt so", key, strings.Join(requestFields, ", "))
		case seen[key]:
			return fmt.Errorf("field %q given twice", key)
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return err
		}
	}
	return nil
}

// query returns the request's query, refusing a parameter not among
// allowed, or given twice: a misspelt one would otherwise be ignored.
func query(r *http.Request, allowed ...string) (url.Values, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, fail(http.StatusBadRequest, "malformed query: %v", err)
	}
	for key, values := range q {
		switch {
		case !slices.Contains(allowed, key):
			return nil, fail(http.StatusBadRequest, "parameter %q: want one of %s", key, strings.Join(allowed, ", "))
		case len(values) > 1:
			return nil, fail(http.StatusBadRequest, "parameter %q given %d times", key, len(values))
		}
	}
	return q, nil
}

// parse checks the request and returns the puzzle and the options that
// solve it: 400 for a malformed puzzle or option, 422 for an unsolvable
// puzzle, or one too large for the mode.
func (req *request) parse(l limits) (puzzle.Puzzle, solver.Options, error) {
	opts := solver.Options{Timeout: l.timeout, Options: search.Options{Weight: req.Weight, Threads: 1}}
	p := puzzle.Puzzle{ID: req.ID, Tiles: req.Tiles}
	goal, board, err := req.Goal.parse()
	if err != nil {
		return p, opts, err
	}
	opts.Goal = goal
	if req.Mode != "" {
		if opts.Mode, err = solver.ParseMode(req.Mode); err != nil || opts.Mode == solver.Greedy {
			return p, opts, fail(http.StatusBadRequest, "mode %q: want optimal, weighted or constructive", req.Mode)
		}
	}
	if err := opts.Validate(); err != nil {
		return p, opts, fail(http.StatusBadRequest, "%v", err)
	}
	if len(req.Tiles) == 0 { // absent, null or empty: not a size of 0
		return p, opts, fail(http.StatusBadRequest, "no tiles: want the board's tiles in rows, 0 for the blank, such as [1,2,3,0]")
	}
	if p.Size, err = parseSize(req.Size, len(req.Tiles)); err != nil {
		return p, opts, err
	}
	if req.Goal.tiles != nil {
		board = &puzzle.Puzzle{Size: p.Size, Tiles: req.Goal.tiles}
	}
	if board != nil {
		// A convention's goal is that convention, answered as the CLI
		// answers it (issue 76: "board" here, "last" there).
		if g, ok := cli.Convention(*board); ok && board.Size == p.Size {
			opts.Goal = g
		} else {
			opts.GoalBoard = board
		}
	}
	if err := check(p, opts); err != nil {
		return p, opts, err
	}
	return p, opts, nil
}

// parseSize parses a size, or, when s is empty, takes the square board
// of n cells.
func parseSize(s string, n int) (puzzle.Size, error) {
	if s == "" {
		side := int(math.Sqrt(float64(n)))
		if side*side != n {
			return puzzle.Size{}, fail(http.StatusBadRequest, "no size given, and %d tiles make no square board", n)
		}
		s = strconv.Itoa(side)
	}
	size, err := puzzle.ParseSizeUpTo(s, puzzle.MaxCells)
	if err != nil {
		return size, fail(http.StatusBadRequest, "%v", err)
	}
	return size, nil
}

// maxSearchCells bounds the boards the server searches with databases
// built on first use, or its 4×4 ones; 5×5 boards are searched too when
// their databases are open.
const maxSearchCells = 16

// check reports a malformed puzzle or goal board (400), or one that
// cannot be solved in the mode (422), before the request waits for a
// search slot.
func check(p puzzle.Puzzle, opts solver.Options) error {
	if opts.GoalBoard != nil {
		return checkGoalBoard(p, opts)
	}
	err := p.Check(opts.Goal)
	var og *puzzle.OtherGoalError
	switch {
	case errors.As(err, &og):
		return fail(http.StatusUnprocessableEntity, "%v (\"goal\": \"%v\")", err, og.Goal)
	case errors.Is(err, puzzle.ErrUnsolvable):
		return fail(http.StatusUnprocessableEntity, "%v", err)
	case err != nil:
		return fail(http.StatusBadRequest, "%v", err)
	case opts.Mode != solver.Constructive && p.Size.Cells() > maxSearchCells && p.Size != size5:
		return fail(http.StatusUnprocessableEntity, "a %v board: the %v mode solves boards of up to %d cells and 5x5 here, the constructive mode any size", p.Size, opts.Mode, maxSearchCells)
	}
	return nil
}

// checkGoalBoard is check's for a goal board. The server opens the 4×4
// and 5×5 databases of Korf's goal alone, which serve the goals with the
// blank in a corner; those of another goal take a minute or more to
// build, which solve --goal does.
func checkGoalBoard(p puzzle.Puzzle, opts solver.Options) error {
	frame, err := puzzle.NewFrame(*opts.GoalBoard)
	if err != nil {
		return fail(http.StatusBadRequest, "%v", err)
	}
	err = frame.Check(p)
	switch corner := frame.Goal() == puzzle.GoalFirst; {
	case errors.Is(err, puzzle.ErrUnsolvable):
		return fail(http.StatusUnprocessableEntity, "%v", err)
	case err != nil:
		return fail(http.StatusBadRequest, "%v", err)
	case !corner && opts.Mode == solver.Constructive:
		return fail(http.StatusUnprocessableEntity, "the constructive mode places tiles toward a goal with the blank in a corner")
	case !corner && (p.Size == size4 || p.Size == size5):
		return fail(http.StatusUnprocessableEntity, "a %v goal with the blank on cell %d: the server keeps the databases of goals with the blank in a corner; solve --goal builds those of any goal", p.Size, frame.Target().Blank())
	}
	return check(frame.Puzzle(p), solver.Options{Goal: frame.Goal(), Mode: opts.Mode})
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

// run solves a checked puzzle. It waits for a slot (see acquire): a
// constructive solve of a large board takes a good part of a second too. A
// search runs at most the timeout (504, with its counts), and a client
// that goes away stops it.
func (s *server) run(ctx context.Context, p puzzle.Puzzle, opts solver.Options) (solver.Result, error) {
	searcher := s.solver
	if opts.Mode != solver.Constructive && (p.Size == size4 || p.Size == size5) {
		switch o := s.opening(p.Size); {
		case o.Pending:
			return solver.Result{}, fail(http.StatusServiceUnavailable, "the %v databases are not open yet: %s", p.Size, o.Status)
		case !o.Ready:
			return solver.Result{}, fail(http.StatusUnprocessableEntity, "a %v board: the %v mode needs the %v databases: %s", p.Size, opts.Mode, p.Size, o.Status)
		}
		if p.Size == size5 {
			searcher = s.five
		}
	}
	release, err := s.acquire(ctx)
	if err != nil {
		return solver.Result{}, err
	}
	defer release()
	res, err := searcher.Solve(ctx, p, opts)
	switch {
	case err == nil:
		return res, nil
	case errors.Is(err, context.DeadlineExceeded):
		rec := record.New(&res, err, opts)
		return res, &apiError{status: http.StatusGatewayTimeout, err: err, record: &rec}
	case errors.Is(err, solver.ErrClosed):
		return res, &apiError{status: http.StatusServiceUnavailable, err: err}
	case errors.Is(err, puzzle.ErrUnsolvable):
		return res, &apiError{status: http.StatusUnprocessableEntity, err: err}
	}
	if errors.As(err, new(*pdb.StoreError)) {
		return res, &apiError{status: http.StatusServiceUnavailable, err: errors.New(cli.Explain(err))}
	}
	return res, err
}

// solve parses the request, checks it, and solves it (see run).
func (s *server) solve(ctx context.Context, req *request, l limits) (solver.Result, solver.Options, error) {
	p, opts, err := req.parse(l)
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
	res, opts, err := s.solve(r.Context(), req, s.limits)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, record.New(&res, nil, opts))
	return nil
}

// hintAnswer is /api/hint's: the first move of a solution, the tile it
// slides, and the solution's length (Length); optimal, with the board's
// distance from the goal (Distance), unless the board is too large for
// the databases or the search takes longer than a hint waits, when the
// constructive mode gives them (issue 67: distance held the constructive
// solution's length).
type hintAnswer struct {
	Move     string `json:"move"`
	Tile     int    `json:"tile"`
	Distance *int   `json:"distance,omitempty"`
	Length   int    `json:"length"`
	Optimal  bool   `json:"optimal"`
}

// A hint waits for an optimal solution as long as the terminal game's
// does, and the search's timeout at most: then it is the constructive
// mode's (issue 67: on 5×5 it waited the whole timeout).
func (l limits) hint() limits {
	l.timeout = min(l.timeout, game.HintTimeout)
	return l
}

func (s *server) hint(w http.ResponseWriter, r *http.Request) error {
	req, err := decode(w, r)
	if err != nil {
		return err
	}
	if req.Mode != "" || req.Weight != 0 {
		return fail(http.StatusBadRequest, "a hint takes no mode or weight: it is optimal where the databases serve the board")
	}
	size, err := parseSize(req.Size, len(req.Tiles))
	if err == nil && size.Cells() > maxSearchCells && (size != size5 || !s.opening(size5).Ready) {
		req.Mode = "constructive"
	}
	res, _, err := s.solve(r.Context(), req, s.limits.hint())
	if req.Mode == "" && errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil {
		req.Mode = "constructive"
		res, _, err = s.solve(r.Context(), req, s.limits)
	}
	if err != nil {
		return err
	}
	ans := hintAnswer{Length: res.Length(), Optimal: res.Optimal}
	if res.Optimal {
		ans.Distance = new(res.Length())
	}
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
	q, err := query(r, "size", "goal", "seed")
	if err != nil {
		return err
	}
	size, err := parseSize(cmp.Or(q.Get("size"), "4x4"), 0)
	if err != nil {
		return err
	}
	goal := puzzle.GoalLast
	if v := q.Get("goal"); v != "" {
		if goal, err = puzzle.ParseGoal(v); err != nil {
			return fail(http.StatusBadRequest, "%v", err)
		}
	}
	seed := rand.Uint64() >> 11 // exact in a JavaScript number
	if v := q.Get("seed"); v != "" {
		if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			return fail(http.StatusBadRequest, "seed %q: want a number from 0 to %d", v, uint64(math.MaxUint64))
		}
	}
	// As solve --random draws them.
	rng := rand.New(rand.NewPCG(seed, 0))
	p, _ := puzzle.Random(rng, size, goal) // the size is valid
	writeJSON(w, http.StatusOK, randomAnswer{Tiles: p.Tiles, Size: size.String(), Goal: goal.String(), Seed: seed})
	return nil
}

// GIFs are bounded so that one request cannot take the server's memory:
// at most maxFrames frames (422 past it), of about gifPixels pixels each
// at most (large boards get smaller cells), and maxGIFBytes in all (413).
const (
	maxFrames   = 1000
	gifPixels   = 1 << 16
	maxGIFBytes = 16 << 20
)

// errClosing answers a GIF whose drawing the server's closing stopped.
var errClosing = fail(http.StatusServiceUnavailable, "the server is shutting down")

// errGIFTooLarge is a GIF that grew past maxGIFBytes.
var errGIFTooLarge = fmt.Errorf("the GIF is over %d bytes", maxGIFBytes)

// gifCell returns the side of a cell in a GIF of the size: 48 pixels,
// less on large boards, so that a frame has about gifPixels at most.
func gifCell(size puzzle.Size) int {
	return max(min(48, int(math.Sqrt(float64(gifPixels/size.Cells())))), render.MinCell)
}

// boundedBuffer is a buffer that refuses to grow past maxGIFBytes.
type boundedBuffer struct{ bytes.Buffer }

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > maxGIFBytes {
		return 0, errGIFTooLarge
	}
	return b.Buffer.Write(p)
}

// queryTiles parses a query parameter's tiles, comma-separated.
func queryTiles(param, value string) ([]int, error) {
	var tiles []int
	for _, f := range strings.Split(value, ",") {
		t, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fail(http.StatusBadRequest, "%s: %q is not a number", param, f)
		}
		tiles = append(tiles, t)
	}
	return tiles, nil
}

// gif answers a GIF of the solution of the puzzle in the query: tiles
// comma-separated, with size, goal (a goal board's tiles
// comma-separated too), mode and weight as /api/solve takes them. The drawing holds a slot, and is bounded by the timeout (504), a
// client that goes away, and the server's closing (503).
func (s *server) gif(w http.ResponseWriter, r *http.Request) error {
	q, err := query(r, "tiles", "size", "goal", "mode", "weight")
	if err != nil {
		return err
	}
	req := request{Size: q.Get("size"), Goal: goalField{name: q.Get("goal")}, Mode: q.Get("mode")}
	if req.Tiles, err = queryTiles("tiles", q.Get("tiles")); err != nil {
		return err
	}
	if strings.Contains(req.Goal.name, ",") {
		if req.Goal.tiles, err = queryTiles("goal", req.Goal.name); err != nil {
			return err
		}
		req.Goal.name = ""
	}
	if v := q.Get("weight"); v != "" {
		var err error
		if req.Weight, err = strconv.ParseFloat(v, 64); err != nil {
			return fail(http.StatusBadRequest, "weight %q is not a number", v)
		}
	}
	res, _, err := s.solve(r.Context(), &req, s.limits)
	if err != nil {
		return err
	}
	if frames := len(res.Moves) + 1; frames > maxFrames {
		return fail(http.StatusUnprocessableEntity, "a solution of %d moves: a GIF draws at most %d", len(res.Moves), maxFrames-1)
	}
	release, err := s.acquire(r.Context())
	if err != nil {
		return err
	}
	defer release()
	ctx, cancel := context.WithTimeout(r.Context(), s.timeout)
	defer cancel()
	defer context.AfterFunc(s.closing, cancel)()
	if s.closing.Err() != nil {
		return errClosing
	}
	p := res.Puzzle
	var buf boundedBuffer
	err = render.GIF(ctx, &buf, p, res.Moves, render.Options{Cell: gifCell(p.Size)})
	switch {
	case err == nil:
	case s.closing.Err() != nil:
		return errClosing
	case errors.Is(err, context.DeadlineExceeded):
		return fail(http.StatusGatewayTimeout, "drawing the GIF took longer than %v", s.timeout)
	case errors.Is(err, errGIFTooLarge):
		return fail(http.StatusRequestEntityTooLarge, "%v", err)
	default:
		return err
	}
	w.Header().Set("Content-Type", "image/gif")
	w.Header().Set("Content-Disposition", `attachment; filename="solution.gif"`)
	buf.WriteTo(w)
	return nil
}
