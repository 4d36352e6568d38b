package pdb

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"fifteen/internal/atomicfile"
	"fifteen/internal/pdbcore"
	"fifteen/puzzle"
)

// DefaultDir returns where databases live unless told otherwise:
// $FIFTEEN_PDB_DIR, else the user's cache directory's "fifteen".
func DefaultDir() (string, error) {
	if dir := os.Getenv("FIFTEEN_PDB_DIR"); dir != "" {
		return dir, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no database directory (no $FIFTEEN_PDB_DIR, and %v)", err)
	}
	return filepath.Join(cache, "fifteen"), nil
}

// FileName returns the name of a pattern's compressed database file, such
// as "4x4-first-1.2.3.pdb"; its unpacked copy adds ".raw".
func FileName(size puzzle.Size, goal puzzle.Goal, tiles []int) string {
	names := make([]string, len(tiles))
	for i, t := range tiles {
		names[i] = strconv.Itoa(t)
	}
	return fmt.Sprintf("%v-%v-%s.pdb", size, goal, strings.Join(names, "."))
}

// Load returns the pattern's table from dir (FileName's file): the
// low-level API a Store is built on, which programs use instead, as it
// also builds, repairs and locks. It maps the unpacked copy read-only, so
// that processes share one copy in the page cache; on first use it
// unpacks the compressed file into that copy (atomically, so that
// concurrent loads are safe), and again when the compressed file is
// rebuilt. Where the copy cannot be written beside the
// compressed file (a read-only directory, say), it goes into the user's
// cache directory (unpackDir); so it does where something other than a
// regular file stands in its place, which is never written to. The
// table's memory stays valid until Close. Load first removes the
// temporary files that writers killed in both directories left behind
// (atomicfile.Sweep).
func Load(dir string, size puzzle.Size, goal puzzle.Goal, tiles []int) (*Table, error) {
	name := FileName(size, goal, tiles)
	path, raw := filepath.Join(dir, name), filepath.Join(dir, name)+".raw"
	atomicfile.Sweep(dir)
	alt, altErr := unpackDir(dir)
	if altErr == nil {
		atomicfile.Sweep(alt)
		alt = filepath.Join(alt, name) + ".raw"
		if info, err := os.Stat(raw); err != nil || !info.Mode().IsRegular() {
			if _, err := os.Stat(alt); err == nil {
				raw = alt // unpacked there before
			}
		}
	}
	t, err := load(path, raw, size, goal, tiles)
	var unpacking *unpackError
	if errors.As(err, &unpacking) && raw != alt {
		if altErr == nil {
			altErr = os.MkdirAll(filepath.Dir(alt), 0o755)
		}
		if altErr != nil {
			return nil, errors.Join(err, altErr)
		}
		t, err = load(path, alt, size, goal, tiles)
	}
	return t, err
}

// unpackDir returns where the unpacked copies of the databases in dir go
// when dir cannot hold them: a directory of the user's cache directory
// named after dir's absolute path.
func unpackDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the unpacked databases of %s: %w", dir, err)
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(cache, "fifteen", "unpacked", hex.EncodeToString(sum[:8])), nil
}

// unpackError is a compressed file that could not be unpacked where its
// copy was to go.
type unpackError struct {
	path string
	err  error
}

func (e *unpackError) Error() string { return fmt.Sprintf("unpacking %s: %v", e.path, e.err) }
func (e *unpackError) Unwrap() error { return e.err }

// load returns the table of the compressed file at path through its
// unpacked copy raw (see Load).
func load(path, raw string, size puzzle.Size, goal puzzle.Goal, tiles []int) (*Table, error) {
	t, h, err := loadRaw(raw, size, goal, tiles)
	if err == nil {
		if copyOf(path, h, size, goal, tiles) {
			return t, nil
		}
		t.Close() // a copy of an older build: replaced
	} else if !errors.Is(err, ErrMissing) {
		// A damaged copy is replaced (never rewritten: it may be mapped).
		if _, cerr := os.Stat(path); cerr != nil {
			return nil, err
		}
	}
	h, values, err := readCompressed(path, size, goal, tiles)
	if err != nil {
		return nil, err
	}
	if err := writeRaw(raw, h, values); err != nil {
		return nil, &unpackError{path, err}
	}
	t, _, err = loadRaw(raw, size, goal, tiles)
	return t, err
}

