package parser

import (
	"encoding/binary"

	"watchlens/internal/word"
)

// Decimal digits read eight at a time, as one word: under wasm a loop
// over a string's bytes goes through its function's dispatch table at
// each byte and checks each index, and every small event has a
// resourceVersion and times to read.

// digitBytes says whether the bytes of w under mask (0xff or 0 each) are
// all decimal digits, and returns their values in place, the other
// bytes 0. No byte carries or borrows into the next: a byte at most
// 0x7f plus 0x46 stays below 0x100, and one of 0x80 or more less 0x30
// stays at 0x50 or more.
func digitBytes(w, mask uint64) (uint64, bool) {
	const (
		high = 0x8080808080808080
		zero = 0x3030303030303030
		nine = 0x4646464646464646 // '9'+0x46 is 0x7f, ':'+0x46 is 0x80
	)
	x, hi, z := w&mask, high&mask, zero&mask
	ok := x&hi == 0 && ((x|hi)-z)&hi == hi && (x+(nine&mask))&hi == 0
	return x - z, ok
}

// decimal8 returns the number whose digits' values are the bytes of d,
// the first (most significant) in the lowest byte: pairs, then fours,
// then the eight, each step a multiplication, whose products stay within
// their lanes (99, 9999, 99999999).
func decimal8(d uint64) uint64 {
	d = (d*10 + d>>8) & 0x00ff00ff00ff00ff
	d = (d*100 + d>>16) & 0x0000ffff0000ffff
	return (d*10000 + d>>32) & 0xffffffff
}

// pow10 are the powers of ten up to 10^8.
var pow10 = [...]uint64{1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000}

// copyDecimal reads v, of 1 to 16 bytes, as a decimal number, and copies
// it to dst; it says false where a byte is not a digit (dst is then
// partly written). v is read and dst written a word at a time: cap(v) and
// len(dst) must be 16 at least, and dst's bytes past len(v) are written
// over.
func copyDecimal(dst, v []byte) (uint64, bool) {
	n := len(v)
	v = v[:16]
	w := word.Load64(v, 0)
	if n <= 8 {
		d, ok := digitBytes(w, ^uint64(0)>>(64-8*n))
		binary.LittleEndian.PutUint64(dst, w)
		return decimal8(d << (64 - 8*n)), ok
	}
	d, ok := digitBytes(w, ^uint64(0))
	w2 := word.Load64(v, 8)
	d2, ok2 := digitBytes(w2, ^uint64(0)>>(128-8*n))
	binary.LittleEndian.PutUint64(dst, w)
	binary.LittleEndian.PutUint64(dst[8:], w2)
	return decimal8(d)*pow10[n-8] + decimal8(d2<<(128-8*n)), ok && ok2
}
