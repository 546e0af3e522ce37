package word

import (
	"encoding/binary"
	"math/bits"
	"testing"
)

func TestLoad64(t *testing.T) {
	b := make([]byte, 40)
	for i := range b {
		b[i] = byte(i*37 + 11)
	}
	for i := 0; i+8 <= len(b); i++ {
		if got, want := Load64(b, i), binary.LittleEndian.Uint64(b[i:]); got != want {
			t.Fatalf("Load64(b, %d) = %#x, want %#x", i, got, want)
		}
	}
}

// TestMix holds Mix to the same mixing done a byte at a time, for
// lengths across the word it reads by, from every offset of a buffer.
func TestMix(t *testing.T) {
	reference := func(h uint64, b []byte) uint64 {
		for i := 0; i < len(b); i += 8 {
			var w uint64
			for k := min(i+8, len(b)) - 1; k >= i; k-- {
				w = w<<8 | uint64(b[k])
			}
			h = bits.RotateLeft64((h^w)*Mul2, 31)
		}
		return h
	}
	buf := make([]byte, 60)
	for i := range buf {
		buf[i] = byte(i*131 + 7)
	}
	for off := range 8 {
		for n := 0; off+n <= len(buf); n++ {
			b := buf[off : off+n]
			if got, want := Mix(0x12345678_9abcdef1, b), reference(0x12345678_9abcdef1, b); got != want {
				t.Fatalf("%d bytes at %d: %#x, want %#x", n, off, got, want)
			}
		}
	}
}