// copyOf reports whether the unpacked copy with header h holds the table
// of the compressed file at path, or serves alone: that file is missing or
// unreadable. A compressed file damaged, empty or cut short, is not served
// by its copy: it is read, and found damaged, and the store repairs it
// (issue 57: one cut short went unnoticed; issue 76: so did one empty).
func copyOf(path string, h header, size puzzle.Size, goal puzzle.Goal, tiles []int) bool {
	packed, whole, err := readPackedHeader(path, size, goal, tiles)
	if err != nil {
		return !errors.Is(err, ErrCorrupt) && !errors.Is(err, errMismatch)
	}
	return whole && packed.CRC == h.CRC && packed.Regions == h.Regions && packed.Scheme == h.Scheme
}

// readPackedHeader reads the header of the compressed file at path, as
// readHeader does, and reports whether the file is as long as its list of
// chunks says.
func readPackedHeader(path string, size puzzle.Size, goal puzzle.Goal, tiles []int) (header, bool, error) {
	f, info, err := openRegular(path)
	if err != nil {
		return header{}, false, err
	}
	defer f.Close()
	head := make([]byte, headerSize)
	n, _ := io.ReadFull(f, head)
	h, err := decodeHeader(head[:n], size, goal, tiles)
	if err != nil {
		return h, false, err
	}
	lengths := make([]byte, 4*((h.Entries+chunkSize-1)/chunkSize))
	if _, err := io.ReadFull(f, lengths); err != nil {
		return h, false, nil
	}
	want := int64(headerSize + len(lengths))
	for i := 0; i < len(lengths); i += 4 {
		want += int64(binary.LittleEndian.Uint32(lengths[i:]))
	}
	return h, info.Size() == want, nil
}

// readHeader reads the header of the file at path and checks it against
// the table it should describe. An error opening the file is returned
// as is.
func readHeader(path string, size puzzle.Size, goal puzzle.Goal, tiles []int) (header, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return header{}, err
	}
	defer f.Close()
	head := make([]byte, headerSize)
	n, _ := io.ReadFull(f, head)
	return decodeHeader(head[:n], size, goal, tiles)
}

// loadRaw maps an unpacked database and checks it whole.
func loadRaw(path string, size puzzle.Size, goal puzzle.Goal, tiles []int) (*Table, header, error) {
	f, info, err := openRegular(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			err = ErrMissing
		}
		return nil, header{}, &FileError{path, err}
	}
	defer f.Close()
	head := make([]byte, headerSize)
	if _, err := f.ReadAt(head, 0); err != nil {
		return nil, header{}, &FileError{path, fmt.Errorf("%w: truncated header", ErrCorrupt)}
	}
	h, err := decodeHeader(head, size, goal, tiles)
	if err == nil && h.Layout != layoutRaw {
		err = fmt.Errorf("%w: layout %d, want raw", ErrCorrupt, h.Layout)
	}
	// Check the size before mapping: touching a page past the end of a
	// truncated mapped file would kill the process (SIGBUS).
	if want := int64(headerSize) + int64(h.Entries); err == nil && info.Size() != want {
		err = fmt.Errorf("%w: %d bytes, want %d (truncated?)", ErrCorrupt, info.Size(), want)
	}
	if err != nil {
		return nil, h, &FileError{path, err}
	}
	values, release, err := mapFile(f, int(info.Size()))
	if err != nil {
		return nil, h, &FileError{path, err}
	}
	values = values[headerSize:]
	if checksum(values) != h.CRC {
		release()
		return nil, h, &FileError{path, fmt.Errorf("%w: table checksum mismatch", ErrCorrupt)}
	}
	x, _ := pdbcore.NewIndexer(Scheme(h.Scheme), size.Cells(), len(tiles)) // checked by decodeHeader
	return &Table{Size: size, Goal: goal, Tiles: tiles, index: x, values: values, Regions: int(h.Regions), release: release}, h, nil
}
