//go:build !wasm

package parser

import (
	"math/bits"

	"watchlens/internal/word"
)

// hashBytes mixes b eight bytes at a time, from seed, and returns the
// high half of murmur3's finalizer of the result, never 0 (see
// hash_wasm.go, where it is assembly).
func hashBytes(seed uint64, b []byte) uint32 {
	h := seed ^ uint64(len(b))*hashMul1
	i := 0
	for ; i+8 <= len(b); i += 8 {
		h = bits.RotateLeft64((h^word.Load64(b, i))*hashMul2, 31)
	}
	if i < len(b) {
		var w uint64
		for k := len(b) - 1; k >= i; k-- {
			w = w<<8 | uint64(b[k])
		}
		h = bits.RotateLeft64((h^w)*hashMul2, 31)
	}
	h ^= h >> 33
	h *= hashMul1
	h ^= h >> 33
	h *= hashMul2
	h ^= h >> 33
	return uint32(h>>32) | 1
}
