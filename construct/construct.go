// Package construct solves sliding-tile puzzles of any size the way people
// do, in milliseconds and far from optimally: it places the top row tile by
// tile, then the next, until two rows are left, then the left column of
// those two rows, and so on, until a 2×2 square is left to turn into
// place. A row's last two tiles go in together, and so do a column's: the
// second one onto the first's cell, the first next to it, then a search
// over the two tiles' and the blank's places in the small block at the
// line's end seats both.
//
// Its boards are plain slices, so any size works, well beyond the 16 cells
// of puzzle.Board.
package construct

import (
	"errors"
	"fmt"
	"slices"

	"fifteen/puzzle"
)

// Solve returns moves of the blank that take the grid to the goal of
// convention goal. Boards of the first convention are solved as their
// rotation (see puzzle.Puzzle.Rotate), so the placing always starts at
// the goal's far corner from the blank.
func Solve(p puzzle.Puzzle, goal puzzle.Goal) ([]puzzle.Move, error) {
	if !goal.Convention() {
		return nil, fmt.Errorf("goal %v: the constructive solver places tiles toward a convention, first or last", goal)
	}
	if err := p.Check(goal); err != nil {
		return nil, err
	}
	if goal == puzzle.GoalFirst {
		moves, err := Solve(p.Rotate(), puzzle.GoalLast)
		for i, m := range moves {
			moves[i] = m.Opposite()
		}
		return moves, err
	}
	s := newSolver(p)
	if err := s.solve(); err != nil {
		return nil, err
	}
	return cancelInverses(s.moves), nil
}

// cancelInverses drops every move that the next one undoes, as placing one
// tile after another sometimes leaves such pairs.
func cancelInverses(moves []puzzle.Move) []puzzle.Move {
	out := moves[:0]
	for _, m := range moves {
		if len(out) > 0 && out[len(out)-1] == m.Opposite() {
			out = out[:len(out)-1]
			continue
		}
		out = append(out, m)
	}
	return out
}

// solver places tiles toward the goal with the blank last.
type solver struct {
	rows, cols int
	cells      []int // the tile on each cell
	where      []int // the cell of each tile
	fixed      []bool
	moves      []puzzle.Move
}

func newSolver(p puzzle.Puzzle) *solver {
	s := &solver{rows: p.Size.Rows, cols: p.Size.Cols, cells: slices.Clone(p.Tiles), where: make([]int, len(p.Tiles)), fixed: make([]bool, len(p.Tiles))}
	for c, t := range s.cells {
		s.where[t] = c
	}
	return s
}

func (s *solver) cell(r, c int) int { return r*s.cols + c }

// tileFor returns the tile whose goal is cell (r, c).
func (s *solver) tileFor(r, c int) int { return s.cell(r, c) + 1 }

func (s *solver) solve() error {
	top, left := 0, 0
	for ; s.rows-top > 2; top++ {
		for c := left; c < s.cols-2; c++ {
			if err := s.place(s.tileFor(top, c), s.cell(top, c)); err != nil {
				return err
			}
		}
		// The row's last two, with the cell below the first and the 3×2
		// block at the row's end.
		c := s.cols - 2
		if err := s.pair(s.cell(top, c), s.cell(top, c+1), s.cell(top+1, c), s.block(top, c, 3, 2)); err != nil {
			return err
		}
	}
	for ; s.cols-left > 2; left++ {
		// The column's last two, with the cell beside the first and the
		// 2×3 block at the column's end.
		if err := s.pair(s.cell(top, left), s.cell(top+1, left), s.cell(top, left+1), s.block(top, left, 2, 3)); err != nil {
			return err
		}
	}
	// The 2×2 square left: with the blank home, each turn of it round the
	// square moves the three tiles one place round; a solvable square needs
	// at most two turns.
	if err := s.blankTo(s.cell(s.rows-1, s.cols-1)); err != nil {
		return err
	}
	for turns := 0; !s.solved(); turns++ {
		if turns == 2 {
			return errors.New("internal error: the last square does not turn into place")
		}
		for _, m := range []puzzle.Move{puzzle.Up, puzzle.Left, puzzle.Down, puzzle.Right} {
			s.move(m)
		}
	}
	return nil
}

// block returns the cells of the rows×cols block whose top left is (r, c).
func (s *solver) block(r, c, rows, cols int) []int {
	var cells []int
	for i := range rows {
		for j := range cols {
			cells = append(cells, s.cell(r+i, c+j))
		}
	}
	return cells
}

func (s *solver) solved() bool {
	for c, t := range s.cells {
		if t != (c+1)%len(s.cells) {
			return false
		}
	}
	return true
}

// pair seats the last two tiles of a line: the tiles for cells a and b,
// where b ends the line, third is a's neighbour off the line, and window
// holds the six cells of the 3×2 (a row's) or 2×3 (a column's) block at the
// line's end. The tile for b goes to a; the tile for a, if it is outside
// the window, to third; the blank into the window; then a search over the
// window's positions of the two tiles and the blank seats both. (Placing
// them one by one can wall the second in behind the first.)
func (s *solver) pair(a, b, third int, window []int) error {
	ta, tb := a+1, b+1
	if err := s.place(tb, a); err != nil {
		return err
	}
	if !slices.Contains(window, s.where[ta]) {
		if err := s.place(ta, third); err != nil {
			return err
		}
	}
	if !slices.Contains(window, s.where[0]) {
		// The nearest free window cell, ta held where it is.
		s.fixed[s.where[ta]] = true
		var best []int
		for _, c := range window {
			if p := s.path(s.where[0], c); !s.fixed[c] && p != nil && (best == nil || len(p) < len(best)) {
				best = p
			}
		}
		if best == nil {
			return errors.New("internal error: the blank cannot reach a line's end")
		}
		for _, c := range best {
			s.moveBlankTo(c)
		}
		s.fixed[s.where[ta]] = false
	}
	s.fixed[a], s.fixed[third] = false, false
	if err := s.seat(ta, tb, a, b, window); err != nil {
		return err
	}
	s.fixed[a], s.fixed[b] = true, true
	return nil
}

