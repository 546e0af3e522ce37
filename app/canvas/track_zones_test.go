package canvas

import (
	"testing"
	"time"

	"watchlens/timeline"
)

func TestZoneStatsUnion(t *testing.T) {
	s := int64(time.Second)
	zones := []timeline.Zone{
		{Kind: timeline.BookmarkAware, From: 10 * s, To: 20 * s},
		{Kind: timeline.BookmarkAware, From: 15 * s, To: 30 * s}, // another model, overlapping
		{Kind: timeline.BookmarkIgnoring, From: 40 * s, To: 50 * s, FromRV: 7, ToRV: 7},
	}
	st := zoneStats(zones, false, 0, 100*s)
	if st[0].Count != 2 || st[0].Seconds != 20 || st[1].Count != 1 || st[1].Seconds != 10 {
		t.Errorf("whole view: %+v", st)
	}
	st = zoneStats(zones, false, 25*s, 45*s)
	if st[0].Count != 1 || st[0].Seconds != 5 || st[1].Count != 1 || st[1].Seconds != 5 {
		t.Errorf("clipped view: %+v", st)
	}
	if st = zoneStats(zones, true, 5, 8); st[1].Count != 1 || st[0].Count != 0 {
		t.Errorf("RV axis: %+v", st)
	}
}
