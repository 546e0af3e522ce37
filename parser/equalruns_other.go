//go:build !wasm && !amd64

package parser

import "bytes"

// equalRuns returns how many of the first n bytes of a and b, n at most
// the length of either, are equal in whole runs of 64, by bytes.Equal,
// whose assembly is many times faster than a loop of words.
func equalRuns(a, b []byte, n int) int {
	i := 0
	for i+64 <= n && bytes.Equal(a[i:i+64], b[i:i+64]) {
		i += 64
	}
	return i
}
