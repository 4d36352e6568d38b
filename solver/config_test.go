package solver_test

import (
	"context"
	"strings"
	"testing"

	"fifteen/pdb"
	"fifteen/puzzle"
	"fifteen/solver"
)

// TestFits checks which board sizes a Config's databases serve: its
// partition's size, or, without one, every size.
func TestFits(t *testing.T) {
	four, five, three := puzzle.Size{Rows: 4, Cols: 4}, puzzle.Size{Rows: 5, Cols: 5}, puzzle.Size{Rows: 3, Cols: 3}
	for _, c := range []struct {
		partition string
		size      puzzle.Size
		fits      bool
	}{
		{"", four, true}, {"", three, true}, {"663x2", four, true}, {"6666", five, true}, {"6666", four, false},
		{"1,2,3,4,5,6,7/8,9,10,11,12,13,14,15", four, true}, {"1,2,3,4/5,6,7,8", three, true}, {"1,2,3,4/5,6,7,8", four, false},
	} {
		cfg := solver.Config{Partition: c.partition}
		if got := cfg.Fits(c.size); got != c.fits {
			t.Errorf("partition %q: Fits(%v) = %v", c.partition, c.size, got)
		}
	}
}

// TestBuildInMemoryReports builds the 8-puzzle's table in memory, as a
// slow build: its progress is reported, and then what was built (issue
// 67: a 4×5 build ran 27 s without a word). A quick one says nothing.
func TestBuildInMemoryReports(t *testing.T) {
	for _, slow := range []bool{true, false} {
		old := solver.SetSlowBuild(0)
		if !slow {
			solver.SetSlowBuild(old)
		}
		var layers int
		var logged []string
		s, err := solver.New(solver.Config{Progress: func(pdb.Progress) { layers++ }, Log: func(l string) { logged = append(logged, l) }})
		if err != nil {
			t.Fatal(err)
		}
		err = s.Prepare(context.Background(), puzzle.Size{Rows: 3, Cols: 3}, puzzle.GoalLast)
		s.Close()
		solver.SetSlowBuild(old)
		if err != nil {
			t.Fatal(err)
		}
		said := layers > 0 && len(logged) == 1 && strings.Contains(logged[0], "of 3x3 in memory in")
		if said != slow || !slow && (layers > 0 || len(logged) > 0) {
			t.Errorf("slow %v: %d layers reported, log %q", slow, layers, logged)
		}
	}
}
