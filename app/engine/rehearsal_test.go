package engine

import (
	"testing"

	"watchlens/app/canvas"
	"watchlens/timeline"
)

// TestRehearsalsZoomAndPanWithinTheCapture: the rehearsed views of the
// whole capture zoom in to a 512th of it, each span dragged either way,
// all within the capture and otherwise the view itself; a view with no
// range stands for the whole capture.
func TestRehearsalsZoomAndPanWithinTheCapture(t *testing.T) {
	e, o := sampleEngine(t, "w3-then-resume.ts.http")
	st := whole(o)
	st.Filter = timeline.Filter{Namespace: "default"}
	lo, hi := o.Extent(false)
	views := e.Rehearsals(st)
	if len(views) != len(rehearsalZooms)*len(rehearsalPans) {
		t.Fatalf("%d views rehearsed", len(views))
	}
	narrowest := hi - lo
	for _, v := range views {
		if v.From < lo || v.To > hi || v.To <= v.From {
			t.Errorf("a rehearsed view %d..%d is outside the capture %d..%d", v.From, v.To, lo, hi)
		}
		narrowest = min(narrowest, v.To-v.From)
		if v.Filter != st.Filter || v.Width != st.Width || v.Selected != st.Selected || v.SeenHeight != 0 {
			t.Errorf("a rehearsed view changes more than the range: %+v", v)
		}
	}
	if want := (hi - lo) / 512; narrowest > want+1 || narrowest < want-1 {
		t.Errorf("the narrowest rehearsed span is %d, want a 512th of %d", narrowest, hi-lo)
	}
	zoomed := views[len(views)-3:]
	if !(zoomed[0].From < zoomed[1].From && zoomed[1].From < zoomed[2].From) {
		t.Errorf("the narrowest span is not dragged either way: %+v", zoomed)
	}
	none := st
	none.From, none.To = 0, 0
	if got := e.Rehearsals(none); len(got) != len(views) || got[0] != views[0] {
		t.Errorf("a view of no range rehearses %+v, the whole capture's %+v", got[0], views[0])
	}
}

// TestRehearsalsOfATallLayoutDrawItsRows: samples-fleet's timeline,
// unfolded, is taller than a panel, which shows it by its rows in view:
// the views rehearsed from its whole frame draw rows as a panel's, and
// their frames leave out the bands out of them. A view that names its
// rows keeps them.
func TestRehearsalsOfATallLayoutDrawItsRows(t *testing.T) {
	e, o := openFleet(t, timeline.DefaultParams())
	st := whole(o)
	for _, v := range e.Rehearsals(st) {
		if v.SeenTop != 0 || v.SeenHeight != rehearsalSeen {
			t.Fatalf("a rehearsed view of samples-fleet draws rows %v+%v, want 0+%v", v.SeenTop, v.SeenHeight, rehearsalSeen)
		}
		var fr canvas.Frame
		if d, _ := e.Rehearse(v, &fr); fr.Height != rehearsalSeen || d.Layout.Height <= rehearsalSeen {
			t.Fatalf("a rehearsed frame is %v px high, of a layout %v px high", fr.Height, d.Layout.Height)
		}
	}
	st.SeenTop, st.SeenHeight = 1000, 500
	if v := e.Rehearsals(st)[0]; v.SeenTop != 1000 || v.SeenHeight != 500 {
		t.Errorf("a view of rows 1000+500 rehearses rows %v+%v", v.SeenTop, v.SeenHeight)
	}
}

// TestRehearseLeavesTheFrameShown: rehearsing frames of other views
// leaves the engine answering hit tests and summaries of the frame shown
// as before, with a filter that keeps only the lanes in view, whose rows
// the rehearsed ranges change (kubectl's watch of every pod).
func TestRehearseLeavesTheFrameShown(t *testing.T) {
	e, o := sampleEngine(t, "kubectl-pods-watch.jsonl")
	st := whole(o)
	st.Filter.InView = true
	lo, hi := o.Extent(false)
	st.From, st.To = lo+(hi-lo)/3, lo+2*(hi-lo)/3
	var fr canvas.Frame
	d := e.Frame(st, &fr)
	before := e.Summary(SummaryOf(st, d))
	type at struct{ x, y float64 }
	hits := map[at]Hit{}
	marks := 0
	for row := range min(d.Rows, 12) {
		for x := d.Layout.PlotX; x < d.Layout.PlotX+d.Layout.PlotW; x += 4 {
			p := at{x, d.Layout.LanesY + (float64(row)+0.5)*canvas.RowHeight}
			hits[p] = e.Hit(st, p.x, p.y)
			if hits[p].Event >= 0 {
				marks++
			}
		}
	}
	if marks == 0 {
		t.Fatal("no hit test lands on an event: the test proves nothing of the hits")
	}
	rowsBefore := len(e.rows.rows)
	changed := false
	for _, v := range e.Rehearsals(st) {
		rd, _ := e.Rehearse(v, &fr)
		changed = changed || rd.Rows != d.Rows
	}
	if !changed {
		t.Fatal("no rehearsed view shows another number of rows: the test proves nothing of the rows kept")
	}
	if len(e.rows.rows) != rowsBefore || e.layout.Height != d.Layout.Height || e.layout.LanesY != d.Layout.LanesY {
		t.Errorf("after the rehearsal the engine keeps %d rows and a layout %+v; the frame shown has %d and %+v",
			len(e.rows.rows), e.layout, rowsBefore, d.Layout)
	}
	for p, want := range hits {
		if got := e.Hit(st, p.x, p.y); got != want {
			t.Errorf("at %v the hit answers %+v after the rehearsal, %+v before", p, got, want)
		}
	}
	if after := e.Summary(SummaryOf(st, d)); after.Lanes != before.Lanes || after.Rows != before.Rows || after.FromText != before.FromText {
		t.Errorf("the summary says %+v after the rehearsal, %+v before", after, before)
	}
}
