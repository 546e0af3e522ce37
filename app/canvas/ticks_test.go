package canvas

import (
	"testing"
	"time"
)

func TestTicksAreRoundAndApart(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 0, 54, 23, 779_301_650, time.UTC).UnixNano()
	for _, span := range []time.Duration{time.Microsecond * 37, 3 * time.Millisecond, 2 * time.Second, 17 * time.Minute, 5 * time.Hour, 40 * 24 * time.Hour} {
		s := Scale{From: t0, To: t0 + int64(span), X0: 176, Width: 1092}
		ticks := timeTicks(s, nil)
		if len(ticks) < 2 || len(ticks) > int(s.Width/minTickPx)+1 {
			t.Errorf("span %v: %d ticks", span, len(ticks))
			continue
		}
		step := ticks[1].Value - ticks[0].Value
		if float64(step)*s.Width/float64(span) < minTickPx {
			t.Errorf("span %v: ticks %v apart are closer than %v px", span, time.Duration(step), minTickPx)
		}
		for i, tk := range ticks {
			if tk.Value%step != 0 || tk.Value < s.From || tk.Value >= s.To || i > 0 && tk.Value-ticks[i-1].Value != step {
				t.Errorf("span %v: tick %d at %d is not on the %v grid", span, i, tk.Value, time.Duration(step))
			}
			if i > 0 && tk.Label == ticks[i-1].Label {
				t.Errorf("span %v: two ticks labelled %q", span, tk.Label)
			}
		}
	}
	if got := timeTicks(Scale{From: t0, To: t0 + int64(10*time.Minute), X0: 0, Width: 1000}, nil); got[0].Label != "00:55" {
		t.Errorf("a 10 minute view starts with %q, want 00:55", got[0].Label)
	}
	n := numberTicks(Scale{From: 389, To: 1412, X0: 0, Width: 1000})
	if n[0].Value != 400 || n[1].Value-n[0].Value != 100 || n[0].Label != "400" {
		t.Errorf("RV ticks %v", n)
	}
}

// TestTickLabelsClearTheZone: zoomed in to seconds, a tick a few px right
// of the plot's left end has no label, whose left half would run over
// the zone's name written left of the plot; its grid line is drawn, and
// the next tick's label is.
func TestTickLabelsClearTheZone(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 12, 0, 3, 0, time.UTC).UnixNano()
	for _, span := range []time.Duration{4 * time.Second, 400 * time.Millisecond, 40 * time.Minute} {
		// The first tick 2 px right of the plot's left end.
		s := Scale{From: t0 - int64(span)/500, To: t0 - int64(span)/500 + int64(span), X0: 176, Width: 1000}
		ticks := timeTicks(s, nil)
		var fr Frame
		segs := fr.drawTicks(ticks, s, s.X0+s.Width+rightPad, 300, nil)
		if len(segs) != 4*len(ticks) {
			t.Fatalf("span %v: %d grid lines for %d ticks", span, len(segs)/4, len(ticks))
		}
		if len(fr.Texts) != len(ticks)-1 || fr.Texts[0].Text != ticks[1].Label {
			t.Errorf("span %v: ticks %v labelled %v, want all but the first", span, ticks, fr.Texts)
		}
		for _, tx := range fr.Texts {
			if left := float64(tx.X) - tickLabelWidth(tx.Text)/2; left < s.X0 {
				t.Errorf("span %v: %q starts at %.1f, left of the plot at %v", span, tx.Text, left, s.X0)
			}
		}
	}
}

// TestTickLabelsStayInTheCanvas: whatever the range, a tick label of the
// fleet view or of the timeline lies whole in the canvas, right of the
// plot's left end and left of the canvas's right edge, past which the
// canvas would cut a label centred on a tick near the plot's right end
// to its first digits. Its tick's grid line is still drawn.
func TestTickLabelsStayInTheCanvas(t *testing.T) {
	d := fleetData(t)
	tl, an := sampleTimeline(t, "w4-then-resume.ts.http")
	c := NewCache(tl)
	var fr Frame
	var buf FleetScratch
	// checked counts the labels looked at, and near the ticks whose
	// labels, centred on them, would reach past the canvas's right edge.
	checked, near := 0, 0
	check := func(view string, width float64, s Scale) {
		t.Helper()
		for _, tx := range fr.Texts {
			if tx.Y != axisH/2-2 || tx.Align != "c" {
				continue
			}
			checked++
			half := tickLabelWidth(tx.Text) / 2
			if x := float64(tx.X); x-half < s.X0 || x+half > fr.Width {
				t.Errorf("%s at %v px, %s-%s: the tick label %q spans [%.1f, %.1f], out of [%v, %v]",
					view, width, clock(s.From, nil), clock(s.To, nil), tx.Text, x-half, x+half, s.X0, fr.Width)
			}
		}
		for _, tk := range timeTicks(s, nil) {
			if x := s.X(tk.Value); x+tickLabelWidth(tk.Label)/2 > fr.Width {
				near++
			}
		}
	}
	for _, width := range []float64{390, 800, 1440} {
		// The view slides a pixel at a time: a tick comes to every
		// place near the plot's right end.
		span := (d.To - d.From) / 3
		for k := range 120 {
			from := d.From + int64(k)*span/int64(width)
			v := &FleetViewport{From: from, To: from + span, Width: width, MaxHeight: 500, PixelRatio: 1}
			l := d.Build(v, &fr, &buf)
			check("the fleet", width, v.Scale(&l))
		}
		slideTimeline(tl, an, c, width, 120, &fr, func(v *View, layout *Layout) {
			check("the timeline", width, v.PlotScale(layout))
		})
	}
	if checked == 0 || near == 0 {
		t.Fatalf("%d tick labels checked, %d ticks near the canvas's right edge: the test tests nothing", checked, near)
	}
}
