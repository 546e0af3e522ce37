//go:build !wasm

package parser

import "watchlens/internal/word"

// hashBytes mixes b eight bytes at a time, from seed, and returns the
// high half of murmur3's finalizer of the result, never 0 (see
// hash_wasm.go, where it is assembly).
func hashBytes(seed uint64, b []byte) uint32 {
	h := word.Mix(seed^uint64(len(b))*word.Mul1, b)
	h ^= h >> 33
	h *= word.Mul1
	h ^= h >> 33
	h *= word.Mul2
	h ^= h >> 33
	return uint32(h>>32) | 1
}
