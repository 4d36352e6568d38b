// Package solver is the way in to fifteen: it opens the heuristic for a
// board size (the pattern databases, built on first use), solves one
// puzzle or a stream of them in parallel, and releases the databases'
// memory on Close.
//
// A Solver serves every board size and both goal conventions, opening
// what each size needs when it is first asked for; it is safe for
// concurrent use. Every solution it returns has been replayed to the goal.
package solver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"fifteen/bitboard"
	"fifteen/pdb"
	"fifteen/search"
)

// Config chooses the heuristic. The zero value is what the solve command
// uses by default: each size's default pattern databases
// (pdb.DefaultPartition) in the default directory, with the reflected
// lookup, built when missing.
type Config struct {
	// Heuristic is "pdb" (also ""), or a classic heuristic:
	// "linear-conflict", "manhattan" or "misplaced" (search.Classic).
	Heuristic string
	// Partition names the databases (pdb.ParsePartitions) of the boards
	// solved; "" means each size's pdb.DefaultPartition. The tables of
	// 4×4 and 5×5 boards are kept in Dir; other sizes get
	// pdb.SmallPartition's, or the named partition's, built in memory.
	Partition string
	// Dir is the databases' directory; "" means pdb.DefaultDir().
	Dir string
	// NoReflect leaves out the maximum with the databases' value on the
	// board reflected about its diagonal.
	NoReflect bool
	// NoBuild makes missing databases an error (a *DatabaseError that
	// wraps pdb.ErrMissing) instead of building them.
	NoBuild bool
	// Progress, if not nil, is called after each layer of a build into
	// Dir.
	Progress func(pdb.Progress)
	// Log, if not nil, is told, a line at a time, what opening the
	// databases does: what it builds, and what it loaded from where.
	Log func(string)
}

// heuristics are the values Config.Heuristic takes.
var heuristics = []string{"pdb", "linear-conflict", "manhattan", "misplaced"}

// Validate reports what is wrong with the configuration: an unknown
// heuristic or partition. A partition spec is checked against the size it
// is opened for.
func (c *Config) Validate() error {
	if c.Heuristic != "" && !slices.Contains(heuristics, c.Heuristic) {
		return fmt.Errorf("solver: unknown heuristic %q: want %s", c.Heuristic, strings.Join(heuristics, ", "))
	}
	if c.Partition == "" || strings.ContainsAny(c.Partition, ",/") {
		return nil
	}
	var first error
	for _, size := range pdb.DefaultSizes() {
		_, err := pdb.ParsePartitions(c.Partition, size)
		if err == nil {
			return nil
		}
		first = cmp.Or(first, err)
	}
	return first
}

// ErrClosed is returned by a Solver's methods after Close, and by the
// searches that Close stopped.
var ErrClosed = errors.New("solver: closed")

// A DatabaseError reports pattern databases that could not be opened:
// missing (Err wraps pdb.ErrMissing), damaged (a *pdb.FileError naming the
// file), or unreadable. Its message names the command that builds them.
type DatabaseError struct {
	Partition string
	Size      bitboard.Size
	Dir       string
	Err       error
}

func (e *DatabaseError) Error() string {
	if errors.Is(e.Err, pdb.ErrMissing) {
		return fmt.Sprintf("the %s databases are not in %s, or are of another format version; build them with: %s",
			e.Partition, e.Dir, e.Command())
	}
	return fmt.Sprintf("%v; rebuild the %s databases with: %s", e.Err, e.Partition, e.Command())
}

func (e *DatabaseError) Unwrap() error { return e.Err }

// Command returns the command that builds the databases, missing or
// damaged.
func (e *DatabaseError) Command() string {
	size := ""
	if e.Size != (bitboard.Size{Rows: 4, Cols: 4}) {
		size = " --size " + e.Size.String()
	}
	return fmt.Sprintf("go run ./cmd/pdbgen%s --partition %s --pdb-dir %s", size, e.Partition, e.Dir)
}

