package search

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"fifteen/puzzle"
)

// pruner is a finite-state machine over the blank's moves that rejects
// every move completing a redundant move sequence (Taylor & Korf, "Pruning
// duplicate nodes in depth-first search", AAAI 1993). State 0 is the start.
type pruner struct {
	next [][4]int32 // next[s][m]: the state after move m, or -1 if m is pruned
}

// A sequence B of blank moves is redundant when an earlier sequence A in
// length-then-lexicographic order (Korf's move order) has the same effect
// (the blank's displacement and the permutation of the cells it passed)
// and a path inside B's bounding box, so that A can be played wherever B
// can. Any path containing B can then be rewritten into a smaller one of
// no greater length, so rejecting B keeps an optimal solution reachable.
// The machine rejects every sequence with a minimal redundant substring of
// at most depth moves; depth 2 rejects exactly the moves that undo the last.

// redundantText lists the minimal redundant sequences of up to
// MaxPruneDepth moves, one a line, shortest first. Generating them takes
// seconds (fsm_test.go does, and checks this list; go test -update
// rewrites it); compiling the machine from them takes milliseconds.
//
//go:embed redundant.txt
var redundantText string

// PruneInverse is the pruning depth that only rejects a move that undoes
// the previous one.
const PruneInverse = 2

// DefaultPruneDepth is the default pruning depth.
const DefaultPruneDepth = MaxPruneDepth

// MaxPruneDepth is the longest redundant sequence in redundantText.
const MaxPruneDepth = 14

var (
	prunersMu sync.Mutex
	pruners   = map[int]*pruner{}
)

// prunerFor returns the machine for sequences up to depth moves, compiling
// it on first use.
func prunerFor(depth int) (*pruner, error) {
	if depth < PruneInverse || depth > MaxPruneDepth {
		return nil, fmt.Errorf("pruning depth %d outside %d..%d", depth, PruneInverse, MaxPruneDepth)
	}
	prunersMu.Lock()
	defer prunersMu.Unlock()
	p := pruners[depth]
	if p == nil {
		var err error
		if p, err = compilePruner(redundantText, depth); err != nil {
			return nil, err
		}
		pruners[depth] = p
	}
	return p, nil
}

// compilePruner builds the Aho–Corasick automaton of the redundant
// sequences of up to depth moves that text lists, one a line, keeping
// only the states that complete none of them. It runs as every search
// process starts, so it allocates little: the trie is made as large as
// it can grow at once (grown, it was copied again and again), and its
// transitions are completed in place.
func compilePruner(text string, depth int) (*pruner, error) {
	// The trie of the sequences, at most a node a move; node 0 is the
	// root, and -1 no child.
	next := make([][4]int32, 1, len(text)+1)
	next[0] = [4]int32{-1, -1, -1, -1}
	final := make([]bool, 1, len(text)+1)
	for line := range strings.Lines(text) {
		if line = strings.TrimSpace(line); len(line) > depth {
			continue
		}
		moves, err := puzzle.ParseMoves(line)
		if err != nil {
			return nil, fmt.Errorf("redundant.txt: %v", err)
		}
		n := int32(0)
		for _, m := range moves {
			if next[n][m] < 0 {
				next[n][m] = int32(len(next))
				next = append(next, [4]int32{-1, -1, -1, -1})
				final = append(final, false)
			}
			n = next[n][m]
		}
		final[n] = true
	}
	// Breadth-first, complete the transitions through the failure links,
	// which lead to shallower nodes, complete by then; a node is final
	// when its longest proper suffix in the trie is.
	fail := make([]int32, len(next))
	queue := make([]int32, 1, len(next))
	for k := 0; k < len(queue); k++ {
		n := queue[k]
		for m := range 4 {
			c := next[n][m]
			switch {
			case c < 0 && n == 0:
				next[n][m] = 0
			case c < 0:
				next[n][m] = next[fail[n]][m]
			default:
				if n != 0 {
					fail[c] = next[fail[n]][m]
				}
				final[c] = final[c] || final[fail[c]]
				queue = append(queue, c)
			}
		}
	}
	// Number the live (non-final) states densely, the root first.
	id := make([]int32, len(next))
	live := int32(0)
	for n := range next {
		id[n] = -1
		if !final[n] {
			id[n] = live
			live++
		}
	}
	p := &pruner{next: make([][4]int32, live)}
	for n := range next {
		if final[n] {
			continue
		}
		for m := range 4 {
			p.next[id[n]][m] = id[next[n][m]]
		}
	}
	return p, nil
}
