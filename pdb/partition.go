package pdb

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"fifteen/internal/flock"
	"fifteen/puzzle"
)

// Partition is a set of disjoint patterns covering every tile of a board,
// for the goal of row order with the blank on cell Blank
// (puzzle.BlankAt): 0, Korf's goal, for the built-in partitions and specs,
// whose tile t belongs on cell t; ForBlank gives one for another goal.
type Partition struct {
	Name     string // a built-in name, or the spec
	Size     puzzle.Size
	Blank    int
	Patterns [][]int
}

// Label returns how messages write a partition's name: a built-in name's
// pattern sizes joined by dashes ("7-7-1"), as "771" read as a count
// (issue 76); a spec as it is.
func Label(name string) string {
	if name == "" || strings.Trim(name, "123456789") != "" {
		return name
	}
	return strings.Join(strings.Split(name, ""), "-")
}

// Goal returns the goal the partition's databases are built for.
func (p Partition) Goal() puzzle.Goal { return puzzle.BlankAt(p.Blank, p.Size.Cells()) }

// ForBlank returns the partition of Korf's goal p carried over to the goal
// with the blank on cell c: each pattern covers the same cells, but that
// of the tile on cell c now covers cell 0 instead, where the blank was.
// The patterns' tiles are renamed for that goal, and sorted. For cell 0
// it is p.
func (p Partition) ForBlank(c int) Partition {
	if c == 0 {
		return p
	}
	q := Partition{Name: p.Name, Size: p.Size, Blank: c}
	goal, n := q.Goal(), p.Size.Cells()
	for _, tiles := range p.Patterns {
		pattern := make([]int, len(tiles))
		for i, t := range tiles {
			home := t // the cell of tile t under Korf's goal
			if home == c {
				home = 0
			}
			pattern[i] = goal.TileOn(home, n)
		}
		slices.Sort(pattern)
		q.Patterns = append(q.Patterns, pattern)
	}
	return q
}

var (
	size4 = puzzle.Size{Rows: 4, Cols: 4}
	size5 = puzzle.Size{Rows: 5, Cols: 5}
)

// builtin are the named partitions of each size, for the goal with the
// blank top left. On 4×4, 771 keeps the top rows' tiles together, as 78
// does, and leaves the bottom-left corner's tile out of the bottom rows'
// pattern, the choice that generated the fewest nodes of those tried
// (docs/experiments.md). On 5×5, 6666 is Korf and Felner's (2002).
var builtin = map[puzzle.Size]map[string][][]int{
	size4: {
		"663": {{1, 4, 5, 8, 9, 12}, {2, 3, 6, 7, 10, 11}, {13, 14, 15}},
		"555": {{1, 2, 3, 6, 7}, {4, 5, 8, 9, 12}, {10, 11, 13, 14, 15}},
		"771": {{1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 13, 14, 15}, {12}},
		"78":  {{1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}},
	},
	size5: {
		"6666": {{1, 2, 5, 6, 7, 12}, {3, 4, 8, 9, 13, 14}, {10, 11, 15, 16, 20, 21}, {17, 18, 19, 22, 23, 24}},
	},
}

// builtinSets are the named sets of partitions (catalogues). 663x2 adds to
// Korf and Felner's 6-6-3 the one of twenty 6-6-3 partitions tried whose
// maximum with it (each with its reflection) generated the fewest nodes on
// Korf's 100; 6666x2 adds to 6666 the one of three 6-6-6-6 partitions of
// Clausecker's catalogues tried that generated the fewest nodes on four
// of Korf and Felner's instances, and shares two of its tables
// (docs/experiments.md).
var builtinSets = map[puzzle.Size]map[string]string{
	size4: {"663x2": "663+6,7,10,11,14,15/1,2,3,4,5,8/9,12,13"},
	size5: {
		"6666x2": "6666+1,2,3,4,5,6/10,11,15,16,20,21/7,8,9,12,13,14/17,18,19,22,23,24",
		"6666x7": "6666" +
			"+1,2,5,6,7,10/11,12,15,16,20,21/17,18,19,22,23,24/3,4,8,9,13,14" +
			"+1,2,5,6,7,12/10,11,15,16,20,21/3,8,13,17,18,22/4,9,14,19,23,24" +
			"+1,2,5,6,7,10/11,12,15,16,20,21/3,8,13,17,18,22/4,9,14,19,23,24" +
			"+1,2,3,4,5,6/10,11,15,16,20,21/7,8,9,12,13,14/17,18,19,22,23,24" +
			"+1,2,5,6,7,10/15,20,21,22,23,24/11,12,16,17,18,19/3,4,8,9,13,14" +
			"+1,2,3,4,5,6/10,11,15,16,20,21/7,8,12,13,17,18/9,14,19,22,23,24",
	},
}

// defaults are the named partitions solve uses unless told otherwise.
var defaults = map[puzzle.Size]string{size4: "771", size5: "6666"}

