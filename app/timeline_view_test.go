package app

import (
	"testing"

	"watchlens/app/engine"
	"watchlens/app/engine/enginetest"
	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/timeline"
)

// TestSummaryMatchesTheTimeline: what the summary says of the whole
// capture is what the capture's manifest lists (bookmarks, errors), and
// its zones, whole and zoomed, are the model's own range statistics.
func TestSummaryMatchesTheTimeline(t *testing.T) {
	man := testsample.Manifest(t, testsample.Path(t, testsample.SamplesDir))
	zonesSeen := 0
	for _, name := range []string{"w4-then-resume.ts.http", "w3-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http"} {
		v := sampleView(t, name)
		eng := v.Engine.(*engine.Engine)
		tl, an := eng.Timeline(), eng.Analysis()
		v.sync()
		v.Render() // renders natively too (the static site pre-renders pages)
		s := v.eng.Summary(v.viewState(1280, 1))
		if s.Lanes != tl.Lanes.Len() || s.Bookmarks != man[name]["BOOKMARK"] || s.Errors != man[name]["ERROR"] {
			t.Errorf("%s: summary %+v; %d lanes, manifest %v", name, s, tl.Lanes.Len(), man[name])
		}
		if !v.isWhole() {
			t.Errorf("%s: From == To == 0 does not show the whole capture", name)
		}
		lo, hi := v.opened.Extent(false)
		for _, r := range [][2]int64{{lo, hi}, {lo, lo + (hi-lo)/2}, {lo + (hi-lo)/2, hi}} {
			v.From, v.To = r[0], r[1]
			v.sync()
			s = v.eng.Summary(v.viewState(1280, 1))
			var want [2]int
			for _, z := range an.RangeStats(r[0], r[1]).Zones {
				if z.Outcome == timeline.Refused && int(z.Kind) < len(want) {
					want[z.Kind] += z.Count
				}
			}
			if s.Zones[0].Count != want[0] || s.Zones[1].Count != want[1] {
				t.Errorf("%s [%d, %d): summary's zones %+v, the model's %v", name, r[0]-lo, r[1]-lo, s.Zones, want)
			}
			zonesSeen += want[0] + want[1]
		}

		// A filter that hides bookmarks and a zoom into the first half.
		v.Filter = timeline.Filter{Types: 1 << parser.Modified, Text: "no such object"}
		v.From, v.To = tl.Start(), tl.Start()+(tl.End()-tl.Start())/2
		v.sync()
		s = v.eng.Summary(v.viewState(1280, 1))
		if s.Lanes != 0 || s.Bookmarks != 0 || s.Errors != 0 || v.isWhole() {
			t.Errorf("%s: filtered and zoomed summary %+v", name, s)
		}
	}
	if zonesSeen == 0 {
		t.Error("no sample has a zone: the zones' check proves nothing")
	}
}

// TestPropsAdoptedOnlyWhenChanged: the view the user moved is kept until
// the parent passes a different range.
func TestPropsAdoptedOnlyWhenChanged(t *testing.T) {
	v := sampleView(t, "w1-broad-configmaps-bookmarks.ts.http")
	v.sync()
	lo, hi := v.opened.Extent(false)
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
	if rlo, rhi := v.opened.Extent(true); v.from != rlo || v.to != rhi || hi == rhi {
		t.Errorf("switching to the RV axis shows [%d, %d), want [%d, %d)", v.from, v.to, rlo, rhi)
	}
	v.Engine = sampleView(t).Engine
	v.sync() // a new, empty timeline
	if s := v.eng.Summary(v.viewState(1280, 1)); s.Lanes != 0 || s.Rows != 0 {
		t.Errorf("an empty timeline shows %d lanes in %d rows", s.Lanes, s.Rows)
	}
}

// sampleView is the timeline view of built-in samples opened together,
// as the page opens them: through the engine.
func sampleView(t *testing.T, names ...string) *TimelineView {
	t.Helper()
	paths := make([]string, len(names))
	for i, name := range names {
		paths[i] = testsample.Sample(t, name)
	}
	eng, o := enginetest.Open(t, timeline.DefaultParams(), testsample.BaseName, paths...)
	return &TimelineView{Engine: eng, Analyzed: o.Generation, Selected: -1}
}

// TestSummaryWithCounterfactualZones: w4, which asked for no bookmarks,
// has refused zones of its "had it asked" cursor beside w1's; the view's
// summary of them renders at every width.
func TestSummaryWithCounterfactualZones(t *testing.T) {
	v := sampleView(t, "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http")
	had := 0
	for _, z := range v.Engine.(*engine.Engine).Analysis().Zones {
		if z.Kind == timeline.HadBookmarks {
			had++
		}
	}
	if had == 0 {
		t.Fatal("no zone of the counterfactual cursor: the test proves nothing")
	}
	v.sync()
	for w := 320.0; w <= 1440; w += 160 {
		s := v.eng.Summary(v.viewState(w, 1))
		if s.Zones[0].Count == 0 {
			t.Errorf("at %v px the summary counts no refused zone of w4's recorded cursor", w)
		}
	}
}
