// Package solver is the way in to fifteen: it opens the heuristic for a
// board size (the pattern databases, built on first use), solves one
// puzzle or a stream of them in parallel, and releases the databases'
// memory on Close.
//
// A Solver serves every board size and both goal conventions, opening
// what each size needs when it is first asked for; it is safe for
// concurrent use. Every solution it returns has been replayed to the goal.
//
// Packages search and pdb are the research API below it: a solver's
// Options embed search.Options and its Result search.Result, and its
// Config's build policy and errors are pdb's. solver passes none of their
// names through; a program names them from their own packages.
package solver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"fifteen/pdb"
	"fifteen/puzzle"
	"fifteen/search"
)

// Config chooses the heuristic. The zero value is what the solve command
// uses by default: each size's default pattern databases
// (pdb.DefaultPartition) in the default directory, with the reflected
// lookup, built when missing. The Solver borrows the databases' tables
// from their directory's store (pdb.Store), read-only.
type Config struct {
	// Heuristic is "pdb" (also ""), or a classic heuristic:
	// "linear-conflict", "manhattan" or "misplaced" (search.Classic).
	Heuristic string
	// Partition names the databases (pdb.ParsePartitions) of the boards
	// solved; "" means each size's pdb.DefaultPartition. The tables of
	// boards of more than pdb.MaxPerfectCells cells are kept in Dir;
	// smaller boards' are built in memory (pdb.SmallPartition's, or the
	// named partition's).
	Partition string
	// Dir is the databases' directory; "" means pdb.DefaultDir().
	Dir string
	// NoReflect leaves out the maximum with the databases' value on the
	// board reflected about its diagonal.
	NoReflect bool
	// Build says which missing or damaged databases in Dir are built:
	// pdb.BuildDefaults (each size's default partition), pdb.NeverBuild
	// (a *pdb.StoreError that wraps pdb.ErrMissing instead), or
	// pdb.BuildAny.
	Build pdb.Policy
	// Progress, if not nil, is called after each layer of a build into
	// Dir.
	Progress func(pdb.Progress)
	// Log, if not nil, is told, a line at a time, what opening the
	// databases does: what it builds, and what it loaded from where.
	Log func(string)
	// Opened, if not nil, is told how long opening each partition's
	// databases in Dir took, waiting, building and loading.
	Opened func(pdb.Opening)
	// InMemory builds every table in memory, for each Solver, and reads
	// and writes no directory: for a program with no file system to keep
	// them in, or none to trust. Small partitions suit it (5-5-5 on 4×4:
	// seconds); the default ones take half a minute (7-7-1) or minutes.
	// It is always so on js/wasm, where a page has no file system.
	InMemory bool
}

// heuristics are the values Config.Heuristic takes.
var heuristics = []string{"pdb", "linear-conflict", "manhattan", "misplaced"}

// Validate reports what is wrong with the configuration: an unknown
// heuristic or partition. A partition spec is checked against the size it
// is opened for.
func (c *Config) Validate() error {
	if c.Heuristic != "" && !slices.Contains(heuristics, c.Heuristic) {
		return fmt.Errorf("unknown heuristic %q: want %s", c.Heuristic, strings.Join(heuristics, ", "))
	}
	if c.Build != pdb.BuildDefaults && c.Build != pdb.NeverBuild && c.Build != pdb.BuildAny {
		return fmt.Errorf("unknown build policy %d", c.Build)
	}
	if c.Partition == "" {
		return nil
	}
	if c.Heuristic != "" && c.Heuristic != "pdb" {
		return fmt.Errorf("partition %q with the %s heuristic: a partition names databases, which only the pdb heuristic looks up", c.Partition, c.Heuristic)
	}
	// A name or a spec may be of any board, but of one: the named sizes'
	// first, whose errors list their names.
	sizes := append(pdb.DefaultSizes(), boardSizes()...)
	var first, fitting error
	for _, size := range sizes {
		_, err := c.partitions(size)
		if err == nil {
			return nil
		}
		first = cmp.Or(first, err)
		if size.Cells() == specTiles(c.Partition)+1 {
			fitting = cmp.Or(fitting, err)
		}
	}
	// The error of the board the spec's tiles would fill, if any: that of
	// a 4x4 board misleads about a 3x3 one's spec (issue 57).
	return cmp.Or(fitting, first)
}

// Fits reports whether the Config's databases serve boards of the size:
// whether its Partition, if any, is of that size.
func (c *Config) Fits(size puzzle.Size) bool {
	_, err := c.partitions(size)
	return err == nil
}

// partitions returns the partitions of the Config's databases on boards
// of the size: its Partition's, or else the size's default, or, on a size
// without one, pdb.SmallPartition. It is where Partition is parsed.
func (c *Config) partitions(size puzzle.Size) ([]pdb.Partition, error) {
	if name := cmp.Or(c.Partition, pdb.DefaultPartition(size)); name != "" {
		return pdb.ParsePartitions(name, size)
	}
	return []pdb.Partition{pdb.SmallPartition(size)}, nil
}

