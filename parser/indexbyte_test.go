package parser

import (
	"bytes"
	"testing"
)

// TestIndexByte holds indexByte to bytes.IndexByte with the byte sought
// at each position of runs of other bytes (among them the bytes next to
// it, whose borrows the word test must not take for it), twice, so that
// each falls in each lane of a sixteen-byte step, and the bytes around
// it each lane too. The assembly is tested under wasm only.
func TestIndexByte(t *testing.T) {
	for _, c := range []byte{'\n', 'j', 0, 0xff} {
		fillers := []byte{c + 1, c - 1, c ^ 0x80, 'k'}
		for n := range 50 {
			for _, fill := range fillers {
				b := bytes.Repeat([]byte{fill}, n)
				check := func() {
					t.Helper()
					if got, want := indexByte(b, c), bytes.IndexByte(b, c); got != want {
						t.Fatalf("indexByte(%q, %q) = %d, want %d", b, c, got, want)
					}
				}
				check()
				for p := range n {
					b[p] = c
					check()
					for q := p + 1; q < n; q++ {
						b[q] = c
						check()
						b[q] = fill
					}
					b[p] = fill
				}
			}
		}
	}
}