// seat moves tiles ta and tb, and the blank, all in the window, until ta
// is on a and tb on b: a breadth-first search over their cells in it.
func (s *solver) seat(ta, tb, a, b int, window []int) error {
	in := make([]int, len(s.cells)) // a window cell's place in window, plus 1
	for i, c := range window {
		in[c] = i + 1
	}
	w := len(window)
	code := func(x, y, blank int) int { return ((in[x]-1)*w+in[y]-1)*w + in[blank] - 1 }
	start := code(s.where[ta], s.where[tb], s.where[0])
	prev := make([]int, w*w*w)
	for i := range prev {
		prev[i] = -1
	}
	prev[start] = start
	for queue := []int{start}; len(queue) > 0; queue = queue[1:] {
		st := queue[0]
		x, y, blank := window[st/(w*w)], window[st/w%w], window[st%w]
		if x == a && y == b {
			var cells []int // the blank's cells, backwards
			for ; st != start; st = prev[st] {
				cells = append(cells, window[st%w])
			}
			for i := len(cells) - 1; i >= 0; i-- {
				s.moveBlankTo(cells[i])
			}
			return nil
		}
		for _, c := range s.neighbours(blank) {
			if in[c] == 0 {
				continue
			}
			nx, ny := x, y
			switch c {
			case x:
				nx = blank
			case y:
				ny = blank
			}
			if next := code(nx, ny, c); prev[next] < 0 {
				prev[next] = st
				queue = append(queue, next)
			}
		}
	}
	return errors.New("internal error: a line's last two tiles cannot be seated")
}

// place moves tile t to cell dst and fixes it there.
func (s *solver) place(t, dst int) error {
	if err := s.route(t, dst); err != nil {
		return err
	}
	s.fixed[dst] = true
	return nil
}

// route moves tile t to cell dst in the fewest moves of the blank through
// the free cells: a breadth-first search over the pairs (t's cell, the
// blank's cell), which finds the way round where the blank would
// otherwise be walled in between the tile and the fixed cells.
func (s *solver) route(t, dst int) error {
	n := len(s.cells)
	start := s.where[t]*n + s.where[0]
	prev := make([]int32, n*n)
	for i := range prev {
		prev[i] = -1
	}
	prev[start] = int32(start)
	queue := []int{start}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		tile, blank := st/n, st%n
		if tile == dst {
			var cells []int // the blank's cells, backwards
			for ; st != start; st = int(prev[st]) {
				cells = append(cells, st%n)
			}
			for i := len(cells) - 1; i >= 0; i-- {
				s.moveBlankTo(cells[i])
			}
			return nil
		}
		for _, c := range s.neighbours(blank) {
			if s.fixed[c] {
				continue
			}
			next := tile*n + c
			if c == tile {
				next = blank*n + c // the tile slides into the blank's cell
			}
			if prev[next] < 0 {
				prev[next] = int32(st)
				queue = append(queue, next)
			}
		}
	}
	return fmt.Errorf("internal error: tile %d cannot reach cell %d", t, dst)
}

// blankTo moves the blank to cell dst through free cells.
func (s *solver) blankTo(dst int) error {
	path := s.path(s.where[0], dst)
	if path == nil {
		return errors.New("internal error: the blank is walled in")
	}
	for _, c := range path {
		s.moveBlankTo(c)
	}
	return nil
}

// path returns the cells after from on a shortest path to dst through
// cells not fixed, or nil if there is none.
func (s *solver) path(from, dst int) []int {
	if from == dst {
		return []int{}
	}
	prev := make([]int, len(s.cells))
	for i := range prev {
		prev[i] = -1
	}
	prev[from] = from
	queue := []int{from}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, n := range s.neighbours(c) {
			if prev[n] >= 0 || s.fixed[n] {
				continue
			}
			prev[n] = c
			if n == dst {
				var p []int
				for x := dst; x != from; x = prev[x] {
					p = append(p, x)
				}
				slices.Reverse(p)
				return p
			}
			queue = append(queue, n)
		}
	}
	return nil
}

func (s *solver) neighbours(c int) []int {
	r, col := c/s.cols, c%s.cols
	var ns []int
	if r > 0 {
		ns = append(ns, c-s.cols)
	}
	if col > 0 {
		ns = append(ns, c-1)
	}
	if col < s.cols-1 {
		ns = append(ns, c+1)
	}
	if r < s.rows-1 {
		ns = append(ns, c+s.cols)
	}
	return ns
}

// moveBlankTo moves the blank to the neighbouring cell c, recording the
// move.
func (s *solver) moveBlankTo(c int) {
	b := s.where[0]
	var m puzzle.Move
	switch c - b {
	case -s.cols:
		m = puzzle.Up
	case -1:
		m = puzzle.Left
	case 1:
		m = puzzle.Right
	default:
		m = puzzle.Down
	}
	s.move(m)
}

// move moves the blank one step by m, which must stay on the board.
func (s *solver) move(m puzzle.Move) {
	b := s.where[0]
	c := b + [...]int{puzzle.Up: -s.cols, puzzle.Left: -1, puzzle.Right: 1, puzzle.Down: s.cols}[m]
	t := s.cells[c]
	s.cells[b], s.cells[c] = t, 0
	s.where[t], s.where[0] = b, c
	s.moves = append(s.moves, m)
}
