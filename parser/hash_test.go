package parser

import (
	"testing"

	"watchlens/internal/word"
)

// TestHashBytes holds hashBytes, in Go natively and in assembly under
// wasm, to word.Mix's body (which TestMix holds to the mixing done a byte
// at a time) and murmur3's finalizer, for lengths across the word it
// reads by and the shorter ones it reads a byte at a time, from every
// offset of a buffer, and a few seeds; and to five values computed a
// byte at a time, apart from word.Mix.
func TestHashBytes(t *testing.T) {
	for _, c := range []struct {
		s    string
		want uint32
	}{
		{"", 0x7e23f6bb},
		{"a", 0x89ba59e7},
		{"default", 0xeb18bbff},
		{"kube-system/coredns-7db6d8ff4d-abcde", 0xe4143d57},
		{"3f2a9c1e-91ab-4cde-8f01-23456789abcd", 0xc66152c3},
	} {
		if got := hashBytes(0x12345678_9abcdef1, []byte(c.s)); got != c.want {
			t.Errorf("hashBytes(%q) = %#x, want %#x", c.s, got, c.want)
		}
	}
	reference := func(seed uint64, b []byte) uint32 {
		h := word.Mix(seed^uint64(len(b))*word.Mul1, b)
		h ^= h >> 33
		h *= word.Mul1
		h ^= h >> 33
		h *= word.Mul2
		h ^= h >> 33
		return uint32(h>>32) | 1
	}
	buf := make([]byte, 100)
	for i := range buf {
		buf[i] = byte(i*131 + 7)
	}
	for _, seed := range []uint64{1, 0x12345678_9abcdef1, 1<<63 | 5} {
		for off := range 8 {
			for n := 0; off+n <= 90; n++ {
				b := buf[off : off+n]
				if got, want := hashBytes(seed, b), reference(seed, b); got != want {
					t.Fatalf("seed %#x, %d bytes at %d: %#x, want %#x", seed, n, off, got, want)
				}
			}
		}
	}
}
