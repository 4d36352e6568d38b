// Package data embeds the standard instance sets of the 15- and
// 24-puzzle literature, with the optimal lengths and published figures known for
// them, and makes seeded sets of uniformly random instances.
package data

import (
	_ "embed"
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"fifteen/puzzle"
)

// Set is a named list of instances sharing one goal convention.
type Set struct {
	Name      string
	Goal      puzzle.Goal
	Instances []puzzle.Puzzle
}

// ParseSet returns the set of the given name:
//
//	korf100                 Korf's 100 15-puzzles (Korf100)
//	korf50                  Korf and Felner's 50 24-puzzles (Korf50)
//	random:N:SEED           N uniformly random solvable 4×4 positions
//	random:N:SEED:RxC       the same on another board size
//
// Random sets use Korf's goal (blank first) and are drawn by Random.
func ParseSet(name string) (Set, error) {
	switch name {
	case "korf100":
		return Set{Name: name, Goal: puzzle.GoalFirst, Instances: Korf100()}, nil
	case "korf50":
		return Set{Name: name, Goal: puzzle.GoalFirst, Instances: Korf50()}, nil
	}
	f := strings.Split(name, ":")
	if f[0] != "random" || len(f) < 3 || len(f) > 4 {
		return Set{}, fmt.Errorf("unknown set %q: want korf100, korf50 or random:N:SEED[:RxC]", name)
	}
	n, err := strconv.Atoi(f[1])
	if err != nil || n < 1 || n > MaxRandom {
		return Set{}, fmt.Errorf("set %q: bad count %q: want 1 to %d", name, f[1], MaxRandom)
	}
	seed, err := strconv.ParseUint(f[2], 10, 64)
	if err != nil {
		return Set{}, fmt.Errorf("set %q: bad seed %q", name, f[2])
	}
	size := puzzle.Size{Rows: 4, Cols: 4}
	if len(f) == 4 {
		if size, err = puzzle.ParseSize(f[3]); err != nil {
			return Set{}, fmt.Errorf("set %q: %v", name, err)
		}
	}
	set := Set{Name: name, Goal: puzzle.GoalFirst}
	if set.Instances, err = Random(n, seed, size, set.Goal); err != nil {
		return Set{}, fmt.Errorf("set %q: %v", name, err)
	}
	return set, nil
}

// Pick returns the set of the instances numbered by numbers (from 1, in
// the set's order: Korf's IDs), in the order given, such as Korf and
// Felner's ten easiest of Korf50: 38, 40, 25, 32, 44, 37, 30, 13, 1, 28.
func (s Set) Pick(numbers []int) (Set, error) {
	picked := Set{Name: s.Name, Goal: s.Goal}
	for _, k := range numbers {
		if k < 1 || k > len(s.Instances) {
			return Set{}, fmt.Errorf("set %s has no instance %d: want 1 to %d", s.Name, k, len(s.Instances))
		}
		picked.Instances = append(picked.Instances, s.Instances[k-1])
	}
	return picked, nil
}

// MaxRandom bounds the positions Random draws at once: a million, some
// hundred megabytes in a solver's batch.
const MaxRandom = 1_000_000

// Random returns n (at most MaxRandom) uniformly random solvable positions
// of the size under goal g (puzzle.Random), drawn from a PCG generator
// seeded with (seed, 0) and numbered random1, random2, …: the same seed
// gives the same positions.
func Random(n int, seed uint64, size puzzle.Size, g puzzle.Goal) ([]puzzle.Puzzle, error) {
	seq, err := RandomSeq(n, seed, size, g)
	if err != nil {
		return nil, err
	}
	return slices.Collect(seq), nil
}

// RandomSeq yields Random's positions one at a time, drawn as they are
// asked for, so that a stream of them takes no memory.
func RandomSeq(n int, seed uint64, size puzzle.Size, g puzzle.Goal) (iter.Seq[puzzle.Puzzle], error) {
	if n < 0 || n > MaxRandom {
		return nil, fmt.Errorf("%d random positions: want 0 to %d", n, MaxRandom)
	}
	if err := size.Valid(); err != nil {
		return nil, err
	}
	return func(yield func(puzzle.Puzzle) bool) {
		rng := rand.New(rand.NewPCG(seed, 0))
		for i := range n {
			p, _ := puzzle.Random(rng, size, g) // the size is valid
			p.ID = fmt.Sprintf("random%d", i+1)
			if !yield(p) {
				return
			}
		}
	}, nil
}

//go:embed korf1985.txt
var korf1985 string

// Manhattan1985 is one row of Korf's (1985) Table 1: IDA* with Manhattan
// distance on one of the 100 instances.
type Manhattan1985 struct {
	H0        int    // the heuristic's value at the start
	Generated uint64 // nodes generated
}

