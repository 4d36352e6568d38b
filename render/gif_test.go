package render_test

import (
	"bytes"
	"image"
	"image/draw"
	"image/gif"
	"testing"

	"fifteen/bitboard"
	"fifteen/render"
)

// TestGIF animates a solution and decodes it: one frame per position, the
// first and last held longer, looping forever, and the first and last
// frames showing the start and the goal, pixel for pixel at every cell's
// centre against a frame drawn apart.
func TestGIF(t *testing.T) {
	for _, c := range []struct {
		tiles []int
		size  bitboard.Size
		moves string
		goal  bitboard.Goal
		cell  int
	}{
		{[]int{1, 2, 3, 4, 5, 6, 0, 7, 8}, bitboard.Size{Rows: 3, Cols: 3}, "RR", bitboard.GoalLast, 0},
		{[]int{4, 1, 2, 3, 0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, bitboard.Size{Rows: 4, Cols: 4}, "U", bitboard.GoalFirst, 40},
		{[]int{1, 2, 3, 4, 5, 6, 0, 7}, bitboard.Size{Rows: 2, Cols: 4}, "R", bitboard.GoalLast, 24},
	} {
		t.Run(c.size.String()+"/"+c.moves, func(t *testing.T) {
			start, err := bitboard.New(c.size, c.tiles)
			if err != nil {
				t.Fatal(err)
			}
			moves, _ := bitboard.ParseMoves(c.moves)
			var buf bytes.Buffer
			opts := render.Options{Cell: c.cell, Delay: 20, Pause: 100}
			if err := render.GIF(&buf, start, moves, opts); err != nil {
				t.Fatal(err)
			}
			anim, err := gif.DecodeAll(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if len(anim.Image) != len(moves)+1 || anim.LoopCount != 0 {
				t.Fatalf("%v: %d frames, loop count %d; want %d frames looping forever", c.size, len(anim.Image), anim.LoopCount, len(moves)+1)
			}
			for i, d := range anim.Delay {
				want := 20
				if i == 0 || i == len(anim.Delay)-1 {
					want = 100
				}
				if d != want {
					t.Errorf("frame %d: delay %d, want %d", i, d, want)
				}
			}
			cell := c.cell
			if cell == 0 {
				cell = 64
			}
			// Frames after the first hold what changed: composite them, as a
			// viewer does.
			canvas := image.NewPaletted(anim.Image[0].Bounds(), anim.Image[0].Palette)
			var first *image.Paletted
			for i, frame := range anim.Image {
				if anim.Disposal[i] != gif.DisposalNone {
					t.Fatalf("frame %d: disposal %d", i, anim.Disposal[i])
				}
				draw.Draw(canvas, frame.Bounds(), frame, frame.Bounds().Min, draw.Src)
				if i == 0 {
					first = image.NewPaletted(canvas.Bounds(), canvas.Palette)
					copy(first.Pix, canvas.Pix)
				}
			}
			checkFrame(t, first, start, cell)
			checkFrame(t, canvas, bitboard.Solved(c.size, c.goal), cell)
		})
	}
}

// checkFrame compares a decoded frame with the board's frame drawn apart,
// at every cell's centre (where the digits are) and beside it (the tile or
// the blank).
func checkFrame(t *testing.T, got *image.Paletted, b bitboard.Board, cell int) {
	t.Helper()
	want, err := render.Frame(b, "", cell)
	if err != nil {
		t.Fatal(err)
	}
	if got.Bounds() != want.Bounds() {
		t.Fatalf("frame bounds %v, want %v", got.Bounds(), want.Bounds())
	}
	for i := range b.Size().Cells() {
		p := render.CellCenter(b.Size(), i, cell)
		for _, q := range []image.Point{p, p.Add(image.Pt(cell/3, cell/3))} {
			if g, w := got.At(q.X, q.Y), want.At(q.X, q.Y); g != w {
				t.Errorf("%v: cell %d, pixel %v: %v, want %v", b, i, q, g, w)
			}
		}
	}
	// The blank's centre is background, a tile's corner region is not.
	blank := render.CellCenter(b.Size(), b.Blank(), cell)
	if got.At(blank.X, blank.Y) != got.At(0, 0) {
		t.Errorf("%v: the blank is not empty", b)
	}
}

func TestOptionsErrors(t *testing.T) {
	b := bitboard.Solved(bitboard.Size{Rows: 3, Cols: 3}, bitboard.GoalLast)
	var buf bytes.Buffer
	if err := render.GIF(&buf, b, nil, render.Options{Cell: 3}); err == nil {
		t.Error("a 3-pixel cell accepted")
	}
	if err := render.GIF(&buf, b, []bitboard.Move{bitboard.Down}, render.Options{}); err == nil {
		t.Error("a move off the board accepted")
	}
}
