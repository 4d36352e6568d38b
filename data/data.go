// Package data embeds the standard instance sets of the 15-puzzle
// literature, with the optimal lengths and published figures known for
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

	"fifteen/bitboard"
)

// Set is a named list of instances sharing one goal convention.
type Set struct {
	Name      string
	Goal      bitboard.Goal
	Instances []Instance
}

// ParseSet returns the set of the given name:
//
//	korf100                 Korf's 100 instances (Korf100)
//	random:N:SEED           N uniformly random solvable 4×4 positions
//	random:N:SEED:RxC       the same on another board size
//
// Random sets use Korf's goal (blank first) and are drawn by Random.
func ParseSet(name string) (Set, error) {
	if name == "korf100" {
		return Set{Name: name, Goal: bitboard.GoalFirst, Instances: Korf100()}, nil
	}
	f := strings.Split(name, ":")
	if f[0] != "random" || len(f) < 3 || len(f) > 4 {
		return Set{}, fmt.Errorf("data: unknown set %q: want korf100 or random:N:SEED[:RxC]", name)
	}
	n, err := strconv.Atoi(f[1])
	if err != nil || n < 1 || n > MaxRandom {
		return Set{}, fmt.Errorf("data: set %q: bad count %q: want 1 to %d", name, f[1], MaxRandom)
	}
	seed, err := strconv.ParseUint(f[2], 10, 64)
	if err != nil {
		return Set{}, fmt.Errorf("data: set %q: bad seed %q", name, f[2])
	}
	size := bitboard.Size{Rows: 4, Cols: 4}
	if len(f) == 4 {
		if size, err = bitboard.ParseSize(f[3]); err != nil {
			return Set{}, fmt.Errorf("data: set %q: %v", name, err)
		}
	}
	set := Set{Name: name, Goal: bitboard.GoalFirst}
	if set.Instances, err = Random(n, seed, size, set.Goal); err != nil {
		return Set{}, fmt.Errorf("data: set %q: %v", name, err)
	}
	return set, nil
}

// MaxRandom bounds the positions Random draws at once: a million, some
// hundred megabytes in a solver's batch.
const MaxRandom = 1_000_000

// Random returns n (at most MaxRandom) uniformly random solvable positions
// of the size under goal g (bitboard.Random), drawn from a PCG generator
// seeded with (seed, 0) and numbered random1, random2, …: the same seed
// gives the same positions.
func Random(n int, seed uint64, size bitboard.Size, g bitboard.Goal) ([]Instance, error) {
	seq, err := RandomSeq(n, seed, size, g)
	if err != nil {
		return nil, err
	}
	return slices.Collect(seq), nil
}

// RandomSeq yields Random's positions one at a time, drawn as they are
// asked for, so that a stream of them takes no memory.
func RandomSeq(n int, seed uint64, size bitboard.Size, g bitboard.Goal) (iter.Seq[Instance], error) {
	if n < 0 || n > MaxRandom {
		return nil, fmt.Errorf("data: %d random positions: want 0 to %d", n, MaxRandom)
	}
	if err := size.Valid(); err != nil {
		return nil, err
	}
	return func(yield func(Instance) bool) {
		rng := rand.New(rand.NewPCG(seed, 0))
		for i := range n {
			b, _ := bitboard.Random(rng, size, g) // the size is valid
			if !yield(Instance{ID: fmt.Sprintf("random%d", i+1), Board: b}) {
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
	for n, line := range strings.Split(korf1985, "\n") {
		line, _, _ = strings.Cut(line, "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
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
			panic(fmt.Sprintf("data: embedded korf1985.txt, line %d: %v", n+1, err)) // the file is part of the build
		}
		figures["korf"+f[0]] = Manhattan1985{H0: h0, Generated: nodes}
	}
	return figures
}

// Instance is one puzzle of a set.
type Instance struct {
	ID      string
	Board   bitboard.Board
	Optimal int // the optimal solution length, 0 where unknown
}

//go:embed korf100.txt
var korf100 string

// Korf100 returns Korf's (1985) 100 random 15-puzzle instances with their
// optimal lengths. Their goal is bitboard.GoalFirst (the blank top left).
func Korf100() []Instance {
	set, err := parseSet(korf100)
	if err != nil {
		panic("data: embedded korf100.txt: " + err.Error()) // the file is part of the build
	}
	return set
}

// parseSet reads lines of "ID LENGTH t0 … t15"; '#' starts a comment.
func parseSet(text string) ([]Instance, error) {
	var set []Instance
	for n, line := range strings.Split(text, "\n") {
		line, _, _ = strings.Cut(line, "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 18 {
			return nil, fmt.Errorf("line %d: %d fields, want 18", n+1, len(f))
		}
		nums := make([]int, 17)
		for i, s := range f[1:] {
			v, err := strconv.Atoi(s)
			if err != nil {
				return nil, fmt.Errorf("line %d: %q is not a number", n+1, s)
			}
			nums[i] = v
		}
		b, err := bitboard.New(bitboard.Size{Rows: 4, Cols: 4}, nums[1:])
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n+1, err)
		}
		set = append(set, Instance{ID: "korf" + f[0], Board: b, Optimal: nums[0]})
	}
	return set, nil
}
