// Package data embeds the standard instance sets of the 15-puzzle
// literature, with the optimal lengths that are known for them.
package data

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"fifteen/bitboard"
)

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
