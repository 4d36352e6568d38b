package pdb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"runtime"
	"sync"

	"github.com/klauspost/compress/zstd"

	"fifteen/internal/atomicfile"
	"fifteen/internal/pdbcore"
	"fifteen/puzzle"
)

// The file format. A database file is a header of headerSize bytes, then
// the table: raw (so that it can be mapped, page-aligned) or as
// independently compressed zstd chunks (so that both directions run in
// parallel), preceded by their compressed lengths. All integers are
// little-endian.
const (
	// version is the format version this package writes and reads.
	// Version 2 added the blank's regions (header.Regions), version 3
	// interleaved a sparse index's bits (Sparse). Version 4 held the
	// zero-aware tables, in files of their own (".zero.pdb"), which this
	// program no longer builds or reads (docs/experiments.md): a later
	// format takes 5.
	version = 3
	// headerSize is the size of the header; the raw table starts there.
	headerSize = 4096
	// chunkSize is the size of the raw table's independently compressed chunks.
	chunkSize = 1 << 20
)

var magic = [8]byte{'F', 'I', 'F', 'T', 'E', 'E', 'N', 'P'}

// Layouts of the table after the header.
const (
	layoutRaw  = 1
	layoutZstd = 2
)

// header describes a database file.
type header struct {
	Magic     [8]byte
	Version   uint32
	Layout    uint8
	Rows      uint8
	Cols      uint8
	Goal      uint8
	Scheme    uint8
	NumTiles  uint8
	Regions   uint8     // Table.Regions
	Tiles     [16]uint8 // the first NumTiles hold the pattern (at most pdbcore.MaxTiles)
	Entries   uint64
	Histogram [256]uint64 // how many entries hold each value
	CRC       uint32      // CRC-32C of the raw table
	HeaderCRC uint32      // CRC-32C of the header's bytes before this field
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Errors of database files, wrapped in a *FileError.
var (
	ErrMissing = errors.New("missing")
	ErrCorrupt = errors.New("corrupt")
	errVersion = errors.New("unsupported format version")
	// ErrNewer is a file of a newer format version than this program
	// reads: refused, never rebuilt over, as a program of that version
	// may share the directory.
	ErrNewer    = errors.New("written by a newer program")
	errMismatch = errors.New("holds another database")
	// ErrNotRegular is a path that holds no regular file: a FIFO would
	// block a reader, a device such as /dev/zero never end.
	ErrNotRegular = atomicfile.ErrNotRegular
)

// FileError is an error about one database file.
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string { return e.Path + ": " + e.Err.Error() }

func (e *FileError) Unwrap() error { return e.Err }

func newHeader(t *Table, layout uint8) header {
	h := header{
		Magic:    magic,
		Version:  version,
		Layout:   layout,
		Rows:     uint8(t.Size.Rows),
		Cols:     uint8(t.Size.Cols),
		Goal:     uint8(t.Goal),
		Scheme:   uint8(t.Scheme()),
		NumTiles: uint8(len(t.Tiles)),
		Regions:  uint8(t.Regions),
		Entries:  uint64(len(t.values)),
		CRC:      checksum(t.values),
	}
	for i, tile := range t.Tiles {
		h.Tiles[i] = uint8(tile)
	}
	for _, v := range t.values {
		h.Histogram[v]++
	}
	return h
}

func (h *header) encode() []byte {
	var buf bytes.Buffer
	binary.Write(&buf, binary.LittleEndian, h)
	b := buf.Bytes()
	h.HeaderCRC = crc32.Checksum(b[:len(b)-4], castagnoli)
	binary.LittleEndian.PutUint32(b[len(b)-4:], h.HeaderCRC)
	return append(b, make([]byte, headerSize-len(b))...)
}

// decodeHeader reads a header and checks it against the table it should
// describe.
func decodeHeader(b []byte, size puzzle.Size, goal puzzle.Goal, tiles []int) (header, error) {
	var h header
	n := binary.Size(h)
	if len(b) < headerSize {
		return h, fmt.Errorf("%w: truncated header", ErrCorrupt)
	}
	if err := binary.Read(bytes.NewReader(b[:n]), binary.LittleEndian, &h); err != nil {
		return h, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	switch {
	case h.Magic != magic:
		return h, fmt.Errorf("%w: not a pattern database", ErrCorrupt)
	case h.Version > version:
		return h, fmt.Errorf("%w: format version %d, where this program reads version %d; use that program, or another database directory", ErrNewer, h.Version, version)
	case h.Version != version:
		return h, fmt.Errorf("%w %d (this program reads version %d)", errVersion, h.Version, version)
	case crc32.Checksum(b[:n-4], castagnoli) != h.HeaderCRC:
		return h, fmt.Errorf("%w: header checksum mismatch", ErrCorrupt)
	case int(h.NumTiles) > len(h.Tiles):
		return h, fmt.Errorf("%w: %d tiles", ErrCorrupt, h.NumTiles)
	}
	want := header{Rows: uint8(size.Rows), Cols: uint8(size.Cols), Goal: uint8(goal), NumTiles: uint8(len(tiles))}
	for i, t := range tiles {
		want.Tiles[i] = uint8(t)
	}
	if h.Rows != want.Rows || h.Cols != want.Cols || h.Goal != want.Goal || h.NumTiles != want.NumTiles || h.Tiles != want.Tiles {
		return h, fmt.Errorf("%w: %dx%d goal %v tiles %v", errMismatch, h.Rows, h.Cols, puzzle.Goal(h.Goal), h.Tiles[:h.NumTiles])
	}
	x, err := pdbcore.NewIndexer(Scheme(h.Scheme), size.Cells(), len(tiles))
	if err != nil || uint64(x.Len()) != h.Entries {
		return h, fmt.Errorf("%w: %d entries under scheme %d", ErrCorrupt, h.Entries, h.Scheme)
	}
	if h.Regions > MaxRegions {
		return h, fmt.Errorf("%w: %d regions, at most %d", ErrCorrupt, h.Regions, MaxRegions)
	}
	return h, nil
}

// writeFile writes the table compressed to path, atomically: a reader sees
// the old file or the whole new one, never a part. As a database
// directory may be shared, a symbolic link at path is refused, not
// followed (atomicfile.WriteShared).
func writeFile(path string, t *Table) error {
	h := newHeader(t, layoutZstd)
	chunks, err := compress(t.values)
	if err != nil {
		return err
	}
	return atomicfile.WriteShared(path, func(w io.Writer) error {
		if _, err := w.Write(h.encode()); err != nil {
			return err
		}
		lengths := make([]uint32, len(chunks))
		for i, c := range chunks {
			lengths[i] = uint32(len(c))
		}
		if err := binary.Write(w, binary.LittleEndian, lengths); err != nil {
			return err
		}
		for _, c := range chunks {
			if _, err := w.Write(c); err != nil {
				return err
			}
		}
		return nil
	})
}

// writeRaw writes the table uncompressed to path, atomically.
func writeRaw(path string, h header, values []byte) error {
	h.Layout = layoutRaw
	return atomicfile.WriteShared(path, func(w io.Writer) error {
		if _, err := w.Write(h.encode()); err != nil {
			return err
		}
		_, err := w.Write(values)
		return err
	})
}

// parallel runs f(i) for i in 0..n-1 on GOMAXPROCS goroutines and returns
// the first error.
func parallel(n int, f func(i int) error) error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	work := make(chan int)
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := range work {
				errs[i] = f(i)
			}
		})
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	return errors.Join(errs...)
}

