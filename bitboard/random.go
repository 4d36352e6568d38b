package bitboard

import "math/rand/v2"

// Random returns a position drawn uniformly from the solvable positions of
// the given size under goal g. It shuffles every tile and the blank
// (Fisher–Yates) and, if the result cannot reach the goal, swaps tiles 1
// and 2: that flips the permutation's parity and leaves the blank where it
// is, so it pairs each unsolvable position with exactly one solvable one,
// and every solvable position is drawn with the same probability. (A
// random walk from the goal, by contrast, favours positions near it.)
func Random(rng *rand.Rand, size Size, g Goal) (Board, error) {
	if err := size.Valid(); err != nil {
		return Board{}, err
	}
	tiles := rng.Perm(size.Cells())
	b, err := New(size, tiles)
	if err != nil {
		return Board{}, err
	}
	if !b.Solvable(g) {
		for i, t := range tiles {
			switch t {
			case 1:
				tiles[i] = 2
			case 2:
				tiles[i] = 1
			}
		}
		return New(size, tiles)
	}
	return b, nil
}
