package bitboard_test

import (
	"fmt"

	"fifteen/bitboard"
)

func Example() {
	b, err := bitboard.New(bitboard.Size{Rows: 3, Cols: 3}, []int{1, 2, 3, 4, 5, 6, 7, 0, 8})
	if err != nil {
		panic(err)
	}
	fmt.Println(b.Solvable(bitboard.GoalLast))
	b, tile, _ := b.Move(bitboard.Right)
	fmt.Println(tile, b == bitboard.Solved(b.Size(), bitboard.GoalLast))
	fmt.Print(b.Grid())
	// Output:
	// true
	// 8 true
	// +----+----+----+
	// |  1 |  2 |  3 |
	// +----+----+----+
	// |  4 |  5 |  6 |
	// +----+----+----+
	// |  7 |  8 |    |
	// +----+----+----+
}
