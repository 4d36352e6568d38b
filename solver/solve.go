package solver

import (
	"context"
	"errors"
	"fmt"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"fifteen/construct"
	"fifteen/puzzle"
	"fifteen/search"
)

// Mode is how a puzzle is solved.
type Mode uint8

const (
	// Optimal finds a shortest solution (IDA*).
	Optimal Mode = iota
	// Weighted finds one at most Options.Weight times as long, faster
	// (weighted IDA*).
	Weighted
	// Greedy finds one fast with no bound on its length (greedy
	// best-first search).
	Greedy
	// Constructive solves the way people do, row by row and column by
	// column (package construct): instant, on boards of up to
	// puzzle.MaxCells cells, about twice the optimal length.
	Constructive
)

var modeNames = [...]string{Optimal: "optimal", Weighted: "weighted", Greedy: "greedy", Constructive: "constructive"}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", m)
}

// ParseMode returns the mode that String names so: "optimal",
// "weighted", "greedy" or "constructive" (also "human", its name before).
func ParseMode(name string) (Mode, error) {
	if i := slices.Index(modeNames[:], name); i >= 0 {
		return Mode(i), nil
	}
	if name == "human" {
		return Constructive, nil
	}
	return 0, fmt.Errorf("mode %q: want %s", name, strings.Join(modeNames[:], ", "))
}

// MarshalText writes the mode's name, so that JSON and flags spell modes
// alike.
func (m Mode) MarshalText() ([]byte, error) {
	if int(m) >= len(modeNames) {
		return nil, fmt.Errorf("unknown mode %d", m)
	}
	return []byte(m.String()), nil
}

// UnmarshalText reads a mode's name (ParseMode).
func (m *Mode) UnmarshalText(text []byte) error {
	mode, err := ParseMode(string(text))
	if err == nil {
		*m = mode
	}
	return err
}

// Options tune a solve. The zero value finds an optimal solution toward
// the goal convention puzzle.GoalLast, with one thread, by the best
// measured search, the commands' (search.Options); the special cases are
// asked for by name, such as plain IDA* (Frontier: search.DepthFirst).
type Options struct {
	// Goal is the goal convention, unless GoalBoard is set.
	Goal puzzle.Goal
	// GoalBoard, if not nil, is the goal instead: any board, of the size
	// of the puzzles solved toward it (puzzle.NewFrame). The split search
	// and the checks of results read back (Check, CheckIterations) take
	// the conventions only.
	GoalBoard *puzzle.Puzzle
	Mode      Mode
	// Timeout, if above 0, bounds each puzzle's search.
	Timeout time.Duration
	// Options tune the IDA* search of the optimal and weighted modes
	// (search.Options): its threads, pruning, move order, the weighted
	// mode's Weight (1.01 to search.MaxWeight; the other modes take 0),
	// and the hooks that report its progress and keep its checkpoints.
	search.Options
	// PerPuzzle, if not nil, is given each puzzle and a copy of the
	// search's options before its search, to set the hooks that must
	// know their puzzle: SolveAll's searches run at once, and their
	// calls may overlap.
	PerPuzzle func(puzzle.Puzzle, *search.Options)
}

// Validate reports the first option that is out of its bounds. Solve
// calls it; a program that takes options from its user can call it as
// they are set.
func (o *Options) Validate() error {
	switch {
	case !o.Goal.Convention():
		return fmt.Errorf("unknown goal convention %d", o.Goal)
	case o.GoalBoard != nil && o.Goal != puzzle.GoalLast:
		return fmt.Errorf("goal %v and a goal board: give one", o.Goal)
	case o.Mode > Constructive:
		return fmt.Errorf("unknown mode %v", o.Mode)
	case o.Mode == Weighted && !search.ValidWeight(o.Weight):
		// One message for every weight refused, in the solver's terms: the
		// optimal search is a mode of its own (issue 66: search's "0
		// searches optimally" contradicted "1 is the optimal mode").
		return fmt.Errorf("the weighted mode with a weight of %v: want 1.01 to %d, in hundredths (the optimal mode searches optimally)", o.Weight, search.MaxWeight)
	case o.Mode != Weighted && o.Weight != 0:
		return fmt.Errorf("a weight of %v in mode %v: only the weighted mode takes one", o.Weight, o.Mode)
	case o.Timeout < 0:
		return fmt.Errorf("negative timeout %v", o.Timeout)
	}
	return o.Options.Validate()
}

