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

// TestCommonPrefix differs two slices at every position, for lengths
// across the runs that equalRuns compares by, natively and under wasm,
// and the words after them.
func TestCommonPrefix(t *testing.T) {
	for n := 0; n <= 200; n++ {
		a := make([]byte, n)
		for i := range a {
			a[i] = byte('a' + i%26)
		}
		b := bytes.Clone(a)
		if got := commonPrefix(a, b); got != n {
			t.Fatalf("len %d: equal slices share %d bytes", n, got)
		}
		if n > 0 {
			if got := commonPrefix(a, b[:n-1]); got != n-1 {
				t.Fatalf("len %d: a slice and its prefix of %d share %d bytes", n, n-1, got)
			}
		}
		for i := range n {
			b[i] ^= 0x80
			if got := commonPrefix(a, b); got != i {
				t.Fatalf("len %d: differing at %d, they share %d bytes", n, i, got)
			}
			b[i] ^= 0x80
		}
	}
}
