package pdb

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"fifteen/internal/pdbcore"
	"fifteen/puzzle"
)

// A Store owns a directory of pattern databases: it opens a partition's
// tables from it, finds the missing and damaged ones, and builds them,
// under the directory's lock, as its Policy allows. Every program that
// reads or builds databases goes through one, so that they all treat the
// directory alike.
type Store struct {
	dir  string
	opts StoreOptions
}

// StoreOptions tune a Store.
type StoreOptions struct {
	// Policy says which missing or damaged databases Tables builds.
	Policy Policy
	// Threads and BlankFree are the builds' (BuildOptions).
	Threads   int
	BlankFree bool
	// Progress, if not nil, is called after each layer of a build.
	Progress func(Progress)
	// Log, if not nil, is told, a line at a time, what the store does:
	// what it builds, waits for, moves aside, and loads from where.
	Log func(string)
	// Opened, if not nil, is told how long each Tables took, by what it
	// did.
	Opened func(Opening)
}

// Opening is how long Store.Tables took to open a partition's tables, by
// what it did: waiting for another process's build, building, and
// loading (issue 76: a wait was reported as loading).
type Opening struct {
	Waiting, Building, Loading time.Duration
}

// Policy says which missing or damaged databases Store.Tables builds.
type Policy int

const (
	// BuildDefaults builds each size's default partition
	// (DefaultPartition): minutes and a few hundred megabytes, once.
	// Others can take gigabytes; they are built on request (Store.Build).
	BuildDefaults Policy = iota
	// NeverBuild builds nothing: a missing database is an error.
	NeverBuild
	// BuildAny builds whatever partition is asked for.
	BuildAny
)

// OpenStore returns the store of the directory dir ("" is DefaultDir()),
// which need not exist yet.
func OpenStore(dir string, opts StoreOptions) (*Store, error) {
	if dir == "" {
		var err error
		if dir, err = DefaultDir(); err != nil {
			return nil, err
		}
	}
	return &Store{dir: dir, opts: opts}, nil
}

// Dir returns the store's directory.
func (s *Store) Dir() string { return s.dir }

// A StoreError reports a partition whose databases a store could not
// open or build: missing (Err wraps ErrMissing: the policy did not build
// them), damaged (a *FileError names the file) or unreadable. It names
// the partition as it was asked for, its board size and the directory,
// so that a program can word its advice: how to build them.
type StoreError struct {
	Dir       string
	Partition string // the name the databases were asked for by
	Size      puzzle.Size
	Err       error
}

func (e *StoreError) Error() string {
	if errors.Is(e.Err, ErrMissing) {
		return fmt.Sprintf("the %s databases are not in %s, or are of another format version", Label(e.Partition), e.Dir)
	}
	return fmt.Sprintf("the %s databases in %s: %v", Label(e.Partition), e.Dir, e.Err)
}

func (e *StoreError) Unwrap() error { return e.Err }

// builds reports whether the policy builds the partition, named name.
func (s *Store) builds(name string, size puzzle.Size) bool {
	switch s.opts.Policy {
	case BuildAny:
		return true
	case BuildDefaults:
		return name == DefaultPartition(size)
	}
	return false
}

// Tables returns the partition's tables, which name names (the name it
// was asked for by: a partition of several, say), loaded from the
// directory: missing ones are built first where the policy allows. A
// damaged file is repaired there too, under the directory's lock, with
// every other damaged file of the partition: each is moved aside under a
// name of its own (FILE.damaged, FILE.damaged-2, …: never removed, nor
// rewritten, as a process may map it) and built again. The tables stay
// valid until closed.
func (s *Store) Tables(ctx context.Context, name string, p Partition) ([]*Table, error) {
	fail := func(err error) error { return &StoreError{Dir: s.dir, Partition: name, Size: p.Size, Err: err} }
	build := s.builds(name, p.Size)
	// At most a build of the missing files, and a repair: a third round
	// finds files removed under it as fast as they are built.
	repaired := false
	var took Opening
	for range 3 {
		missing, err := p.Missing(s.dir)
		if err != nil {
			return nil, fail(err)
		}
		mode := missingOnly
		if len(missing) == 0 {
			t0 := time.Now()
			tables, err := p.Load(s.dir)
			took.Loading += time.Since(t0)
			if err == nil {
				s.log("loaded the %s pattern databases from %s in %.1f ms", Label(p.Name), s.dir, time.Since(t0).Seconds()*1e3)
				if s.opts.Opened != nil {
					s.opts.Opened(took)
				}
				return tables, nil
			}
			// Damaged, or moved aside by another process since Missing
			// looked: repaired under the lock, where that process has
			// finished.
			if repaired || !build || !errors.Is(err, ErrCorrupt) && !errors.Is(err, errMismatch) && !errors.Is(err, ErrMissing) {
				return nil, fail(err)
			}
			mode, repaired = missingOrDamaged, true
		} else if !build {
			return nil, fail(ErrMissing)
		}
		t0 := time.Now()
		_, waited, err := s.build(ctx, []Partition{p}, mode)
		took.Waiting += waited
		took.Building += time.Since(t0) - waited
		if ctx.Err() != nil {
			return nil, fmt.Errorf("building the %s databases: %w", Label(p.Name), err)
		} else if err != nil {
			return nil, fail(err)
		}
	}
	return nil, fail(ErrMissing)
}

// Build builds the partitions' databases (of one size and goal) that the
// directory lacks, or holds damaged or of an older format, whatever the
// policy; with force, all of them. A pattern that partitions share is
// built once. It returns how many databases it built.
func (s *Store) Build(ctx context.Context, parts []Partition, force bool) (int, error) {
	mode := missingOrDamaged
	if force {
		mode = everything
	}
	n, _, err := s.build(ctx, parts, mode)
	return n, err
}

