package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image/png"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"fifteen/internal/atomicfile"
	"fifteen/internal/testtool"
	"fifteen/puzzle"
	"fifteen/solver"
)

var screenshot = flag.String("screenshot", "", "write the browser test's screenshot of the page to `FILE` (docs/web.png)")

// browser returns a headless Chromium's context, or skips the test when
// none is installed.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := testtool.Need(t, "apt-get install chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // CI runs as root
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.WindowSize(1100, 820),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() {
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
	})
	return ctx
}

// waitJS polls a JavaScript expression until it is true.
func waitJS(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))
}

// value runs a browser action and returns its value, or fails the test.
func value[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// do runs the browser's steps, or fails the test with the step and what
// the page shows.
func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	for i, step := range steps {
		if err := chromedp.Do(ctx, step); err != nil {
			page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`"board " + document.getElementById("board").dataset.tiles + "; message: " + document.getElementById("message").textContent`))
			t.Fatalf("step %d: %v; the page shows %s", i+1, err, page)
		}
	}
}

func text(t *testing.T, ctx context.Context, css string) string {
	t.Helper()
	return value(t, ctx, chromedp.Text(chromedp.CSS(css)))
}

func joinTiles(tiles []int) string {
	return strings.Trim(strings.Join(strings.Fields(fmt.Sprint(tiles)), ","), "[]")
}

