package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/gif"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fifteen/cmd/internal/record"
	"fifteen/data"
	"fifteen/pdb"
	"fifteen/puzzle"
	"fifteen/solver"
)

// korf79 is Korf's instance 79: 42 moves to the goal "first".
var korf79 = data.Korf100()[78]

// testLimits are the defaults of the flags.
var testLimits = limits{timeout: 10 * time.Second, maxSolves: runtime.NumCPU(), queueWait: 5 * time.Second}

// newTestServer returns a server on the solver that cfg configures, its
// databases open, and an httptest server that serves it. Its 5×5 solver
// finds no databases, in an empty directory.
func newTestServer(t testing.TB, cfg solver.Config, l limits) (*server, *httptest.Server) {
	t.Helper()
	return newTestServer5(t, cfg, solver.Config{Dir: t.TempDir(), Build: pdb.NeverBuild}, l)
}

// newTestServer5 is newTestServer with the 5×5 solver that five
// configures.
func newTestServer5(t testing.TB, cfg, five solver.Config, l limits) (*server, *httptest.Server) {
	t.Helper()
	s, err := solver.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s5, err := solver.New(five)
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(s, s5, l)
	if err := srv.prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.handler())
	t.Cleanup(func() {
		ts.Close()
		srv.close()
	})
	return srv, ts
}

