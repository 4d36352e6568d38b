package search

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"fifteen/puzzle"
)

// TestCheckpointSize writes the checkpoint of the largest round each
// budget allows, every count as large as a uint64 holds, and checks its
// JSON against MaxCheckpointSize (issue 66: a round of 4.6 M tasks wrote a
// checkpoint that no resume would read).
func TestCheckpointSize(t *testing.T) {
	for _, budget := range []int{64 << 10, 1 << 20, 4 << 20} {
		defer SetFrontierBytes(SetFrontierBytes(budget))
		// The most nodes a frontier holds: at depth 2, where a node
		// takes least.
		var f frontier
		f.reset(0, 2, budget, budget)
		for f.add([]puzzle.Move{puzzle.Up, puzzle.Left}) {
		}
		n := f.count()
		if n > budget/(2+nodeExtra) {
			t.Errorf("budget %d: %d nodes", budget, n)
		}
		sizes := make([]uint64, n)
		for i := range sizes {
			sizes[i] = math.MaxUint64
		}
		its := make([]Iteration, MaxLength)
		for i := range its {
			its[i] = Iteration{Bound: maxBound, Expanded: math.MaxUint64, Generated: math.MaxUint64}
		}
		all := make([]doneTask, n)
		for i := range all {
			all[i] = doneTask{pos: int64(i), expanded: math.MaxUint64, generated: math.MaxUint64, next: 2 * maxBound}
		}
		var every2 []doneTask // a run a task: the most runs
		for i := 0; i < n; i += 2 {
			every2 = append(every2, all[i])
		}
		for _, done := range [][]doneTask{all, every2} {
			cp := Checkpoint{
				Version:    CheckpointVersion,
				Search:     strings.Repeat("x", 1000),
				Iterations: its,
				Bound:      maxBound,
				CutDepth:   MaxLength,
				Done:       pack(done, -maxBound),
				Previous:   &Round{Bound: maxBound, CutDepth: MaxLength, Tasks: n, Threads: MaxThreads, Sizes: sizes},
				Elapsed:    math.MaxInt64,
			}
			text, err := json.Marshal(cp)
			if err != nil {
				t.Fatal(err)
			}
			if most := MaxCheckpointSize(Options{Frontier: DefaultFrontier}); int64(len(text)) > most {
				t.Errorf("budget %d: %d tasks, %d done, take %d bytes, more than %d", budget, n, len(done), len(text), most)
			}
		}
	}
}