// search returns the options of puzzle p's search.
func (o *Options) search(p puzzle.Puzzle) search.Options {
	so := o.Options
	if o.PerPuzzle != nil {
		o.PerPuzzle(p, &so)
	}
	return so
}

// Result is what solving one puzzle gave. Its embedded search.Result holds the
// moves and the search's counts; a search stopped early keeps the counts
// so far.
type Result struct {
	Puzzle puzzle.Puzzle
	search.Result
	Tiles     []int  // the tile each move slides, once solved
	Optimal   bool   // whether the solution is proved shortest
	Heuristic string // the heuristic's name, such as "pdb:771", or "constructive"
}

// ErrWrongAnswer marks a solution that failed its checks: it does not
// replay to the goal, or contradicts the puzzle's known optimum. It would
// be a bug in the solver.
var ErrWrongAnswer = errors.New("wrong answer")

// Solve solves the puzzle. When ctx ends or the timeout passes first, it
// returns the search's counts so far with an error that wraps ctx's error
// (context.DeadlineExceeded for the timeout), or ErrClosed if Close
// stopped it.
func (s *Solver) Solve(ctx context.Context, p puzzle.Puzzle, opts Options) (Result, error) {
	res := Result{Puzzle: p}
	if err := opts.Validate(); err != nil {
		return res, err
	}
	ctx, done, err := s.enter(ctx)
	if err != nil {
		return res, err
	}
	defer done()
	pprof.Do(ctx, pprof.Labels("puzzle", p.ID), func(ctx context.Context) {
		err = s.solve(ctx, &res, opts)
	})
	if err == nil {
		err = Verify(&res, opts)
	}
	return res, err
}

// solve runs the search that opts.Mode names, under the timeout: opening
// the heuristic, which may build databases, is not bounded by it.
func (s *Solver) solve(ctx context.Context, res *Result, opts Options) error {
	if opts.GoalBoard != nil {
		return s.solveFramed(ctx, res, opts)
	}
	p := &res.Puzzle
	if opts.Mode == Constructive {
		res.Heuristic = "constructive"
		t0 := time.Now()
		moves, err := construct.Solve(*p, opts.Goal)
		res.Moves, res.Solved, res.Elapsed = moves, err == nil, time.Since(t0)
		return err
	}
	start, h, err := s.open(ctx, res, opts.Goal)
	if err != nil {
		return err
	}
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	if opts.Mode == Greedy {
		res.Result, err = search.Greedy(ctx, start, opts.Goal, h)
	} else {
		res.Result, err = search.Solve(ctx, start, opts.Goal, h, opts.search(*p))
	}
	return stopped(ctx, err, res, opts.Mode, opts.Timeout)
}

// solveFramed solves res's puzzle toward the goal board of opts framed
// (puzzle.Frame): as the framed puzzle toward a goal of row order, whose
// moves it then takes back.
func (s *Solver) solveFramed(ctx context.Context, res *Result, opts Options) error {
	frame, err := puzzle.NewFrame(*opts.GoalBoard)
	if err != nil {
		return err
	}
	if err := frame.Check(res.Puzzle); err != nil {
		return err
	}
	if opts.Mode == Constructive && !frame.Goal().Convention() {
		return fmt.Errorf("the constructive mode places tiles toward a goal with the blank in a corner; the goal %v has it on cell %d", frame.Target(), frame.Target().Blank())
	}
	framed := Result{Puzzle: frame.Puzzle(res.Puzzle)}
	opts.Goal, opts.GoalBoard = frame.Goal(), nil
	if perPuzzle := opts.PerPuzzle; perPuzzle != nil {
		opts.PerPuzzle = func(_ puzzle.Puzzle, so *search.Options) { perPuzzle(res.Puzzle, so) }
	}
	err = s.solve(ctx, &framed, opts)
	frame.Back(framed.Moves)
	res.Result, res.Heuristic = framed.Result, framed.Heuristic
	return err
}