// specTiles counts the tiles of a spec's first partition: "1,2/3,4" has 4.
func specTiles(spec string) int {
	first, _, _ := strings.Cut(spec, "+")
	return len(strings.FieldsFunc(first, func(c rune) bool { return c == ',' || c == '/' }))
}

// boardSizes returns the sizes a Board can be.
func boardSizes() []puzzle.Size {
	var sizes []puzzle.Size
	for rows := 2; 2*rows <= puzzle.MaxBoardCells; rows++ {
		for cols := 2; rows*cols <= puzzle.MaxBoardCells; cols++ {
			sizes = append(sizes, puzzle.Size{Rows: rows, Cols: cols})
		}
	}
	return sizes
}

// ErrClosed is returned by a Solver's methods after Close, and by the
// searches that Close stopped.
var ErrClosed = errors.New("closed")

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

// heuristicKey is what a heuristic serves: the databases of a goal serve
// its rotation too (search rotates the board, tablesGoal), classic
// heuristics are made for each.
type heuristicKey struct {
	size puzzle.Size
	goal puzzle.Goal
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

// Prepare opens the heuristic for boards of the size solved toward goal
// (a convention, or a goal board's frame's, puzzle.Frame.Goal), building
// missing databases unless the Config says not to, so that Solve need
// not. An error is returned again by every later call for the
// size, and by Solve; but when ctx ends (or Close is called) during a
// build, the build stops, and a later call starts it again.
func (s *Solver) Prepare(ctx context.Context, size puzzle.Size, goal puzzle.Goal) error {
	ctx, done, err := s.enter(ctx)
	if err != nil {
		return err
	}
	defer done()
	if size.ValidBoard() == nil && !goal.Fits(size.Cells()) {
		return fmt.Errorf("goal %v on a %v board", goal, size)
	}
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

var errNilContext = errors.New("a nil Context")

// enter counts a call as under way, unless the Solver is closed, and
// returns its context, which ends with ctx or on Close (with the cause
// ErrClosed); done ends the call.
func (s *Solver) enter(ctx context.Context) (_ context.Context, done func(), err error) {
	if ctx == nil {
		return nil, nil, errNilContext // before the call is counted: Close would wait for it
	}
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
func (s *Solver) heuristic(ctx context.Context, size puzzle.Size, goal puzzle.Goal) (*search.Heuristic, error) {
	key := heuristicKey{size, goal}
	if s.cfg.Heuristic == "pdb" {
		key.goal = tablesGoal(size, goal)
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
	} else if h, err = s.openDatabases(ctx, size, key.goal, o); err != nil {
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

// tablesGoal returns the goal whose databases serve goal: of the goal and
// its rotation, the one whose blank comes first. So Korf's goal's serve
// both conventions.
func tablesGoal(size puzzle.Size, goal puzzle.Goal) puzzle.Goal {
	n := size.Cells()
	return puzzle.BlankAt(min(goal.Blank(n), goal.Other(n).Blank(n)), n)
}

// openDatabases returns the databases' heuristic for boards of the size
// solved toward goal, recording their tables in o as it opens them: the
// Config's partitions (or the size's default) from its directory, or on
// boards of up to pdb.MaxPerfectCells cells, built in memory. A goal with
// the blank elsewhere than cell 0 takes the partitions carried over to it
// (pdb.Partition.ForBlank). Several partitions make the maximum of their
// heuristics.
func (s *Solver) openDatabases(ctx context.Context, size puzzle.Size, goal puzzle.Goal, o *opened) (*search.Heuristic, error) {
	parts, err := s.cfg.partitions(size)
	if err != nil {
		return nil, err
	}
	name := cmp.Or(s.cfg.Partition, pdb.DefaultPartition(size))
	inMemory := s.cfg.InMemory || noFileSystem || size.Cells() <= pdb.MaxPerfectCells
	reflect := !s.cfg.NoReflect && search.Reflects(size, goal)
	var hs []*search.Heuristic
	for _, p := range parts {
		p = p.ForBlank(goal.Blank(size.Cells()))
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
// in memory if inMemory, else from the directory's store, which builds
// them there as the Config's policy allows.
func (s *Solver) tables(ctx context.Context, name string, p pdb.Partition, inMemory bool) ([]*pdb.Table, error) {
	if inMemory {
		return p.Build(ctx, pdb.BuildOptions{Progress: s.cfg.Progress}) // milliseconds up to 9 cells; seconds for 4×4's 5-5-5
	}
	store, err := pdb.OpenStore(s.cfg.Dir, pdb.StoreOptions{Policy: s.cfg.Build, Progress: s.cfg.Progress, Log: s.cfg.Log, Opened: s.cfg.Opened})
	if err != nil {
		return nil, err
	}
	return store.Tables(ctx, name, p)
}
