package canvas

import (
	"reflect"
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

// TestLayoutFitsRoom: a layout fits every room whose own layout is the
// same, and no other, with the lanes more than fit and fewer, and two
// files' groups of bands.
func TestLayoutFitsRoom(t *testing.T) {
	for _, files := range [][]string{nil, {"a.log", "b.log"}} {
		for _, rows := range []int{3, 100} {
			rooms := []float64{0}
			for h := 100.0; h <= 900; h += 7 {
				rooms = append(rooms, h)
			}
			same, other := 0, 0
			for _, a := range rooms {
				la := FileLayout(1238, a, rows, files, false, true, FileSet{}, FileSet{})
				for _, b := range rooms {
					lb := FileLayout(1238, b, rows, files, false, true, FileSet{}, FileSet{})
					want := reflect.DeepEqual(la, lb)
					if got := la.FitsRoom(b); got != want {
						t.Fatalf("%d files, %d rows: the layout for %v px fits %v px: %v, want %v", len(files), rows, a, b, got, want)
					}
					if want {
						same++
					} else {
						other++
					}
				}
			}
			if rows == 100 && (same <= len(rooms) || other == 0) {
				t.Errorf("%d files, %d rows: %d pairs of rooms laid out alike, %d not: the rooms tried tell nothing", len(files), rows, same, other)
			}
		}
	}
}