// DefaultSizes returns the sizes with named partitions: 4×4 and 5×5.
func DefaultSizes() []puzzle.Size { return []puzzle.Size{size4, size5} }

// DefaultPartition returns the name of the partition solve uses on boards
// of the size unless told otherwise, whose databases are kept in files:
// 771 (7-7-1) on 4×4, 6666 on 5×5, and on every other board of more
// than MaxPerfectCells cells the partition of the rule (Ruled), named by
// its patterns' sizes ("766" on 4×5). Smaller boards have none (""):
// SmallPartition's perfect database, built in memory in milliseconds.
func DefaultPartition(size puzzle.Size) string {
	switch {
	case ruled(size):
		return Ruled(size).Name
	case size.Cells() <= MaxPerfectCells:
		return ""
	}
	return defaults[size]
}

// ruled reports whether the size's default is the rule's (Ruled).
func ruled(size puzzle.Size) bool {
	_, named := defaults[size]
	return !named && size.Cells() > MaxPerfectCells
}

// Names returns the built-in partitions and sets of partitions of the
// size, for a flag's help: the default first, then the others sorted.
func Names(size puzzle.Size) []string {
	if ruled(size) {
		return []string{DefaultPartition(size)}
	}
	names := slices.Collect(maps.Keys(builtin[size]))
	names = append(names, slices.Collect(maps.Keys(builtinSets[size]))...)
	def := defaults[size]
	slices.SortFunc(names, func(a, b string) int {
		switch {
		case a == b:
			return 0
		case a == def:
			return -1
		case b == def:
			return 1
		}
		return strings.Compare(a, b)
	})
	return names
}

// MaxPartitions bounds the partitions of a catalogue: the search looks up
// each one's tables and their reflection.
const MaxPartitions = 8

// ParsePartitions returns the partitions named by s: partitions as
// ParsePartition takes them, or built-in sets of them (663x2), joined by
// '+' ("663+555", "6666x2+6666"), whose heuristics the search maximises;
// each partition once, and at most MaxPartitions.
func ParsePartitions(s string, size puzzle.Size) ([]Partition, error) {
	var parts []Partition
	for _, name := range strings.Split(s, "+") {
		names := []string{name}
		if set, ok := builtinSets[size][name]; ok {
			names = strings.Split(set, "+")
		}
		for _, name := range names {
			p, err := ParsePartition(name, size)
			if err != nil {
				return nil, err
			}
			if !slices.ContainsFunc(parts, func(q Partition) bool { return q.Name == p.Name }) {
				parts = append(parts, p)
			}
		}
	}
	if len(parts) > MaxPartitions {
		return nil, fmt.Errorf("%q is a catalogue of %d partitions, more than the %d a search looks up", s, len(parts), MaxPartitions)
	}
	return parts, nil
}

// otherSize reports a built-in name of another size than size.
func otherSize(name string, size puzzle.Size) error {
	for _, sz := range DefaultSizes() {
		_, part := builtin[sz][name]
		_, set := builtinSets[sz][name]
		if sz != size && (part || set) {
			return fmt.Errorf("partition %s is for %v boards; give a %v board's patterns as a spec", name, sz, size)
		}
	}
	return nil
}

// ParsePartition returns a built-in partition by name (663, 555, 771, 78
// on 4×4; 6666 on 5×5) or the one a spec describes: patterns separated by
// '/', tiles by ',' ("1,2,3,4,5,6/7,8,9,10,11,12/13,14,15").
func ParsePartition(s string, size puzzle.Size) (Partition, error) {
	p := Partition{Name: s, Size: size}
	if patterns, ok := builtin[size][s]; ok {
		p.Patterns = patterns
		return p, nil
	}
	if ruled(size) && s == DefaultPartition(size) {
		return Ruled(size), nil
	}
	if err := otherSize(s, size); err != nil {
		return p, err
	}
	if !strings.ContainsAny(s, ",/") {
		return p, fmt.Errorf("unknown partition %q of a %v board: want %s or a spec like 1,2,3,4/5,6,7,8", s, size, strings.Join(Names(size), ", "))
	}
	covered := 1 // the blank
	for _, group := range strings.Split(s, "/") {
		var pattern []int
		for _, f := range strings.Split(group, ",") {
			t, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || t <= 0 || t >= size.Cells() || covered&(1<<t) != 0 {
				return p, fmt.Errorf("partition %q: %q is not a tile of a %v board, or is repeated", s, f, size)
			}
			covered |= 1 << t
			pattern = append(pattern, t)
		}
		if err := checkPattern(size, pattern); err != nil {
			return p, err
		}
		p.Patterns = append(p.Patterns, pattern)
	}
	if covered != 1<<size.Cells()-1 {
		return p, fmt.Errorf("partition %q leaves tiles of a %v board uncovered", s, size)
	}
	return p, nil
}

