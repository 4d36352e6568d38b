package pdb

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"fifteen/internal/testtool"
	"fifteen/puzzle"
)

// writeTestTable builds a 4-tile database (ranked: 43,680 entries) into a
// fresh directory.
func writeTestTable(t testing.TB) (dir string, tiles []int, want *Table) {
	t.Helper()
	dir, tiles = t.TempDir(), []int{1, 2, 5, 6}
	want, err := Build(context.Background(), size4, Goal, tiles, BuildOptions{Scheme: Ranked})
	if err != nil {
		t.Fatal(err)
	}
	if err := writeFile(filepath.Join(dir, FileName(size4, Goal, tiles)), want); err != nil {
		t.Fatal(err)
	}
	return dir, tiles, want
}

// loadsAs loads the pattern's table from dir, and checks that it is
// want's.
func loadsAs(t *testing.T, dir string, tiles []int, want *Table) {
	t.Helper()
	got, err := Load(dir, size4, Goal, tiles)
	if err != nil {
		t.Fatal(err)
	}
	if got.Values() != want.Values() {
		t.Error("the table loaded differs from the one built")
	}
	got.Close()
}

func TestFileRoundTrip(t *testing.T) {
	dir, tiles, want := writeTestTable(t)
	for range 2 { // the first load unpacks, the second maps the unpacked copy
		got, err := Load(dir, size4, Goal, tiles)
		if err != nil {
			t.Fatal(err)
		}
		if got.Values() != want.Values() || got.Scheme() != Ranked || got.Regions != want.Regions || want.Regions == 0 {
			t.Fatalf("loaded table (%d regions) differs from the built one (%d)", got.Regions, want.Regions)
		}
		if err := got.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, FileName(size4, Goal, tiles)+".raw")); err != nil {
		t.Errorf("no unpacked copy: %v", err)
	}
}

func TestFileErrors(t *testing.T) {
	damage := map[string]func(path string) error{
		"flipped byte": func(path string) error {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			b[len(b)-100] ^= 0x40
			return os.WriteFile(path, b, 0o644)
		},
		"truncated": func(path string) error {
			info, err := os.Stat(path)
			if err != nil {
				return err
			}
			return os.Truncate(path, info.Size()-1000)
		},
		"flipped header byte": func(path string) error {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			b[40] ^= 1
			return os.WriteFile(path, b, 0o644)
		},
	}
	for name, f := range damage {
		t.Run(name, func(t *testing.T) {
			dir, tiles, _ := writeTestTable(t)
			path := filepath.Join(dir, FileName(size4, Goal, tiles))
			if err := f(path); err != nil {
				t.Fatal(err)
			}
			_, err := Load(dir, size4, Goal, tiles)
			var fe *FileError
			if !errors.As(err, &fe) || !errors.Is(err, ErrCorrupt) || fe.Path != path {
				t.Errorf("damaged compressed file: %v", err)
			}
			// A damaged unpacked copy is detected too, and replaced from
			// the compressed file when that one is sound.
			dir, tiles, want := writeTestTable(t)
			path = filepath.Join(dir, FileName(size4, Goal, tiles))
			if tab, err := Load(dir, size4, Goal, tiles); err != nil {
				t.Fatal(err)
			} else {
				tab.Close()
			}
			if err := f(path + ".raw"); err != nil {
				t.Fatal(err)
			}
			if _, _, err := loadRaw(path+".raw", size4, Goal, tiles); !errors.Is(err, ErrCorrupt) {
				t.Errorf("damaged unpacked file: %v", err)
			}
			got, err := Load(dir, size4, Goal, tiles)
			if err != nil || got.Values() != want.Values() {
				t.Errorf("damaged unpacked file not replaced: %v", err)
			}
		})
	}
}

