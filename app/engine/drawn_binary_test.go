package engine

import (
	"reflect"
	"testing"

	"watchlens/app/canvas"
	"watchlens/timeline"
)

// TestDrawnBinary: what the engine drew of samples-fleet's timeline,
// scrolled, reads back from its binary form as it was, and read over
// the frame before it keeps its labels' strings; cut short, it fails.
func TestDrawnBinary(t *testing.T) {
	e, o := openFleet(t, timeline.DefaultParams())
	st := whole(o)
	st.MaxHeight = 700
	var fr canvas.Frame
	before := e.Frame(st, &fr)
	st.ScrollY = 3 * canvas.RowHeight
	d := e.Frame(st, &fr)
	if d.ScrollY == 0 || d.Rows == 0 || len(d.Layout.Bands) < 100 {
		t.Fatalf("the frame drew %d rows scrolled by %v, %d bands", d.Rows, d.ScrollY, len(d.Layout.Bands))
	}
	b, err := d.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	got := before
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, d) {
		t.Errorf("read back: %d rows scrolled by %v, %d bands; drawn: %d rows scrolled by %v, %d bands",
			got.Rows, got.ScrollY, len(got.Layout.Bands), d.Rows, d.ScrollY, len(d.Layout.Bands))
	}
	for _, n := range []int{0, 1, 8, len(b) - 1} {
		var cut Drawn
		if cut.UnmarshalBinary(b[:n]) == nil {
			t.Errorf("cut to %d of its %d bytes, it reads without an error", n, len(b))
		}
	}
}
