package bench

import (
	"bufio"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"fifteen/puzzle"
	"fifteen/solver"
)

// A Solver solves a configuration's instances: the project's
// (*solver.Solver) or the C yardstick (*Yardstick).
type Solver interface {
	SolveAll(ctx context.Context, puzzles iter.Seq2[puzzle.Puzzle, error], jobs int, opts solver.Options) iter.Seq2[solver.Result, error]
	Close() error
}

// YardstickName is the configuration that runs the yardstick.
const YardstickName = "ref663"

//go:embed yardstick/ref663.c
var yardstickSource []byte

// Yardstick is the C program that this project's speed is measured
// against, bench/yardstick/ref663.c: IDA* with Korf and Felner's
// blank-free 6-6-3 databases and their reflection, only the move that
// undoes the last pruned, the blank moved up, left, right, down. It solves
// 4×4 boards toward Korf's goal (puzzle.GoalFirst) on one thread, and
// counts generated nodes only.
type Yardstick struct {
	dir  string // its binary's
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Scanner
	logs chan error // its standard error's reader's end
	done int        // the instances asked so far, which numbers them
}

// StartYardstick compiles the yardstick with the system's C compiler, as
// docs/performance.md does (cc -O3 -march=native), starts it, and waits
// while it builds its databases (seconds), which it reports on its
// standard error as it ends: a run's wall time holds its searches alone.
func StartYardstick(ctx context.Context) (_ *Yardstick, err error) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		return nil, fmt.Errorf("the yardstick %s is a C program: %w", YardstickName, err)
	}
	dir, err := os.MkdirTemp("", "fifteen-yardstick-")
	if err != nil {
		return nil, err
	}
	y := &Yardstick{dir: dir}
	defer func() {
		if err != nil {
			y.Close()
		}
	}()
	src, bin := filepath.Join(dir, "ref663.c"), filepath.Join(dir, "ref663")
	if err := os.WriteFile(src, yardstickSource, 0o644); err != nil {
		return nil, err
	}
	if out, err := exec.CommandContext(ctx, cc, "-O3", "-march=native", "-o", bin, src).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("compiling the yardstick: %v: %s", err, out)
	}
	y.cmd = exec.Command(bin)
	if y.in, err = y.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := y.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	y.out = bufio.NewScanner(out)
	logs, err := y.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := y.cmd.Start(); err != nil {
		return nil, err
	}
	ready := make(chan bool, 2) // built, then ended: never blocks
	y.logs = make(chan error, 1)
	go func() {
		lines := bufio.NewScanner(logs)
		for lines.Scan() {
			if strings.HasPrefix(lines.Text(), "pdb build") {
				ready <- true
			}
		}
		ready <- false
		y.logs <- lines.Err() // read to the end, before Wait closes it
	}()
	select {
	case ok := <-ready:
		if !ok {
			return nil, errors.New("the yardstick ended before its databases were built")
		}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return y, nil
}

// SolveAll solves the puzzles one at a time, whatever jobs and opts ask
// for, and checks each answer as the solver does (solver.ErrWrongAnswer):
// its moves replay to the goal in the known optimal length, if known. A
// search is not interrupted: ctx is looked at between puzzles.
func (y *Yardstick) SolveAll(ctx context.Context, puzzles iter.Seq2[puzzle.Puzzle, error], _ int, _ solver.Options) iter.Seq2[solver.Result, error] {
	return func(yield func(solver.Result, error) bool) {
		for p, err := range puzzles {
			if ctx.Err() != nil {
				return
			}
			res := solver.Result{Puzzle: p, Heuristic: YardstickName}
			if err == nil {
				res, err = y.solve(p)
			}
			if !yield(res, err) {
				return
			}
		}
	}
}

// solve has the yardstick solve p: it reads "ID t0 … t15" and writes
// "ID length nodes seconds h0 blank-path".
func (y *Yardstick) solve(p puzzle.Puzzle) (solver.Result, error) {
	res := solver.Result{Puzzle: p, Heuristic: YardstickName}
	if p.Size != (puzzle.Size{Rows: 4, Cols: 4}) || p.Check(puzzle.GoalFirst) != nil {
		return res, fmt.Errorf("the yardstick solves solvable 4x4 boards toward Korf's goal (--goal first)")
	}
	y.done++
	line := strconv.Itoa(y.done)
	for _, t := range p.Tiles {
		line += " " + strconv.Itoa(t)
	}
	if _, err := io.WriteString(y.in, line+"\n"); err != nil {
		return res, fmt.Errorf("the yardstick: %w", err)
	}
	if !y.out.Scan() {
		return res, fmt.Errorf("the yardstick gave no answer (%v)", y.out.Err())
	}
	f := strings.Fields(y.out.Text())
	var id, length, h0 int
	var nodes uint64
	var seconds float64
	var path []int
	_, err := fmt.Sscan(strings.Join(f[:min(len(f), 5)], " "), &id, &length, &nodes, &seconds, &h0)
	if err == nil && len(f) == 6 {
		path, err = ints(f[5])
	}
	if err != nil || id != y.done || len(path) != length {
		return res, fmt.Errorf("the yardstick's answer %q is not one to puzzle %d (%v)", y.out.Text(), y.done, err)
	}
	res.Solved, res.H0 = true, h0
	res.Generated = nodes + 1 // and the root, as the solver counts
	res.Elapsed = time.Duration(seconds * float64(time.Second))
	b, err := p.Board()
	for _, cell := range path {
		if err != nil {
			break
		}
		err = fmt.Errorf("%w: the yardstick moved the blank from %d to %d", solver.ErrWrongAnswer, b.Blank(), cell)
		for _, m := range puzzle.Moves {
			if next, _, ok := b.Move(m); ok && next.Blank() == cell {
				b, err = next, nil
				res.Moves = append(res.Moves, m)
				break
			}
		}
	}
	switch {
	case err != nil:
		return res, err
	case b != puzzle.SolvedBoard(p.Size, puzzle.GoalFirst):
		return res, fmt.Errorf("%w: the yardstick's moves do not reach the goal", solver.ErrWrongAnswer)
	case p.Optimal != 0 && length != p.Optimal:
		return res, fmt.Errorf("%w: the yardstick found %d moves, the optimum is %d", solver.ErrWrongAnswer, length, p.Optimal)
	}
	_, tiles, _ := p.Apply(res.Moves) // the moves are played above
	res.Tiles, res.Optimal = tiles, true
	return res, nil
}

// ints parses comma-separated numbers; "-" is none.
func ints(s string) ([]int, error) {
	if s == "-" {
		return nil, nil
	}
	var xs []int
	for f := range strings.SplitSeq(s, ",") {
		x, err := strconv.Atoi(f)
		if err != nil {
			return nil, err
		}
		xs = append(xs, x)
	}
	return xs, nil
}

// Close ends the yardstick and removes its binary.
func (y *Yardstick) Close() error {
	if y.cmd != nil && y.cmd.Process != nil {
		y.cmd.Process.Kill() // at once, even while it builds or searches
		<-y.logs
		y.cmd.Wait() // killed: its answers were checked as they came
	}
	return os.RemoveAll(y.dir)
}