// FuzzLoad loads damaged database files, compressed or unpacked: each is
// refused with a *FileError, or loads a table of the right length, and
// none panics. The header's checksum is made to match, so that the damage
// reaches the fields it guards.
func FuzzLoad(f *testing.F) {
	dir, tiles, _ := writeTestTable(f)
	path := filepath.Join(dir, FileName(size4, Goal, tiles))
	tab, err := Load(dir, size4, Goal, tiles) // writes the unpacked copy
	if err != nil {
		f.Fatal(err)
	}
	tab.Close()
	for _, name := range []string{path, path + ".raw"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(name != path, data)
		f.Add(name != path, data[:headerSize+100])
		var h header // more tiles than a board has, in a sound header
		if err := binary.Read(bytes.NewReader(data), binary.LittleEndian, &h); err != nil {
			f.Fatal(err)
		}
		h.NumTiles = 200
		f.Add(name != path, append(h.encode(), data[headerSize:]...))
	}
	n := binary.Size(header{})
	f.Fuzz(func(t *testing.T, raw bool, data []byte) {
		data = bytes.Clone(data) // the engine's to keep
		if len(data) >= n {
			binary.LittleEndian.PutUint32(data[n-4:], crc32.Checksum(data[:n-4], castagnoli))
		}
		dir := t.TempDir()
		name := filepath.Join(dir, FileName(size4, Goal, tiles))
		if raw {
			name += ".raw"
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := Load(dir, size4, Goal, tiles)
		if err != nil {
			if fe := (*FileError)(nil); !errors.As(err, &fe) || fe.Path != name {
				t.Fatalf("error not about %s: %v", name, err)
			}
			return
		}
		defer got.Close()
		if len(got.Values()) != got.index.Len() {
			t.Fatalf("loaded %d entries, want %d", len(got.Values()), got.index.Len())
		}
	})
}

func TestFileMissingAndMismatch(t *testing.T) {
	dir, tiles, _ := writeTestTable(t)
	if _, err := Load(t.TempDir(), size4, Goal, tiles); !errors.Is(err, ErrMissing) {
		t.Errorf("missing file: %v", err)
	}
	// Another pattern's file under this pattern's name.
	other := []int{3, 4, 7, 8}
	if err := os.Rename(filepath.Join(dir, FileName(size4, Goal, tiles)), filepath.Join(dir, FileName(size4, Goal, other))); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir, size4, Goal, other); !errors.Is(err, errMismatch) {
		t.Errorf("mismatched file: %v", err)
	}
}

// TestConcurrentUnpack loads one database from many goroutines at once:
// each gets a sound table and one unpacked file remains, no temporary ones.
func TestConcurrentUnpack(t *testing.T) {
	dir, tiles, want := writeTestTable(t)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			got, err := Load(dir, size4, Goal, tiles)
			if err != nil {
				t.Error(err)
				return
			}
			if got.Values() != want.Values() {
				t.Error("table differs")
			}
			got.Close()
		})
	}
	wg.Wait()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Errorf("directory holds %d files, want the database and its unpacked copy", len(entries))
	}
}

