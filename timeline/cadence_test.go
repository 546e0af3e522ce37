package timeline

import (
	"testing"
	"time"
)

// TestBookmarkCadenceOfARealServer: w3's narrow watch of a real
// kube-apiserver got a bookmark about every minute, its watch cache's
// cadence; each watch's cadence counts the bookmarks its session got,
// and its longest silence, edges included, is at least its median
// interval and begins at the watch's start or at one of its bookmarks.
func TestBookmarkCadenceOfARealServer(t *testing.T) {
	tl := loadSamples(t, "w3-narrow-label-bookmarks.ts.http")
	cs := tl.BookmarkCadence()
	if len(cs) == 0 {
		t.Fatal("no watch with bookmarks")
	}
	medians := 0
	for _, c := range cs {
		s := &tl.Sessions[c.Session]
		if c.Bookmarks != s.Bookmarks {
			t.Errorf("session %d: %d bookmarks in its cadence, %d in the session", s.Index, c.Bookmarks, s.Bookmarks)
		}
		if c.MaxGap < c.Median || c.MaxGapFrom < s.Start || c.MaxGapFrom+c.MaxGap > s.End {
			t.Errorf("session %d (%s to %s): %+v", s.Index, FormatTime(s.Start, ClockArrival), FormatTime(s.End, ClockArrival), c)
		}
		if c.Bookmarks >= 3 {
			medians++
			if c.Median < int64(50*time.Second) || c.Median > int64(70*time.Second) {
				t.Errorf("session %d: bookmarks every %s, want about a minute", s.Index, FormatDuration(c.Median))
			}
		}
	}
	if medians == 0 {
		t.Error("no watch got three bookmarks: the median is not checked")
	}
}
