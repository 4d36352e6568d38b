package pdb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fifteen/puzzle"
)

// storeTest returns a store of a fresh directory, which builds whatever
// it is asked for, and a small partition built there.
func storeTest(t *testing.T) (*Store, Partition, *[]string) {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	p, err := ParsePartition("1,2,3,4/5,6,7,8", puzzle.Size{Rows: 3, Cols: 3})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	logged := new([]string)
	s, err := OpenStore(t.TempDir(), StoreOptions{Policy: BuildAny, Log: func(line string) {
		mu.Lock()
		*logged = append(*logged, line)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	openTables(t, s, p)
	return s, p, logged
}

// openTables opens the partition's tables from the store, and closes them.
func openTables(t *testing.T, s *Store, p Partition) {
	t.Helper()
	tables, err := s.Tables(context.Background(), "test", p)
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range tables {
		table.Close()
	}
}

// damage flips a byte in the body of the pattern's compressed file, and
// removes its unpacked copy unless keepRaw.
func damage(t *testing.T, s *Store, p Partition, i int, keepRaw bool) string {
	t.Helper()
	path := filepath.Join(s.Dir(), FileName(p.Size, Goal, p.Patterns[i]))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 0xff
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if !keepRaw {
		os.Remove(path + ".raw")
	}
	return path
}

// TestStoreRepairsAll damages both files of a partition: one call of
// Tables repairs both (issue 48: the second took another run), each kept
// aside under its own name.
func TestStoreRepairsAll(t *testing.T) {
	s, p, logged := storeTest(t)
	a, b := damage(t, s, p, 0, false), damage(t, s, p, 1, false)
	openTables(t, s, p)
	for _, path := range []string{a, b} {
		if _, err := os.Stat(path + ".damaged"); err != nil {
			t.Errorf("%s was not moved aside: %v\n%s", path, err, strings.Join(*logged, "\n"))
		}
	}
	// Damaged again: the first evidence stays, the second gets a name of
	// its own.
	damage(t, s, p, 0, false)
	openTables(t, s, p)
	if _, err := os.Stat(a + ".damaged-2"); err != nil {
		t.Errorf("the second damage was not kept apart: %v", err)
	}
}

// TestStoreChecksCompressed damages a compressed file whose unpacked copy
// is sound: Build, as pdbgen calls it, finds and rebuilds it (issue 48:
// "already built").
func TestStoreChecksCompressed(t *testing.T) {
	s, p, _ := storeTest(t)
	path := damage(t, s, p, 1, true)
	n, err := s.Build(context.Background(), []Partition{p}, false)
	if err != nil || n != 1 {
		t.Fatalf("built %d, %v; want the damaged one", n, err)
	}
	if _, _, err := readCompressed(path, p.Size, Goal, p.Patterns[1]); err != nil {
		t.Errorf("rebuilt file: %v", err)
	}
	if n, err := s.Build(context.Background(), []Partition{p}, false); err != nil || n != 0 {
		t.Errorf("built %d more, %v", n, err)
	}
}

// TestStoreRace has stores of several processes' kind open a partition
// with a damaged file at once: each gets its tables (issue 48: one moved
// the file aside outside the lock, and another then found it missing).
func TestStoreRace(t *testing.T) {
	s, p, _ := storeTest(t)
	for range 4 {
		damage(t, s, p, 0, false)
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Go(func() {
				other, err := OpenStore(s.Dir(), StoreOptions{Policy: BuildAny})
				if err == nil {
					var tables []*Table
					tables, err = other.Tables(context.Background(), "test", p)
					for _, table := range tables {
						table.Close()
					}
				}
				errs[i] = err
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("store %d: %v", i, err)
			}
		}
	}
}

// TestStoreRefusesNewer puts a file of a newer format version in a
// store's directory: it is refused with both versions named, neither
// moved aside nor built over (issue 57: an old and a new program sharing
// a directory rebuilt each other's tables).
func TestStoreRefusesNewer(t *testing.T) {
	s, p, _ := storeTest(t)
	path := filepath.Join(s.dir, FileName(p.Size, Goal, p.Patterns[0]))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[8] = version + 1 // the header's version, read before its checksum
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path + ".raw"); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	_, err = s.Tables(context.Background(), "test", p)
	if !errors.Is(err, ErrNewer) || !strings.Contains(err.Error(), fmt.Sprintf("format version %d, where this program reads version %d", version+1, version)) {
		t.Errorf("Tables: %v", err)
	}
	if n, err := s.Build(context.Background(), []Partition{p}, false); !errors.Is(err, ErrNewer) || n != 0 {
		t.Errorf("Build: %d built, %v", n, err)
	}
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, data) {
		t.Errorf("the newer file was changed: %v", err)
	}
}

// TestStoreTruncatedBesideCopy cuts a compressed file short, or empties
// it, while its unpacked copy is whole: the store notices, moves it aside
// and builds it again (issue 57: the copy served, and the damage went
// unnoticed; issue 76: so it did of an empty file).
func TestStoreTruncatedBesideCopy(t *testing.T) {
	for _, cut := range []int64{10, -1} { // -1: emptied
		s, p, logged := storeTest(t)
		path := filepath.Join(s.dir, FileName(p.Size, Goal, p.Patterns[1]))
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		size := info.Size() - cut
		if cut < 0 {
			size = 0
		}
		if err := os.Truncate(path, size); err != nil {
			t.Fatal(err)
		}
		openTables(t, s, p)
		if _, err := os.Stat(path + ".damaged"); err != nil || !strings.Contains(strings.Join(*logged, "\n"), "moved aside") {
			t.Errorf("cut to %d bytes: not moved aside: %v\n%s", size, err, strings.Join(*logged, "\n"))
		}
		if _, _, err := readCompressed(path, p.Size, Goal, p.Patterns[1]); err != nil {
			t.Errorf("cut to %d bytes: rebuilt file: %v", size, err)
		}
	}
}

// TestStoreOpening opens a partition that another holder of the
// directory's lock keeps it from building: the time is told as waiting,
// then building, then loading; and opened again, as loading alone (issue
// 76: the wait was reported as loading).
func TestStoreOpening(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	p, err := ParsePartition("1,2,3,4/5,6,7,8", puzzle.Size{Rows: 3, Cols: 3})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	unlock, err := lockDir(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var openings []Opening
	s, err := OpenStore(dir, StoreOptions{Policy: BuildAny, Opened: func(o Opening) { openings = append(openings, o) }, Log: func(line string) {
		if strings.HasPrefix(line, "waiting for") {
			unlock() // once the store waits: told as waiting
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	openTables(t, s, p)
	openTables(t, s, p)
	if len(openings) != 2 {
		t.Fatalf("told of %d openings", len(openings))
	}
	if o := openings[0]; o.Waiting <= 0 || o.Building <= 0 || o.Loading <= 0 {
		t.Errorf("the first opening, which waited and built: %+v", o)
	}
	if o := openings[1]; o.Waiting != 0 || o.Building != 0 || o.Loading <= 0 {
		t.Errorf("the second opening, which loaded: %+v", o)
	}
}

// TestMemoryNote checks what a build says of its memory before it begins
// (issue 76: nothing): a lower bound of the builds measured in
// docs/performance.md (7-8 took 3.2 GB, 4×5's 7-6-6 2.9 GB, 5×5's 6-6-6-6
// 2.0 GB); 7-7-1, 320 MB, says nothing.
func TestMemoryNote(t *testing.T) {
	for _, c := range []struct {
		size puzzle.Size
		name string
		want string
	}{
		{puzzle.Size{Rows: 4, Cols: 4}, "78", ": at least 2.1 GB of memory"},
		{puzzle.Size{Rows: 4, Cols: 5}, "766", ": at least 2.1 GB of memory"},
		{puzzle.Size{Rows: 5, Cols: 5}, "6666", ": at least 0.9 GB of memory"},
		{puzzle.Size{Rows: 4, Cols: 4}, "771", ""},
	} {
		p, err := ParsePartition(c.name, c.size)
		if err != nil {
			t.Fatal(err)
		}
		if got := memoryNote(c.size, p.Patterns); got != c.want {
			t.Errorf("%v %s: %q, want %q", c.size, c.name, got, c.want)
		}
	}
}