func TestParsePartition(t *testing.T) {
	for _, s := range []string{"663", "555", "771", "78", "1,2,3,4,5,6,7/8,9,10,11,12,13,14,15"} {
		if _, err := ParsePartition(s, size4); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	// The built-in partitions pass the checks of a written one: they
	// cover every tile once.
	for size, named := range builtin {
		for name, patterns := range named {
			var groups []string
			for _, tiles := range patterns {
				var group []string
				for _, t := range tiles {
					group = append(group, strconv.Itoa(t))
				}
				groups = append(groups, strings.Join(group, ","))
			}
			if _, err := ParsePartition(strings.Join(groups, "/"), size); err != nil {
				t.Errorf("built-in %s: %v", name, err)
			}
		}
	}
	for _, s := range []string{"664", "1,2,3/4,5,6", "1,2,3,4,5,6,7/7,8,9,10,11,12,13,14,15", "x", "1,2,3,4,5,6,7,8/9,10,11,12,13,14,15,16", "1,2,3/4,5,6,7,8,9,10,11,12,13,14,15"} {
		if _, err := ParsePartition(s, size4); err == nil {
			t.Errorf("%s accepted", s)
		}
	}
	if _, err := ParsePartition("663", puzzle.Size{Rows: 3, Cols: 3}); err == nil {
		t.Error("663 accepted for 3x3")
	}
}

// BenchmarkLoad663 measures start-up with the 6-6-3 databases unpacked:
// mapping the three files and checking their checksums.
func BenchmarkLoad663(b *testing.B) {
	dir := b.TempDir()
	p, err := ParsePartition("663", size4)
	if err != nil {
		b.Fatal(err)
	}
	if err := buildMissing(context.Background(), dir, size4, Goal, p.Patterns, BuildOptions{}, nil); err != nil {
		b.Fatal(err)
	}
	load := func() {
		tables, err := p.Load(dir)
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range tables {
			t.Close()
		}
	}
	load() // unpack
	for b.Loop() {
		load()
	}
}

// TestRebuiltFile rebuilds a database that has an unpacked copy: Load
// unpacks the new file rather than map the old copy.
func TestRebuiltFile(t *testing.T) {
	dir, tiles, _ := writeTestTable(t)
	if old, err := Load(dir, size4, Goal, tiles); err != nil {
		t.Fatal(err)
	} else {
		defer old.Close() // still mapped while the copy is replaced
	}
	want, err := Build(context.Background(), size4, Goal, tiles, BuildOptions{Scheme: Ranked, BlankFree: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := writeFile(filepath.Join(dir, FileName(size4, Goal, tiles)), want); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir, size4, Goal, tiles)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	if got.Values() != want.Values() || got.Regions != 0 {
		t.Errorf("loaded the copy of the old build (%d regions)", got.Regions)
	}
}

// TestMissingOutdated: a file of another format version counts as missing,
// so that building replaces it; a damaged one does not (Load reports it).
func TestMissingOutdated(t *testing.T) {
	p, err := ParsePartition("1,2,5,6/3,4,7,8/9,10,11,12,13,14,15", size4)
	if err != nil {
		t.Fatal(err)
	}
	dir, tiles, _ := writeTestTable(t)
	if got, err := p.Missing(dir); err != nil || len(got) != 2 {
		t.Fatalf("missing %v, want the two unbuilt patterns", got)
	}
	path := filepath.Join(dir, FileName(size4, Goal, tiles))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		damage  func([]byte)
		missing int
	}{
		{"version 1", func(b []byte) { b[8] = 1 }, 3},
		{"damaged", func(b []byte) { b[headerSize+5] ^= 0xff }, 2},
		{"zeroed", func(b []byte) { clear(b) }, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := append([]byte(nil), data...)
			c.damage(b)
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			if got, err := p.Missing(dir); err != nil || len(got) != c.missing {
				t.Errorf("%s: missing %v (%v), want %d patterns", c.name, got, err, c.missing)
			}
		})
	}
}

// TestNames lists each size's built-in partitions, the default first
// (a reordering once lost the 4×4 default and listed 78 twice).
func TestNames(t *testing.T) {
	for size, want := range map[puzzle.Size]string{
		{Rows: 4, Cols: 4}: "771 555 663 663x2 78",
		{Rows: 5, Cols: 5}: "6666 6666x2 6666x7",
		{Rows: 3, Cols: 3}: "",
	} {
		if got := strings.Join(Names(size), " "); got != want {
			t.Errorf("%v: %q, want %q", size, got, want)
		}
	}
}

