package timeline

import (
	"testing"
	"time"
)

// TestZoneTotalsUnion: overlapping zones of two models count twice but
// their time once; a view clips them on the time axis, and on the RV axis
// a zone counts whole when its resourceVersions meet the range.
func TestZoneTotalsUnion(t *testing.T) {
	s := int64(time.Second)
	a := &Analysis{Zones: []Zone{
		{Kind: BookmarkAware, From: 10 * s, To: 20 * s},
		{Kind: BookmarkAware, From: 15 * s, To: 30 * s}, // another model, overlapping
		{Kind: BookmarkIgnoring, From: 40 * s, To: 50 * s, FromRV: 7, ToRV: 7},
	}}
	st := a.ZoneTotals(false, 0, 100*s)
	if st[0].Count != 2 || st[0].Length != 20*s || st[1].Count != 1 || st[1].Length != 10*s {
		t.Errorf("whole view: %+v", st)
	}
	st = a.ZoneTotals(false, 25*s, 45*s)
	if st[0].Count != 1 || st[0].Length != 5*s || st[1].Count != 1 || st[1].Length != 5*s {
		t.Errorf("clipped view: %+v", st)
	}
	if st = a.ZoneTotals(true, 5, 8); st[1].Count != 1 || st[1].Length != 10*s || st[0].Count != 0 {
		t.Errorf("RV axis: %+v", st)
	}
	if st = a.ZoneTotals(true, 8, 20); st[1].Count != 0 {
		t.Errorf("RV axis past the zone: %+v", st)
	}
}
