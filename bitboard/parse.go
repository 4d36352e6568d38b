package bitboard

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Puzzle is one puzzle read from an input.
type Puzzle struct {
	ID    string // the label, or the line number (prefixed by the input's name if it has one)
	Line  int    // the line where the puzzle starts
	Size  Size
	Tiles []int // in row-major order, 0 the blank
	Board Board // the packed board; the zero Board for a board of more than MaxCells cells
}

// InputError describes one malformed puzzle. Reading can go on after it.
type InputError struct {
	ID     string
	Line   int
	Reason string
}

func (e *InputError) Error() string { return e.ID + ": " + e.Reason }

// Reader reads puzzles in either of two formats, freely mixed:
//
//   - one puzzle per line, its tiles in row-major order separated by spaces
//     or commas, optionally preceded by a label ending in ':'
//     ("korf1: 14 13 15 7 …"); the board is square, its size follows from
//     the count (9 → 3×3, 16 → 4×4);
//   - a block: a line holding only the size ("4", or "3x4" for 3 rows of 4),
//     then one line per row.
//
// Blank lines and everything after '#' are ignored.
type Reader struct {
	// MaxCells is the largest board accepted; 0 means MaxCells, the
	// packed boards' limit. A caller that handles bigger boards through
	// Puzzle.Tiles may raise it (to at most 255).
	MaxCells int

	sc   *bufio.Scanner
	name string
	line int
}

// NewReader returns a Reader of r. A non-empty name prefixes the ids of
// unlabelled puzzles ("name:12"), so that ids stay unique across inputs.
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{sc: bufio.NewScanner(r), name: name}
}

// Next returns the next puzzle. It returns an *InputError for a malformed
// puzzle (call Next again for the ones after it), io.EOF at the end, and
// any other error when reading fails.
func (r *Reader) Next() (Puzzle, error) {
	for {
		text, ok := r.nextLine()
		if !ok {
			if err := r.sc.Err(); err != nil {
				return Puzzle{}, err
			}
			return Puzzle{}, io.EOF
		}
		if text == "" {
			continue
		}
		p := Puzzle{Line: r.line, ID: r.defaultID()}
		if label, rest, found := strings.Cut(text, ":"); found {
			p.ID = strings.TrimSpace(label)
			text = rest
			if p.ID == "" {
				return p, r.errorf(p, "empty label")
			}
		}
		fields := splitTiles(text)
		maxCells := r.MaxCells
		if maxCells <= 0 {
			maxCells = MaxCells
		}
		maxCells = min(maxCells, 255)
		var err error
		if len(fields) == 1 {
			if p.Size, err = ParseSizeUpTo(fields[0], maxCells); err != nil {
				return p, r.errorf(p, "%v", err)
			}
			if fields, err = r.block(p.Size.Rows); err != nil {
				return p, r.errorf(p, "%v", err)
			}
		} else if p.Size, err = sizeForCount(len(fields), maxCells); err != nil {
			return p, r.errorf(p, "%v", err)
		}
		p.Tiles = make([]int, len(fields))
		for i, f := range fields {
			if p.Tiles[i], err = strconv.Atoi(f); err != nil {
				return p, r.errorf(p, "%q is not a tile number", f)
			}
		}
		if err := checkTiles(p.Size, p.Tiles); err != nil {
			return p, r.errorf(p, "%v", err)
		}
		if p.Size.Cells() <= MaxCells {
			p.Board, _ = New(p.Size, p.Tiles) // checked above
		}
		return p, nil
	}
}

// nextLine returns the next line without its comment and surrounding space.
func (r *Reader) nextLine() (string, bool) {
	if !r.sc.Scan() {
		return "", false
	}
	r.line++
	text, _, _ := strings.Cut(r.sc.Text(), "#")
	return strings.TrimSpace(text), true
}

// block reads the rows of a block puzzle, skipping blank lines.
func (r *Reader) block(rows int) ([]string, error) {
	var fields []string
	for read := 0; read < rows; {
		text, ok := r.nextLine()
		if !ok {
			return nil, errors.Join(errors.New("input ends inside a block"), r.sc.Err())
		}
		if text != "" {
			fields = append(fields, splitTiles(text)...)
			read++
		}
	}
	return fields, nil
}

// splitTiles splits a line at spaces, tabs and commas.
func splitTiles(s string) []string {
	return strings.FieldsFunc(s, func(c rune) bool { return c == ' ' || c == '\t' || c == ',' })
}

func (r *Reader) defaultID() string {
	if r.name != "" {
		return fmt.Sprintf("%s:%d", r.name, r.line)
	}
	return strconv.Itoa(r.line)
}

func (r *Reader) errorf(p Puzzle, format string, args ...any) error {
	return &InputError{ID: p.ID, Line: p.Line, Reason: fmt.Sprintf(format, args...)}
}
