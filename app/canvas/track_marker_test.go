package canvas

import (
	"math"
	"testing"
)

// markerDrawn finds the marker's line and label in a frame: the x of
// its 2 px foreground segment, and whether its label is there.
func markerDrawn(fr *Frame, at int64) (x float64, line, label bool) {
	for _, op := range opsOf(fr, "seg", ColorFg) {
		if op.Size == 2 && op.Count == 4 {
			x, line = float64(fr.floats[op.Offset]), true
		}
	}
	for _, tx := range fr.Texts {
		label = label || tx.Text == MarkerLabel(at, nil)
	}
	return x, line, label
}

// markerBottom is where the marker's line ends.
func markerBottom(fr *Frame) float64 {
	for _, op := range opsOf(fr, "seg", ColorFg) {
		if op.Size == 2 && op.Count == 4 {
			return float64(fr.floats[op.Offset+3])
		}
	}
	return 0
}

// The marker is drawn where its instant is, across the plot down to its
// bottom, on the timeline and on the fleet view, and not at all when its
// instant is out of view.
func TestMarkerDrawnAtItsInstant(t *testing.T) {
	tl, c, v, layout, s := wholeFrame(t, "w4-then-resume.ts.http")
	at := (tl.Start() + tl.End()) / 2
	v.Marker = Marker(at)
	var fr Frame
	c.Build(v, &fr)
	x, line, label := markerDrawn(&fr, at)
	if !line || !label || math.Abs(x-s.X(at)) > 1 {
		t.Errorf("timeline: the marker at x %.1f (line %v, label %v), its instant at %.1f", x, line, label, s.X(at))
	}
	if y := markerBottom(&fr); y < layout.LanesY {
		t.Errorf("timeline: the marker ends at y %.0f, above the lanes at %.0f", y, layout.LanesY)
	}
	v.From, v.To = at+1e9, at+2e9
	c.Build(v, &fr)
	if _, line, label := markerDrawn(&fr, at); line || label {
		t.Errorf("timeline: a marker out of view is drawn (line %v, label %v)", line, label)
	}

	d := fleetData(t)
	var buf FleetScratch
	at = d.From + (d.To-d.From)*9/10
	vp := &FleetViewport{From: d.From, To: d.To, Width: 1280, MaxHeight: 500, PixelRatio: 1, Marker: Marker(at)}
	l := d.Build(vp, &fr, &buf)
	x, line, label = markerDrawn(&fr, at)
	if fs := vp.Scale(&l); !line || !label || math.Abs(x-fs.X(at)) > 1 {
		t.Errorf("fleet: the marker at x %.1f (line %v, label %v), its instant at %.1f", x, line, label, fs.X(at))
	}
	// Near the plot's right edge the label goes left of the line.
	for _, tx := range fr.Texts {
		if tx.Text == MarkerLabel(at, nil) && float64(tx.X) > x {
			t.Errorf("the label at x %.1f runs right of the line at %.1f, %.0f px from the plot's edge", tx.X, x, l.PlotX+l.PlotW-x)
		}
	}
}

// TestMarkerLabelOnItsTextsBox: the marker's label is drawn inverted on
// a box the browser sizes to the text it draws (Text.Box), not on a box
// the frame sizes by a width per character, which was wider than the
// text and hid more of the axis's labels than it needed; the label's
// room stays within the plot, right of the line or, near the plot's
// right end, left of it. On the timeline and on the fleet view, at the
// plot's ends and its middle.
func TestMarkerLabelOnItsTextsBox(t *testing.T) {
	tl, c, v, _, s := wholeFrame(t, "w4-then-resume.ts.http")
	d := fleetData(t)
	var buf FleetScratch
	var fr Frame
	sides := map[string]bool{}
	check := func(view string, s Scale, at int64) {
		t.Helper()
		for _, op := range opsOf(&fr, "rect", ColorFg) {
			if op.Alpha != 0 {
				continue // a restart's shade
			}
			t.Errorf("%s: the marker at %s draws a box of its own: %+v", view, clock(at, nil), op)
		}
		x, line, _ := markerDrawn(&fr, at)
		n := 0
		for _, tx := range fr.Texts {
			if tx.Text != MarkerLabel(at, nil) {
				continue
			}
			n++
			lo, hi := float64(tx.X), float64(tx.X+tx.MaxWidth)
			if tx.Align == "r" {
				lo, hi = float64(tx.X-tx.MaxWidth), float64(tx.X)
			}
			sides[tx.Align] = true
			switch {
			case tx.Box != ColorFg || tx.Color != ColorPanel || tx.MaxWidth <= 0:
				t.Errorf("%s: the marker's label %+v is not inverted on a box of its text", view, tx)
			case lo-2 < s.X0 || hi+2 > s.X0+s.Width:
				t.Errorf("%s: the marker's label's box spans [%.1f, %.1f], out of the plot [%v, %v]", view, lo-2, hi+2, s.X0, s.X0+s.Width)
			case line && lo-2 < x && hi+2 > x:
				t.Errorf("%s: the marker's label's box spans [%.1f, %.1f], over its line at %.1f", view, lo-2, hi+2, x)
			}
		}
		if !line || n != 1 {
			t.Errorf("%s: the marker at %s: line %v, %d labels", view, clock(at, nil), line, n)
		}
	}
	for _, k := range []int64{0, 1, 2} {
		at := tl.Start() + (tl.End()-tl.Start())*k/2
		v.Marker = Marker(at)
		c.Build(v, &fr)
		check("timeline", s, at)
		at = d.From + (d.To-d.From)*k/2
		vp := &FleetViewport{From: d.From, To: d.To, Width: 1280, MaxHeight: 500, PixelRatio: 1, Marker: Marker(at)}
		l := d.Build(vp, &fr, &buf)
		check("fleet", vp.Scale(&l), at)
	}
	if !sides["l"] || !sides["r"] {
		t.Errorf("the labels went on the sides %v: the test tests neither the line's right nor its left", sides)
	}
}
