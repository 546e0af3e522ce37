package canvas

import "testing"

func TestLayoutBandsAndRows(t *testing.T) {
	layout := NewLayout(1280, 100, false, true)
	if layout.LanesH != maxRowsShow*RowHeight || layout.ContentH != 100*RowHeight {
		t.Errorf("lane area %v of %v", layout.LanesH, layout.ContentH)
	}
	for _, b := range layout.Bands {
		if got := layout.BandAt(b.Y + b.Height/2); got != b.ID {
			t.Errorf("middle of band %d reads as %d", b.ID, got)
		}
	}
	if r := layout.RowAt(layout.LanesY+RowHeight*2.5, 3*RowHeight, 100); r != 5 {
		t.Errorf("row under the third visible row scrolled by 3 = %d", r)
	}
	if s := layout.ClampScroll(1e9); s != layout.ContentH-layout.LanesH {
		t.Errorf("scroll clamps to %v", s)
	}
	rv := NewLayout(1280, 3, true, false)
	if _, ok := rv.bandByID(BandCursors); ok {
		t.Error("the RV axis has a cursor strip (RV against time)")
	}
}