// call makes a request and returns the answer's status and body.
func call(t testing.TB, ts *httptest.Server, method, path, body string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// replay checks that the record's moves take its start to its goal, and
// slide the tiles it names.
func replay(t testing.TB, rec record.Record) {
	t.Helper()
	size, err := puzzle.ParseSizeUpTo(rec.Size, puzzle.MaxCells)
	if err != nil {
		t.Fatal(err)
	}
	target := rec.GoalTiles
	if rec.Goal != "board" {
		goal, err := puzzle.ParseGoal(rec.Goal)
		if err != nil {
			t.Fatal(err)
		}
		target = puzzle.Solved(size, goal).Tiles
	}
	moves, err := puzzle.ParseMoves(rec.Moves)
	if err != nil {
		t.Fatal(err)
	}
	end, slid, err := puzzle.Puzzle{Size: size, Tiles: rec.Start}.Apply(moves)
	switch {
	case err != nil:
		t.Fatal(err)
	case !slices.Equal(end.Tiles, target):
		t.Fatalf("%v: the moves %s do not reach the goal %v", rec.Start, rec.Moves, target)
	case !slices.Equal(slid, rec.Tiles):
		t.Fatalf("the moves slide %v, the answer says %v", slid, rec.Tiles)
	case rec.Length == nil || *rec.Length != len(moves):
		t.Fatalf("length %v for %d moves", rec.Length, len(moves))
	}
}

func decodeJSON(t testing.TB, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
}

// decodeRecord decodes a solve's answer and replays it.
func decodeRecord(t testing.TB, b []byte) record.Record {
	t.Helper()
	var rec record.Record
	decodeJSON(t, b, &rec)
	replay(t, rec)
	return rec
}

// mirror returns the 4×4 tiles with each row reversed.
func mirror(tiles []int) []int {
	out := slices.Clone(tiles)
	for r := range 4 {
		slices.Reverse(out[4*r : 4*r+4])
	}
	return out
}

// swap12 returns the tiles with 1 and 2 swapped: the other parity.
func swap12(tiles []int) []int {
	out := slices.Clone(tiles)
	i, j := slices.Index(out, 1), slices.Index(out, 2)
	out[i], out[j] = out[j], out[i]
	return out
}

func tilesJSON(tiles []int) string {
	b, _ := json.Marshal(tiles)
	return string(b)
}

// TestAPI runs each endpoint on good and bad requests: the status, the
// error's message, and every solution replayed.
func TestAPI(t *testing.T) {
	_, ts := newTestServer(t, solver.Config{}, testLimits)
	k79 := tilesJSON(korf79.Tiles)
	solved4 := tilesJSON(puzzle.Solved(puzzle.Size{Rows: 4, Cols: 4}, puzzle.GoalLast).Tiles)
	random5, _ := puzzle.Random(rand.New(rand.NewPCG(5, 0)), puzzle.Size{Rows: 5, Cols: 5}, puzzle.GoalLast)
	random1517, _ := puzzle.Random(rand.New(rand.NewPCG(5, 0)), puzzle.Size{Rows: 15, Cols: 17}, puzzle.GoalLast)
	swapped := []int{2, 1, 3, 4, 5, 6, 7, 8, 0}
	for _, c := range []struct {
		name, method, path, body string
		status                   int
		want                     string // in the body
		check                    func(t *testing.T, body []byte)
	}{
		{name: "solve optimal", method: "POST", path: "/api/solve", body: `{"tiles": ` + k79 + `, "size": "4x4", "goal": "first", "mode": "optimal"}`, status: 200, check: func(t *testing.T, b []byte) {
			rec := decodeRecord(t, b)
			if *rec.Length != korf79.Optimal || !rec.Optimal || rec.Generated == 0 || rec.Expanded == 0 || rec.H0 == 0 || rec.Heuristic != "pdb:771" {
				t.Errorf("answer %+v: want %d moves, optimal, with counts", rec, korf79.Optimal)
			}
		}},
		{name: "solve, size left out", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,4,5,6,0,7,8]}`, status: 200, want: `"length":2`},
		{name: "solve weighted", method: "POST", path: "/api/solve", body: `{"tiles": ` + k79 + `, "goal": "first", "mode": "weighted", "weight": 1.5}`, status: 200, check: func(t *testing.T, b []byte) {
			if rec := decodeRecord(t, b); rec.Optimal || float64(*rec.Length) > 1.5*float64(korf79.Optimal) {
				t.Errorf("answer %+v: want at most 1.5×%d moves, not called optimal", rec, korf79.Optimal)
			}
		}},
		// Issue 48: a weight whose first bound lay past 255 moves gave 500.
		{name: "solve weight 10", method: "POST", path: "/api/solve", body: `{"tiles": ` + k79 + `, "goal": "first", "mode": "weighted", "weight": 10}`, status: 200, check: func(t *testing.T, b []byte) {
			if rec := decodeRecord(t, b); rec.Optimal || *rec.Length < korf79.Optimal {
				t.Errorf("answer %+v: want a solution, not called optimal", rec)
			}
		}},
		{name: "solve 3x4", method: "POST", path: "/api/solve", body: `{"tiles": [4,1,2,3,5,6,7,11,8,9,10,0], "size": "3x4"}`, status: 200, check: func(t *testing.T, b []byte) { decodeRecord(t, b) }},
		{name: "solve constructive 5x5", method: "POST", path: "/api/solve", body: `{"tiles": ` + tilesJSON(random5.Tiles) + `, "mode": "constructive"}`, status: 200, want: `"heuristic":"constructive"`, check: func(t *testing.T, b []byte) { decodeRecord(t, b) }},
		{name: "solve solved", method: "POST", path: "/api/solve", body: `{"tiles": ` + solved4 + `}`, status: 200, want: `"length":0`},
		{name: "solve toward a goal board", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,0,4,5,6,7,8], "goal": [1,2,3,4,0,5,6,7,8]}`, status: 200, want: `"goal":"board","goal_tiles":[1,2,3,4,0,5,6,7,8]`, check: func(t *testing.T, b []byte) { decodeRecord(t, b) }},
		// Korf's 79 and his goal, mirrored: the goal's blank in a corner,
		// served by the open databases, and the same distance.
		{name: "solve toward a corner goal", method: "POST", path: "/api/solve", body: `{"tiles": ` + tilesJSON(mirror(korf79.Tiles)) + `, "goal": ` + tilesJSON(mirror(puzzle.Solved(puzzle.Size{Rows: 4, Cols: 4}, puzzle.GoalFirst).Tiles)) + `}`, status: 200, check: func(t *testing.T, b []byte) {
			if rec := decodeRecord(t, b); *rec.Length != korf79.Optimal || !rec.Optimal {
				t.Errorf("answer %+v: want %d moves, optimal", rec, korf79.Optimal)
			}
		}},
		{name: "goal with the blank in the centre", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0], "goal": [1,2,3,4,5,0,6,7,8,9,10,11,12,13,14,15]}`, status: 422, want: "solve --goal builds those of any goal"},
		{name: "unsolvable toward a goal board", method: "POST", path: "/api/solve", body: `{"tiles": [2,1,3,0,4,5,6,7,8], "goal": [1,2,3,4,0,5,6,7,8]}`, status: 422, want: "(goal 1 2 3 4 0 5 6 7 8)"},
		{name: "goal board of another size", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,0,4,5,6,7,8], "goal": [1,2,3,0]}`, status: 400, want: "wrong number of tiles"},
		// Issue 76: solve --goal's string form taken, and a convention's
		// goal board answered as the convention, as solve answers it.
		{name: "goal board as solve --goal takes it", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,0,4,5,6,7,8], "goal": "1 2 3 4 0 5 6 7 8"}`, status: 200, want: `"goal":"board","goal_tiles":[1,2,3,4,0,5,6,7,8]`},
		{name: "a convention's goal board", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,4,5,6,7,0,8], "goal": [1,2,3,4,5,6,7,8,0]}`, status: 200, want: `"goal":"last"`},
		{name: "a convention's goal board as a string", method: "POST", path: "/api/solve", body: `{"tiles": [1,0,2,3,4,5,6,7,8], "goal": "0 1 2 3 4 5 6 7 8"}`, status: 200, want: `"goal":"first"`},
		{name: "a goal string of another size", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,4,5,6,7,0,8], "goal": "1 2 3 0"}`, status: 400, want: "a 3x3 puzzle for a 2x2 goal"},
		{name: "a goal string of two boards", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,0], "goal": "1 2 3 0\n1 2 3 0"}`, status: 400, want: "more than one board"},
		{name: "goal of neither kind", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,0], "goal": 5}`, status: 400, want: "a goal board's tiles in rows"},
		{name: "constructive toward an edge goal", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,0,4,5,6,7,8], "goal": [1,2,3,4,0,5,6,7,8], "mode": "constructive"}`, status: 422, want: "blank in a corner"},
		{name: "malformed JSON", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,`, status: 400, want: "malformed JSON"},
		{name: "two values", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,0]} {}`, status: 400, want: "more than one value"},
		{name: "unknown field", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,0], "mdoe": "human"}`, status: 400, want: `unknown field \"mdoe\"`},
		{name: "tile count", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,4,5,6,7,8], "size": "3x3"}`, status: 400, want: "wrong number of tiles: 8 tiles for a 3x3 board, want 9"},
		{name: "no square", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,4,5,6,7,0]}`, status: 400, want: "8 tiles make no square board"},
		{name: "repeated tile", method: "POST", path: "/api/solve", body: `{"tiles": [1,1,3,4,5,6,7,8,0]}`, status: 400, want: "tile 1 appears twice"},
		{name: "repeated tile 5x5", method: "POST", path: "/api/solve", body: `{"tiles": [` + strings.Repeat("1,", 24) + `0], "mode": "human"}`, status: 400, want: "tile 1 appears twice"},
		{name: "repeated tile 6x6", method: "POST", path: "/api/solve", body: `{"tiles": [` + strings.Repeat("1,", 35) + `0], "mode": "human"}`, status: 400, want: "tile 1 appears twice"},
		{name: "bad size", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,0], "size": "2by2"}`, status: 400, want: "2by2"},
		{name: "no tiles", method: "POST", path: "/api/solve", body: `{}`, status: 400, want: "no tiles"}, // issue 57: bad size "0"
		{name: "null tiles", method: "POST", path: "/api/solve", body: `{"tiles": null}`, status: 400, want: "no tiles"},
		{name: "weighted at 1", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,0], "mode": "weighted", "weight": 1}`, status: 400, want: "want 1.01 to 100, in hundredths (the optimal mode searches optimally)"},
		{name: "weight between hundredths", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,0], "mode": "weighted", "weight": 1.0000001}`, status: 400, want: "in hundredths"},
		// Issue 66: 1.005 got "(0 searches optimally)", 0 "(1 is the
		// optimal mode)", with the packages' prefixes.
		{name: "weight 1.005", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,0], "mode": "weighted", "weight": 1.005}`, status: 400, want: `{"error":"the weighted mode with a weight of 1.005: want 1.01 to 100, in hundredths (the optimal mode searches optimally)"}`},
		{name: "weight 0", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,0], "mode": "weighted", "weight": 0}`, status: 400, want: `{"error":"the weighted mode with a weight of 0: want 1.01 to 100, in hundredths (the optimal mode searches optimally)"}`},
		{name: "bad goal", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,0], "goal": "middle"}`, status: 400, want: "middle"},
		{name: "bad mode", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,0], "mode": "fast"}`, status: 400, want: `mode \"fast\": want optimal, weighted or constructive`},
		{name: "weight without weighted", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,0], "weight": 2}`, status: 400, want: "weight"},
		{name: "weighted without weight", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,0], "mode": "weighted"}`, status: 400, want: "weight"},
		{name: "unsolvable", method: "POST", path: "/api/solve", body: `{"tiles": ` + tilesJSON(swapped) + `}`, status: 422, want: puzzle.ErrUnsolvable.Error()},
		// Issue 67: Korf's instances, toward the blank last, say which goal
		// they reach.
		{name: "solvable toward the other goal", method: "POST", path: "/api/solve", body: `{"tiles": [14,13,15,7,11,12,9,5,6,0,2,1,4,8,10,3]}`, status: 422, want: `it is solvable toward goal first (\"goal\": \"first\")`},
		{name: "unsolvable 5x5", method: "POST", path: "/api/solve", body: `{"tiles": ` + tilesJSON(swap12(random5.Tiles)) + `, "mode": "human"}`, status: 422, want: puzzle.ErrUnsolvable.Error()},
		{name: "optimal 5x5", method: "POST", path: "/api/solve", body: `{"tiles": ` + tilesJSON(random5.Tiles) + `}`, status: 422, want: "--build-5x5"},
		{name: "optimal 4x5", method: "POST", path: "/api/solve", body: `{"tiles": ` + tilesJSON(puzzle.Solved(puzzle.Size{Rows: 4, Cols: 5}, puzzle.GoalLast).Tiles) + `, "size": "4x5"}`, status: 422, want: "the constructive mode any size"},
		{name: "body over 64 KiB", method: "POST", path: "/api/solve", body: `{"tiles": [` + strings.Repeat(" ", maxBody) + `]}`, status: 413, want: "over 65536 bytes"},
		{name: "solve by GET", method: "GET", path: "/api/solve", status: 405, want: "want POST"},
		{name: "field in capitals", method: "POST", path: "/api/solve", body: `{"TILES": [1,2,3,0]}`, status: 400, want: `field \"TILES\"`},
		{name: "field twice", method: "POST", path: "/api/solve", body: `{"tiles": [1,2,3,0], "tiles": [1,2,3,0]}`, status: 400, want: "given twice"},

		{name: "hint", method: "POST", path: "/api/hint", body: `{"tiles": ` + k79 + `, "goal": "first"}`, status: 200, check: func(t *testing.T, b []byte) {
			var h hintAnswer
			decodeJSON(t, b, &h)
			m, err := puzzle.ParseMoves(h.Move)
			if err != nil || len(m) != 1 || h.Distance == nil || *h.Distance != korf79.Optimal || h.Length != korf79.Optimal || !h.Optimal {
				t.Fatalf("hint %+v: want one move, distance %d, optimal", h, korf79.Optimal)
			}
			// The move slides the tile it names, and brings the goal one move nearer.
			next, slid, err := korf79.Apply(m)
			if err != nil || slid[0] != h.Tile {
				t.Fatalf("hint %+v: the move slides %v, %v", h, slid, err)
			}
			_, b = call(t, ts, "POST", "/api/hint", `{"tiles": `+tilesJSON(next.Tiles)+`, "goal": "first"}`)
			var after hintAnswer
			decodeJSON(t, b, &after)
			if after.Distance == nil || *after.Distance != *h.Distance-1 {
				t.Errorf("after the hint's move, the distance is %v, want %d", after.Distance, *h.Distance-1)
			}
		}},
		{name: "hint solved", method: "POST", path: "/api/hint", body: `{"tiles": ` + solved4 + `}`, status: 200, want: `{"move":"","tile":0,"distance":0,"length":0,"optimal":true}`},
		// Not optimal: the length of the human-style solution, and no
		// distance (issue 67: its length, as a distance).
		{name: "hint 5x5", method: "POST", path: "/api/hint", body: `{"tiles": ` + tilesJSON(random5.Tiles) + `}`, status: 200, check: func(t *testing.T, b []byte) {
			var h hintAnswer
			decodeJSON(t, b, &h)
			if h.Optimal || h.Distance != nil || h.Length < 50 || strings.Contains(string(b), "distance") {
				t.Errorf("hint %s: want a human-style one, its length, no distance", b)
			}
		}},
		{name: "hint with a mode", method: "POST", path: "/api/hint", body: `{"tiles": [1,2,3,0], "mode": "human"}`, status: 400, want: "takes no mode"},
		{name: "hint unsolvable", method: "POST", path: "/api/hint", body: `{"tiles": ` + tilesJSON(swapped) + `}`, status: 422, want: "unsolvable"},

		{name: "random", method: "GET", path: "/api/random?size=4x4&seed=7", status: 200, check: func(t *testing.T, b []byte) {
			var r randomAnswer
			decodeJSON(t, b, &r)
			want, _ := data.Random(1, 7, puzzle.Size{Rows: 4, Cols: 4}, puzzle.GoalLast)
			if r.Size != "4x4" || r.Seed != 7 || r.Goal != "last" || !slices.Equal(r.Tiles, want[0].Tiles) {
				t.Errorf("random %+v: want solve --random's first of seed 7, %v", r, want[0].Tiles)
			}
		}},
		{name: "random 7x7", method: "GET", path: "/api/random?size=7x7&goal=first", status: 200, check: func(t *testing.T, b []byte) {
			var r randomAnswer
			decodeJSON(t, b, &r)
			if err := (puzzle.Puzzle{Size: puzzle.Size{Rows: 7, Cols: 7}, Tiles: r.Tiles}).Check(puzzle.GoalFirst); err != nil {
				t.Errorf("random 7x7 %v: not a solvable board", r.Tiles)
			}
		}},
		{name: "random bad seed", method: "GET", path: "/api/random?seed=-1", status: 400, want: "seed"},
		{name: "random bad size", method: "GET", path: "/api/random?size=1x9", status: 400, want: "1x9"},

		{name: "gif", method: "GET", path: "/api/solve.gif?tiles=" + strings.Trim(strings.ReplaceAll(k79, " ", ""), "[]") + "&goal=first", status: 200, check: func(t *testing.T, b []byte) {
			anim, err := gif.DecodeAll(bytes.NewReader(b))
			if err != nil || len(anim.Image) != korf79.Optimal+1 {
				t.Fatalf("GIF: %v, want %d frames", err, korf79.Optimal+1)
			}
		}},
		{name: "gif human 5x5", method: "GET", path: "/api/solve.gif?mode=human&tiles=" + strings.Trim(strings.ReplaceAll(tilesJSON(random5.Tiles), " ", ""), "[]"), status: 200, check: func(t *testing.T, b []byte) {
			if _, err := gif.DecodeAll(bytes.NewReader(b)); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "gif toward a goal board", method: "GET", path: "/api/solve.gif?tiles=1,2,3,0,4,5,6,7,8&goal=1,2,3,4,0,5,6,7,8", status: 200, check: func(t *testing.T, b []byte) {
			if anim, err := gif.DecodeAll(bytes.NewReader(b)); err != nil || len(anim.Image) < 2 {
				t.Errorf("a GIF of one move: %v", err)
			}
		}},
		{name: "gif bad goal tiles", method: "GET", path: "/api/solve.gif?tiles=1,2,3,0&goal=1,2,x", status: 400, want: `goal: \"x\" is not a number`},
		{name: "gif bad tiles", method: "GET", path: "/api/solve.gif?tiles=1,2,x", status: 400, want: `\"x\" is not a number`},
		{name: "gif unsolvable", method: "GET", path: "/api/solve.gif?tiles=2,1,3,4,5,6,7,8,0", status: 422, want: "unsolvable"},
		{name: "gif misspelt parameter", method: "GET", path: "/api/solve.gif?tiles=1,2,3,0&gaol=first", status: 400, want: `parameter \"gaol\"`},
		{name: "gif repeated parameter", method: "GET", path: "/api/solve.gif?tiles=1,2,3,0&tiles=1,2,3,0", status: 400, want: "given 2 times"},
		{name: "gif too long", method: "GET", path: "/api/solve.gif?mode=human&size=15x17&tiles=" + strings.Trim(strings.ReplaceAll(tilesJSON(random1517.Tiles), " ", ""), "[]"), status: 422, want: "a GIF draws at most"},
		{name: "random misspelt parameter", method: "GET", path: "/api/random?sise=3", status: 400, want: `parameter \"sise\"`},

		{name: "healthz", method: "GET", path: "/healthz", status: 200, want: `"ready":true`},
		{name: "page", method: "GET", path: "/", status: 200, want: "<title>fifteen"},
		{name: "script", method: "GET", path: "/app.js", status: 200, want: "use strict"},
		{name: "no such page", method: "GET", path: "/nothing", status: 404, want: "no page /nothing"},
		{name: "page by POST", method: "POST", path: "/healthz", status: 405, want: "want GET"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, b := call(t, ts, c.method, c.path, c.body)
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, c.status, b)
			}
			if !bytes.Contains(b, []byte(c.want)) {
				t.Errorf("answer %s: want %s in it", b, c.want)
			}
			if c.status >= 400 {
				var e struct{ Error string }
				if err := json.Unmarshal(b, &e); err != nil || e.Error == "" || resp.Header.Get("Content-Type") != "application/json" {
					t.Errorf("error answer %s (%s): want JSON with an error", b, resp.Header.Get("Content-Type"))
				}
			}
			if c.check != nil {
				c.check(t, b)
			}
		})
	}
}

