//go:build !wasm

package parser

import (
	"math/bits"

	"watchlens/internal/word"
)

// matchSpans reads b from i as the template tb whose strings are spans
// (see matchspans_wasm.go, where it is assembly): the fixed bytes are
// compared by equalBytes, bytes.Equal's assembly here, and each string's
// end is found a word at a time.
func matchSpans(b []byte, i int, tb []byte, spans []uint64, found []int) int {
	prev := 0
	for k := 0; ; k++ {
		to := len(tb)
		var sp uint64
		if k < len(spans) {
			sp = spans[k]
			to = int(uint32(sp))
		}
		n := to - prev
		if len(b)-i < n || !equalBytes(b[i:i+n], tb[prev:to]) {
			return -1
		}
		i += n
		if k == len(spans) {
			return i
		}
		prev = to + int(uint16(sp>>32))
		skipped := sp&spanSkipped != 0
		j := i
		for {
			if j+8 <= len(b) {
				x := word.Load64(b, j)
				q, bs, nl := x^(lsb*'"'), x^(lsb*'\\'), x^(lsb*'\n')
				m := ((q-lsb)&^q | (bs-lsb)&^bs | (nl-lsb)&^nl) & msb
				if m == 0 {
					j += 8
					continue
				}
				j += bits.TrailingZeros64(m) >> 3
			} else {
				for j < len(b) && b[j] != '"' && b[j] != '\\' && b[j] != '\n' {
					j++
				}
				if j >= len(b) {
					return -1
				}
			}
			if b[j] == '"' {
				break
			}
			if !skipped || b[j] == '\n' || j+1 < len(b) && b[j+1] == '\n' {
				return -1
			}
			j += 2
		}
		slot := int(sp>>48) & 0x7fff
		found[2*slot], found[2*slot+1] = i, j
		i = j
	}
}
