package canvas

import (
	"slices"
	"testing"

	"watchlens/timeline"
)

// TestTimeColumnsAsBins: the density band's own count of a time view's
// columns equals the timeline's Bins', on captures with bookmarks and
// errors, on the frame benchmark's million events and on generated
// clients, at several zooms and widths, the view past the capture's ends
// included.
func TestTimeColumnsAsBins(t *testing.T) {
	check := func(t *testing.T, tl *timeline.Timeline) {
		c := NewCache(tl)
		if len(c.specialT) == 0 {
			t.Fatal("no bookmarks or errors: the columns would only count events")
		}
		lo, hi := c.Extent(false)
		span := hi - lo
		for _, r := range [][2]int64{{lo, hi}, {lo + span/3, lo + span/3 + span/10}, {lo + span/2, lo + span/2 + span/1000}, {lo + span/2, lo + span/2 + 5}, {hi, hi + span}, {lo - span, lo + span/7}} {
			for _, cols := range []int{2000, 1000, 7, 1} {
				q := timeline.BinQuery{From: r[0], To: r[1], Columns: cols, File: -1}
				want := tl.Bins(q, nil)
				got := c.timeColumns(q, nil)
				if got.Columns != want.Columns || !slices.Equal(got.Objects, want.Objects) {
					t.Fatalf("[%d, %d) in %d columns: %v, Bins has %v", r[0], r[1], cols, head(got.Objects), head(want.Objects))
				}
			}
		}
	}
	for _, name := range []string{"w1-broad-configmaps-bookmarks.ts.http", "w2-broad-pods-bookmarks.http.gz", "w4-then-resume.ts.http", "w4-then-resume.http"} {
		t.Run(name, func(t *testing.T) {
			tl, _ := sampleTimeline(t, name)
			check(t, tl)
		})
	}
	t.Run("busy", func(t *testing.T) {
		tl, _ := benchTimeline()
		check(t, tl)
	})
	t.Run("clients", func(t *testing.T) {
		tl, _ := clientsTimeline(300, 90_000)
		check(t, tl)
	})
}

// head is the start of a count, for a message.
func head(s []uint32) []uint32 { return s[:min(len(s), 20)] }
