package canvas

import (
	"os"
	"testing"

	"watchlens/parser"
	"watchlens/timeline"
)

// TestFleetGutterOnAPhone: on a phone's canvas the clients' names get a
// third of the width, not the timeline's fifth (72 px cut each name of
// samples-fleet to "fleet-c…"), and the plot keeps the rest; on a wide
// canvas the fleet's gutter is the timeline's.
func TestFleetGutterOnAPhone(t *testing.T) {
	for _, w := range []float64{360, 370, 414} {
		l := NewFleetLayout(w, 0, 44, nil, 0)
		if l.PlotX < w/3 || l.PlotX <= gutterFor(w) {
			t.Errorf("at %v px the names have %v px, want a third (%v), more than the timeline's %v", w, l.PlotX, w/3, gutterFor(w))
		}
		if l.PlotW < w/2 {
			t.Errorf("at %v px the plot has %v px, less than half", w, l.PlotW)
		}
	}
	for _, w := range []float64{1024, 1440} {
		if l := NewFleetLayout(w, 0, 44, nil, 0); l.PlotX != gutterFor(w) {
			t.Errorf("at %v px the fleet's gutter is %v px, the timeline's %v", w, l.PlotX, gutterFor(w))
		}
	}
}

// TestFleetLayoutKeepsHeadersOwnSlots: with headers above rows 0, 5 and
// 9 of 12, every row is found where it is drawn, a header's slot is no
// row's, and the rows in view are those whose slots the view shows.
func TestFleetLayoutKeepsHeadersOwnSlots(t *testing.T) {
	heads := []int{0, 5, 9}
	l := NewFleetLayout(1280, 200, 12, []FleetGroup{{First: 0, Rows: 5}, {First: 5, Rows: 4}, {First: 9, Rows: 3}}, 0)
	if l.ContentH != 15*FleetRowH {
		t.Errorf("12 rows and 3 headers take %v px, want %v", l.ContentH, 15*FleetRowH)
	}
	for _, scroll := range []float64{0, 3, FleetRowH * 4, l.ClampScroll(1e9)} {
		first, last := l.VisibleRows(scroll)
		for r := range 12 {
			y := l.RowY(r, scroll)
			in := y+FleetRowH > l.RowsY && y < l.RowsY+l.RowsH
			if in != (r >= first && r < last) {
				t.Errorf("scrolled %v: row %d at y %v, but the rows in view are [%d, %d)", scroll, r, y, first, last)
			}
			if mid := y + FleetRowH/2; mid >= l.RowsY && mid < l.RowsY+l.RowsH {
				if got := l.RowAt(y+FleetRowH/2, scroll); got != r {
					t.Errorf("scrolled %v: row %d is drawn at y %v, where RowAt finds %d", scroll, r, y, got)
				}
			}
		}
		for i := range heads {
			y := l.HeadY(i, scroll)
			if y != l.RowY(heads[i], scroll)-FleetRowH {
				t.Errorf("header %d at y %v, not the slot above row %d at %v", i, y, heads[i], l.RowY(heads[i], scroll))
			}
			if mid := y + FleetRowH/2; mid >= l.RowsY && mid < l.RowsY+l.RowsH {
				if got := l.RowAt(mid, scroll); got != -1 {
					t.Errorf("scrolled %v: header %d's slot is row %d's", scroll, i, got)
				}
				if got := l.HeadAt(mid, scroll); got != i {
					t.Errorf("scrolled %v: header %d's slot is found as header %d's", scroll, i, got)
				}
				if got := l.HeadAt(mid+FleetRowH, scroll); mid+FleetRowH < l.RowsY+l.RowsH && got != -1 {
					t.Errorf("scrolled %v: the row under header %d is found as header %d", scroll, i, got)
				}
			}
		}
	}
}

// TestFleetNamesTakeTheFreeWidth: a python client's log names its two
// informers by their request ("/api/v1/namespaces/lab/configmaps
// labelSelector=shard=s17 (python-informer.log)"); in a canvas 1400 px
// wide the gutter grows for what tells them apart, drawn whole ("✗
// …labelSelector=shard=s17"), where the timeline's 176 px cut it to "✗
// …abelSelector=shard=s17" with most of the width left to the plot; and
// so do testdata/fleet's names ("✗ fleet-c16-nobookmarks.ts.http").
func TestFleetNamesTakeTheFreeWidth(t *testing.T) {
	f, err := os.Open("../../parser/testdata/python-informer.log")
	if err != nil {
		t.Fatal(err)
	}
	b := timeline.NewBuilder()
	err = b.AddReader("python-informer.log", f, parser.Options{})
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	d := NewFleetData(b.Build().Analyze(timeline.DefaultParams()))
	if d == nil || len(d.Rows) != 2 {
		t.Fatalf("the python log's fleet: %+v, want two rows", d)
	}
	const w = 1400
	for r, s := range gutterLabels(t, d, w) {
		if row := d.Rows[r]; s != row.Label && s != row.Short {
			t.Errorf("row %d is drawn %q, neither its name %q nor its short label %q", r, s, row.Label, row.Short)
		}
	}
	l := NewFleetLayout(w, 0, len(d.Rows), d.Groups, d.namesRoom(w))
	if l.PlotW < w*0.7 {
		t.Errorf("the plot has %v px of %v", l.PlotW, w)
	}
	fd := fleetData(t)
	for r, s := range gutterLabels(t, fd, w) {
		if row := fd.Rows[r]; s != row.Label && s != row.Short {
			t.Errorf("testdata/fleet's row %d is drawn %q, neither its name %q nor its short label %q", r, s, row.Label, row.Short)
		}
	}
}