// check reports whether p is well formed and can reach the goal.
func (o *Options) check(p puzzle.Puzzle) error {
	if o.GoalBoard == nil {
		return p.Check(o.Goal)
	}
	frame, err := puzzle.NewFrame(*o.GoalBoard)
	if err != nil {
		return err
	}
	return frame.Check(p)
}

// target returns the goal of puzzles of the size.
func (o *Options) target(size puzzle.Size) []int {
	if o.GoalBoard != nil {
		return o.GoalBoard.Tiles
	}
	return puzzle.Solved(size, o.Goal).Tiles
}

// open returns res's puzzle as a board, and the heuristic that searches
// it toward goal, whose name it records in res.
func (s *Solver) open(ctx context.Context, res *Result, goal puzzle.Goal) (puzzle.Board, *search.Heuristic, error) {
	p := &res.Puzzle
	start, err := puzzle.NewBoard(p.Size, p.Tiles)
	if err != nil {
		return start, nil, err
	}
	h, err := s.heuristic(ctx, p.Size, goal)
	if err != nil {
		return start, nil, err
	}
	res.Heuristic = h.Name()
	return start, h, nil
}

// Verify replays a solution found with opts, records the tiles it slides
// and whether it is optimal, and compares its length with the puzzle's
// known optimum: equal for an optimal solution; for the others no
// shorter, and for a weighted one at most the weight times as long. An
// optimal solution must also come with the iterations that prove it, the
// last of whose bounds is its length. Solve calls it; a result read from
// a file needs Check, which also recomputes where the iterations begin.
func Verify(res *Result, opts Options) error {
	p := &res.Puzzle
	if err := opts.check(*p); err != nil {
		return fmt.Errorf("%w: %v", ErrWrongAnswer, err)
	}
	if !res.Solved {
		return fmt.Errorf("%w: not solved", ErrWrongAnswer)
	}
	end, slid, err := p.Apply(res.Moves)
	switch {
	case err != nil:
		return fmt.Errorf("%w: %v", ErrWrongAnswer, err)
	case !slices.Equal(end.Tiles, opts.target(p.Size)):
		return fmt.Errorf("%w: the moves do not reach the goal", ErrWrongAnswer)
	}
	res.Tiles, res.Optimal = slid, opts.Mode == Optimal
	// IDA* finds an optimal solution in the iteration whose bound is its
	// length: a longer one labelled optimal is not what the search found.
	if k := len(res.Iterations); res.Optimal && (k == 0 || res.Length() != res.Iterations[k-1].Bound) {
		last := "no iteration"
		if k > 0 {
			last = fmt.Sprintf("the last iteration's bound is %d", res.Iterations[k-1].Bound)
		}
		return fmt.Errorf("%w: %d moves, where %s", ErrWrongAnswer, res.Length(), last)
	}
	if n := res.Length(); p.Optimal > 0 {
		switch {
		case n < p.Optimal || res.Optimal && n != p.Optimal:
			return fmt.Errorf("%w: %d moves, the optimum is %d", ErrWrongAnswer, n, p.Optimal)
		case opts.Mode == Weighted && float64(n) > opts.Weight*float64(p.Optimal):
			return fmt.Errorf("%w: %d moves, over %v times the optimum %d", ErrWrongAnswer, n, opts.Weight, p.Optimal)
		}
	}
	return nil
}

