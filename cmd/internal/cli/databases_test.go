package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"fifteen/pdb"
	"fifteen/puzzle"
)

// TestExplain checks the advice for databases that could not be opened:
// pdbgen for what it builds or mends, and the path's own fault otherwise
// (issue 48: a directory in a database's place got the advice to run
// pdbgen, which failed the same way).
func TestExplain(t *testing.T) {
	file := "/d/4x4-first-12.pdb"
	for _, c := range []struct {
		err  error
		want string
	}{
		{pdb.ErrMissing, "; build them with: go run ./cmd/pdbgen --partition 771 --pdb-dir /d"},
		{&pdb.FileError{Path: file, Err: pdb.ErrCorrupt}, "; rebuild them with: go run ./cmd/pdbgen --partition 771"},
		{&pdb.FileError{Path: file, Err: fmt.Errorf("%w but a directory", pdb.ErrNotRegular)}, "not a regular file but a directory; move " + file + " out of the way, then build them with"},
		{&pdb.FileError{Path: file, Err: fs.ErrPermission}, "; make " + file + " readable, or move it away"},
	} {
		err := &pdb.StoreError{Partition: "771", Size: puzzle.Size{Rows: 4, Cols: 4}, Dir: "/d", Err: c.err}
		if got := Explain(err); !strings.Contains(got, c.want) {
			t.Errorf("%v: %q, want %q in it", c.err, got, c.want)
		}
	}
	// The command to copy is quoted for the shell (issue 66).
	err := &pdb.StoreError{Partition: "771", Size: puzzle.Size{Rows: 4, Cols: 4}, Dir: "/my dbs/it's", Err: pdb.ErrMissing}
	if got, want := Explain(err), ` --pdb-dir '/my dbs/it'\''s'`; !strings.HasSuffix(got, want) {
		t.Errorf("%q, want it to end with %q", got, want)
	}
	if got := Explain(errors.New("other")); got != "other" {
		t.Errorf("another error: %q", got)
	}
}

// TestPartitionHelp: the help names every built-in partition of each
// size with databases, and its default, from pdb's list.
func TestPartitionHelp(t *testing.T) {
	for _, size := range pdb.DefaultSizes() {
		def := pdb.DefaultPartition(size)
		if !strings.Contains(PartitionHelp, fmt.Sprintf("on %v %s (default)", size, def)) {
			t.Errorf("%v's default %s missing: %s", size, def, PartitionHelp)
		}
		for _, name := range pdb.Names(size) {
			if !strings.Contains(PartitionHelp, name) {
				t.Errorf("%v's %s missing: %s", size, name, PartitionHelp)
			}
		}
	}
}
