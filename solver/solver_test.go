package solver_test

import (
	"context"
	"errors"
	"iter"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"fifteen/data"
	"fifteen/internal/bfs"
	"fifteen/pdb"
	"fifteen/puzzle"
	"fifteen/search"
	"fifteen/solver"
)

var (
	size3 = puzzle.Size{Rows: 3, Cols: 3}
	size4 = puzzle.Size{Rows: 4, Cols: 4}
)

// spec555 is a 5-5-5 partition written as a spec, so that the solver
// builds it into a directory (with BuildAny) in a second or two.
const spec555 = "1,2,3,6,7/4,5,8,9,12/10,11,13,14,15"

func newSolver(t *testing.T, cfg solver.Config) *solver.Solver {
	t.Helper()
	s, err := solver.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// korf returns Korf's instances of the given ids (1-based) as puzzles.
func korf(ids ...int) []puzzle.Puzzle {
	var ps []puzzle.Puzzle
	for _, id := range ids {
		ps = append(ps, data.Korf100()[id-1])
	}
	return ps
}

func TestConfigValidate(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  solver.Config
		ok   bool
	}{
		{"zero", solver.Config{}, true},
		{"classic", solver.Config{Heuristic: "manhattan"}, true},
		{"built-in set", solver.Config{Partition: "663x2"}, true},
		{"spec of another size", solver.Config{Partition: "1,2,3,4/5,6,7,8"}, true},
		{"the rule's name of another size", solver.Config{Partition: "766"}, true},
		{"unknown heuristic", solver.Config{Heuristic: "euclid"}, false},
		{"unknown partition", solver.Config{Partition: "99"}, false},
		// Issue 48: refused once per puzzle, and a set within a catalogue.
		{"spec of no board", solver.Config{Partition: "1,2,3/4"}, false},
		{"set and partition", solver.Config{Partition: "6666x2+6666"}, true},
		{"nine partitions", solver.Config{Partition: "6666x7+1,2,3,4,5,24/6,7,8,9,10,11/12,13,14,15,16,17/18,19,20,21,22,23+2,3,4,5,6,7/8,9,10,11,12,13/14,15,16,17,18,19/1,20,21,22,23,24"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.cfg.Validate(); (err == nil) != c.ok {
				t.Errorf("Validate() = %v, want ok %v", err, c.ok)
			}
			if _, err := solver.New(c.cfg); (err == nil) != c.ok {
				t.Errorf("New() = %v, want ok %v", err, c.ok)
			}
		})
	}
}

func TestOptionsValidate(t *testing.T) {
	for _, c := range []struct {
		name string
		opts solver.Options
		ok   bool
	}{
		{"zero", solver.Options{}, true},
		{"weighted", solver.Options{Mode: solver.Weighted, Options: search.Options{Weight: 1.5}}, true},
		{"human first", solver.Options{Mode: solver.Constructive, Goal: puzzle.GoalFirst}, true},
		{"threads", solver.Options{Options: search.Options{Threads: search.MaxThreads}}, true},
		{"weighted without weight", solver.Options{Mode: solver.Weighted}, false},
		{"weighted at 1", solver.Options{Mode: solver.Weighted, Options: search.Options{Weight: 1}}, false},
		{"weight too big", solver.Options{Mode: solver.Weighted, Options: search.Options{Weight: search.MaxWeight + 1}}, false},
		{"weight NaN", solver.Options{Mode: solver.Weighted, Options: search.Options{Weight: math.NaN()}}, false},
		{"weight unweighted", solver.Options{Options: search.Options{Weight: 2}}, false},
		{"unknown mode", solver.Options{Mode: solver.Constructive + 1}, false},
		{"unknown goal", solver.Options{Goal: 7}, false},
		{"negative timeout", solver.Options{Timeout: -time.Second}, false},
		{"threads", solver.Options{Options: search.Options{Threads: search.MaxThreads + 1}}, false},
		{"negative threads", solver.Options{Options: search.Options{Threads: -1}}, false},
		{"prune depth", solver.Options{Options: search.Options{PruneDepth: search.MaxPruneDepth + 1}}, false},
		{"order", solver.Options{Options: search.Options{Order: [4]puzzle.Move{puzzle.Up, puzzle.Up, puzzle.Left, puzzle.Right}}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.opts.Validate(); (err == nil) != c.ok {
				t.Errorf("Validate() = %v, want ok %v", err, c.ok)
			}
			if c.ok {
				return
			}
			s := newSolver(t, solver.Config{Heuristic: "manhattan"})
			if _, err := s.Solve(context.Background(), korf(1)[0], c.opts); err == nil {
				t.Error("Solve accepted the options")
			}
		})
	}
}

