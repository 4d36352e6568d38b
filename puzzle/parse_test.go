package puzzle

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

func readAll(t *testing.T, input string) (puzzles []Puzzle, errs []*InputError) {
	t.Helper()
	r := NewReader(strings.NewReader(input), "")
	for {
		p, err := r.Next()
		if err == io.EOF {
			return
		}
		var ie *InputError
		if !errors.As(err, &ie) && err != nil {
			t.Fatalf("Next: %v", err)
		}
		if ie != nil {
			errs = append(errs, ie)
		} else {
			puzzles = append(puzzles, p)
		}
	}
}

func TestReader(t *testing.T) {
	input := `# a comment
korf1: 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3
1,2,3, 4,5,6, 7,0,8   # trailing comment

3
1 2 3
4 5 6
7 8 0
2x3
1 2 3
4 0 5
bad: 1 2 3 4 5 6 7 8 8
1 2 3 4 5
1 2 x 4
`
	puzzles, errs := readAll(t, input)
	want := []struct {
		id, tiles string
		size      Size
	}{
		{"korf1", "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", Size{4, 4}},
		{"3", "1 2 3 4 5 6 7 0 8", Size{3, 3}},
		{"5", "1 2 3 4 5 6 7 8 0", Size{3, 3}},
		{"9", "1 2 3 4 0 5", Size{2, 3}},
	}
	if len(puzzles) != len(want) {
		t.Fatalf("read %d puzzles, want %d", len(puzzles), len(want))
	}
	for i, w := range want {
		p := puzzles[i]
		if p.ID != w.id || p.String() != w.tiles || p.Size != w.size {
			t.Errorf("puzzle %d: %s %v %v, want %s %v %v", i, p.ID, p.Size, p, w.id, w.size, w.tiles)
		}
	}
	wantErrs := []string{"bad: bad tile: tile 8 appears twice", "13: 5 tiles", "14: \"x\" is not a tile number"}
	if len(errs) != len(wantErrs) {
		t.Fatalf("errors %v, want %d", errs, len(wantErrs))
	}
	for i, e := range errs {
		if !strings.HasPrefix(e.Error(), wantErrs[i]) {
			t.Errorf("error %q, want prefix %q", e, wantErrs[i])
		}
	}
}

func TestReaderTruncatedBlock(t *testing.T) {
	_, errs := readAll(t, "3\n1 2 3\n")
	if len(errs) != 1 || !strings.Contains(errs[0].Reason, "ends inside the block of lines 1 to 2") {
		t.Errorf("errors %v", errs)
	}
}

// TestReaderNamesEveryLine checks that every line not read as a puzzle is
// named in an error (issue 76: a size line took the puzzles after it, and
// two were never mentioned), and that a tile number is digits alone.
func TestReaderNamesEveryLine(t *testing.T) {
	for _, c := range []struct{ input, want string }{
		{"3\na: 1 2 3 4 5 6 7 8 0\nb: 1 2 3 4 5 6 7 0 8\nc: 1 2 3 4 5 6 0 7 8\nd: 1 2 3 4 5 0 7 8 6\n", "1: the block of lines 1 to 4 is not solved: line 2: 10 tiles in a row of 3"},
		{"f: 3x3\n1 2 3 4 5 6 7 8 0\n", "f: the input ends inside the block of lines 1 to 2, which is not solved: line 2: 9 tiles in a row of 3"},
		{"1 2 3 -0\n", `1: "-0" is not a tile number`},
		{"1 2 3 +0\n", `1: "+0" is not a tile number`},
		{"[1, 2, 3, 0]\n", `1: "[1" is not a tile number: write the tiles apart, with spaces or commas and no brackets, such as 1 2 3 0`},
	} {
		puzzles, errs := readAll(t, c.input)
		if len(errs) != 1 || errs[0].Error() != c.want {
			t.Errorf("%q: errors %v, want %q", c.input, errs, c.want)
		}
		if len(puzzles) > 0 && puzzles[0].ID != "d" {
			t.Errorf("%q: read %v", c.input, puzzles)
		}
	}
}