// A Solver solves puzzles with the heuristic its Config chooses.
type Solver struct {
	cfg     Config
	closing context.Context // ended by Close, which stops the searches
	close   context.CancelFunc

	mu         sync.Mutex
	closed     bool
	active     sync.WaitGroup // calls under way, which Close waits for
	heuristics map[heuristicKey]*opened
}

// heuristicKey is what a heuristic serves: the databases serve both goal
// conventions (search rotates a board of the other one), classic
// heuristics are made for each.
type heuristicKey struct {
	size bitboard.Size
	goal bitboard.Goal
}

// opened is one size's heuristic, opened once: an opening that its
// context stopped counts for nothing.
type opened struct {
	mu     sync.Mutex
	done   bool
	h      *search.Heuristic
	tables []*pdb.Table // to close
	err    error
}

// New returns a Solver for the configuration, once it is valid. It opens
// nothing: see Prepare.
func New(cfg Config) (*Solver, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Heuristic == "" {
		cfg.Heuristic = "pdb"
	}
	s := &Solver{cfg: cfg, heuristics: map[heuristicKey]*opened{}}
	s.closing, s.close = context.WithCancel(context.Background())
	return s, nil
}

// Prepare opens the heuristic for boards of the size solved toward goal,
// building missing databases unless the Config says not to, so that
// Solve need not. An error is returned again by every later call for the
// size, and by Solve; but when ctx ends (or Close is called) during a
// build, the build stops, and a later call starts it again.
func (s *Solver) Prepare(ctx context.Context, size bitboard.Size, goal bitboard.Goal) error {
	ctx, done, err := s.enter(ctx)
	if err != nil {
		return err
	}
	defer done()
	_, err = s.heuristic(ctx, size, goal)
	return err
}

// Close stops the searches under way (they return ErrClosed), waits for
// every call to return, and then releases the databases' memory. Calls
// after it return ErrClosed.
func (s *Solver) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	s.close()
	s.active.Wait()
	var errs []error
	for _, o := range s.heuristics {
		for _, t := range o.tables {
			errs = append(errs, t.Close())
		}
	}
	return errors.Join(errs...)
}

// enter counts a call as under way, unless the Solver is closed, and
// returns its context, which ends with ctx or on Close (with the cause
// ErrClosed); done ends the call.
func (s *Solver) enter(ctx context.Context) (_ context.Context, done func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, nil, ErrClosed
	}
	s.active.Add(1)
	ctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(s.closing, func() { cancel(ErrClosed) })
	return ctx, func() { stop(); cancel(nil); s.active.Done() }, nil
}

// heuristic returns the heuristic for boards of the size and goal,
// opening it on first use.
func (s *Solver) heuristic(ctx context.Context, size bitboard.Size, goal bitboard.Goal) (*search.Heuristic, error) {
	key := heuristicKey{size, goal}
	if s.cfg.Heuristic == "pdb" {
		key.goal = pdb.Goal
	}
	s.mu.Lock()
	o := s.heuristics[key]
	if o == nil {
		o = &opened{}
		s.heuristics[key] = o
	}
	s.mu.Unlock()
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.done {
		return o.h, o.err
	}
	var h *search.Heuristic
	var err error
	if s.cfg.Heuristic != "pdb" {
		h, err = search.Classic(s.cfg.Heuristic, size, goal)
	} else if h, err = s.openDatabases(ctx, size, o); err != nil {
		for _, t := range o.tables {
			t.Close()
		}
		o.tables = nil
	}
	if err != nil && ctx.Err() != nil {
		return nil, err // not kept: a later call tries again
	}
	o.h, o.err, o.done = h, err, true
	return h, err
}

