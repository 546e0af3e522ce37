package word

import (
	"encoding/binary"
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