// TestQueueWait fills the search slots: a search request waits
// --queue-wait and gets 503 with Retry-After, and so does a human-style
// solve.
func TestQueueWait(t *testing.T) {
	srv, ts := newTestServer(t, solver.Config{}, limits{timeout: time.Second, maxSolves: 1, queueWait: 50 * time.Millisecond})
	srv.slots <- struct{}{}
	defer func() { <-srv.slots }()
	t0 := time.Now()
	resp, b := call(t, ts, "POST", "/api/solve", `{"tiles": [1,2,3,4,5,6,0,7,8]}`)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !bytes.Contains(b, []byte("search slots stayed busy")) {
		t.Errorf("status %d, Retry-After %q, %s: want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"), b)
	}
	if waited := time.Since(t0); waited < 50*time.Millisecond {
		t.Errorf("answered after %v, before the queue wait", waited)
	}
	// A human-mode solve, and a hint on a board too large for the
	// databases, take a slot too: a 15x17 one costs half a second.
	for _, c := range []struct{ path, body string }{
		{"/api/solve", `{"tiles": [1,2,3,4,5,6,0,7,8], "mode": "human"}`},
		{"/api/hint", `{"tiles": ` + tilesJSON(puzzle.Solved(puzzle.Size{Rows: 6, Cols: 6}, puzzle.GoalLast).Tiles) + `}`},
	} {
		if resp, b := call(t, ts, "POST", c.path, c.body); resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("%s %s: status %d, %s; want 503", c.path, c.body, resp.StatusCode, b)
		}
	}
}

