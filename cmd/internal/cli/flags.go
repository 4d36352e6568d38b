package cli

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"fifteen/data"
	"fifteen/puzzle"
)

// GoalVar defines the --goal flag on fs: a convention, first or last,
// stored in g (default last); or, where board is not nil, any board,
// written as a puzzle is ("1 2 3 4 0 5 6 7 8", "2x4 1 2 3 0 4 5 6 7"),
// stored in board, and its size in size. A board that is a convention's
// goal is stored as the convention, and keeps its size: the puzzles are
// of the goal's size (issue 76: a 3x3 goal board solved a 4x4 puzzle
// toward the 4x4 goal).
func GoalVar(fs *pflag.FlagSet, g *puzzle.Goal, board **puzzle.Puzzle, size *puzzle.Size, usage string) {
	*g = puzzle.GoalLast
	fs.Var(&goalValue{g, board, size}, "goal", usage)
}

type goalValue struct {
	g     *puzzle.Goal
	board **puzzle.Puzzle // nil where the command takes the conventions only
	size  *puzzle.Size    // the board's, zero for a convention named
}

func (v *goalValue) String() string {
	if v.board != nil && *v.board != nil {
		return (*v.board).Line()
	}
	return v.g.String()
}

func (v *goalValue) Type() string { return "string" }

func (v *goalValue) Set(s string) error {
	if v.board == nil {
		goal, err := puzzle.ParseGoal(s)
		*v.g = goal
		return err
	}
	goal, board, size, err := ParseGoal(s)
	if err != nil {
		return err
	}
	*v.g, *v.board, *v.size = goal, board, size
	return nil
}

// ParseGoal reads a goal as --goal takes it: a convention's name, or a
// board, written as a puzzle is. A board that is a convention's goal is
// returned as the convention, with no board but its size; size is zero
// for a convention named.
func ParseGoal(s string) (goal puzzle.Goal, board *puzzle.Puzzle, size puzzle.Size, err error) {
	if goal, err := puzzle.ParseGoal(s); err == nil {
		return goal, nil, puzzle.Size{}, nil
	}
	p, err := parseBoard(s)
	if err != nil {
		return puzzle.GoalLast, nil, puzzle.Size{}, fmt.Errorf("bad goal %q: want first, last or a board's tiles (%v)", s, err)
	}
	if goal, ok := Convention(p); ok {
		return goal, nil, p.Size, nil
	}
	return puzzle.GoalLast, &p, p.Size, nil
}

// Convention returns the convention whose goal the board p is, if it is
// one's.
func Convention(p puzzle.Puzzle) (puzzle.Goal, bool) {
	for _, g := range []puzzle.Goal{puzzle.GoalLast, puzzle.GoalFirst} {
		if slices.Equal(p.Tiles, puzzle.Solved(p.Size, g).Tiles) {
			return g, true
		}
	}
	return puzzle.GoalLast, false
}

// parseBoard reads one board, without a label, as a puzzle is written.
func parseBoard(s string) (puzzle.Puzzle, error) {
	if strings.Contains(s, ":") {
		return puzzle.Puzzle{}, errors.New("a goal board takes no label")
	}
	r := puzzle.NewReader(strings.NewReader(s), "")
	p, err := r.Next()
	var ie *puzzle.InputError
	switch {
	case err == io.EOF:
		return p, errors.New("no tiles")
	case errors.As(err, &ie):
		return p, errors.New(ie.Reason)
	case err != nil:
		return p, err
	}
	if _, err := r.Next(); err != io.EOF {
		return p, errors.New("more than one board")
	}
	p.ID = ""
	return p, nil
}

// SizeVar defines a board size flag, --size, on fs, stored in size, of at
// most maxCells cells, with the default def.
func SizeVar(fs *pflag.FlagSet, size *puzzle.Size, def puzzle.Size, maxCells int, usage string) {
	*size = def
	fs.Var(&sizeValue{size, maxCells}, "size", usage)
}

type sizeValue struct {
	size     *puzzle.Size
	maxCells int
}

func (v *sizeValue) String() string { return v.size.String() }
func (v *sizeValue) Type() string   { return "string" }
func (v *sizeValue) Set(s string) (err error) {
	*v.size, err = puzzle.ParseSizeUpTo(s, v.maxCells)
	return err
}

// ThreadsVar defines -t, --threads on fs, stored in n, from 0 to max.
func ThreadsVar(fs *pflag.FlagSet, n *int, max int, usage string) {
	fs.VarP(&boundedInt{n, 0, max}, "threads", "t", usage)
}

// JobsVar defines -j, --jobs on fs, stored in n, from 0 to max.
func JobsVar(fs *pflag.FlagSet, n *int, max int, usage string) {
	fs.VarP(&boundedInt{n, 0, max}, "jobs", "j", usage)
}

// boundedInt is an int flag checked to lie in [min, max] as it is set.
type boundedInt struct {
	n        *int
	min, max int
}

func (v *boundedInt) String() string { return strconv.Itoa(*v.n) }
func (v *boundedInt) Type() string   { return "int" }
func (v *boundedInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < v.min || n > v.max {
		return fmt.Errorf("want %d to %d", v.min, v.max)
	}
	*v.n = n
	return nil
}

// Instances are an instance set and the instances picked from it: the
// flags --set and --ids.
type Instances struct {
	name string
	ids  []int
}

// InstancesVar defines --set (default def; "" is none) and --ids on fs.
func InstancesVar(fs *pflag.FlagSet, def, setUsage, idsUsage string) *Instances {
	in := &Instances{}
	fs.StringVar(&in.name, "set", def, setUsage)
	fs.IntSliceVar(&in.ids, "ids", nil, idsUsage)
	return in
}

// Name returns the set's name, "" if none is named.
func (in *Instances) Name() string { return in.name }

// Use names the set, as a flag that implies it does (solve --korf100).
func (in *Instances) Use(name string) { in.name = name }

// Pick returns the set with its picked instances (nil where no set is
// named), or why --set or --ids is wrong.
func (in *Instances) Pick() (*data.Set, error) {
	if in.name == "" {
		if len(in.ids) > 0 {
			return nil, fmt.Errorf("--ids picks from --set")
		}
		return nil, nil
	}
	set, err := data.ParseSet(in.name)
	if err == nil && len(in.ids) > 0 {
		set, err = set.Pick(in.ids)
	}
	if err != nil {
		return nil, err
	}
	return &set, nil
}