// TestBuildAndSolve builds a partition into an empty directory through
// the solver, with its reports, and solves Korf's instances with it in
// every mode and both goal conventions: each answer replays (Solve checks
// that, and the known optimum, itself) and the optimal ones are optimal.
func TestBuildAndSolve(t *testing.T) {
	dir := t.TempDir()
	var layers, lines int
	s := newSolver(t, solver.Config{Partition: spec555, Dir: dir, Build: pdb.BuildAny,
		Progress: func(pdb.Progress) { layers++ },
		Log:      func(string) { lines++ },
	})
	if err := s.Prepare(context.Background(), size4, puzzle.GoalFirst); err != nil {
		t.Fatal(err)
	}
	if layers == 0 || lines != 5 { // building, three tables built, loaded
		t.Errorf("%d layers and %d lines reported, want some and 5", layers, lines)
	}
	for _, c := range []struct {
		name string
		opts solver.Options
	}{
		{"optimal", solver.Options{Goal: puzzle.GoalFirst}},
		{"parallel", solver.Options{Goal: puzzle.GoalFirst, Options: search.Options{Threads: 3}}},
		{"weighted", solver.Options{Goal: puzzle.GoalFirst, Mode: solver.Weighted, Options: search.Options{Weight: 1.5}}},
		{"greedy", solver.Options{Goal: puzzle.GoalFirst, Mode: solver.Greedy}},
		{"human", solver.Options{Goal: puzzle.GoalFirst, Mode: solver.Constructive}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, p := range korf(1, 12, 42) {
				if c.opts.Mode == solver.Greedy {
					p.Optimal = 0 // greedy has no bound to check against
				}
				r, err := s.Solve(context.Background(), p, c.opts)
				if err != nil {
					t.Fatalf("%s: %v", p.ID, err)
				}
				if !r.Solved || len(r.Tiles) != r.Length() || r.Optimal != (c.opts.Mode == solver.Optimal) || r.Heuristic == "" {
					t.Errorf("%s: %+v", p.ID, r)
				}
			}
		})
	}
	// The other goal convention is the board turned by 180°, tiles
	// relabelled: the same distance, through the same tables.
	p := korf(12)[0]
	b, _ := puzzle.NewBoard(p.Size, p.Tiles)
	p.Tiles = b.Rotate().Puzzle().Tiles
	if r, err := s.Solve(context.Background(), p, solver.Options{}); err != nil || r.Length() != p.Optimal {
		t.Errorf("goal last: %d moves, %v; want %d", r.Length(), err, p.Optimal)
	}
}

// TestSmallBoards solves every 3×3 position at each distance's first,
// with the perfect database built in memory.
func TestSmallBoards(t *testing.T) {
	s := newSolver(t, solver.Config{Dir: filepath.Join(t.TempDir(), "unused")})
	all := bfs.All(size3, puzzle.GoalLast)
	last := -1
	for _, pos := range all {
		if pos.Dist == last {
			continue
		}
		last = pos.Dist
		p := puzzle.Puzzle{Size: size3, Tiles: pos.Board.Puzzle().Tiles, Optimal: pos.Dist}
		if _, err := s.Solve(context.Background(), p, solver.Options{}); err != nil {
			t.Errorf("distance %d: %v", pos.Dist, err)
		}
	}
	if _, err := os.Stat(filepath.Join(t.TempDir(), "unused")); err == nil {
		t.Error("the 3x3 databases were written to disk")
	}
}