// korfHard is Korf's instance 88, the hardest of the 100 for IDA*.
var korfHard = data.Korf100()[87]

// TestTimeout runs a search past --timeout: 504, with the counts so far.
func TestTimeout(t *testing.T) {
	_, ts := newTestServer(t, solver.Config{}, limits{timeout: time.Millisecond, maxSolves: 1, queueWait: time.Second})
	resp, b := call(t, ts, "POST", "/api/solve", `{"tiles": `+tilesJSON(korfHard.Tiles)+`, "goal": "first"}`)
	var rec record.Record
	decodeJSON(t, b, &rec)
	if resp.StatusCode != http.StatusGatewayTimeout || rec.Solved || rec.Generated == 0 || rec.Length != nil || !strings.Contains(rec.Error, "timed out") {
		t.Errorf("status %d, %s: want 504 with the counts and the error", resp.StatusCode, b)
	}
}

// TestNotReady asks before the 4×4 databases are open: 4×4 searches get
// 503 with Retry-After, /healthz too, and the human-style solver and the
// other sizes' searches answer.
func TestNotReady(t *testing.T) {
	s, err := solver.New(solver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s5, err := solver.New(solver.Config{Dir: t.TempDir(), Build: pdb.NeverBuild})
	if err != nil {
		t.Fatal(err)
	}
	defer s5.Close()
	ts := httptest.NewServer(newServer(s, s5, testLimits).handler())
	defer ts.Close()
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/healthz", ""},
		{"POST", "/api/solve", `{"tiles": ` + tilesJSON(korf79.Tiles) + `, "goal": "first"}`},
		{"POST", "/api/hint", `{"tiles": ` + tilesJSON(korf79.Tiles) + `, "goal": "first"}`},
	} {
		if resp, b := call(t, ts, c.method, c.path, c.body); resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
			t.Errorf("%s %s: status %d, Retry-After %q, %s: want 503 with Retry-After", c.method, c.path, resp.StatusCode, resp.Header.Get("Retry-After"), b)
		}
	}
	for _, body := range []string{`{"tiles": ` + tilesJSON(korf79.Tiles) + `, "goal": "first", "mode": "human"}`, `{"tiles": [1,2,3,4,5,6,0,7,8]}`} {
		if resp, b := call(t, ts, "POST", "/api/solve", body); resp.StatusCode != 200 {
			t.Errorf("%s: status %d, %s", body, resp.StatusCode, b)
		}
	}
}

