// Package render draws sliding-tile boards of any size and animates
// solutions as GIFs: tiles as rounded squares with their numbers (Go
// Regular), the blank empty, a caption with the move count.
package render

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"io"
	"strconv"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"fifteen/puzzle"
)

// Options tune the animation. The zero value is the default.
type Options struct {
	Cell  int // a cell's side in pixels; 0 means 64
	Delay int // each move's frame, in 1/100 s; 0 means 30
	Pause int // the first and last frames, in 1/100 s; 0 means 150
}

// MinCell and MaxCell bound Options.Cell.
const (
	MinCell = 16
	MaxCell = 256
)

func (o *Options) fill() error {
	if o.Cell == 0 {
		o.Cell = 64
	}
	if o.Delay == 0 {
		o.Delay = 30
	}
	if o.Pause == 0 {
		o.Pause = 150
	}
	if o.Cell < MinCell || o.Cell > MaxCell {
		return fmt.Errorf("cell of %d pixels: want %d..%d", o.Cell, MinCell, MaxCell)
	}
	if o.Delay < 0 || o.Pause < 0 {
		return errors.New("negative delay")
	}
	return nil
}

// GIF writes the animation of the moves played from start: one frame per
// position, the first and last held longer, looping forever. The moves
// must stay on the board. When ctx ends first, it stops between two
// frames, writes nothing, and returns ctx's error.
func GIF(ctx context.Context, w io.Writer, start puzzle.Puzzle, moves []puzzle.Move, opts Options) error {
	d, err := newDrawer(start, opts)
	if err != nil {
		return err
	}
	anim := &gif.GIF{LoopCount: 0}
	g := start
	var prev *image.Paletted
	for i := 0; ; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		// After the first, a frame holds only what changed (the tile that
		// moved and the caption), drawn over the one before.
		img := d.frame(g, fmt.Sprintf("%d/%d", i, len(moves)))
		frame := img
		if prev != nil {
			// A copy, so that the whole image is not kept with each frame.
			r := changed(prev, img)
			frame = image.NewPaletted(r, palette)
			d.blit(frame, img.SubImage(r).(*image.Paletted), r.Min)
		}
		prev = img
		anim.Image = append(anim.Image, frame)
		anim.Delay = append(anim.Delay, d.opts.Delay)
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
		if i == len(moves) {
			break
		}
		if g, _, err = g.Apply(moves[i : i+1]); err != nil {
			return fmt.Errorf("move %d (%v) leaves the board", i+1, moves[i])
		}
	}
	anim.Delay[0], anim.Delay[len(anim.Delay)-1] = d.opts.Pause, d.opts.Pause
	return gif.EncodeAll(w, anim)
}

// changed returns the smallest rectangle outside which a and b agree (at
// least one pixel, as a GIF frame cannot be empty).
func changed(a, b *image.Paletted) image.Rectangle {
	r := image.Rectangle{}
	bounds := a.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		ra, rb := a.Pix[a.PixOffset(bounds.Min.X, y):][:bounds.Dx()], b.Pix[b.PixOffset(bounds.Min.X, y):][:bounds.Dx()]
		for x := range ra {
			if ra[x] != rb[x] {
				r = r.Union(image.Rect(bounds.Min.X+x, y, bounds.Min.X+x+1, y+1))
			}
		}
	}
	if r.Empty() {
		r = image.Rect(bounds.Min.X, bounds.Min.Y, bounds.Min.X+1, bounds.Min.Y+1)
	}
	return r
}

// Frame returns the image of grid g with the caption, as GIF draws it.
func Frame(g puzzle.Puzzle, caption string, cell int) (*image.Paletted, error) {
	d, err := newDrawer(g, Options{Cell: cell})
	if err != nil {
		return nil, err
	}
	return d.frame(g, caption), nil
}

// CellCenter returns the pixel at the centre of cell i of a board of the
// given size drawn with cells of the given side.
func CellCenter(size puzzle.Size, i, cell int) image.Point {
	m := margin(cell)
	return image.Pt(m+i%size.Cols*cell+cell/2, m+i/size.Cols*cell+cell/2)
}

// The palette: the background, the tile, the digits and the caption, and
// the shades between them that antialiased text needs.
var (
	background = color.RGBA{0x2e, 0x34, 0x40, 0xff}
	tileFill   = color.RGBA{0xf0, 0xd5, 0x9a, 0xff}
	digitInk   = color.RGBA{0x2e, 0x34, 0x40, 0xff}
	captionInk = color.RGBA{0xec, 0xef, 0xf4, 0xff}
	palette    = makePalette()
)

func makePalette() color.Palette {
	p := color.Palette{background, tileFill, captionInk}
	const shades = 14
	for i := 1; i < shades; i++ {
		p = append(p, mix(tileFill, digitInk, i, shades), mix(background, captionInk, i, shades))
	}
	return p
}

func mix(a, b color.RGBA, i, n int) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8((int(x)*(n-i) + int(y)*i) / n) }
	return color.RGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 0xff}
}

