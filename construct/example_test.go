package construct_test

import (
	"fmt"
	"math/rand/v2"

	"fifteen/bitboard"
	"fifteen/construct"
)

// Solve a random 10×10 board, far beyond what optimal search reaches.
func ExampleSolve() {
	rng := rand.New(rand.NewPCG(1, 2))
	g, _ := construct.Random(rng, 10, 10, bitboard.GoalLast)
	moves, err := construct.Solve(g, bitboard.GoalLast)
	if err != nil {
		fmt.Println(err)
		return
	}
	end, _, _ := g.Play(moves)
	fmt.Println(fmt.Sprint(end.Tiles) == fmt.Sprint(construct.Solved(10, 10, bitboard.GoalLast).Tiles))
	// Output: true
}
