//go:build wasm

package canvas

import (
	"bytes"
	"testing"
)

// FloatBytes answers, without writing them, the bytes Floats writes, on
// a real capture's frame.
func TestFloatBytesAreFloats(t *testing.T) {
	tl, an := sampleTimeline(t, "w1-broad-configmaps-bookmarks.ts.http")
	c := NewCache(tl)
	var fr Frame
	c.Build(wholeView(tl, an, c, 1280), &fr)
	want, n := fr.Floats(nil)
	got, m := fr.FloatBytes()
	if n == 0 || m != n || !bytes.Equal(got, want) {
		t.Errorf("FloatBytes: %d floats, Floats %d; equal bytes %v", m, n, bytes.Equal(got, want))
	}
	var empty Frame
	if b, n := empty.FloatBytes(); len(b) != 0 || n != 0 {
		t.Errorf("an empty frame's FloatBytes: %d bytes, %d floats", len(b), n)
	}
}