// openDatabases returns the databases' heuristic for boards of the size,
// recording their tables in o as it opens them: on 4×4 and 5×5, the
// Config's partitions (or the size's default) from its directory; on other
// sizes, pdb.SmallPartition's (or the Config's) built in memory. Several
// partitions make the maximum of their heuristics.
func (s *Solver) openDatabases(ctx context.Context, size bitboard.Size, o *opened) (*search.Heuristic, error) {
	name := cmp.Or(s.cfg.Partition, pdb.DefaultPartition(size))
	inMemory := !slices.Contains(pdb.DefaultSizes(), size)
	parts := []pdb.Partition{pdb.SmallPartition(size)}
	if name != "" {
		var err error
		if parts, err = pdb.ParsePartitions(name, size); err != nil {
			return nil, err
		}
	}
	reflect := !s.cfg.NoReflect && size.Rows == size.Cols
	var hs []*search.Heuristic
	for _, p := range parts {
		tables, err := s.tables(ctx, name, p, inMemory)
		o.tables = append(o.tables, tables...)
		if err != nil {
			return nil, err
		}
		h, err := search.Additive("pdb:"+p.Name, tables, reflect)
		if err != nil {
			return nil, err
		}
		hs = append(hs, h)
	}
	if len(hs) == 1 {
		return hs[0], nil
	}
	return search.Max("pdb:"+name, hs...)
}

// tables returns the partition's tables, of those that name names: built
// in memory if inMemory, else loaded from the directory, built there first
// if missing.
func (s *Solver) tables(ctx context.Context, name string, p pdb.Partition, inMemory bool) ([]*pdb.Table, error) {
	if inMemory {
		return p.Build(ctx, pdb.BuildOptions{}) // milliseconds: nothing to report
	}
	dir := s.cfg.Dir
	if dir == "" {
		var err error
		if dir, err = pdb.DefaultDir(); err != nil {
			return nil, err
		}
	}
	fail := func(err error) error { return &DatabaseError{Partition: name, Size: p.Size, Dir: dir, Err: err} }
	for repaired := false; ; repaired = true {
		missing, err := p.Missing(dir)
		if err != nil {
			return nil, fail(err)
		}
		if len(missing) > 0 {
			if s.cfg.NoBuild {
				return nil, fail(pdb.ErrMissing)
			}
			if err := s.build(ctx, p, dir); err != nil {
				return nil, fmt.Errorf("building the %s databases: %w", p.Name, err)
			}
		}
		t0 := time.Now()
		tables, err := p.Load(dir)
		if err == nil {
			s.log(fmt.Sprintf("loaded the %s pattern databases from %s in %.1f ms", p.Name, dir, time.Since(t0).Seconds()*1e3))
			return tables, nil
		}
		// A damaged file is renamed, not removed (it can be looked at)
		// nor rewritten (a process may map it), and built again once.
		var fe *pdb.FileError
		if repaired || s.cfg.NoBuild || !errors.As(err, &fe) || !errors.Is(err, pdb.ErrCorrupt) && !errors.Is(err, pdb.ErrMismatch) {
			return nil, fail(err)
		}
		aside := fe.Path + ".damaged"
		if rerr := os.Rename(fe.Path, aside); rerr != nil {
			return nil, fail(errors.Join(err, rerr))
		}
		s.log(fmt.Sprintf("%v: moved aside to %s, to be built again", err, aside))
	}
}

// build builds what the partition misses in dir, holding the directory's
// lock: another process may be building the same, and then what it built
// is not built again.
func (s *Solver) build(ctx context.Context, p pdb.Partition, dir string) error {
	unlock, err := pdb.LockDir(ctx, dir, func() {
		s.log(fmt.Sprintf("waiting for another process building databases in %s", dir))
	})
	if err != nil {
		return err
	}
	defer unlock()
	missing, err := p.Missing(dir)
	if err != nil || len(missing) == 0 {
		return err
	}
	s.log(fmt.Sprintf("building the %s pattern databases in %s (once)", p.Name, dir))
	opts := pdb.BuildOptions{Progress: s.cfg.Progress}
	return pdb.BuildMissing(ctx, dir, p.Size, missing, opts, func(b pdb.Built) { s.log(b.String()) })
}

func (s *Solver) log(line string) {
	if s.cfg.Log != nil {
		s.cfg.Log(line)
	}
}