// TestWeightedPerfect solves a position at each 3×3 distance with the
// perfect database and the largest weight, which takes no slack for a
// detour: each answer is optimal and found straight (issue 57: weight 100
// searched 564 M nodes of a puzzle of 181,440 positions and never ended).
func TestWeightedPerfect(t *testing.T) {
	s := newSolver(t, solver.Config{Dir: filepath.Join(t.TempDir(), "unused")})
	last := -1
	for _, pos := range bfs.All(size3, puzzle.GoalLast) {
		if pos.Dist == last {
			continue
		}
		last = pos.Dist
		p := puzzle.Puzzle{Size: size3, Tiles: pos.Board.Puzzle().Tiles, Optimal: pos.Dist}
		// A minute is a failure, not a wait: each takes microseconds.
		r, err := s.Solve(context.Background(), p, solver.Options{Mode: solver.Weighted, Timeout: time.Minute, Options: search.Options{Weight: search.MaxWeight}})
		if err != nil || r.Length() != pos.Dist || r.Expanded > uint64(pos.Dist) {
			t.Errorf("distance %d: %d moves, %d expanded, %v", pos.Dist, r.Length(), r.Expanded, err)
		}
	}
}

func TestBadPuzzles(t *testing.T) {
	s := newSolver(t, solver.Config{Heuristic: "manhattan"})
	swapped := []int{2, 1, 3, 4, 5, 6, 7, 8, 0}
	for _, c := range []struct {
		name string
		p    puzzle.Puzzle
		opts solver.Options
		want error
	}{
		{"unsolvable", puzzle.Puzzle{Size: size3, Tiles: swapped}, solver.Options{}, puzzle.ErrUnsolvable},
		{"unsolvable, human", puzzle.Puzzle{Size: size3, Tiles: swapped}, solver.Options{Mode: solver.Constructive}, puzzle.ErrUnsolvable},
		{"repeated tile", puzzle.Puzzle{Size: size3, Tiles: []int{1, 1, 3, 4, 5, 6, 7, 8, 0}}, solver.Options{}, puzzle.ErrTile},
		{"too few tiles", puzzle.Puzzle{Size: size3, Tiles: []int{1, 2, 0}}, solver.Options{}, puzzle.ErrTileCount},
		{"wrong optimum", puzzle.Puzzle{Size: size3, Tiles: []int{1, 2, 3, 4, 5, 6, 7, 0, 8}, Optimal: 3}, solver.Options{}, solver.ErrWrongAnswer},
		{"too long for the weight", puzzle.Puzzle{Size: size4, Tiles: korf(1)[0].Tiles, Optimal: 30}, solver.Options{Goal: puzzle.GoalFirst, Mode: solver.Weighted, Options: search.Options{Weight: 1.5}}, solver.ErrWrongAnswer},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := s.Solve(context.Background(), c.p, c.opts); !errors.Is(err, c.want) {
				t.Errorf("error %v, want %v", err, c.want)
			}
		})
	}
	big := puzzle.Puzzle{Size: puzzle.Size{Rows: 6, Cols: 6}, Tiles: make([]int, 36)}
	for i := range big.Tiles {
		big.Tiles[i] = (i + 1) % 36
	}
	if _, err := s.Solve(context.Background(), big, solver.Options{}); err == nil {
		t.Errorf("a 6x6 board searched, with boards of up to %d cells", puzzle.MaxBoardCells)
	}
	if r, err := s.Solve(context.Background(), big, solver.Options{Mode: solver.Constructive}); err != nil || r.Length() != 0 {
		t.Errorf("6x6 goal, human: %d moves, %v", r.Length(), err)
	}
	// Sides whose product overflows to a small count.
	huge := puzzle.Puzzle{Size: puzzle.Size{Rows: 1 << 32, Cols: 1 << 32}, Tiles: []int{0, 1, 2, 3}}
	for _, mode := range []solver.Mode{solver.Optimal, solver.Constructive} {
		if _, err := s.Solve(context.Background(), huge, solver.Options{Mode: mode}); err == nil {
			t.Errorf("a %v board, %v: no error", huge.Size, mode)
		}
	}
	for _, err := range s.SolveAll(context.Background(), nil, 1, solver.Options{}) {
		if !errors.Is(err, solver.ErrNoPuzzles) {
			t.Errorf("SolveAll of a nil stream: %v", err)
		}
	}
	one := func(yield func(puzzle.Puzzle, error) bool) { yield(puzzle.Solved(size4, puzzle.GoalLast), nil) }
	n := 0
	for _, err := range s.SolveAll(context.Background(), one, solver.MaxJobs+1, solver.Options{}) {
		if n++; !errors.Is(err, solver.ErrJobs) {
			t.Errorf("SolveAll of %d jobs: %v", solver.MaxJobs+1, err)
		}
	}
	if n != 1 {
		t.Errorf("SolveAll of %d jobs yielded %d results, want its error alone", solver.MaxJobs+1, n)
	}
}