// TestDisconnect starts a long search (Manhattan distance on Korf's
// hardest instance) and goes away: the search stops.
func TestDisconnect(t *testing.T) {
	srv, ts := newTestServer(t, solver.Config{Heuristic: "manhattan"}, limits{timeout: time.Hour, maxSolves: 1, queueWait: time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "POST", ts.URL+"/api/solve", strings.NewReader(`{"tiles": `+tilesJSON(korfHard.Tiles)+`, "goal": "first"}`))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		resp, err := ts.Client().Do(req)
		if err == nil {
			resp.Body.Close()
			err = fmt.Errorf("answered %s", resp.Status)
		}
		done <- err
	}()
	waitFor(t, "the search to start", func() bool { return srv.searching.Load() == 1 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("the client's request: %v, want it cancelled", err)
	}
	waitFor(t, "the search to stop", func() bool { return srv.searching.Load() == 0 })
}

// waitFor polls cond for up to 10 seconds.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
	}
}

// TestConcurrent sends 200 random 4×4 puzzles at once, each solved
// optimally: every answer is 200, and replays to the goal.
func TestConcurrent(t *testing.T) {
	_, ts := newTestServer(t, solver.Config{}, limits{timeout: time.Minute, maxSolves: runtime.NumCPU(), queueWait: 5 * time.Minute})
	puzzles, err := data.Random(200, 31, puzzle.Size{Rows: 4, Cols: 4}, puzzle.GoalLast)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, p := range puzzles {
		wg.Go(func() {
			resp, b := call(t, ts, "POST", "/api/solve", `{"tiles": `+tilesJSON(p.Tiles)+`}`)
			if resp.StatusCode != 200 {
				t.Errorf("%s: status %d, %s", p.ID, resp.StatusCode, b)
				return
			}
			if rec := decodeRecord(t, b); !rec.Optimal {
				t.Errorf("%s: not optimal", p.ID)
			}
		})
	}
	wg.Wait()
}

