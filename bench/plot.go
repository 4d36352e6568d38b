package bench

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"
)

// A chart is a line chart of series over the instances 1..n, written as
// plain SVG: two kinds of chart do not justify a plotting library and its
// dependencies.
type chart struct {
	title, xLabel, yLabel string
	logY                  bool
	series                []series
}

type series struct {
	name string
	y    []float64
}

var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf", "#bcbd22", "#393b79", "#ad494a"}

const (
	chartW, chartH         = 760, 440
	left, right, top, foot = 80, 20, 40, 60
)

func (c *chart) writeSVG(w io.Writer) error {
	n, lo, hi := 0, math.Inf(1), math.Inf(-1)
	for _, s := range c.series {
		n = max(n, len(s.y))
		for _, y := range s.y {
			if c.logY && y <= 0 {
				continue
			}
			lo, hi = min(lo, y), max(hi, y)
		}
	}
	if n == 0 || math.IsInf(lo, 0) {
		lo, hi = 1, 10
	}
	ticks := linearTicks(0, hi)
	if c.logY {
		ticks = logTicks(lo, hi)
	} else {
		lo = 0
	}
	lo, hi = min(lo, ticks[0]), max(hi, ticks[len(ticks)-1])
	scale := func(y float64) float64 {
		if c.logY {
			y, lo, hi := math.Log10(max(y, lo)), math.Log10(lo), math.Log10(hi)
			return top + (chartH-top-foot)*(1-(y-lo)/(hi-lo))
		}
		return top + (chartH-top-foot)*(1-(y-lo)/(hi-lo))
	}
	x := func(i int) float64 {
		return left + (chartW-left-right)*float64(i)/float64(max(n-1, 1))
	}

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", chartW, chartH, chartW, chartH)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="22" text-anchor="middle" font-size="15">%s</text>`+"\n", chartW/2, html.EscapeString(c.title))
	for _, t := range ticks {
		y := scale(t)
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", left, chartW-right, y, y)
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", left-6, y, tickLabel(t))
	}
	fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="black"/>`+"\n", left, chartW-right, chartH-foot, chartH-foot)
	fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="black"/>`+"\n", left, left, top, chartH-foot)
	for _, i := range []int{0, (n - 1) / 2, n - 1} {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", x(i), chartH-foot+16, i+1)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`+"\n", (left+chartW-right)/2, chartH-foot+34, html.EscapeString(c.xLabel))
	fmt.Fprintf(&b, `<text transform="translate(18 %d) rotate(-90)" text-anchor="middle">%s</text>`+"\n", (top+chartH-foot)/2, html.EscapeString(c.yLabel))
	for k, s := range c.series {
		color := palette[k%len(palette)]
		var pts []string
		for i, y := range s.y {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i), scale(y)))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.8" points="%s"/>`+"\n", color, strings.Join(pts, " "))
		ly := top + 8 + 18*k
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="3"/>`+"\n", left+12, left+32, ly, ly, color)
		fmt.Fprintf(&b, `<text x="%d" y="%d" dominant-baseline="middle">%s</text>`+"\n", left+38, ly, html.EscapeString(s.name))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// logTicks returns the powers of ten that cover lo..hi.
func logTicks(lo, hi float64) []float64 {
	var ticks []float64
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		ticks = append(ticks, math.Pow(10, e))
	}
	if len(ticks) < 2 {
		ticks = append(ticks, ticks[0]*10)
	}
	return ticks
}

// linearTicks returns about five round ticks from lo to past hi.
func linearTicks(lo, hi float64) []float64 {
	if hi <= lo {
		hi = lo + 1
	}
	step := math.Pow(10, math.Floor(math.Log10((hi-lo)/5)))
	for _, m := range []float64{1, 2, 5, 10} {
		if (hi-lo)/(step*m) <= 6 {
			step *= m
			break
		}
	}
	var ticks []float64
	for t := lo; t < hi+step; t += step {
		ticks = append(ticks, t)
	}
	return ticks
}

// tickLabel writes a tick compactly: 1e+06 as 1M, 0.25 as 0.25.
func tickLabel(v float64) string {
	switch {
	case v >= 1e9:
		return fmt.Sprintf("%gG", v/1e9)
	case v >= 1e6:
		return fmt.Sprintf("%gM", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%gk", v/1e3)
	}
	return fmt.Sprintf("%.4g", v)
}