func TestParsePartitions(t *testing.T) {
	for s, want := range map[string]int{"663": 1, "771": 1, "663x2": 2, "771+663": 2, "663+555": 2, "78+1,2,3,4,5,6/7,8,9,10,11,12/13,14,15": 2} {
		if parts, err := ParsePartitions(s, size4); err != nil || len(parts) != want {
			t.Errorf("%s: %d partitions, %v; want %d", s, len(parts), err, want)
		}
	}
	for _, s := range []string{"663+", "663+664", "663x3", "+555"} {
		if _, err := ParsePartitions(s, size4); err == nil {
			t.Errorf("%s accepted", s)
		}
	}
	if _, err := ParsePartitions("663x2", puzzle.Size{Rows: 3, Cols: 3}); err == nil {
		t.Error("663x2 accepted for 3x3")
	}
	// A set joins others, each partition once (issue 48: "unknown
	// partition 6666x2"); a catalogue of more than MaxPartitions is
	// refused here, not once its tables are loaded.
	if parts, err := ParsePartitions("6666x2+6666", size5); err != nil || len(parts) != 2 {
		t.Errorf("6666x2+6666: %d partitions, %v", len(parts), err)
	}
	nine := "6666x7+1,2,3,4,5,24/6,7,8,9,10,11/12,13,14,15,16,17/18,19,20,21,22,23+2,3,4,5,6,7/8,9,10,11,12,13/14,15,16,17,18,19/1,20,21,22,23,24"
	if _, err := ParsePartitions(nine, size5); err == nil || !strings.Contains(err.Error(), "9 partitions") {
		t.Errorf("a catalogue of nine: %v", err)
	}
	// The 5×5 catalogues start with 6666, and their partitions share
	// patterns, so that building them takes fewer tables than patterns:
	// 6666x2 two more than 6666, 6666x7 (Clausecker and Reinefeld's
	// small catalogue) ten more.
	for _, c := range []struct {
		name               string
		partitions, tables int
	}{{"6666x2", 2, 6}, {"6666x7", 7, 14}} {
		parts, err := ParsePartitions(c.name, size5)
		if err != nil || len(parts) != c.partitions || parts[0].Name != "6666" {
			t.Fatalf("%s: %v, %v", c.name, parts, err)
		}
		var tables [][]int
		for i, p := range parts {
			for j := range i {
				if slices.EqualFunc(p.Patterns, parts[j].Patterns, slices.Equal) {
					t.Errorf("%s: partition %d repeats partition %d", c.name, i, j)
				}
			}
			for _, q := range p.Patterns {
				if !slices.ContainsFunc(tables, func(r []int) bool { return slices.Equal(q, r) }) {
					tables = append(tables, q)
				}
			}
		}
		if len(tables) != c.tables {
			t.Errorf("%s: %d distinct patterns, want %d", c.name, len(tables), c.tables)
		}
	}
}

// TestLoadRefuses checks that the loader refuses what is no database
// file at once, reading no more than the header declares: a FIFO (which
// would block a reader), a link to /dev/zero (which never ends), a file
// padded far past its table, and a file it may not read, whose error is
// the system's and not "missing".
func TestLoadRefuses(t *testing.T) {
	dir, tiles, _ := writeTestTable(t)
	path := filepath.Join(dir, FileName(size4, Goal, tiles))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p := Partition{Size: size4, Patterns: [][]int{tiles}}
	for _, c := range []struct {
		name string
		make func() error
		want error
	}{
		{"fifo", func() error { testtool.Mkfifo(t, path); return nil }, ErrNotRegular},
		{"/dev/zero", func() error { return os.Symlink("/dev/zero", path) }, ErrNotRegular},
		{"padded", func() error {
			return os.WriteFile(path, append(data, make([]byte, len(data)+1<<20)...), 0o644)
		}, ErrCorrupt},
		{"unreadable", func() error { return errors.Join(os.WriteFile(path, data, 0o644), os.Chmod(path, 0)) }, fs.ErrPermission},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.Remove(path)
			os.Remove(path + ".raw")
			if err := c.make(); err != nil {
				t.Skip(err)
			}
			defer os.Chmod(path, 0o644)
			if c.want == fs.ErrPermission && os.Geteuid() == 0 {
				t.Skip("root reads every file")
			}
			if missing, err := p.Missing(dir); len(missing) != 0 || err != nil && !errors.Is(err, c.want) {
				t.Errorf("Missing: %v, %v", missing, err)
			}
			done := make(chan error, 1)
			go func() { _, err := Load(dir, size4, Goal, tiles); done <- err }()
			select {
			case err := <-done:
				var fe *FileError
				if !errors.Is(err, c.want) || !errors.As(err, &fe) || fe.Path != path {
					t.Errorf("error %v, want %v naming %s", err, c.want, path)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Load blocks")
			}
		})
	}
}

