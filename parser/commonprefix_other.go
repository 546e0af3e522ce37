//go:build !amd64

package parser

import (
	"math/bits"

	"watchlens/internal/word"
)

// commonPrefix returns how many bytes a and b begin with alike.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	// Runs of equal bytes first (equalRuns); the words find where a run
	// differs.
	i := equalRuns(a, b, n)
	for ; i+8 <= n; i += 8 {
		if x := word.Load64(a, i) ^ word.Load64(b, i); x != 0 {
			return i + bits.TrailingZeros64(x)>>3
		}
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}
