package solver_test

import (
	"context"
	"fmt"
	"log"

	"fifteen/puzzle"
	"fifteen/solver"
)

// Solve Korf's first instance optimally with the default pattern
// databases, which the first run builds into the user's cache directory
// (about 30 s on 2 cores).
func Example() {
	s, err := solver.New(solver.Config{})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	korf1 := puzzle.Puzzle{Size: puzzle.Size{Rows: 4, Cols: 4}, Tiles: []int{14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3}}
	res, err := s.Solve(context.Background(), korf1, solver.Options{Goal: puzzle.GoalFirst})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Length(), "moves:", puzzle.FormatMoves(res.Moves))
	// Output: 57 moves: ULDDRUUULDDDRUURRDLDLUURULLDRDRUURDDDLUUURDDDLULUURRDLLLU
}

// Solve a stream of puzzles two at a time; the results come in input
// order, a malformed puzzle's error in its place.
func ExampleSolver_SolveAll() {
	s, err := solver.New(solver.Config{})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	size := puzzle.Size{Rows: 3, Cols: 3}
	puzzles := func(yield func(puzzle.Puzzle, error) bool) {
		_ = yield(puzzle.Puzzle{ID: "a", Size: size, Tiles: []int{1, 2, 3, 4, 5, 6, 0, 7, 8}}, nil) &&
			yield(puzzle.Puzzle{ID: "b", Size: size, Tiles: []int{2, 1, 3, 4, 5, 6, 7, 8, 0}}, nil) &&
			yield(puzzle.Puzzle{ID: "c", Size: size, Tiles: []int{8, 6, 7, 2, 5, 4, 3, 0, 1}}, nil)
	}
	for res, err := range s.SolveAll(context.Background(), puzzles, 2, solver.Options{}) {
		if err != nil {
			fmt.Printf("%s: %v\n", res.Puzzle.ID, err)
			continue
		}
		fmt.Printf("%s: %d moves\n", res.Puzzle.ID, res.Length())
	}
	// Output:
	// a: 2 moves
	// b: unsolvable: permutation parity does not match the blank's position
	// c: 31 moves
}