// What build builds of the partitions.
const (
	missingOnly      = iota // the files missing or of an older format
	missingOrDamaged        // those, and those that fail their checks
	everything
)

// build builds what of the partitions the mode says, holding the
// directory's lock: another process may be building the same, and then
// what it built is not built again. It returns how many databases it
// built, and how long it waited for the lock.
func (s *Store) build(ctx context.Context, parts []Partition, mode int) (n int, waited time.Duration, err error) {
	t0 := time.Now()
	held := false // by another process, which this one waited for
	unlock, err := lockDir(ctx, s.dir, func(holder string) {
		held = true
		s.log("waiting for %s, which is building databases in %s", holder, s.dir)
	})
	if held {
		waited = time.Since(t0)
	}
	if err != nil {
		return 0, waited, err
	}
	defer unlock()
	patterns, err := s.todo(parts, mode)
	if err != nil || len(patterns) == 0 {
		return 0, waited, err
	}
	what := Label(parts[0].Name)
	if len(parts) > 1 {
		what = fmt.Sprintf("%s and %d more partitions'", what, len(parts)-1)
	}
	s.log("building the %s pattern databases in %s (once)%s", what, s.dir, memoryNote(parts[0].Size, patterns))
	return len(patterns), waited, buildMissing(ctx, s.dir, parts[0].Size, parts[0].Goal(), patterns, BuildOptions{Threads: s.opts.Threads, BlankFree: s.opts.BlankFree, Progress: s.opts.Progress}, func(b built) { s.log("%v", b) })
}

// memoryNote returns what a build of the patterns of a board of the size
// says of its memory before it begins, where it is half a gigabyte or
// more (issue 76: 7-8's 3.2 GB came without a word): a lower bound, what
// the largest pattern's builder holds (buildMemory). Measured peaks, in
// docs/performance.md, run higher, with the tables built before it and
// the collector's room: 7-8 2.1 GB (measured 3.2), 4×5's 7-6-6 2.1 (2.9),
// 5×5's 6-6-6-6 0.9 (2.0), 3×6's 7-7-3 0.8 (1.0).
func memoryNote(size puzzle.Size, patterns [][]int) string {
	most := uint64(0)
	for _, tiles := range patterns {
		most = max(most, buildMemory(size, len(tiles)))
	}
	if most < 5e8 {
		return ""
	}
	return fmt.Sprintf(": at least %.1f GB of memory", float64(most)/1e9)
}

// buildMemory returns the memory that the builder of a database of k
// tiles on a board of the size holds, one placement of the tiles an
// entry: two bits a state (a placement and a blank's cell), the values,
// and the later layer's.
func buildMemory(size puzzle.Size, k int) uint64 {
	n := size.Cells()
	x, err := pdbcore.NewIndexer(Ranked, n, k)
	if err != nil {
		return 0
	}
	return uint64(x.Len()) * uint64(8+n-k) / 4
}

// todo returns the patterns of the partitions that build builds in the
// mode, each once, though partitions may share it.
func (s *Store) todo(parts []Partition, mode int) ([][]int, error) {
	var patterns [][]int
	for _, p := range parts {
		todo, err := p.Patterns, error(nil)
		switch mode {
		case missingOnly:
			todo, err = p.Missing(s.dir)
		case missingOrDamaged:
			todo, err = s.missingOrDamaged(p)
		}
		if err != nil {
			return nil, err
		}
		for _, tiles := range todo {
			if !slices.ContainsFunc(patterns, func(q []int) bool { return slices.Equal(q, tiles) }) {
				patterns = append(patterns, tiles)
			}
		}
	}
	return patterns, nil
}

// missingOrDamaged returns the partition's patterns whose databases are
// missing from the directory, outdated, or damaged, and moves each
// damaged file aside (moveAside). The compressed file, the source of
// truth, is read and checked whole, and then its unpacked copy, which
// Load replaces if it is damaged. It holds the directory's lock.
func (s *Store) missingOrDamaged(p Partition) ([][]int, error) {
	todo, err := p.Missing(s.dir)
	if err != nil {
		return nil, err
	}
	for _, tiles := range p.Patterns {
		if slices.ContainsFunc(todo, func(q []int) bool { return slices.Equal(q, tiles) }) {
			continue
		}
		path := filepath.Join(s.dir, FileName(p.Size, p.Goal(), tiles))
		_, _, err := readCompressed(path, p.Size, p.Goal(), tiles)
		if err == nil {
			var t *Table
			if t, err = Load(s.dir, p.Size, p.Goal(), tiles); err == nil {
				t.Close()
				continue
			}
		}
		var fe *FileError
		if !errors.As(err, &fe) || !errors.Is(err, ErrCorrupt) && !errors.Is(err, errMismatch) {
			return nil, err
		}
		aside, err := moveAside(fe.Path)
		if err != nil {
			return nil, err
		}
		s.log("%v: moved aside to %s, to be built again", fe, aside)
		todo = append(todo, tiles)
	}
	return todo, nil
}

// moveAside renames a damaged file to FILE.damaged, or FILE.damaged-2,
// -3, … where earlier ones are, so that each stays as evidence under a
// name of its own. The directory's lock is held: no other process moves
// files aside meanwhile.
func moveAside(path string) (string, error) {
	for i := 1; ; i++ {
		aside := path + ".damaged"
		if i > 1 {
			aside += "-" + strconv.Itoa(i)
		}
		if _, err := os.Lstat(aside); errors.Is(err, fs.ErrNotExist) {
			return aside, os.Rename(path, aside)
		} else if err != nil {
			return "", err
		}
	}
}

func (s *Store) log(format string, args ...any) {
	if s.opts.Log != nil {
		s.opts.Log(fmt.Sprintf(format, args...))
	}
}