func margin(cell int) int { return cell / 4 }

// drawer draws the frames of one board size.
type drawer struct {
	size           puzzle.Size
	opts           Options
	cell, margin   int
	bounds         image.Rectangle
	tile           *image.Alpha      // a rounded square's mask
	sprites        []*image.Paletted // each tile's cell, once drawn
	digits, labels font.Face
}

var (
	goRegular     *opentype.Font
	goRegularErr  error
	goRegularOnce sync.Once
)

// newDrawer checks the grid and the options, and returns the drawer of
// the grid's size.
func newDrawer(g puzzle.Puzzle, opts Options) (*drawer, error) {
	if err := g.Valid(); err != nil {
		return nil, err
	}
	if err := opts.fill(); err != nil {
		return nil, err
	}
	goRegularOnce.Do(func() { goRegular, goRegularErr = opentype.Parse(goregular.TTF) })
	if goRegularErr != nil {
		return nil, goRegularErr
	}
	size, cell := g.Size, opts.Cell
	m := margin(cell)
	d := &drawer{
		size: size, opts: opts, cell: cell, margin: m,
		bounds:  image.Rect(0, 0, 2*m+size.Cols*cell, 2*m+size.Rows*cell+cell/2),
		tile:    roundedSquare(cell-max(cell/16, 2), cell/6),
		sprites: make([]*image.Paletted, size.Cells()),
	}
	// Three-digit tiles get smaller digits, to fit.
	digits := 0.42
	if size.Cells() > 100 {
		digits = 0.32
	}
	var err error
	if d.digits, err = opentype.NewFace(goRegular, &opentype.FaceOptions{Size: float64(cell) * digits, DPI: 72, Hinting: font.HintingFull}); err != nil {
		return nil, err
	}
	if d.labels, err = opentype.NewFace(goRegular, &opentype.FaceOptions{Size: float64(cell) * 0.3, DPI: 72, Hinting: font.HintingFull}); err != nil {
		return nil, err
	}
	return d, nil
}

// roundedSquare returns the mask of a square of side s with corners of
// radius r.
func roundedSquare(s, r int) *image.Alpha {
	m := image.NewAlpha(image.Rect(0, 0, s, s))
	for y := range s {
		for x := range s {
			// The distance outside the inner square whose corners are the
			// arcs' centres.
			dx := max(r-x, x-(s-1-r), 0)
			dy := max(r-y, y-(s-1-r), 0)
			if dx*dx+dy*dy <= r*r {
				m.SetAlpha(x, y, color.Alpha{0xff})
			}
		}
	}
	return m
}

func (d *drawer) frame(g puzzle.Puzzle, caption string) *image.Paletted {
	img := image.NewPaletted(d.bounds, palette) // all background, the palette's first colour
	for i, t := range g.Tiles {
		if t != 0 {
			d.blit(img, d.sprite(t), image.Pt(d.margin+i%d.size.Cols*d.cell, d.margin+i/d.size.Cols*d.cell))
		}
	}
	d.text(img, d.labels, captionInk, caption, image.Pt(d.bounds.Dx()/2, d.bounds.Dy()-d.margin-d.cell/4))
	return img
}

// sprite returns tile t's cell as drawn: the rounded square on the
// background, with its number. Each is drawn once, as drawing onto a
// paletted image, colour by colour, is most of a frame's time.
func (d *drawer) sprite(t int) *image.Paletted {
	if d.sprites[t] == nil {
		img := image.NewPaletted(image.Rect(0, 0, d.cell, d.cell), palette)
		gap := (d.cell - d.tile.Rect.Dx()) / 2
		draw.DrawMask(img, d.tile.Rect.Add(image.Pt(gap, gap)), image.NewUniform(tileFill), image.Point{}, d.tile, image.Point{}, draw.Over)
		d.text(img, d.digits, digitInk, strconv.Itoa(t), image.Pt(d.cell/2, d.cell/2))
		d.sprites[t] = img
	}
	return d.sprites[t]
}

// blit copies src onto dst with its top left at p: the two share the
// palette, so rows copy as bytes.
func (d *drawer) blit(dst, src *image.Paletted, p image.Point) {
	for y := range src.Rect.Dy() {
		copy(dst.Pix[dst.PixOffset(p.X, p.Y+y):], src.Pix[src.PixOffset(src.Rect.Min.X, src.Rect.Min.Y+y):][:src.Rect.Dx()])
	}
}

// text draws s centred on p.
func (d *drawer) text(img draw.Image, face font.Face, ink color.Color, s string, p image.Point) {
	dr := &font.Drawer{Dst: img, Src: image.NewUniform(ink), Face: face}
	width := dr.MeasureString(s)
	metrics := face.Metrics()
	dr.Dot = fixed.Point26_6{
		X: fixed.I(p.X) - width/2,
		Y: fixed.I(p.Y) + (metrics.Ascent-metrics.Descent)/2,
	}
	dr.DrawString(s)
}
