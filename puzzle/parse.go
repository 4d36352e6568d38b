package puzzle

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
)

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
//     ("korf1: 14 13 15 7 …"); the board is square, its size following
//     from the count (9 → 3×3, 16 → 4×4), unless the size comes first
//     ("2x8 1 2 3 …", as Puzzle.Line writes it);
//   - a block: a line holding only the size ("4", or "3x4" for 3 rows of 4),
//     then one line per row.
//
// A label ends at the line's last ':', so that it may hold colons itself
// ("a.txt:12: …"). Blank lines and everything after '#' are ignored.
type Reader struct {
	// MaxCells is the largest board accepted; 0 means MaxBoardCells, the
	// optimal search's limit. A caller that takes bigger puzzles may raise
	// it, to at most MaxCells.
	MaxCells int

	br   *bufio.Reader
	err  error // the input's, once it has ended or failed
	name string
	line int
}

// MaxLine bounds a line of input, in bytes: a longer line is one
// malformed puzzle, and reading goes on after it.
const MaxLine = 64 << 10

// errLongLine stands for a line longer than MaxLine.
var errLongLine = fmt.Errorf("line longer than %d bytes", MaxLine)

// NewReader returns a Reader of r. A non-empty name prefixes the ids of
// unlabelled puzzles ("name:12"), so that ids stay unique across inputs.
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, MaxLine), name: idName(name)}
}

// idName returns a name as the ids it prefixes hold it: escaped (Escape),
// and so are a '#', which would begin a comment, and spaces at either end,
// which a label loses, so that Puzzle.Line reads back as the same id.
func idName(name string) string {
	name = strings.ReplaceAll(Escape(name), "#", `\x23`)
	trimmed := strings.TrimLeft(name, " ")
	name = strings.Repeat(`\x20`, len(name)-len(trimmed)) + trimmed
	trimmed = strings.TrimRight(name, " ")
	return trimmed + strings.Repeat(`\x20`, len(name)-len(trimmed))
}

// Next returns the next puzzle. It returns an *InputError for a malformed
// puzzle (call Next again for the ones after it), io.EOF at the end, and
// any other error when reading fails.
func (r *Reader) Next() (Puzzle, error) {
	for {
		text, err := r.nextLine()
		if err != nil && err != errLongLine {
			return Puzzle{}, err
		}
		line := r.line
		p := Puzzle{ID: r.defaultID()}
		if err == errLongLine {
			return p, r.errorf(p.ID, line, "%v", err)
		}
		if text == "" {
			continue
		}
		if i := strings.LastIndexByte(text, ':'); i >= 0 {
			label := strings.TrimSpace(text[:i])
			text = text[i+1:]
			if label == "" {
				return p, r.errorf(p.ID, line, "empty label")
			}
			p.ID = Escape(label)
		}
		fields := splitTiles(text)
		maxCells := r.MaxCells
		if maxCells <= 0 {
			maxCells = MaxBoardCells
		}
		head := "" // a size, or the first tile
		if len(fields) > 0 {
			head = fields[0]
		}
		switch size, sized := parseSize(head); {
		case len(fields) == 1:
			// A block the reader does not take is read whole, so that its
			// rows are not taken for puzzles, and then refused.
			if !sized {
				return p, r.errorf(p.ID, line, "%v", errBadSize(head))
			}
			p.Size = size
			if size.Rows <= MaxCells {
				fields, err = r.block(size)
			}
			if err == nil {
				err = size.validUpTo(maxCells)
			}
			if err != nil {
				return p, r.errorf(p.ID, line, "%v", err)
			}
		case sized && strings.ContainsAny(fields[0], "xX"):
			p.Size, fields = size, fields[1:]
			if err := size.validUpTo(maxCells); err != nil {
				return p, r.errorf(p.ID, line, "%v", err)
			}
			if len(fields) != size.Cells() {
				missing, extra := misfits(fields, size)
				return p, r.errorf(p.ID, line, "%d tiles on a %v board, which has %d%s%s", len(fields), size, size.Cells(), listTiles(missing, "missing"), listTiles(extra, "extra"))
			}
		default:
			if p.Size, err = sizeForTiles(fields, maxCells); err != nil {
				return p, r.errorf(p.ID, line, "%v", err)
			}
		}
		p.Tiles = make([]int, len(fields))
		for i, f := range fields {
			if p.Tiles[i], err = tileNumber(f); err != nil {
				return p, r.errorf(p.ID, line, "%v", err)
			}
		}
		if err := p.Valid(); err != nil {
			return p, r.errorf(p.ID, line, "%v", err)
		}
		return p, nil
	}
}