// MaxPerfectCells is the largest board whose databases are built in
// memory: one pattern of every tile, a perfect database of exact
// distances (the 8-puzzle's has 181,440 entries in use).
const MaxPerfectCells = 9

// SmallPartition returns the partition of a board of up to
// MaxPerfectCells cells: one pattern of every tile, named "perfect".
func SmallPartition(size puzzle.Size) Partition {
	p := Partition{Name: "perfect", Size: size, Patterns: [][]int{make([]int, size.Cells()-1)}}
	for i := range p.Patterns[0] {
		p.Patterns[0][i] = i + 1
	}
	return p
}

// Build builds the partition's tables in memory.
func (p Partition) Build(ctx context.Context, opts BuildOptions) ([]*Table, error) {
	var tables []*Table
	for _, tiles := range p.Patterns {
		t, err := Build(ctx, p.Size, p.Goal(), tiles, opts)
		if err != nil {
			return nil, err
		}
		tables = append(tables, t)
	}
	return tables, nil
}

// Goal is the goal that the built-in partitions' databases are built for;
// search serves the other convention by rotating the board.
const Goal = puzzle.GoalFirst

// Load loads the partition's tables from dir (see Load; programs use a
// Store).
func (p Partition) Load(dir string) ([]*Table, error) {
	var tables []*Table
	for _, tiles := range p.Patterns {
		t, err := Load(dir, p.Size, p.Goal(), tiles)
		if err != nil {
			for _, t := range tables {
				t.Close()
			}
			return nil, err
		}
		tables = append(tables, t)
	}
	return tables, nil
}

// Missing returns the patterns whose database files (FileName) are not in
// dir (nor dir itself) or are outdated: of another format version. It is
// the low-level API a Store is built on, as Load is. A file that is there
// but cannot be read is an error (a *FileError); other damage is left for
// Load to report.
func (p Partition) Missing(dir string) ([][]int, error) {
	var missing [][]int
	for _, tiles := range p.Patterns {
		path := filepath.Join(dir, FileName(p.Size, p.Goal(), tiles))
		_, err := readHeader(path, p.Size, p.Goal(), tiles)
		switch {
		case errors.Is(err, errVersion) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			missing = append(missing, tiles)
		case errors.Is(err, ErrNotRegular) || errors.Is(err, ErrNewer) || errors.As(err, new(*fs.PathError)):
			return nil, &FileError{path, err}
		}
	}
	return missing, nil
}

// built is what building one pattern's database gave.
type built struct {
	Table      *Table
	Path       string
	Compressed int64         // the file's size
	Elapsed    time.Duration // building and writing it
}

// String describes the table built, for a log line.
func (b built) String() string {
	maxValue, mean, raised := b.Table.stats()
	regions := "blank-free"
	if b.Table.Regions > 0 {
		regions = fmt.Sprintf("%.1f%% raised by the blank in one of its first %d regions", 100*raised, b.Table.Regions)
	}
	return fmt.Sprintf("pattern %v: %d entries (%d placements), max %d, mean %.3f, %s, built in %.2f s, %d bytes raw, %d compressed: %s",
		b.Table.Tiles, len(b.Table.values), b.Table.placements(), maxValue, mean, regions,
		b.Elapsed.Seconds(), len(b.Table.values), b.Compressed, b.Path)
}

// lockDir locks the database directory dir, made if need be, for a build
// (the low-level API a Store is built on, as Load is): a builder that
// holds it and then finds what is still missing builds each database
// once, however many processes start at once. While another process
// holds it, onWait is called once (if not nil), with what the lock says
// of its holder (flock.Holder), and lockDir waits, until ctx ends; a
// holder that dies releases it.
func lockDir(ctx context.Context, dir string, onWait func(holder string)) (unlock func() error, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return flock.Lock(ctx, filepath.Join(dir, ".lock"), onWait)
}

// buildMissing builds the databases of the patterns and writes them to dir,
// calling done after each: the step of Store.Build that writes, which
// does not lock dir (lockDir). When ctx ends, it stops within
// milliseconds, and writes nothing of the database it was building.
func buildMissing(ctx context.Context, dir string, size puzzle.Size, goal puzzle.Goal, patterns [][]int, opts BuildOptions, done func(built)) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, tiles := range patterns {
		t0 := time.Now()
		t, err := Build(ctx, size, goal, tiles, opts)
		if err != nil {
			return err
		}
		path := filepath.Join(dir, FileName(size, goal, tiles))
		if err := writeFile(path, t); err != nil {
			return fmt.Errorf("writing %s: %v", path, err)
		}
		info, err := os.Stat(path)
		if err != nil {
			return err
		}
		if done != nil {
			done(built{Table: t, Path: path, Compressed: info.Size(), Elapsed: time.Since(t0)})
		}
	}
	return nil
}
