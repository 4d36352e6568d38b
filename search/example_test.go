package search_test

import (
	"context"
	"fmt"

	"fifteen/puzzle"
	"fifteen/search"
)

// Solve an 8-puzzle optimally with linear conflict, then quickly with
// weighted IDA*.
func ExampleSolve() {
	size := puzzle.Size{Rows: 3, Cols: 3}
	start, _ := puzzle.NewBoard(size, []int{8, 6, 7, 2, 5, 4, 3, 0, 1})
	h, err := search.LinearConflict(size, puzzle.GoalLast)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := search.Solve(context.Background(), start, puzzle.GoalLast, h, search.Options{Frontier: search.DefaultFrontier})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Length(), "moves, optimal; h0 =", res.H0)
	fast, _ := search.Solve(context.Background(), start, puzzle.GoalLast, h, search.Options{Weight: 2})
	fmt.Println(fast.Length() <= 2*res.Length())
	// Output:
	// 31 moves, optimal; h0 = 23
	// true
}

// Split a search among three tasks, which run here one after another, as
// a job array on one core would run them; a cluster's tasks would meet in
// files instead (solve --results).
func ExampleSplit() {
	size := puzzle.Size{Rows: 4, Cols: 4}
	start, _ := puzzle.NewBoard(size, []int{14, 1, 9, 6, 4, 8, 12, 5, 7, 2, 3, 0, 10, 11, 13, 15})
	h, _ := search.Manhattan(size, puzzle.GoalFirst)
	ctx := context.Background()
	const tasks = 3
	begun, plan, err := search.Split(ctx, start, puzzle.GoalFirst, h, search.Options{}, tasks, 10_000)
	for err == nil && !begun.Solved {
		parts := make([]search.Part, tasks)
		for k := range parts {
			if parts[k], err = search.SolveShare(ctx, start, puzzle.GoalFirst, h, search.Options{}, search.Share{Plan: plan, Task: k}); err != nil {
				fmt.Println(err)
				return
			}
		}
		it, found, err := search.Join(parts)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("bound %d: shared\n", it.Bound)
		if found >= 0 {
			fmt.Println(len(parts[found].Moves), "moves:", puzzle.FormatMoves(parts[found].Moves))
			return
		}
		plan, err = search.NextPlan(parts, tasks)
	}
	fmt.Println(begun.Length(), "moves, before any split", err)
	// Output:
	// bound 43: shared
	// bound 45: shared
	// 45 moves: LLLURRDLULDRDLUUURRDRDLLULDRUURRDDLLDRULURULL
}
