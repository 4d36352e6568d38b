package search

import (
	"flag"
	"slices"
	"strings"
	"testing"

	"fifteen/data"
	"fifteen/puzzle"
)

var (
	censusDir   = flag.String("census.dir", "", "take TestCensus on Korf's 50 with the 6666 tables in this directory")
	censusIDs   = flag.String("census.ids", "38", "the instances of Korf's 50 TestCensus takes (numbers, comma-separated)")
	censusDepth = flag.Int("census.depth", 24, "the deepest level at which TestCensus tells boards apart")
	censusWalk  = flag.Int("census.walk", 0, "the deepest level TestCensus walks (0: the whole iteration)")
)

// census is the last iteration of a search, one that does not stop at the
// solution, counted by depth: its nodes, and the distinct boards whose
// shallowest node is at that depth. The latter is what would be left of
// each level if no board were searched twice, as with a transposition
// table, or below the frontier of Bu and Korf's A*+IDA*.
type census struct {
	nodes, distinct []uint64
}

// takeCensus walks every path from start within bound (g + h ≤ bound)
// that the pruning machine of the given depth lets through, down to walk
// moves, and tells boards apart down to distinctTo moves.
func takeCensus(h *Heuristic, prune int, start puzzle.Board, bound, walk, distinctTo int) (census, error) {
	p, err := prunerFor(prune)
	if err != nil {
		return census{}, err
	}
	distinctTo = min(distinctTo, walk)
	c := census{nodes: make([]uint64, walk+1), distinct: make([]uint64, distinctTo+1)}
	shallowest := map[puzzle.Board]int{}
	var visit func(b puzzle.Board, depth int, fs int32)
	visit = func(b puzzle.Board, depth int, fs int32) {
		c.nodes[depth]++
		if depth <= distinctTo {
			if d, ok := shallowest[b]; !ok || d > depth {
				shallowest[b] = depth
			}
		}
		if depth == walk {
			return
		}
		for _, m := range puzzle.Moves {
			next := p.next[fs][m]
			if next < 0 {
				continue
			}
			if child, _, ok := b.Move(m); ok && depth+1+h.Estimate(child) <= bound {
				visit(child, depth+1, next)
			}
		}
	}
	visit(start, 0, 0)
	for _, d := range shallowest {
		c.distinct[d]++
	}
	return c, nil
}

// TestCensus counts the duplicate nodes that pruning leaves in a last
// iteration, with the machine and with the undoing move alone, on a 4×4
// position with 5-5-5 tables, or on Korf's 50 with 6666 (-census.dir; the
// log has the counts): the machine generates no more nodes than undo-only
// pruning at any depth, no level holds fewer nodes than distinct boards,
// and the iteration reaches the goal at the optimal length.
func TestCensus(t *testing.T) {
	h, starts, distinctTo := censusSubject(t)
	for _, p := range starts {
		b, err := p.Board()
		if err != nil {
			t.Fatal(err)
		}
		b, _, _ = prepare(b, puzzle.GoalFirst, h)
		walk := p.Optimal
		if *censusWalk > 0 {
			walk = min(walk, *censusWalk)
		}
		var machine, undo census
		if machine, err = takeCensus(h, DefaultPruneDepth, b, p.Optimal, walk, distinctTo); err != nil {
			t.Fatal(err)
		}
		if undo, err = takeCensus(h, PruneInverse, b, p.Optimal, walk, distinctTo); err != nil {
			t.Fatal(err)
		}
		if walk == p.Optimal && machine.nodes[walk] == 0 {
			t.Fatalf("%s: the last iteration does not reach the goal at %d moves", p.ID, p.Optimal)
		}
		for d := range machine.nodes {
			if machine.nodes[d] > undo.nodes[d] {
				t.Errorf("%s, depth %d: %d nodes with the machine, %d with undoing moves pruned", p.ID, d, machine.nodes[d], undo.nodes[d])
			}
		}
		for d := range machine.distinct {
			for _, c := range []census{machine, undo} {
				if c.distinct[d] > c.nodes[d] {
					t.Errorf("%s, depth %d: %d distinct boards in %d nodes", p.ID, d, c.distinct[d], c.nodes[d])
				}
			}
			t.Logf("%s depth %2d: %10d nodes, %10d distinct (%.3f); undoing moves pruned: %10d nodes, %10d distinct (%.3f)", p.ID, d,
				machine.nodes[d], machine.distinct[d], share(machine.distinct[d:d+1], machine.nodes[d:d+1]),
				undo.nodes[d], undo.distinct[d], share(undo.distinct[d:d+1], undo.nodes[d:d+1]))
		}
		upTo := len(machine.distinct)
		t.Logf("%s: %d nodes to depth %d (%d with undoing moves pruned); distinct to depth %d: %.3f of the nodes (%.3f)",
			p.ID, sum(machine.nodes), walk, sum(undo.nodes), upTo-1,
			share(machine.distinct, machine.nodes[:upTo]), share(undo.distinct, undo.nodes[:upTo]))
	}
}

// censusSubject returns TestCensus's heuristic, positions and depth to
// tell boards apart to: 5-5-5 tables built here on the first of Korf's
// 100, or the 6666 tables of -census.dir on the instances of Korf's 50
// that -census.ids names.
func censusSubject(t *testing.T) (*Heuristic, []puzzle.Puzzle, int) {
	if *censusDir == "" {
		h := builtAdditive(t, "555", puzzle.Size{Rows: 4, Cols: 4}, true, []int{1, 2, 3, 5, 6}, []int{4, 7, 8, 11, 12}, []int{9, 10, 13, 14, 15})
		return h, data.Korf100()[:1], 20
	}
	h := defaultDatabases(t, *censusDir, puzzle.Size{Rows: 5, Cols: 5})
	ids := strings.Split(*censusIDs, ",")
	var starts []puzzle.Puzzle
	for _, p := range data.Korf50() {
		if slices.Contains(ids, strings.TrimPrefix(p.ID, "k24-")) {
			starts = append(starts, p)
		}
	}
	if len(starts) != len(ids) {
		t.Fatalf("-census.ids %s: want numbers of Korf's 50 instances", *censusIDs)
	}
	return h, starts, *censusDepth
}

// share returns the sum of part over the sum of whole.
func share(part, whole []uint64) float64 { return float64(sum(part)) / float64(sum(whole)) }

func sum(s []uint64) (n uint64) {
	for _, v := range s {
		n += v
	}
	return n
}
