package canvas

import (
	"strconv"
	"strings"
	"testing"
)

func TestNearestPos(t *testing.T) {
	xs := []int64{10, 20, 30}
	for _, c := range []struct{ v, tol, want int64 }{{21, 2, 1}, {24, 3, -1}, {26, 5, 2}, {0, 10, 0}, {40, 10, 2}, {15, 5, 0}} {
		if got := nearestPos(xs, c.v, c.tol); int64(got) != c.want {
			t.Errorf("nearest(%d, ±%d) = %d, want %d", c.v, c.tol, got, c.want)
		}
	}
}

func TestHitTestBookmark(t *testing.T) {
	_, c, v, layout, s := wholeFrame(t, "w3-then-resume.ts.http")
	b, _ := layout.bandByID(BandBookmarks)
	bm := c.bookmarks[1]
	h := HitTest(c, v, &layout, s.X(bm.t)+1, b.Y+b.Height/2)
	want := "nothing you watch changed in (" + itoa(c.bookmarks[0].rv) + ".." + itoa(bm.rv) + "]"
	if h.Event != int(bm.idx) || !strings.Contains(h.Text, want) {
		t.Errorf("bookmark: %+v, want %q", h, want)
	}
}

func itoa(v uint64) string { return strconv.FormatUint(v, 10) }
