package render_test

import (
	"bytes"
	"context"
	"fmt"
	"image/gif"

	"fifteen/puzzle"
	"fifteen/render"
)

// Animate the last two moves of an 8-puzzle.
func ExampleGIF() {
	start := puzzle.Puzzle{Size: puzzle.Size{Rows: 3, Cols: 3}, Tiles: []int{1, 2, 3, 4, 5, 6, 0, 7, 8}}
	moves, _ := puzzle.ParseMoves("RR")
	var buf bytes.Buffer
	if err := render.GIF(context.Background(), &buf, start, moves, render.Options{Cell: 48}); err != nil {
		fmt.Println(err)
		return
	}
	anim, _ := gif.DecodeAll(&buf)
	fmt.Println(len(anim.Image), "frames of", anim.Image[0].Bounds().Size())
	// Output: 3 frames of (168,192)
}
