package pdb_test

import (
	"context"
	"fmt"
	"log"

	"fifteen/pdb"
	"fifteen/puzzle"
)

// Build the database of tiles 1, 2 and 3 of the 8-puzzle in memory, and
// look up how many moves of those tiles a board needs at least.
func ExampleBuild() {
	size := puzzle.Size{Rows: 3, Cols: 3}
	table, err := pdb.Build(context.Background(), size, puzzle.GoalLast, []int{1, 2, 3}, pdb.BuildOptions{})
	if err != nil {
		log.Fatal(err)
	}
	// 3 and 1 swapped: neither can pass the other in the top row.
	b, err := puzzle.NewBoard(size, []int{3, 2, 1, 4, 5, 6, 7, 8, 0})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(table.Value(b), "moves of tiles 1, 2 and 3 at least; Manhattan distance says 4")
	// Output: 10 moves of tiles 1, 2 and 3 at least; Manhattan distance says 4
}