// nextLine returns the next line without its comment and surrounding
// space (and the input's byte-order mark, if any); errLongLine, the line
// skipped, for one over MaxLine bytes; io.EOF at the end.
func (r *Reader) nextLine() (string, error) {
	if r.err != nil {
		return "", r.err
	}
	b, err := r.br.ReadSlice('\n')
	long := err == bufio.ErrBufferFull
	for err == bufio.ErrBufferFull {
		_, err = r.br.ReadSlice('\n')
	}
	if err != nil {
		r.err = err
		if len(b) == 0 && !long {
			return "", err
		}
	}
	r.line++
	if long {
		return "", errLongLine
	}
	text, _, _ := strings.Cut(string(b), "#")
	if r.line == 1 {
		text = strings.TrimPrefix(text, "\uFEFF")
	}
	return strings.TrimSpace(text), nil
}

// block reads the rows of a block puzzle, skipping blank lines: each must
// hold a row of the size. After a bad row it reads the block's other rows
// too, so that they are not taken for puzzles, and its error names every
// line it read, so that none goes unsolved without a word (issue 76).
func (r *Reader) block(size Size) ([]string, error) {
	first := r.line // the size's
	var fields []string
	var bad error
	for read := 0; read < size.Rows; {
		text, err := r.nextLine()
		switch {
		case err == io.EOF && bad != nil:
			return nil, fmt.Errorf("the input ends inside the block of lines %d to %d, which is not solved: %w", first, r.line, bad)
		case err == io.EOF:
			return nil, fmt.Errorf("the input ends inside the block of lines %d to %d", first, r.line)
		case err != nil:
			return nil, fmt.Errorf("line %d: %w", r.line, err)
		case text == "":
			continue
		}
		read++
		row := splitTiles(text)
		if len(row) != size.Cols && bad == nil {
			bad = fmt.Errorf("line %d: %d tiles in a row of %d", r.line, len(row), size.Cols)
		}
		fields = append(fields, row...)
	}
	if bad != nil {
		return nil, fmt.Errorf("the block of lines %d to %d is not solved: %w", first, r.line, bad)
	}
	return fields, nil
}

// Escape writes the control and format characters of s (such as ESC, a
// line end, or U+202E, which reverses the text after it) as Go escapes,
// so that printing s cannot drive a terminal, end a line, or show text
// other than it is. Labels are read so.
func Escape(s string) string {
	if !strings.ContainsFunc(s, hidden) {
		return s
	}
	var b strings.Builder
	for _, c := range s {
		if hidden(c) {
			q := strconv.QuoteRune(c)
			b.WriteString(q[1 : len(q)-1])
		} else {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// hidden reports whether c is a control or format character.
func hidden(c rune) bool { return unicode.IsControl(c) || unicode.Is(unicode.Cf, c) }

// tileNumber reads a tile's number: decimal digits alone, so that "-0"
// is not read as the blank (issue 76).
func tileNumber(f string) (int, error) {
	n, err := strconv.Atoi(f)
	switch {
	case strings.ContainsAny(f, "[]{}"):
		return 0, fmt.Errorf("%q is not a tile number: write the tiles apart, with spaces or commas and no brackets, such as 1 2 3 0", f)
	case err != nil || strings.Trim(f, "0123456789") != "":
		return 0, fmt.Errorf("%q is not a tile number", f)
	}
	return n, nil
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

func (r *Reader) errorf(id string, line int, format string, args ...any) error {
	return &InputError{ID: id, Line: line, Reason: fmt.Sprintf(format, args...)}
}
