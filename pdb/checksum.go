package pdb

import "hash/crc32"

// checksumPiece is the size of the pieces checksum hands out: enough pieces
// to keep every core busy on a large table, each long enough that combining
// their CRCs costs nothing.
const checksumPiece = 4 << 20

// checksum returns the CRC-32C of b. A table is checked each time it is
// loaded, and a 7-8 set is 576 MB: its pieces are checked in parallel
// (which also spreads the mapping's page faults over the cores) and their
// CRCs combined.
func checksum(b []byte) uint32 {
	n := (len(b) + checksumPiece - 1) / checksumPiece
	if n <= 1 {
		return crc32.Checksum(b, castagnoli)
	}
	piece := func(i int) []byte { return b[i*checksumPiece : min((i+1)*checksumPiece, len(b))] }
	crcs := make([]uint32, n)
	parallel(n, func(i int) error {
		crcs[i] = crc32.Checksum(piece(i), castagnoli)
		return nil
	})
	// The CRC of a‖p is the CRC of a shifted over len(p) zero bytes, plus
	// (xor) the CRC of p.
	shift := zeroBytes(checksumPiece)
	crc := crcs[0]
	for i := 1; i < n; i++ {
		if p := piece(i); len(p) != checksumPiece {
			shift = zeroBytes(len(p))
		}
		crc = shift.times(crc) ^ crcs[i]
	}
	return crc
}

// gf2Matrix is a 32×32 matrix over GF(2), one column a word: a linear map
// on CRCs.
type gf2Matrix [32]uint32

// zeroBytes returns the map that appending n zero bytes to a message makes
// of its CRC-32C (as in zlib's crc32_combine): the map for one zero bit,
// squared up to a byte and raised to the n-th power by repeated squaring.
func zeroBytes(n int) gf2Matrix {
	var power, bit gf2Matrix
	bit[0] = 0x82f63b78 // the reflected Castagnoli polynomial
	for i := 1; i < 32; i++ {
		bit[i] = 1 << (i - 1)
	}
	for i := range power {
		power[i] = 1 << i // the identity: no zero bytes yet
	}
	square := bit.mul(&bit)      // two bits
	square = square.mul(&square) // four
	square = square.mul(&square) // eight: one byte
	for ; n > 0; n >>= 1 {
		if n&1 != 0 {
			power = power.mul(&square)
		}
		square = square.mul(&square)
	}
	return power
}

// times applies the map to v.
func (m *gf2Matrix) times(v uint32) uint32 {
	var sum uint32
	for i := 0; v != 0; i, v = i+1, v>>1 {
		if v&1 != 0 {
			sum ^= m[i]
		}
	}
	return sum
}

// mul returns the map m·a: a, then m.
func (m *gf2Matrix) mul(a *gf2Matrix) gf2Matrix {
	var p gf2Matrix
	for i := range p {
		p[i] = m.times(a[i])
	}
	return p
}
