package canvas

import (
	"bytes"
	"testing"
)

// A frame's floats read back with SetFloats, into a frame that held a
// larger one, are the frame's own: what Floats writes of it again is
// byte for byte what it wrote.
func TestSetFloatsReadsFloatsBack(t *testing.T) {
	tl, an := sampleTimeline(t, "w1-broad-configmaps-bookmarks.ts.http")
	c := NewCache(tl)
	var wide, narrow Frame
	c.Build(wholeView(tl, an, c, 1280), &wide)
	c.Build(wholeView(tl, an, c, 400), &narrow)
	want, n := narrow.Floats(nil)
	if n == 0 || len(wide.floats) <= n {
		t.Fatalf("the frames prove little: %d floats wide, %d narrow", len(wide.floats), n)
	}
	read := wide
	read.SetFloats(want)
	got, m := read.Floats(nil)
	if m != n || !bytes.Equal(got, want) {
		t.Errorf("read back: %d floats, %d written; equal bytes %v", m, n, bytes.Equal(got, want))
	}
}