// TestUnpackElsewhere loads from a directory where the unpacked copy
// cannot be written (a directory stands in its place, which stops root
// as well as a read-only directory stops others): the copy goes to the
// user's cache directory, and the next load maps it from there.
func TestUnpackElsewhere(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	dir, tiles, want := writeTestTable(t)
	path := filepath.Join(dir, FileName(size4, Goal, tiles))
	if err := os.Mkdir(path+".raw", 0o755); err != nil {
		t.Fatal(err)
	}
	alt, err := unpackDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		loadsAs(t, dir, tiles, want)
		if _, err := os.Stat(filepath.Join(alt, FileName(size4, Goal, tiles)+".raw")); err != nil {
			t.Errorf("no copy in %s: %v", alt, err)
		}
	}
}

// TestHeaderLayout pins the header's encoding, which the format version
// fixes: a field that changes size makes every file unreadable.
func TestHeaderLayout(t *testing.T) {
	if got := binary.Size(header{}); got != 2099 {
		t.Errorf("the header encodes to %d bytes, want 2099 (format version %d)", got, version)
	}
}

// TestRawFIFO puts a FIFO where the unpacked copy goes: Load never
// writes into it (which would block for ever), and unpacks the table into
// the user's cache directory instead. It also leaves the temporary files
// of a writer killed while unpacking, which Load removes.
func TestRawFIFO(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	dir, tiles, want := writeTestTable(t)
	raw := filepath.Join(dir, FileName(size4, Goal, tiles)) + ".raw"
	testtool.Mkfifo(t, raw)
	stale := filepath.Join(dir, "."+filepath.Base(raw)+".tmp123")
	if err := os.WriteFile(stale, []byte("cut short"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		got, err := Load(dir, size4, Goal, tiles)
		if err == nil {
			if got.Values() != want.Values() {
				err = errors.New("the table loaded differs from the one built")
			}
			got.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Load blocks on the FIFO")
	}
	if info, err := os.Lstat(raw); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a killed writer's temporary file stays")
	}
}

// TestRawLink puts symbolic links where the unpacked copy and the
// compressed file go: Load never writes through them (issue 48: the file
// a link named was overwritten with table data), and a build into a
// dangling link's place fails instead of writing where it points.
func TestRawLink(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	dir, tiles, want := writeTestTable(t)
	outside := t.TempDir()
	victim := filepath.Join(outside, "victim")
	raw := filepath.Join(dir, FileName(size4, Goal, tiles)) + ".raw"
	if err := errors.Join(os.WriteFile(victim, []byte("mine"), 0o644), os.Symlink(victim, raw)); err != nil {
		t.Fatal(err)
	}
	loadsAs(t, dir, tiles, want)
	if b, err := os.ReadFile(victim); err != nil || string(b) != "mine" {
		t.Errorf("the file the link names reads %q, %v", b, err)
	}
	other := []int{3, 4, 7, 8}
	path := filepath.Join(dir, FileName(size4, Goal, other))
	if err := os.Symlink(filepath.Join(outside, "built"), path); err != nil {
		t.Fatal(err)
	}
	table, err := Build(context.Background(), size4, Goal, other, BuildOptions{Scheme: Ranked})
	if err != nil {
		t.Fatal(err)
	}
	if err := writeFile(path, table); err == nil {
		t.Error("a table written through a dangling link")
	}
	if _, err := os.Lstat(filepath.Join(outside, "built")); err == nil {
		t.Error("a table built where the dangling link points")
	}
}