// TestForeignRequests sends what another site's page, or a DNS rebinding,
// would: a foreign Host, Origin or Sec-Fetch-Site is refused with 403,
// and the page's own requests are answered.
func TestForeignRequests(t *testing.T) {
	_, ts := newTestServer(t, solver.Config{}, testLimits)
	own := strings.TrimPrefix(ts.URL, "http://")
	for _, c := range []struct {
		name, method, path string
		header             map[string]string
		status             int
	}{
		{"rebound host", "GET", "/", map[string]string{"Host": "evil.example:8080"}, 403},
		{"rebound host, API", "POST", "/api/solve", map[string]string{"Host": "evil.example"}, 403},
		{"foreign origin", "POST", "/api/solve", map[string]string{"Origin": "http://evil.example"}, 403},
		{"img from another site", "GET", "/api/solve.gif?tiles=1,2,3,0", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"own page", "POST", "/api/solve", map[string]string{"Origin": "http://" + own, "Sec-Fetch-Site": "same-origin"}, 200},
		{"localhost", "GET", "/healthz", map[string]string{"Host": "localhost:8080"}, 200},
		{"typed address", "GET", "/api/solve.gif?tiles=1,2,3,0", map[string]string{"Sec-Fetch-Site": "none"}, 200},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := ""
			if c.method == "POST" {
				body = `{"tiles": [1,2,3,0]}`
			}
			req, err := http.NewRequest(c.method, ts.URL+c.path, strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range c.header {
				req.Header.Set(k, v)
			}
			req.Host = cmp.Or(c.header["Host"], req.Host)
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.status {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, c.status, b)
			}
		})
	}
}

