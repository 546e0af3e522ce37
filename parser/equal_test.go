package parser

import (
	"bytes"
	"testing"
)

// TestEqualBytes differs two slices, and equalStrings two strings, at
// every position, for lengths across the word and block sizes that
// equalBytes compares by under wasm.
func TestEqualBytes(t *testing.T) {
	for n := 0; n <= 80; n++ {
		a := make([]byte, n)
		for i := range a {
			a[i] = byte('a' + i%26)
		}
		b := bytes.Clone(a)
		if !equalBytes(a, b) || !equalStrings(string(a), string(b)) {
			t.Fatalf("len %d: equal slices compared unequal", n)
		}
		if n > 0 && equalBytes(a, b[:n-1]) {
			t.Fatalf("len %d: slices of different lengths compared equal", n)
		}
		for i := range n {
			b[i] ^= 0x80
			if equalBytes(a, b) || equalStrings(string(a), string(b)) {
				t.Fatalf("len %d: a difference at %d went unseen", n, i)
			}
			b[i] ^= 0x80
		}
	}
}
