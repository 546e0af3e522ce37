package timeline

import (
	"strconv"
	"testing"

	"watchlens/parser"
)

// TestUnchangedSinceOnRealCaptures holds what a bookmark says nothing
// changed after to the last RV its watch carried before it, found by
// walking each real capture's events in order: the last event or
// bookmark of the file (initial events excepted), else the RV the
// session's request resumed from.
func TestUnchangedSinceOnRealCaptures(t *testing.T) {
	bookmarks, afterEvents := 0, 0
	for name := range manifest(t) {
		tl := loadSamples(t, name)
		last := map[int]uint64{} // per file: the RV the stream last carried
		opened := map[int]bool{} // sessions whose request was applied
		sinceBookmark := map[int]bool{}
		for i := range tl.Len() {
			ev := tl.Event(i)
			if s := &tl.Sessions[ev.Session]; !opened[ev.Session] {
				opened[ev.Session] = true
				if s.Request != nil {
					delete(last, ev.File)
					if v, err := strconv.ParseUint(s.Request.ResourceVersion, 10, 64); err == nil && v > 0 {
						last[ev.File] = v
					}
				}
			}
			if ev.Type == parser.Bookmark {
				bookmarks++
				want, wantOK := last[ev.File]
				got, ok := tl.UnchangedSince(i)
				if ok != wantOK || got != want {
					t.Errorf("%s: the bookmark at %d (RV %s) says nothing changed since %d (%v), want %d (%v)", name, i, ev.RV, got, ok, want, wantOK)
				}
				if sinceBookmark[ev.Session] {
					afterEvents++
				}
				sinceBookmark[ev.Session] = false
			} else if ev.Type != parser.Error && ev.Type != parser.Listed {
				sinceBookmark[ev.Session] = true
			}
			if ev.Type != parser.Error && ev.Type != parser.Listed && ev.RVValid && !ev.Initial {
				last[ev.File] = ev.RVNum
			}
			if ev.Type != parser.Bookmark {
				if _, ok := tl.UnchangedSince(i); ok {
					t.Errorf("%s: event %d, a %v, says what a bookmark says", name, i, ev.Type)
				}
			}
		}
	}
	// A bookmark that follows events since the last bookmark is where the
	// last bookmark's RV would be wrong.
	if bookmarks == 0 || afterEvents == 0 {
		t.Fatalf("%d bookmarks, %d of them after events since the last one: the test proves little", bookmarks, afterEvents)
	}
	t.Logf("%d bookmarks, %d after events since the last one", bookmarks, afterEvents)
}
