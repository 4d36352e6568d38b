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
	crc := crcs[0]
	for i := 1; i < n; i++ {
		crc = crcCombine(crc, crcs[i], len(piece(i)))
	}
	return crc
}

// crcCombine returns the CRC-32C of a‖b from the CRCs of a and b and the
// length of b, as zlib's crc32_combine does: appending n zero bytes to a
// message is a linear map on its CRC, applied here by repeated squaring
// of the map for one zero bit.
func crcCombine(crcA, crcB uint32, lenB int) uint32 {
	if lenB == 0 {
		return crcA
	}
	var even, odd gf2Matrix
	odd[0] = 0x82f63b78 // the reflected Castagnoli polynomial: one zero bit
	for i := 1; i < 32; i++ {
		odd[i] = 1 << (i - 1)
	}
	even.square(&odd) // two zero bits
	odd.square(&even) // four
	for {
		even.square(&odd) // the zero bytes' map, doubling each round
		if lenB&1 != 0 {
			crcA = even.times(crcA)
		}
		if lenB >>= 1; lenB == 0 {
			break
		}
		odd.square(&even)
		if lenB&1 != 0 {
			crcA = odd.times(crcA)
		}
		if lenB >>= 1; lenB == 0 {
			break
		}
	}
	return crcA ^ crcB
}

// gf2Matrix is a 32×32 matrix over GF(2), one column a word.
type gf2Matrix [32]uint32

func (m *gf2Matrix) times(v uint32) uint32 {
	var sum uint32
	for i := 0; v != 0; i, v = i+1, v>>1 {
		if v&1 != 0 {
			sum ^= m[i]
		}
	}
	return sum
}

// square sets m to a·a.
func (m *gf2Matrix) square(a *gf2Matrix) {
	for i := range m {
		m[i] = a.times(a[i])
	}
}
