// Package nearest finds, among names, the one a mistyped name was most
// likely meant to be, for the commands' "did you mean" hints.
package nearest

import "strings"

// Name returns the name of names nearest to name: one that name begins
// (of at least three letters), or one at most two edits away (one for a
// name of under four letters); "" if none is.
func Name(name string, names []string) string {
	best, bestDist := "", 3
	if len(name) < 4 {
		bestDist = 2
	}
	for _, n := range names {
		d := editDistance(name, n)
		if len(name) >= 3 && strings.HasPrefix(n, name) {
			d = min(d, 1)
		}
		if d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

// editDistance returns the Levenshtein distance between a and b: the
// fewest single-byte insertions, deletions and substitutions that turn
// one into the other.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
