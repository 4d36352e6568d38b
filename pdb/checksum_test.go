package pdb

import (
	"hash/crc32"
	"math/rand/v2"
	"testing"
)

func TestChecksum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 3*checksumPiece+12345)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	for _, n := range []int{0, 1, checksumPiece - 1, checksumPiece, checksumPiece + 1, 2*checksumPiece + 7, len(b)} {
		if got, want := checksum(b[:n]), crc32.Checksum(b[:n], castagnoli); got != want {
			t.Errorf("%d bytes: checksum %#x, want %#x", n, got, want)
		}
	}
	for range 100 {
		i, j := r.IntN(1000), r.IntN(1000)
		a, c := b[:i], b[i:i+j]
		shift := zeroBytes(j)
		if got, want := shift.times(crc32.Checksum(a, castagnoli))^crc32.Checksum(c, castagnoli), crc32.Checksum(b[:i+j], castagnoli); got != want {
			t.Errorf("combining %d and %d bytes: %#x, want %#x", i, j, got, want)
		}
	}
}

func BenchmarkChecksum(b *testing.B) {
	buf := make([]byte, 64<<20)
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		checksum(buf)
	}
}