// TestGIFStops draws a GIF past the timeout (504), and one while the
// server closes (503): the drawing stops.
func TestGIFStops(t *testing.T) {
	six := strings.Trim(strings.ReplaceAll(tilesJSON(puzzle.Solved(puzzle.Size{Rows: 6, Cols: 6}, puzzle.GoalFirst).Tiles), " ", ""), "[]")
	random6, _ := puzzle.Random(rand.New(rand.NewPCG(6, 0)), puzzle.Size{Rows: 6, Cols: 6}, puzzle.GoalLast)
	path := "/api/solve.gif?mode=human&tiles=" + strings.Trim(strings.ReplaceAll(tilesJSON(random6.Tiles), " ", ""), "[]")
	_, ts := newTestServer(t, solver.Config{}, limits{timeout: time.Millisecond, maxSolves: 1, queueWait: time.Second})
	if resp, b := call(t, ts, "GET", path, ""); resp.StatusCode != http.StatusGatewayTimeout || !bytes.Contains(b, []byte("drawing the GIF took longer")) {
		t.Errorf("a GIF past the timeout: status %d, %s", resp.StatusCode, b)
	}
	srv, ts := newTestServer(t, solver.Config{}, testLimits)
	srv.closeWork() // the server closing, but for its solver
	if resp, b := call(t, ts, "GET", "/api/solve.gif?mode=human&goal=first&tiles="+six, ""); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a GIF while the server closes: status %d, %s", resp.StatusCode, b)
	}
}