// Check verifies a result found with opts and read back from a file, as
// Verify does; the result of an IDA* search (the optimal and weighted
// modes) must also have the iterations and first estimate that the
// Solver's heuristic gives its puzzle (CheckIterations), and a solution
// that the search could have found in its last iteration
// (search.CheckPath). It opens the heuristic, as Solve would.
func (s *Solver) Check(ctx context.Context, res *Result, opts Options) error {
	if err := opts.Validate(); err != nil {
		return err
	}
	if err := Verify(res, opts); err != nil || opts.Mode != Optimal && opts.Mode != Weighted {
		return err
	}
	if len(res.Iterations) == 0 { // a weighted result's; an optimal one's fails Verify
		return fmt.Errorf("%w: no iteration", ErrWrongAnswer)
	}
	bound := res.Iterations[len(res.Iterations)-1].Bound
	err := s.ida(ctx, &Result{Puzzle: res.Puzzle}, opts, func(_ context.Context, start puzzle.Board, h *search.Heuristic) error {
		if err := search.CheckIterations(start, opts.Goal, h, opts.Weight, res.Iterations, 0); err != nil {
			return err
		}
		return search.CheckPath(start, opts.Goal, h, opts.Options, res.Moves, bound)
	})
	if errors.Is(err, search.ErrIterations) {
		return fmt.Errorf("%w: %w", ErrWrongAnswer, err)
	} else if err != nil {
		return err // the heuristic could not be opened, say: no fault of the result's
	}
	// The first bound is the estimate, checked; a weighted one is W times it.
	if opts.Mode == Optimal && res.H0 != res.Iterations[0].Bound {
		return fmt.Errorf("%w: an estimate of %d, where the heuristic gives %d", ErrWrongAnswer, res.H0, res.Iterations[0].Bound)
	}
	return nil
}

// CheckIterations reports whether its could be, in order, the iterations
// of the IDA* search of puzzle p with opts under the Solver's heuristic,
// followed, if next is not 0, by one of bound next, as f counts it
// (Plan.Bound): the first bound is p's estimate, and each rises from the
// one before by no more than the search's next bound can
// (search.CheckIterations). A split search's merge checks so each bound
// it plans from the tasks' files.
func (s *Solver) CheckIterations(ctx context.Context, p puzzle.Puzzle, opts Options, its []search.Iteration, next int) error {
	res := Result{Puzzle: p}
	return s.ida(ctx, &res, opts, func(_ context.Context, start puzzle.Board, h *search.Heuristic) error {
		return search.CheckIterations(start, opts.Goal, h, opts.Weight, its, next)
	})
}

// stopped turns the error of a search that ctx stopped into one that says
// where: the timeout, Close, or the caller's context; and, for an IDA*
// search that began, the bound it was at (a greedy search has none).
func stopped(ctx context.Context, err error, res *Result, mode Mode, timeout time.Duration) error {
	if err == nil || ctx.Err() == nil || !errors.Is(err, ctx.Err()) {
		return err
	}
	at := ""
	if n := len(res.Iterations); mode != Greedy && n > 0 { // none: stopped before it began
		at = fmt.Sprintf(" at bound %d", res.Iterations[n-1].Bound)
	}
	cause := context.Cause(ctx)
	switch {
	case errors.Is(cause, ErrClosed):
		return &stopError{fmt.Sprintf("stopped%s: the solver was closed", at), cause}
	case timeout > 0 && errors.Is(cause, context.DeadlineExceeded):
		return &stopError{fmt.Sprintf("timed out after %v%s", timeout, at), cause}
	}
	return &stopError{"interrupted" + at, cause}
}

// stopError says where a search stopped, and wraps why.
type stopError struct {
	msg   string
	cause error
}

func (e *stopError) Error() string { return e.msg }
func (e *stopError) Unwrap() error { return e.cause }
