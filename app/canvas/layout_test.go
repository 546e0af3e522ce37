package canvas

import (
	"strconv"
	"testing"
)

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

// TestLayoutStacksAtMostMaxFileGroups: with thousands of files open (a
// broad capture split into virtual clients) the timeline stacks the
// groups of the first MaxFileGroups, the pinned one among them wherever
// it is, and counts the rest.
func TestLayoutStacksAtMostMaxFileGroups(t *testing.T) {
	files := make([]string, 10_001)
	for i := range files {
		files[i] = "client-" + strconv.Itoa(i)
	}
	const pinned = 40
	layout := FileLayout(1280, 900, 20, files, false, true, AllFiles(len(files)), FileSet{}.With(pinned, true))
	var drawn []int
	for _, b := range layout.Bands {
		if b.ID == BandFile {
			drawn = append(drawn, b.File)
		}
	}
	if len(drawn) != MaxFileGroups || layout.FilesNotDrawn != len(files)-MaxFileGroups {
		t.Fatalf("%d files' groups stacked and %d counted, want %d and %d", len(drawn), layout.FilesNotDrawn, MaxFileGroups, len(files)-MaxFileGroups)
	}
	if drawn[0] != pinned || drawn[1] != 0 || drawn[MaxFileGroups-1] != MaxFileGroups-1 {
		t.Errorf("groups stacked in the order %v..., %d: want the pinned file %d first, then 0, 1, ... %d", drawn[:3], drawn[MaxFileGroups-1], pinned, MaxFileGroups)
	}
	if layout.Height > 4000 {
		t.Errorf("the canvas is %v px high", layout.Height)
	}
}