// Korf1985 returns Korf's (1985) published figures, keyed by instance ID
// ("korf1" …). They count every child generated plus the root once, with
// the blank's moves tried up, left, right, down and the move undoing the
// last never generated; so counted, IDA* reproduces all but instances 22,
// 88 and 89 (see korf1985.txt).
func Korf1985() map[string]Manhattan1985 {
	figures := map[string]Manhattan1985{}
	for n, f := range records(korf1985) {
		var h0 int
		var nodes uint64
		err := fmt.Errorf("%d fields, want 3", len(f))
		if len(f) == 3 {
			h0, err = strconv.Atoi(f[1])
			if err == nil {
				nodes, err = strconv.ParseUint(f[2], 10, 64)
			}
		}
		if err != nil {
			panic(fmt.Sprintf("embedded korf1985.txt, line %d: %v", n+1, err)) // the file is part of the build
		}
		figures["korf"+f[0]] = Manhattan1985{H0: h0, Generated: nodes}
	}
	return figures
}

//go:embed korf100.txt
var korf100 string

// Korf100 returns Korf's (1985) 100 random 15-puzzle instances with their
// optimal lengths. Their goal is puzzle.GoalFirst (the blank top left).
func Korf100() []puzzle.Puzzle {
	return mustParse(korf100, "korf100.txt", puzzle.Size{Rows: 4, Cols: 4}, "korf")
}

//go:embed korf50.txt
var korf50 string

// Korf50 returns Korf and Felner's (2002) 50 random 24-puzzle instances,
// numbered k24-1 … k24-50, with their optimal lengths. Their goal is
// puzzle.GoalFirst (the blank top left).
func Korf50() []puzzle.Puzzle {
	return mustParse(korf50, "korf50.txt", puzzle.Size{Rows: 5, Cols: 5}, "k24-")
}

//go:embed korf50-anchors.txt
var korf50Anchors string

// Effort is the published search effort on one of Korf50's instances, as
// each source counted it: generated and expanded nodes differ by about
// the branching factor (about 2.37 on the 24-puzzle), so only the same
// counts compare.
type Effort struct {
	// KorfFelner2002 is the nodes generated by Korf and Felner's (2002)
	// IDA* with the additive 6-6-6-6 databases {1,2,5,6,7,12}
	// {3,4,8,9,13,14} {10,11,15,16,20,21} {17,18,19,22,23,24} and the
	// maximum with their reflection.
	KorfFelner2002 uint64
	// Doebbelin6666 and DoebbelinMax are the nodes expanded by Döbbelin,
	// Schütt and Reinefeld (2013): with their 6-6-6-6 databases, and with
	// the maximum of their compressed 8-8-8, 9-8-7 and 9-9-6 databases
	// (up to about 1.4 TB).
	Doebbelin6666, DoebbelinMax uint64
	// Clausecker2019 is the nodes expanded by Clausecker and Reinefeld
	// (2019) with their small catalogue of 28 zero-aware 6-tile databases
	// (7 partitions and their transposes, about 5 GB).
	Clausecker2019 uint64
}

// Korf50Effort returns, keyed by Korf50's IDs, the published search
// effort on each instance.
func Korf50Effort() map[string]Effort {
	efforts := map[string]Effort{}
	for n, f := range records(korf50Anchors) {
		bad := len(f) != 6
		var v [4]uint64
		for i := 0; i < len(v) && !bad; i++ {
			var err error
			v[i], err = strconv.ParseUint(f[2+i], 10, 64)
			bad = err != nil
		}
		if bad {
			panic(fmt.Sprintf("embedded korf50-anchors.txt, line %d: want ID LENGTH and four counts", n+1)) // the file is part of the build
		}
		efforts["k24-"+f[0]] = Effort{KorfFelner2002: v[0], Doebbelin6666: v[1], DoebbelinMax: v[2], Clausecker2019: v[3]}
	}
	return efforts
}

// records yields the fields of each line of text that has any, with its
// number (from 0); '#' starts a comment.
func records(text string) iter.Seq2[int, []string] {
	return func(yield func(int, []string) bool) {
		for n, line := range strings.Split(text, "\n") {
			line, _, _ = strings.Cut(line, "#")
			if f := strings.Fields(line); len(f) > 0 && !yield(n, f) {
				return
			}
		}
	}
}

// mustParse parses an embedded set, which is part of the build.
func mustParse(text, file string, size puzzle.Size, prefix string) []puzzle.Puzzle {
	set, err := parseSet(text, size, prefix)
	if err != nil {
		panic("embedded " + file + ": " + err.Error())
	}
	return set
}

// parseSet reads lines of "ID LENGTH t0 … tN-1" of boards of the size,
// naming each instance prefix+ID; '#' starts a comment.
func parseSet(text string, size puzzle.Size, prefix string) ([]puzzle.Puzzle, error) {
	var set []puzzle.Puzzle
	n := size.Cells()
	for i, f := range records(text) {
		if len(f) != n+2 {
			return nil, fmt.Errorf("line %d: %d fields, want %d", i+1, len(f), n+2)
		}
		nums := make([]int, n+1)
		for j, s := range f[1:] {
			v, err := strconv.Atoi(s)
			if err != nil {
				return nil, fmt.Errorf("line %d: %q is not a number", i+1, s)
			}
			nums[j] = v
		}
		p := puzzle.Puzzle{ID: prefix + f[0], Size: size, Tiles: nums[1:], Optimal: nums[0]}
		if err := p.Valid(); err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
		set = append(set, p)
	}
	return set, nil
}