// TestFormatParse checks that the one-line form reads back as the board.
func TestFormatParse(t *testing.T) {
	for _, size := range []Size{{2, 2}, {3, 3}, {4, 4}} {
		b := Solved(size, GoalFirst).Rotate()
		puzzles, errs := readAll(t, b.String()+"\n")
		if len(errs) != 0 || len(puzzles) != 1 || !slices.Equal(puzzles[0].Tiles, b.Tiles) || puzzles[0].Size != b.Size {
			t.Errorf("%v: read back %v %v", b, puzzles, errs)
		}
	}
}

// FuzzReader checks that no input panics and every accepted board is valid.
func FuzzReader(f *testing.F) {
	f.Add("korf1: 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n")
	f.Add("3\n1 2 3\n4 5 6\n7 8 0\n")
	f.Add("2x3\n1,2,3\n4,0,5\n# c\n")
	f.Add("1 2 3 4 5 6 7 8 8")
	f.Fuzz(func(t *testing.T, input string) {
		r := NewReader(strings.NewReader(input), "f")
		for range 1000 {
			p, err := r.Next()
			if err == io.EOF {
				return
			}
			var ie *InputError
			if errors.As(err, &ie) {
				continue
			}
			if err != nil {
				return // a line too long for the scanner
			}
			if err := p.Valid(); err != nil || p.Size.ValidBoard() != nil {
				t.Fatalf("accepted an invalid board %v: %v", p, err)
			}
		}
	})
}

// TestReaderHostileInput checks that each kind of bad line is one error
// naming its line, and that the puzzles around it are still read.
func TestReaderHostileInput(t *testing.T) {
	good := "ok: 1 2 3 4 5 6 7 0 8\n"
	for _, c := range []struct {
		name, bad string
		id        string // the error's, or the puzzle's when reason is ""
		reason    string
	}{
		{"long line", strings.Repeat("1 ", MaxLine) + "\n", "2", "line longer than"},
		{"long last line", strings.Repeat("1 ", MaxLine), "2", "line longer than"},
		{"empty label", ": 1 2 3 4 5 6 7 0 8\n", "2", "empty label"},
		{"label without tiles", "a:\n", "a", "0 tiles"},
		{"control characters", "a\x1b[2Jb\r: 1 2 3 4 5 6 7 0 8\n", `a\x1b[2Jb`, ""},
		{"bidi override", "a\u202eb: 1 2 3 4 5 6 7 0 8\n", `a\u202eb`, ""},
		{"short row", "3\n1 2 3\n4 5\n6 7 8 0\n", "2", "line 4: 2 tiles in a row of 3"},
		{"long row", "2\n1 2 3\n0\n", "2", "line 3: 3 tiles in a row of 2"},
		{"block too large", "6\n" + strings.Repeat("1 2 3 4 5 6\n", 6), "2", "at most 32 cells"},
	} {
		t.Run(c.name, func(t *testing.T) {
			input := good + c.bad
			if !strings.HasSuffix(c.bad, "\n") {
				input = good + good + c.bad // the long line last, unterminated
			}
			if strings.HasSuffix(c.bad, "\n") {
				input += good
			}
			puzzles, errs := readAll(t, input)
			if c.reason == "" {
				if len(errs) != 0 || len(puzzles) != 3 || puzzles[1].ID != c.id {
					t.Fatalf("puzzles %v, errors %v; want %q read", puzzles, errs, c.id)
				}
				return
			}
			if len(errs) != 1 || !strings.Contains(errs[0].Reason, c.reason) || len(puzzles) != 2 {
				t.Fatalf("puzzles %v, errors %v; want the two good ones and %q", puzzles, errs, c.reason)
			}
			if errs[0].ID != c.id && !(c.name == "long last line" && errs[0].ID == "3") {
				t.Errorf("error names %q, want %q", errs[0].ID, c.id)
			}
		})
	}
}

func TestReaderByteOrderMark(t *testing.T) {
	puzzles, errs := readAll(t, "\uFEFFbom: 1 2 3 4 5 6 7 0 8\n")
	if len(errs) != 0 || len(puzzles) != 1 || puzzles[0].ID != "bom" {
		t.Errorf("puzzles %v, errors %v", puzzles, errs)
	}
}

