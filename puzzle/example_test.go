package puzzle_test

import (
	"errors"
	"fmt"
	"strings"

	"fifteen/puzzle"
)

func Example() {
	p := puzzle.Puzzle{Size: puzzle.Size{Rows: 3, Cols: 3}, Tiles: []int{1, 2, 3, 4, 5, 6, 7, 0, 8}}
	fmt.Println(p.Check(puzzle.GoalLast))
	end, slid, _ := p.Apply([]puzzle.Move{puzzle.Right})
	fmt.Println(slid, end.String() == puzzle.Solved(p.Size, puzzle.GoalLast).String())
	fmt.Print(end.Grid())
	// Output:
	// <nil>
	// [8] true
	// +----+----+----+
	// |  1 |  2 |  3 |
	// +----+----+----+
	// |  4 |  5 |  6 |
	// +----+----+----+
	// |  7 |  8 |    |
	// +----+----+----+
}

func ExampleReader() {
	input := "korf1: 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n2x3\n1 2 3\n4 0 5\n1 2 3 3\n"
	r := puzzle.NewReader(strings.NewReader(input), "")
	for {
		p, err := r.Next()
		if err != nil {
			fmt.Println(err)
			if ie := (*puzzle.InputError)(nil); errors.As(err, &ie) {
				continue
			}
			break
		}
		fmt.Println(p.ID, p.Size, p)
	}
	// Output:
	// korf1 4x4 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3
	// 2 2x3 1 2 3 4 0 5
	// 5: bad tile: tile 3 appears twice
	// EOF
}
