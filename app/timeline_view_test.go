package app

import (
	"testing"

	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/timeline"
)

// TestSummaryMatchesTheTimeline: what the summary says of the whole
// capture is what the timeline package answers.
func TestSummaryMatchesTheTimeline(t *testing.T) {
	for _, name := range []string{"w4-then-resume.ts.http", "w3-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http"} {
		tl, an := sampleTimeline(t, name)
		v := &TimelineView{Timeline: tl, Analysis: an, Selected: -1}
		v.sync()
		v.Render() // renders natively too (the static site pre-renders pages)
		s := v.cache.Summarize(v.viewState(1280, 1), v.lanesShown)
		f := tl.Files[0]
		var kinds [2]int
		for _, z := range an.Zones {
			kinds[z.Kind]++
		}
		if s.Lanes != tl.Lanes.Len() || s.Bookmarks != f.Counts["BOOKMARK"] || s.Errors != f.Counts["ERROR"] ||
			s.Zones[0].Count != kinds[0] || s.Zones[1].Count != kinds[1] {
			t.Errorf("%s: summary %+v; timeline: %d lanes, %d bookmarks, %d errors, zones %v", name, s, tl.Lanes.Len(), f.Counts["BOOKMARK"], f.Counts["ERROR"], kinds)
		}
		if !v.isWhole() {
			t.Errorf("%s: From == To == 0 does not show the whole capture", name)
		}

		// A filter that hides bookmarks and a zoom into the first half.
		v.Filter = timeline.Filter{Types: 1 << parser.Modified, Text: "no such object"}
		v.From, v.To = tl.Start(), tl.Start()+(tl.End()-tl.Start())/2
		v.sync()
		s = v.cache.Summarize(v.viewState(1280, 1), v.lanesShown)
		if s.Lanes != 0 || s.Bookmarks != 0 || s.Errors != 0 || v.isWhole() {
			t.Errorf("%s: filtered and zoomed summary %+v", name, s)
		}
	}
}

// TestPropsAdoptedOnlyWhenChanged: the view the user moved is kept until
// the parent passes a different range.
func TestPropsAdoptedOnlyWhenChanged(t *testing.T) {
	tl, an := sampleTimeline(t, "w1-broad-configmaps-bookmarks.ts.http")
	v := &TimelineView{Timeline: tl, Analysis: an, Selected: -1}
	v.sync()
	lo, hi := v.cache.Extent(false)
	v.from, v.to = lo+10, lo+1000 // as a zoom would leave it
	v.sync()
	if v.from != lo+10 {
		t.Fatal("an unchanged parent snapped the view back")
	}
	v.From, v.To = lo+5, lo+500
	v.sync()
	if v.from != lo+5 || v.to != lo+500 {
		t.Errorf("the parent's new range was not adopted: [%d, %d)", v.from-lo, v.to-lo)
	}
	v.AxisRV, v.From, v.To = true, 0, 0
	v.sync()
	if rlo, rhi := v.cache.Extent(true); v.from != rlo || v.to != rhi || hi == rhi {
		t.Errorf("switching to the RV axis shows [%d, %d), want [%d, %d)", v.from, v.to, rlo, rhi)
	}
	v.Timeline = timeline.NewBuilder().Build()
	v.sync() // a new, empty timeline
	if v.lanesShown != 0 {
		t.Errorf("an empty timeline shows %d lanes", v.lanesShown)
	}
}

// sampleTimeline builds a sample's timeline and its analysis as the page
// does.
func sampleTimeline(t *testing.T, name string) (*timeline.Timeline, *timeline.Analysis) {
	t.Helper()
	p := findingsOn(t, map[string][]byte{name: testsample.SampleBytes(t, name)}, name)
	return p.Timeline, p.Analysis
}
