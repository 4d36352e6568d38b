package construct_test

import (
	"fmt"
	"math/rand/v2"

	"fifteen/construct"
	"fifteen/puzzle"
)

// Solve a random 10×10 board, far beyond what optimal search reaches.
func ExampleSolve() {
	rng := rand.New(rand.NewPCG(1, 2))
	p, _ := puzzle.Random(rng, puzzle.Size{Rows: 10, Cols: 10}, puzzle.GoalLast)
	moves, err := construct.Solve(p, puzzle.GoalLast)
	if err != nil {
		fmt.Println(err)
		return
	}
	end, _, _ := p.Apply(moves)
	fmt.Println(end.String() == puzzle.Solved(p.Size, puzzle.GoalLast).String())
	// Output: true
}
