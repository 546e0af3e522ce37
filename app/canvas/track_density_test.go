package canvas

import (
	"strconv"
	"strings"
	"testing"
)

// TestDensityCountsEveryEvent: the events band's columns add up to the
// capture's events (bookmarks and errors aside), and hovering reads one.
func TestDensityCountsEveryEvent(t *testing.T) {
	tl, an := sampleTimeline(t, "w1-broad-configmaps-bookmarks.ts.http")
	c := NewCache(tl)
	v := wholeView(tl, an, c, 1280)
	var fr Frame
	layout := c.Build(v, &fr)
	total := 0
	for _, n := range c.bins.Objects {
		total += int(n)
	}
	f := tl.Files[0]
	if want := f.Events - f.Counts["BOOKMARK"] - f.Counts["ERROR"]; total != want {
		t.Errorf("density columns hold %d events, want %d", total, want)
	}
	b, _ := layout.bandByID(BandDensity)
	busiest := 0
	for col, n := range c.bins.Objects {
		if n > c.bins.Objects[busiest] {
			busiest = col
		}
	}
	h := HitTest(c, v, &layout, layout.PlotX+float64(busiest)+0.5, b.Y+b.Height/2)
	if want := strconv.Itoa(int(c.bins.Objects[busiest])) + " events"; !strings.HasPrefix(h.Text, want) {
		t.Errorf("hovering the busiest column reads %q, want %q", h.Text, want)
	}
}