// TestLineReadsBack checks that Puzzle.Line reads back as the same puzzle,
// for boards of every shape and labels that hold colons.
func TestLineReadsBack(t *testing.T) {
	for _, size := range []Size{{2, 2}, {3, 3}, {2, 8}, {3, 4}, {4, 3}, {5, 5}, {4, 8}} {
		p := Solved(size, GoalLast).Rotate()
		p.ID = "a.txt:" + size.String()
		puzzles, errs := readAll(t, p.Line()+"\n")
		if len(errs) != 0 || len(puzzles) != 1 || puzzles[0].ID != p.ID || puzzles[0].Size != size || !slices.Equal(puzzles[0].Tiles, p.Tiles) {
			t.Errorf("%q: read back %v %v", p.Line(), puzzles, errs)
		}
	}
	for _, bad := range []struct{ line, reason string }{
		{"a: 2x3 1 2 3 4 0", "5 tiles on a 2x3 board, which has 6; 5 is missing"},
		{"a: 1x6 1 2 3 4 5 0", "unsupported size 1x6"},
		{"a: 6x6 " + strings.Repeat("1 ", 36), "unsupported size 6x6"},
	} {
		if _, errs := readAll(t, bad.line+"\n"); len(errs) != 1 || !strings.Contains(errs[0].Reason, bad.reason) {
			t.Errorf("%q: errors %v, want %q", bad.line, errs, bad.reason)
		}
	}
}

// TestTileCount: a line of a count that fits no square board names the
// board its tiles fit best, how many tiles it has, and which are missing
// or extra (issue 59: "want a square number of at most 32").
func TestTileCount(t *testing.T) {
	for _, c := range []struct{ line, reason string }{
		{"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", "15 tiles: a 4x4 board has 16, 0 to 15; 0 is missing"},
		{"1 2 3 4 5 6 7 8 9 10 11 12 13 15 0", "15 tiles: a 4x4 board has 16, 0 to 15; 14 is missing"},
		{"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0 16", "17 tiles: a 4x4 board has 16, 0 to 15; 16 is extra"},
		{"1 2 3 4 5 6 7 0", "8 tiles: a 3x3 board has 9, 0 to 8; 8 is missing"},
		{"1 2 3 4 5 6 7 8 0 9", "10 tiles: a 3x3 board has 9, 0 to 8; 9 is extra"},
		{"1 2 3 4 5 6 7 8 8 0", "10 tiles: a 3x3 board has 9, 0 to 8; 8 is extra"},
		{"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20", "20 tiles: a 5x5 board has 25, 0 to 24; 5 tiles are missing"},
		{"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 0", "22 tiles: a 5x5 board has 25, 0 to 24; 22, 23, 24 are missing"},
		{"1 x 3", "3 tiles: a 2x2 board has 4, 0 to 3; 0, 2 are missing; x is extra"},
	} {
		if _, errs := readAll(t, c.line+"\n"); len(errs) != 1 || !strings.HasPrefix(errs[0].Reason, c.reason+" (other shapes") {
			t.Errorf("%q: errors %v, want %q", c.line, errs, c.reason)
		}
	}
}

// TestNamesInIDs reads unlabelled puzzles under hostile file names: the
// ids hold no control character, and each line that Line writes reads
// back as the same puzzle with the same id (issue 57: an ESC reached the
// terminal, a newline split a line, and a '#' or a leading space made it
// read back as another puzzle).
func TestNamesInIDs(t *testing.T) {
	for _, name := range []string{"e\x1b[31mred.txt", "two\nlines.txt", "1 2 3 0 #x", " lead.txt", "trail.txt ", "a\u202eb.txt"} {
		r := NewReader(strings.NewReader("1 2 3 4 5 6 7 0 8\n"), name)
		p, err := r.Next()
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		if strings.ContainsFunc(p.ID, hidden) || strings.ContainsAny(p.ID, "#\n") || strings.TrimSpace(p.ID) != p.ID {
			t.Errorf("%q: id %q", name, p.ID)
		}
		back, errs := readAll(t, p.Line()+"\n")
		if len(errs) != 0 || len(back) != 1 || back[0].ID != p.ID || !slices.Equal(back[0].Tiles, p.Tiles) {
			t.Errorf("%q: %q reads back as %v %v", name, p.Line(), back, errs)
		}
	}
}