func TestDatabaseErrors(t *testing.T) {
	dir := t.TempDir()
	s := newSolver(t, solver.Config{Partition: spec555, Dir: dir, Build: pdb.NeverBuild})
	err := s.Prepare(context.Background(), size4, puzzle.GoalLast)
	var de *pdb.StoreError
	if !errors.As(err, &de) || !errors.Is(err, pdb.ErrMissing) || de.Partition != spec555 || de.Dir != dir || de.Size != size4 {
		t.Fatalf("missing databases: %v", err)
	}
	// The default policy builds only each size's default partition.
	if err := newSolver(t, solver.Config{Partition: spec555, Dir: dir}).Prepare(context.Background(), size4, puzzle.GoalLast); !errors.Is(err, pdb.ErrMissing) {
		t.Errorf("a partition not built on first use: %v", err)
	}
	if _, err2 := s.Solve(context.Background(), korf(1)[0], solver.Options{Goal: puzzle.GoalFirst}); !errors.Is(err2, pdb.ErrMissing) {
		t.Errorf("Solve after a failed Prepare: %v", err2)
	}

	// Built, then damaged: the error names the file and the partition;
	// where building is allowed, the file is moved aside and built again.
	if err := newSolver(t, solver.Config{Partition: spec555, Dir: dir, Build: pdb.BuildAny}).Prepare(context.Background(), size4, puzzle.GoalLast); err != nil {
		t.Fatal(err)
	}
	packed := filepath.Join(dir, pdb.FileName(size4, pdb.Goal, []int{1, 2, 3, 6, 7}))
	b, err := os.ReadFile(packed)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 0xff
	if err := errors.Join(os.WriteFile(packed, b, 0o644), os.Remove(packed+".raw")); err != nil {
		t.Fatal(err)
	}
	err = newSolver(t, solver.Config{Partition: spec555, Dir: dir, Build: pdb.NeverBuild}).Prepare(context.Background(), size4, puzzle.GoalLast)
	var fe *pdb.FileError
	if !errors.As(err, &de) || !errors.As(err, &fe) || !errors.Is(err, pdb.ErrCorrupt) ||
		!strings.Contains(err.Error(), packed) || de.Partition != spec555 {
		t.Errorf("damaged database: %v", err)
	}
	var logged []string
	s = newSolver(t, solver.Config{Partition: spec555, Dir: dir, Build: pdb.BuildAny, Log: func(line string) { logged = append(logged, line) }})
	if err := s.Prepare(context.Background(), size4, puzzle.GoalLast); err != nil {
		t.Fatalf("repair: %v", err)
	}
	if _, err := os.Stat(packed + ".damaged"); err != nil || !strings.Contains(strings.Join(logged, "\n"), "moved aside to "+packed+".damaged") {
		t.Errorf("the damaged file was not moved aside and said so: %v\n%s", err, strings.Join(logged, "\n"))
	}
	if r, err := s.Solve(context.Background(), korf(12)[0], solver.Options{Goal: puzzle.GoalFirst}); err != nil || !r.Solved {
		t.Errorf("solving with the repaired databases: %v", err)
	}
}

