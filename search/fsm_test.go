package search

import (
	"encoding/binary"
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	"fifteen/internal/testtool"
	"fifteen/puzzle"
)

var update = flag.Bool("update", false, "regenerate redundant.txt (takes about 20 s)")

// TestRedundantText regenerates the redundant sequences and compares them
// with the embedded list: up to 10 moves always, 12 with the long tests (testtool.Long), all
// MaxPruneDepth with -update, which rewrites the file.
func TestRedundantText(t *testing.T) {
	depth := 10
	if testtool.Long() {
		depth = 12
	}
	if *update {
		depth = MaxPruneDepth
	}
	var want strings.Builder
	for _, s := range redundantSequences(depth) {
		want.WriteString(puzzle.FormatMoves(s) + "\n")
	}
	if *update {
		if err := os.WriteFile("redundant.txt", []byte(want.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	var got strings.Builder
	for line := range strings.Lines(redundantText) {
		if len(strings.TrimSpace(line)) <= depth {
			got.WriteString(line)
		}
	}
	if got.String() != want.String() {
		t.Fatalf("redundant.txt differs from the sequences generated up to %d moves; run go test -run TestRedundantText -update", depth)
	}
	if last := strings.TrimSpace(redundantText[strings.LastIndexByte(strings.TrimSpace(redundantText), '\n')+1:]); len(last) != MaxPruneDepth {
		t.Errorf("redundant.txt ends with a %d-move sequence, want MaxPruneDepth = %d", len(last), MaxPruneDepth)
	}
}

func TestRedundantShort(t *testing.T) {
	// Depth 2: exactly the inverse pairs. Depth 6 adds the 2×2 cycles'
	// halves: six moves one way round equal six moves the other way.
	got := map[string]bool{}
	for _, s := range redundantSequences(6) {
		got[puzzle.FormatMoves(s)] = true
	}
	for _, w := range []string{"UD", "DU", "LR", "RL", "DLURDL"} {
		if !got[w] {
			t.Errorf("%s is not listed as redundant", w)
		}
	}
	for _, w := range []string{"URDLUR", "UU", "ULDR"} {
		if got[w] {
			t.Errorf("%s is listed as redundant", w)
		}
	}
}

func TestPrunerInverse(t *testing.T) {
	p, err := prunerFor(PruneInverse)
	if err != nil {
		t.Fatal(err)
	}
	// Every state rejects exactly the move undoing the one that led to it.
	for _, first := range puzzle.Moves {
		s := p.next[0][first]
		for _, m := range puzzle.Moves {
			if rejected := p.next[s][m] < 0; rejected != (m == first.Opposite()) {
				t.Errorf("after %v, move %v rejected = %v", first, m, rejected)
			}
		}
	}
	if _, err := prunerFor(MaxPruneDepth + 1); err == nil {
		t.Error("depth beyond the list accepted")
	}
}

// TestPrunerRejectsRedundant plays every sequence of up to 8 moves through
// the depth-8 machine: it must reject exactly the sequences that contain a
// redundant one.
func TestPrunerRejectsRedundant(t *testing.T) {
	const depth = 8
	p, err := prunerFor(depth)
	if err != nil {
		t.Fatal(err)
	}
	var redundant []string
	for _, s := range redundantSequences(depth) {
		redundant = append(redundant, puzzle.FormatMoves(s))
	}
	var walk func(s []puzzle.Move, state int32)
	walk = func(s []puzzle.Move, state int32) {
		if len(s) == depth {
			return
		}
		for _, m := range puzzle.Moves {
			next := append(slices.Clip(s), m)
			text := puzzle.FormatMoves(next)
			contains := slices.ContainsFunc(redundant, func(r string) bool { return strings.HasSuffix(text, r) })
			ns := p.next[state][m]
			if (ns < 0) != contains {
				t.Fatalf("%s: rejected = %v, ends with a redundant sequence = %v", text, ns < 0, contains)
			}
			if ns >= 0 {
				walk(next, ns)
			}
		}
	}
	walk(nil, 0)
}

// box is a bounding box of cells relative to the blank's start.
type box struct{ r0, r1, c0, c1 int8 }

func (b box) within(o box) bool { return b.r0 >= o.r0 && b.r1 <= o.r1 && b.c0 >= o.c0 && b.c1 <= o.c1 }

// seq is a move sequence, move i in bits 2i..2i+1.
type seq struct {
	moves uint64
	n     int
}

func (s seq) at(i int) puzzle.Move { return puzzle.Move(s.moves>>(2*i)) & 3 }

func (s seq) push(m puzzle.Move) seq { return seq{s.moves | uint64(m)<<(2*s.n), s.n + 1} }

func (s seq) slice() []puzzle.Move {
	moves := make([]puzzle.Move, s.n)
	for i := range moves {
		moves[i] = s.at(i)
	}
	return moves
}

// redundantSequences returns the minimal redundant sequences of at most
// depth moves, shortest first.
func redundantSequences(depth int) [][]puzzle.Move {
	var (
		redundant [][]puzzle.Move
		// The redundant sequences reversed, as a trie, to find a redundant
		// suffix by walking a sequence backwards.
		rtrie = [][4]int32{{-1, -1, -1, -1}}
		final = []bool{false}
		seen  = map[string][]box{} // effect → boxes of the kept sequences with it
		sim   = newSimulator(depth)
	)
	hasRedundantSuffix := func(s seq) bool {
		n := int32(0)
		for i := s.n - 1; i >= 0; i-- {
			if n = rtrie[n][s.at(i)]; n < 0 {
				return false
			}
			if final[n] {
				return true
			}
		}
		return false
	}
	addRedundant := func(s seq) {
		redundant = append(redundant, s.slice())
		n := int32(0)
		for i := s.n - 1; i >= 0; i-- {
			m := s.at(i)
			if rtrie[n][m] < 0 {
				rtrie[n][m] = int32(len(rtrie))
				rtrie = append(rtrie, [4]int32{-1, -1, -1, -1})
				final = append(final, false)
			}
			n = rtrie[n][m]
		}
		final[n] = true
	}

	key, bx := sim.effect(seq{})
	seen[string(key)] = []box{bx}
	level := []seq{{}}
	for length := 1; length <= depth; length++ {
		var kept []seq
		for _, p := range level {
			for _, m := range puzzle.Moves {
				s := p.push(m)
				if hasRedundantSuffix(s) {
					continue
				}
				key, bx := sim.effect(s)
				boxes := seen[string(key)]
				if slices.ContainsFunc(boxes, bx.contains) {
					addRedundant(s)
					continue
				}
				seen[string(key)] = append(boxes, bx)
				kept = append(kept, s)
			}
		}
		level = kept
	}
	return redundant
}

// contains reports whether o lies within b.
func (b box) contains(o box) bool { return o.within(b) }

// simulator plays move sequences on an unbounded board.
type simulator struct {
	span   int     // cells are offsets in -span..span
	origin []int16 // origin[cell]: the cell whose content is there now, -1 for itself
	dirty  []int
	key    []byte
}

func newSimulator(span int) *simulator {
	w := 2*span + 1
	s := &simulator{span: span, origin: make([]int16, w*w)}
	for i := range s.origin {
		s.origin[i] = -1
	}
	return s
}

// effect plays s from the centre and returns its effect, as a key, and the
// bounding box of the blank's path.
func (sim *simulator) effect(s seq) ([]byte, box) {
	w := 2*sim.span + 1
	at := func(cell int) int16 {
		if o := sim.origin[cell]; o >= 0 {
			return o
		}
		return int16(cell)
	}
	blank := sim.span*w + sim.span
	r, c := 0, 0
	var bx box
	for i := range s.n {
		next := blank
		switch s.at(i) {
		case puzzle.Up:
			next, r = next-w, r-1
		case puzzle.Down:
			next, r = next+w, r+1
		case puzzle.Left:
			next, c = next-1, c-1
		case puzzle.Right:
			next, c = next+1, c+1
		}
		bx = box{min(bx.r0, int8(r)), max(bx.r1, int8(r)), min(bx.c0, int8(c)), max(bx.c1, int8(c))}
		moved, gap := at(next), at(blank)
		sim.origin[blank], sim.origin[next] = moved, gap
		sim.dirty = append(sim.dirty, blank, next)
		blank = next
	}
	slices.Sort(sim.dirty)
	sim.key = sim.key[:0]
	for i, cell := range sim.dirty {
		if i > 0 && cell == sim.dirty[i-1] {
			continue
		}
		if o := sim.origin[cell]; o >= 0 && int(o) != cell {
			sim.key = binary.LittleEndian.AppendUint16(sim.key, uint16(cell))
			sim.key = binary.LittleEndian.AppendUint16(sim.key, uint16(o))
		}
		sim.origin[cell] = -1
	}
	sim.dirty = sim.dirty[:0]
	return sim.key, bx
}
