package search_test

import (
	"context"
	"fmt"

	"fifteen/bitboard"
	"fifteen/search"
)

// Solve an 8-puzzle optimally with linear conflict, then quickly with
// weighted IDA*.
func ExampleSolve() {
	size := bitboard.Size{Rows: 3, Cols: 3}
	start, _ := bitboard.New(size, []int{8, 6, 7, 2, 5, 4, 3, 0, 1})
	h, err := search.LinearConflict(size, bitboard.GoalLast)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := search.Solve(context.Background(), start, bitboard.GoalLast, h, search.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Length(), "moves, optimal; h0 =", res.H0)
	fast, _ := search.Solve(context.Background(), start, bitboard.GoalLast, h, search.Options{Weight: 2})
	fmt.Println(fast.Length() <= 2*res.Length())
	// Output:
	// 31 moves, optimal; h0 = 23
	// true
}
