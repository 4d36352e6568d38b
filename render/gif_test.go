package render_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/draw"
	"image/gif"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"fifteen/construct"
	"fifteen/puzzle"
	"fifteen/render"
)

// TestGIF animates a solution and decodes it: one frame per position, the
// first and last held longer, looping forever, and the first and last
// frames showing the start and the goal, pixel for pixel at every cell's
// centre against a frame drawn apart.
func TestGIF(t *testing.T) {
	for _, c := range []struct {
		tiles []int
		size  puzzle.Size
		moves string
		goal  puzzle.Goal
		cell  int
	}{
		{[]int{1, 2, 3, 4, 5, 6, 0, 7, 8}, puzzle.Size{Rows: 3, Cols: 3}, "RR", puzzle.GoalLast, 0},
		{[]int{4, 1, 2, 3, 0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, puzzle.Size{Rows: 4, Cols: 4}, "U", puzzle.GoalFirst, 40},
		{[]int{1, 2, 3, 4, 5, 6, 0, 7}, puzzle.Size{Rows: 2, Cols: 4}, "R", puzzle.GoalLast, 24},
		{append(seq(1, 23), 0, 24), puzzle.Size{Rows: 5, Cols: 5}, "R", puzzle.GoalLast, 32},
		{append(seq(1, 119), 0, 120), puzzle.Size{Rows: 11, Cols: 11}, "R", puzzle.GoalLast, 32},
	} {
		t.Run(c.size.String()+"/"+c.moves, func(t *testing.T) {
			start := puzzle.Puzzle{Size: c.size, Tiles: c.tiles}
			moves, _ := puzzle.ParseMoves(c.moves)
			var buf bytes.Buffer
			opts := render.Options{Cell: c.cell, Delay: 20, Pause: 100}
			if err := render.GIF(context.Background(), &buf, start, moves, opts); err != nil {
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
			checkFrame(t, canvas, puzzle.Solved(c.size, c.goal), cell)
		})
	}
}

// seq returns the numbers from to to.
func seq(from, to int) []int {
	var s []int
	for i := from; i <= to; i++ {
		s = append(s, i)
	}
	return s
}

// checkFrame compares a decoded frame with the board's frame drawn apart,
// at every cell's centre (where the digits are) and beside it (the tile or
// the blank).
func checkFrame(t *testing.T, got *image.Paletted, g puzzle.Puzzle, cell int) {
	t.Helper()
	want, err := render.Frame(g, "", cell)
	if err != nil {
		t.Fatal(err)
	}
	if got.Bounds() != want.Bounds() {
		t.Fatalf("frame bounds %v, want %v", got.Bounds(), want.Bounds())
	}
	size := g.Size
	for i := range g.Tiles {
		p := render.CellCenter(size, i, cell)
		for _, q := range []image.Point{p, p.Add(image.Pt(cell/3, cell/3))} {
			if have, w := got.At(q.X, q.Y), want.At(q.X, q.Y); have != w {
				t.Errorf("%v: cell %d, pixel %v: %v, want %v", g.Tiles, i, q, have, w)
			}
		}
	}
	// The blank's centre is background, a tile's corner region is not.
	blank := render.CellCenter(size, slices.Index(g.Tiles, 0), cell)
	if got.At(blank.X, blank.Y) != got.At(0, 0) {
		t.Errorf("%v: the blank is not empty", g.Tiles)
	}
}

func TestOptionsErrors(t *testing.T) {
	b := puzzle.Solved(puzzle.Size{Rows: 3, Cols: 3}, puzzle.GoalLast)
	var buf bytes.Buffer
	if err := render.GIF(context.Background(), &buf, b, nil, render.Options{Cell: 3}); err == nil {
		t.Error("a 3-pixel cell accepted")
	}
	if err := render.GIF(context.Background(), &buf, b, []puzzle.Move{puzzle.Down}, render.Options{}); err == nil {
		t.Error("a move off the board accepted")
	}
	if err := render.GIF(context.Background(), &buf, puzzle.Puzzle{Size: puzzle.Size{Rows: 2, Cols: 2}, Tiles: []int{1, 1, 2, 0}}, nil, render.Options{}); err == nil {
		t.Error("a malformed board accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	buf.Reset()
	if err := render.GIF(ctx, &buf, b, nil, render.Options{}); !errors.Is(err, context.Canceled) || buf.Len() > 0 {
		t.Errorf("a cancelled drawing: %v, %d bytes written", err, buf.Len())
	}
}

// BenchmarkGIF draws a human-style solution of a random 6×6: a few
// hundred frames.
func BenchmarkGIF(b *testing.B) {
	start, err := puzzle.Random(rand.New(rand.NewPCG(1, 0)), puzzle.Size{Rows: 6, Cols: 6}, puzzle.GoalLast)
	if err != nil {
		b.Fatal(err)
	}
	moves, err := construct.Solve(start, puzzle.GoalLast)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := render.GIF(context.Background(), io.Discard, start, moves, render.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(moves)), "moves")
}
