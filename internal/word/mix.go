package word

import "math/bits"

// Mul1 and Mul2 are the multipliers of Mix and of the finalizers after
// it: 64-bit products, native under wasm, unlike the 128-bit ones of the
// runtime's hash.
const (
	Mul1 = 0x9e3779b97f4a7c15
	Mul2 = 0xbf58476d1ce4e5b9
)

// Mix folds b into h eight bytes at a time, its last few bytes as one
// more word: the body of the hashes of byte strings that the parser's
// intern table and the timeline's uid index keep, each of which starts h
// from its seed and b's length and finalizes what Mix returns.
func Mix(h uint64, b []byte) uint64 {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		h = bits.RotateLeft64((h^Load64(b, i))*Mul2, 31)
	}
	if i < len(b) {
		var w uint64
		for k := len(b) - 1; k >= i; k-- {
			w = w<<8 | uint64(b[k])
		}
		h = bits.RotateLeft64((h^w)*Mul2, 31)
	}
	return h
}