// smallFive configures a 5×5 solver with 4-tile databases, built in a
// directory of their own in a second.
func smallFive(t testing.TB) solver.Config {
	return solver.Config{Partition: "1,2,5,6/3,4,8,9/7,12,13,14/10,11,15,16/17,18,19,24/20,21,22,23", Dir: t.TempDir(), Build: pdb.BuildAny}
}

// nearFive is a 5×5 position twelve moves from the goal with the blank
// last.
func nearFive(t testing.TB) puzzle.Puzzle {
	p, _, err := puzzle.Solved(puzzle.Size{Rows: 5, Cols: 5}, puzzle.GoalLast).Apply(
		[]puzzle.Move{puzzle.Up, puzzle.Up, puzzle.Left, puzzle.Left, puzzle.Down, puzzle.Right, puzzle.Up, puzzle.Left, puzzle.Up, puzzle.Left, puzzle.Down, puzzle.Down})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFiveByFive serves 5×5 boards with small databases built in a
// directory of their own: /healthz says they are open; a position twelve
// moves from the goal gets an optimal solution, checked against Manhattan
// distance's search, and an optimal hint; a random one runs past a short
// timeout, into a 504 with the counts so far, and a human-style hint,
// found within the hint's time, not the search's (issue 67: the hint
// waited the whole timeout).
func TestFiveByFive(t *testing.T) {
	l := testLimits
	l.timeout = time.Minute
	_, ts := newTestServer5(t, solver.Config{}, smallFive(t), l)
	_, b := call(t, ts, "GET", "/healthz", "")
	var health struct {
		Five opening `json:"5x5"`
	}
	decodeJSON(t, b, &health)
	if !health.Five.Ready || health.Five.Pending {
		t.Fatalf("/healthz: %s: want the 5x5 databases ready", b)
	}

	near := nearFive(t)
	md, err := solver.New(solver.Config{Heuristic: "manhattan"})
	if err != nil {
		t.Fatal(err)
	}
	defer md.Close()
	want, err := md.Solve(context.Background(), near, solver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	resp, b := call(t, ts, "POST", "/api/solve", `{"tiles": `+tilesJSON(near.Tiles)+`}`)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("solve: %d %s", resp.StatusCode, b)
	}
	rec := decodeRecord(t, b)
	if rec.Length == nil || *rec.Length != want.Length() || !rec.Optimal || rec.Heuristic == "manhattan" {
		t.Errorf("solve: %s; want %d moves, optimal, with the databases", b, want.Length())
	}
	_, b = call(t, ts, "POST", "/api/hint", `{"tiles": `+tilesJSON(near.Tiles)+`}`)
	var h hintAnswer
	decodeJSON(t, b, &h)
	if !h.Optimal || h.Distance == nil || *h.Distance != want.Length() {
		t.Errorf("hint %s: want optimal, distance %d", b, want.Length())
	}

	far := data.Korf50()[0]
	far.Optimal = 0
	t0 := time.Now()
	resp, b = call(t, ts, "POST", "/api/hint", `{"tiles": `+tilesJSON(far.Rotate().Tiles)+`}`)
	decodeJSON(t, b, &h)
	if resp.StatusCode != http.StatusOK || h.Optimal || h.Move == "" || time.Since(t0) >= l.timeout {
		t.Errorf("hint far: %d %s after %v; want a human-style hint, before the search's timeout", resp.StatusCode, b, time.Since(t0))
	}
	// The short timeout of the other server's searches: a 504, with the
	// counts so far.
	l.timeout = time.Second
	_, ts = newTestServer5(t, solver.Config{}, smallFive(t), l)
	resp, b = call(t, ts, "POST", "/api/solve", `{"tiles": `+tilesJSON(far.Rotate().Tiles)+`}`)
	if resp.StatusCode != http.StatusGatewayTimeout || !strings.Contains(string(b), `"generated"`) {
		t.Errorf("solve far: %d %s; want 504 with the counts", resp.StatusCode, b)
	}
}