// TestBrowser plays the page in headless Chromium: tiles clicked and a
// key pressed, Korf's instance 79 entered and solved optimally to the end,
// a 5×5 solved the way people do with its region highlighted, a phone's
// viewport, and a screenshot.
func TestBrowser(t *testing.T) {
	ctx := browser(t)
	_, ts := newTestServer(t, solver.Config{}, testLimits)
	goalLast := joinTiles(puzzle.Solved(puzzle.Size{Rows: 4, Cols: 4}, puzzle.GoalLast).Tiles)
	goalFirst := joinTiles(puzzle.Solved(puzzle.Size{Rows: 4, Cols: 4}, puzzle.GoalFirst).Tiles)
	tiles := func(want string) chromedp.Action[chromedp.Void] {
		return waitJS(fmt.Sprintf(`document.getElementById("board").dataset.tiles === %q`, want))
	}
	click := func(css string) chromedp.Action[chromedp.Void] { return chromedp.Click(chromedp.CSS(css)) }
	js := func(expr string) chromedp.Action[chromedp.Void] { return chromedp.Evaluate[chromedp.Void](expr) }
	loaded := waitJS(`document.getElementById("board").dataset.tiles !== undefined`)

	t.Run("play", func(t *testing.T) {
		do(t, ctx,
			// The blank on the bottom row's first cell.
			chromedp.Navigate(ts.URL+"/?size=4x4&goal=last&tiles=1,2,3,4,5,6,7,8,9,10,11,12,0,13,14,15"),
			tiles("1,2,3,4,5,6,7,8,9,10,11,12,0,13,14,15"),
			// The hint lights 13, the first of three slides left.
			click("#hint"),
			waitJS(`document.querySelector(".tile.hint")?.dataset.tile === "13" && document.getElementById("message").textContent === "Hint: slide 13. The goal is 3 moves away."`),
			// Tile 6 is in neither the blank's row nor its column: nothing moves.
			click(`[data-tile="6"]`),
			// The right arrow slides the tile left of the blank: there is none.
			chromedp.KeyEvent(kb.ArrowRight),
			tiles("1,2,3,4,5,6,7,8,9,10,11,12,0,13,14,15"),
			// The left arrow slides 13 left, then a click on 15 slides 14 and 15.
			chromedp.KeyEvent(kb.ArrowLeft),
			tiles("1,2,3,4,5,6,7,8,9,10,11,12,13,0,14,15"),
			click(`[data-tile="15"]`),
			tiles(goalLast),
			waitJS(`document.getElementById("message").textContent.includes("optimum")`),
		)
		moves, message := text(t, ctx, "#moves"), text(t, ctx, "#message")
		if moves != "3" || !strings.Contains(message, "Solved in 3 moves") || !strings.Contains(message, "that is the optimum") {
			t.Errorf("moves %q, message %q: want 3 moves, the optimum matched", moves, message)
		}
		labels := value(t, ctx, chromedp.Evaluate[int](`[...document.querySelectorAll(".tile")].filter(b => /^\d+, row \d, column \d$/.test(b.getAttribute("aria-label"))).length`))
		if labels != 15 {
			t.Errorf("%d tiles have accessible names, want 15", labels)
		}
	})

	t.Run("bad input", func(t *testing.T) {
		message := `document.getElementById("message").textContent`
		do(t, ctx,
			chromedp.Navigate(ts.URL+"/?size=3x3&tiles=2,1,3,4,5,6,7,8,0"),
			loaded,
			waitJS(message+`.includes("refused: unsolvable")`),
			click("#enter summary"),
			chromedp.SendKeys(chromedp.CSS("#enter-tiles"), "1 2 3 4 5 6 7 8"),
			click(`#enter-form button[type="submit"]`),
			waitJS(message+`.includes("wrong number of tiles: 8 tiles for a 3x3 board")`),
		)
	})

	t.Run("korf79", func(t *testing.T) {
		k79 := joinTiles(korf79.Tiles)
		do(t, ctx,
			chromedp.Navigate(ts.URL+"/"),
			loaded,
			chromedp.SetValue(chromedp.CSS("#goal"), "first"),
			js(`document.getElementById("goal").dispatchEvent(new Event("change"))`),
			click("#enter summary"),
			chromedp.SendKeys(chromedp.CSS("#enter-tiles"), strings.ReplaceAll(k79, ",", " ")),
			click(`#enter-form button[type="submit"]`),
			tiles(k79),
			waitJS(`!document.getElementById("solve-optimal").disabled`),
			click("#solve-optimal"),
			chromedp.WaitVisible(chromedp.CSS("#player")),
		)
		length, info := text(t, ctx, "#solution-length"), text(t, ctx, "#solution-info")
		do(t, ctx, click("#last"), tiles(goalFirst), waitJS(`document.getElementById("board").dataset.solved === "true"`))
		if length != "42" || !strings.Contains(info, "Optimal: 42 moves") || !strings.Contains(info, "nodes generated") {
			t.Errorf("length %q, info %q: want 42 moves with the counts", length, info)
		}
	})

	t.Run("human 5x5", func(t *testing.T) {
		do(t, ctx,
			chromedp.Navigate(ts.URL+"/?size=5x5&goal=last&seed=2026"),
			loaded,
			waitJS(`document.querySelectorAll(".tile").length === 24`),
			click("#solve-human"),
			chromedp.WaitVisible(chromedp.CSS("#player")),
			chromedp.WaitVisible(chromedp.CSS("#region")),
		)
		region, info, seed := text(t, ctx, "#region-name"), text(t, ctx, "#solution-info"), text(t, ctx, "#seed")
		if region != "working on row 1" || !strings.HasPrefix(info, "Human-style: ") || seed != "seed 2026" {
			t.Errorf("region %q, info %q, %q: want the first row worked on, a human-style solution, seed 2026", region, info, seed)
		}
		// This server has no 5×5 databases: the page says so.
		if note := text(t, ctx, "#size-note"); !strings.Contains(note, "--build-5x5") {
			t.Errorf("size note %q: want why 5x5 searches are human-style", note)
		}
		// Some way in, for the screenshot: rows placed, a region lit.
		do(t, ctx, js(`for (let i = 0; i < 60; i++) document.getElementById("forward").click()`), chromedp.Sleep(300*time.Millisecond))
		saveScreenshot(t, value(t, ctx, chromedp.CaptureScreenshot()))
		do(t, ctx, click("#last"), waitJS(`document.getElementById("board").dataset.solved === "true"`))
	})

	t.Run("phone", func(t *testing.T) {
		do(t, ctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(ts.URL+"/"), loaded)
		overflow := value(t, ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth || document.getElementById("board").getBoundingClientRect().right > window.innerWidth`))
		if overflow {
			t.Error("the page is wider than a 390-pixel phone")
		}
	})
}

// saveScreenshot checks that the screenshot is a PNG and writes it to the
// file that -screenshot names, if any.
func saveScreenshot(t *testing.T, b []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the screenshot: %v", err)
	}
	if img.Bounds().Dx() < 1000 {
		t.Errorf("the screenshot is %v", img.Bounds())
	}
	if *screenshot != "" {
		if err := atomicfile.WriteFile(*screenshot, func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBrowserFiveByFive plays a 5×5 position twelve moves from the goal on
// a server with small 5×5 databases: the hint and the solution are
// optimal.
func TestBrowserFiveByFive(t *testing.T) {
	ctx := browser(t)
	_, ts := newTestServer5(t, solver.Config{}, smallFive(t), testLimits)
	near := nearFive(t)
	do(t, ctx,
		chromedp.Navigate(ts.URL+"/?size=5x5&goal=last&tiles="+joinTiles(near.Tiles)),
		waitJS(`document.getElementById("board").dataset.tiles === `+fmt.Sprintf("%q", joinTiles(near.Tiles))),
		waitJS(`!document.getElementById("solve-optimal").disabled && document.getElementById("size-note").textContent.includes("seconds")`),
		chromedp.Click(chromedp.CSS("#hint")),
		waitJS(`document.getElementById("message").textContent.startsWith("Hint: slide ")`),
	)
	if message := text(t, ctx, "#message"); !strings.HasSuffix(message, "The goal is 12 moves away.") {
		t.Errorf("hint %q: want an optimal hint, 12 moves away", message)
	}
	// The page says what to expect of 5×5 searches, and files 5×5 among
	// the sizes solved optimally (issue 67: "Human-style only").
	note := text(t, ctx, "#size-note")
	group := value(t, ctx, chromedp.Evaluate[string](`[...document.getElementById("size").options].find((o) => o.value === "5x5").parentElement.label`))
	if !strings.Contains(note, "from seconds (near the goal) to hours") || group != "Optimal and human-style" {
		t.Errorf("the note %q, 5x5 under %q: want what to expect, and 5x5 solved optimally", note, group)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS("#solve-optimal")), chromedp.WaitVisible(chromedp.CSS("#player")))
	if info := text(t, ctx, "#solution-info"); !strings.HasPrefix(info, "Optimal: 12 moves") {
		t.Errorf("solution %q: want 12 moves, optimal", info)
	}
}
