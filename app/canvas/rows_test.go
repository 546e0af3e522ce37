package canvas

import (
	"testing"

	"watchlens/timeline"
)

func TestBuildRowsGroupsAndFolds(t *testing.T) {
	tl, _ := sampleTimeline(t, "w1-broad-configmaps-bookmarks.ts.http")
	groups, rows, shown := BuildRows(tl, timeline.Filter{}, map[string]bool{}, nil)
	if shown != tl.Lanes.Len() {
		t.Fatalf("%d lanes shown, want all %d", shown, tl.Lanes.Len())
	}
	if len(rows) != tl.Lanes.Len()+len(groups) {
		t.Fatalf("%d rows for %d lanes in %d groups", len(rows), tl.Lanes.Len(), len(groups))
	}
	for i := 1; i < len(groups); i++ {
		a, b := groups[i-1], groups[i]
		if a.Kind > b.Kind || a.Kind == b.Kind && a.Namespace >= b.Namespace {
			t.Errorf("groups out of order: %s/%s before %s/%s", a.Kind, a.Namespace, b.Kind, b.Namespace)
		}
	}
	for _, r := range rows {
		if r.Lane < 0 {
			continue
		}
		g, ln := groups[r.Group], tl.Lanes.At(r.Lane)
		if ln.Kind != g.Kind || ln.Namespace != g.Namespace {
			t.Fatalf("lane %d (%s/%s) in group %s/%s", r.Lane, ln.Kind, ln.Namespace, g.Kind, g.Namespace)
		}
	}
	folded := map[string]bool{groups[0].Key(): true}
	_, rows2, _ := BuildRows(tl, timeline.Filter{}, folded, nil)
	if want := len(rows) - len(groups[0].Lanes); len(rows2) != want {
		t.Errorf("folding group 0 leaves %d rows, want %d", len(rows2), want)
	}
	_, _, shown = BuildRows(tl, timeline.Filter{Namespace: groups[0].Namespace}, nil, nil)
	if shown != len(groups[0].Lanes) {
		t.Errorf("namespace filter shows %d lanes, want %d", shown, len(groups[0].Lanes))
	}
}

// TestBuildRowsInView: with Filter.InView, the rows are the lanes active
// in the range.
func TestBuildRowsInView(t *testing.T) {
	tl, _ := sampleTimeline(t, "w1-broad-configmaps-bookmarks.ts.http")
	mid := tl.Start() + (tl.End()-tl.Start())/2
	active := timeline.LanesActiveIn(tl, mid, tl.End()+1)
	in := 0
	for l := range tl.Lanes.Len() {
		if active(l) {
			in++
		}
	}
	if in == 0 || in == tl.Lanes.Len() {
		t.Fatalf("%d of %d lanes active in the second half: the test proves nothing", in, tl.Lanes.Len())
	}
	_, _, shown := BuildRows(tl, timeline.Filter{InView: true}, nil, active)
	if shown != in {
		t.Errorf("BuildRows shows %d lanes, want the %d active ones", shown, in)
	}
}