// TestClose stops a long search, and refuses calls after.
func TestClose(t *testing.T) {
	s, err := solver.New(solver.Config{Heuristic: "manhattan"})
	if err != nil {
		t.Fatal(err)
	}
	hard := korf(88)[0] // billions of nodes with Manhattan distance
	var wg sync.WaitGroup
	var res solver.Result
	// Closed once the search reports that it runs.
	running := make(chan struct{})
	var once sync.Once
	opts := solver.Options{Goal: puzzle.GoalFirst, Options: search.Options{Threads: 2, ProgressEvery: time.Millisecond,
		Progress: func(search.Progress) { once.Do(func() { close(running) }) }}}
	wg.Go(func() {
		res, err = s.Solve(context.Background(), hard, opts)
	})
	<-running
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if !errors.Is(err, solver.ErrClosed) || res.Solved || res.Generated == 0 {
		t.Errorf("search under Close: %v, solved %v, %d generated", err, res.Solved, res.Generated)
	}
	if _, err := s.Solve(context.Background(), korf(1)[0], solver.Options{}); !errors.Is(err, solver.ErrClosed) {
		t.Errorf("Solve after Close: %v", err)
	}
	if err := s.Prepare(context.Background(), size3, puzzle.GoalLast); !errors.Is(err, solver.ErrClosed) {
		t.Errorf("Prepare after Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestTimeout(t *testing.T) {
	s := newSolver(t, solver.Config{Heuristic: "manhattan"})
	opts := solver.Options{Goal: puzzle.GoalFirst, Timeout: 20 * time.Millisecond}
	r, err := s.Solve(context.Background(), korf(88)[0], opts)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.HasPrefix(err.Error(), "timed out after 20ms at bound ") || r.Generated == 0 {
		t.Errorf("error %v, %d generated", err, r.Generated)
	}
}

// stream returns the puzzles as a stream, the one at index bad paired
// with an input error.
func stream(ps []puzzle.Puzzle, bad int) iter.Seq2[puzzle.Puzzle, error] {
	return func(yield func(puzzle.Puzzle, error) bool) {
		for i, p := range ps {
			var err error
			if i == bad {
				err = errors.New("malformed")
			}
			if !yield(p, err) {
				return
			}
		}
	}
}

// TestSolveAll checks the stream's order (easy and hard puzzles mixed,
// three at a time), that an input error keeps its place, and that every
// answer is optimal.
func TestSolveAll(t *testing.T) {
	ps, err := data.Random(60, 5, size3, puzzle.GoalLast)
	if err != nil {
		t.Fatal(err)
	}
	dist := map[puzzle.Board]int{}
	for _, pos := range bfs.All(size3, puzzle.GoalLast) {
		dist[pos.Board] = pos.Dist
	}
	for i := range ps {
		b, _ := puzzle.NewBoard(size3, ps[i].Tiles)
		ps[i].Optimal = dist[b]
	}
	s := newSolver(t, solver.Config{Heuristic: "manhattan"})
	const bad = 17
	i := 0
	for r, err := range s.SolveAll(context.Background(), stream(ps, bad), 3, solver.Options{}) {
		if r.Puzzle.ID != ps[i].ID {
			t.Fatalf("result %d is %s's, want %s's", i, r.Puzzle.ID, ps[i].ID)
		}
		if (i == bad) != (err != nil) || i == bad && r.Solved {
			t.Errorf("%s: %v", r.Puzzle.ID, err)
		}
		i++
	}
	if i != len(ps) {
		t.Errorf("%d results, want %d", i, len(ps))
	}
}

// TestSolveAllStops checks that a loop that breaks, and a context that
// ends, stop the searches under way, and that the stream then returns.
func TestSolveAllStops(t *testing.T) {
	s := newSolver(t, solver.Config{Heuristic: "manhattan"})
	opts := solver.Options{Goal: puzzle.GoalFirst}
	easy := puzzle.Puzzle{ID: "easy", Size: size4, Tiles: []int{1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}}
	hard := append([]puzzle.Puzzle{easy}, korf(88, 88, 88, 88)...)

	n := 0
	for range s.SolveAll(context.Background(), stream(hard, -1), 2, opts) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("%d results before the break", n)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	var stopped int
	for r, err := range s.SolveAll(ctx, stream(hard, -1), 2, opts) {
		if err != nil {
			if !errors.Is(err, context.DeadlineExceeded) || r.Generated == 0 {
				t.Errorf("%s: %v, %d generated", r.Puzzle.ID, err, r.Generated)
			}
			stopped++
		}
	}
	if stopped == 0 || stopped > 2 {
		t.Errorf("%d searches stopped, want those under way: 1 or 2", stopped)
	}
}

// TestOneBuild starts two solvers on one empty directory: the second
// waits for the first's build, says so, and builds nothing itself.
func TestOneBuild(t *testing.T) {
	dir := t.TempDir()
	aBuilding, bWaiting := make(chan struct{}), make(chan struct{})
	var once sync.Once
	a := newSolver(t, solver.Config{Partition: spec555, Dir: dir, Build: pdb.BuildAny, Progress: func(pdb.Progress) {
		once.Do(func() {
			close(aBuilding)
			select { // hold the build until the second is waiting
			case <-bWaiting:
			case <-time.After(10 * time.Second):
			}
		})
	}})
	var bLog []string
	b := newSolver(t, solver.Config{Partition: spec555, Dir: dir, Build: pdb.BuildAny, Log: func(line string) {
		if bLog = append(bLog, line); strings.HasPrefix(line, "waiting") {
			close(bWaiting)
		}
	}})
	var wg sync.WaitGroup
	var errA error
	wg.Go(func() { errA = a.Prepare(context.Background(), size4, puzzle.GoalFirst) })
	<-aBuilding
	errB := b.Prepare(context.Background(), size4, puzzle.GoalFirst)
	wg.Wait()
	log := strings.Join(bLog, "\n")
	if errA != nil || errB != nil || !strings.Contains(log, "which is building databases in") || strings.Contains(log, "building the") {
		t.Errorf("errors %v, %v; the second's log:\n%s", errA, errB, log)
	}
}

// TestPerPuzzle checks that SolveAll gives each puzzle's search hooks of
// its own: PerPuzzle is called once a puzzle, on a copy of the options.
func TestPerPuzzle(t *testing.T) {
	s := newSolver(t, solver.Config{Heuristic: "manhattan"})
	size := puzzle.Size{Rows: 3, Cols: 3}
	puzzles := []puzzle.Puzzle{
		{ID: "far", Size: size, Tiles: []int{8, 6, 7, 2, 5, 4, 3, 0, 1}},
		{ID: "near", Size: size, Tiles: []int{1, 2, 3, 4, 5, 6, 0, 7, 8}},
		{ID: "mid", Size: size, Tiles: []int{1, 2, 3, 0, 4, 6, 7, 5, 8}},
	}
	var mu sync.Mutex
	hooked, reports := map[string]int{}, map[string]int{}
	opts := solver.Options{Options: search.Options{ProgressEvery: time.Nanosecond}}
	opts.PerPuzzle = func(p puzzle.Puzzle, o *search.Options) {
		mu.Lock()
		hooked[p.ID]++
		mu.Unlock()
		o.Progress = func(search.Progress) {
			mu.Lock()
			reports[p.ID]++
			mu.Unlock()
		}
	}
	stream := func(yield func(puzzle.Puzzle, error) bool) {
		for _, p := range puzzles {
			if !yield(p, nil) {
				return
			}
		}
	}
	for res, err := range s.SolveAll(context.Background(), stream, 3, opts) {
		if err != nil {
			t.Fatalf("%s: %v", res.Puzzle.ID, err)
		}
	}
	if reports["far"] == 0 || len(reports) > len(puzzles) {
		t.Errorf("reports %v: want the far puzzle's, under its own id", reports)
	}
	if len(hooked) != len(puzzles) || hooked["far"] != 1 || hooked["near"] != 1 || hooked["mid"] != 1 {
		t.Errorf("hooked %v, want each puzzle once", hooked)
	}
	if opts.Progress != nil {
		t.Error("PerPuzzle changed the caller's options")
	}
}