func compress(raw []byte) ([][]byte, error) {
	chunks := make([][]byte, (len(raw)+chunkSize-1)/chunkSize)
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedDefault))
	if err != nil {
		return nil, err
	}
	defer enc.Close()
	err = parallel(len(chunks), func(i int) error {
		chunks[i] = enc.EncodeAll(raw[i*chunkSize:min((i+1)*chunkSize, len(raw))], nil)
		return nil
	})
	return chunks, err
}

// readCompressed reads a compressed database file, checks it against the
// table it should hold, and returns its header and raw table.
func readCompressed(path string, size puzzle.Size, goal puzzle.Goal, tiles []int) (header, []byte, error) {
	f, info, err := openRegular(path)
	if errors.Is(err, os.ErrNotExist) {
		err = ErrMissing
	}
	if err != nil {
		return header{}, nil, &FileError{path, err}
	}
	defer f.Close()
	head := make([]byte, headerSize)
	n, _ := io.ReadFull(f, head)
	h, err := decodeHeader(head[:n], size, goal, tiles)
	if err == nil && h.Layout != layoutZstd {
		err = fmt.Errorf("%w: layout %d, want compressed", ErrCorrupt, h.Layout)
	}
	if bound := maxCompressed(h.Entries); err == nil && info.Size()-headerSize > bound {
		err = fmt.Errorf("%w: %d bytes, more than %d entries take compressed (%d)", ErrCorrupt, info.Size(), h.Entries, bound)
	}
	var data []byte
	if err == nil {
		data = make([]byte, info.Size()-headerSize)
		if _, err = io.ReadFull(f, data); err != nil {
			err = fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
	}
	if err != nil {
		return h, nil, &FileError{path, err}
	}
	raw, err := decompress(data, h.Entries)
	if err == nil && checksum(raw) != h.CRC {
		err = fmt.Errorf("%w: table checksum mismatch", ErrCorrupt)
	}
	if err != nil {
		return h, nil, &FileError{path, err}
	}
	return h, raw, nil
}

// maxCompressed bounds the compressed size of a table of the entries:
// zstd's worst case, incompressible data in raw blocks, plus each chunk's
// length and frame.
func maxCompressed(entries uint64) int64 {
	chunks := (entries + chunkSize - 1) / chunkSize
	return int64(entries + entries/128 + chunks*(4+1024))
}

// openRegular opens the file at path for reading, and refuses anything but
// a regular file without waiting on it: the open does not block on a
// FIFO. An error opening it is returned as is.
func openRegular(path string) (*os.File, os.FileInfo, error) {
	f, err := atomicfile.OpenFile(path, os.O_RDONLY)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("%w but %s", ErrNotRegular, kindOf(info.Mode()))
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

// kindOf names what a file of the mode is, where a database should be.
func kindOf(mode fs.FileMode) string {
	switch {
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeDevice != 0:
		return "a device"
	}
	return fmt.Sprintf("of mode %v", mode.Type())
}

// decompress returns the table of entries that data's chunks hold.
func decompress(data []byte, entries uint64) ([]byte, error) {
	nChunks := int((entries + chunkSize - 1) / chunkSize)
	if len(data) < 4*nChunks {
		return nil, fmt.Errorf("%w: truncated chunk list", ErrCorrupt)
	}
	offsets := make([]int, nChunks+1)
	offsets[0] = 4 * nChunks
	for i := range nChunks {
		offsets[i+1] = offsets[i] + int(binary.LittleEndian.Uint32(data[4*i:]))
	}
	if offsets[nChunks] != len(data) {
		return nil, fmt.Errorf("%w: %d bytes of chunks, want %d (truncated?)", ErrCorrupt, len(data), offsets[nChunks])
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0))
	if err != nil {
		return nil, err
	}
	defer dec.Close()
	raw := make([]byte, entries)
	err = parallel(nChunks, func(i int) error {
		dst := raw[i*chunkSize : min((i+1)*chunkSize, len(raw))]
		out, err := dec.DecodeAll(data[offsets[i]:offsets[i+1]], dst[:0:len(dst)])
		if err == nil && (len(out) != len(dst) || &out[0] != &dst[0]) {
			err = errors.New("chunk size mismatch")
		}
		if err != nil {
			return fmt.Errorf("%w: chunk %d: %v", ErrCorrupt, i, err)
		}
		return nil
	})
	return raw, err
}
