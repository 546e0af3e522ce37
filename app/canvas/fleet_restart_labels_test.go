package canvas

import (
	"strings"
	"testing"
)

// overlapping is a pair of the labels whose boxes (their room, W wide,
// and a line high) overlap, or -1s.
func overlapping(labels []RestartLabel) (int, int) {
	for i, a := range labels {
		for j, b := range labels[i+1:] {
			apart := a.X+a.W+restartLabelGap/2 <= b.X || b.X+b.W+restartLabelGap/2 <= a.X ||
				a.Y+restartLabelLineH/2 <= b.Y-restartLabelLineH/2 || b.Y+restartLabelLineH/2 <= a.Y-restartLabelLineH/2
			if !apart {
				return i, i + 1 + j
			}
		}
	}
	return -1, -1
}

// On the recording's rolling restart, at a phone's width and a desktop's,
// whole and zoomed in, the restarts' names never overlap and stay in the
// plot; on a desktop each restart is named, and on a phone at least one.
// At a phone's width the two restarts are about 70 px apart, less than
// a label: the labels used to be written over each other.
func TestFleetRestartLabelsNeverOverlap(t *testing.T) {
	d := fleetData(t)
	if len(d.Restarts) < 2 {
		t.Fatalf("the recording shows %d restarts", len(d.Restarts))
	}
	var fr Frame
	var buf FleetScratch
	for _, w := range []float64{320, 390, 522, 1440} {
		for _, zoom := range []int64{1, 4} {
			span := (d.To - d.From) / zoom
			from := d.Restarts[0].Window().From - span/10
			if zoom == 1 {
				from = d.From
			}
			v := &FleetViewport{From: from, To: from + span, Width: w, MaxHeight: 500, PixelRatio: 1}
			l := d.Build(v, &fr, &buf)
			s := v.Scale(&l)
			inView := 0
			for _, r := range d.Restarts {
				if rw := r.Window(); rw.From >= s.From && rw.From <= s.To {
					inView++
				}
			}
			labels := l.RestartLabels
			t.Logf("%v px, 1/%d of the range: %d restarts in view, %d named %+v", w, zoom, inView, len(labels), labels)
			if i, j := overlapping(labels); i >= 0 {
				t.Errorf("at %v px, 1/%d of the range, the restart labels %+v and %+v overlap", w, zoom, labels[i], labels[j])
			}
			for _, rl := range labels {
				if rl.X < l.PlotX || rl.X+rl.W > l.PlotX+l.PlotW+0.01 || rl.W < restartShortW {
					t.Errorf("at %v px the restart label %+v is not in the plot [%v, %v] with room for %q", w, rl, l.PlotX, l.PlotX+l.PlotW, rl.Short)
				}
			}
			switch {
			case w >= 1280 && len(labels) != inView:
				t.Errorf("at %v px, 1/%d of the range, %d of the %d restarts in view are named", w, zoom, len(labels), inView)
			case inView > 0 && len(labels) == 0:
				t.Errorf("at %v px, 1/%d of the range, none of the %d restarts in view is named", w, zoom, inView)
			}
			drawn := 0
			for _, tx := range fr.Texts {
				if strings.HasSuffix(tx.Text, " restart") {
					drawn++
					want := "restart"
					if tx.Text == "probable restart" {
						want = "probable"
					}
					if tx.Box == "" || tx.MaxWidth <= 0 || tx.Short != want {
						t.Errorf("the restart label %+v is not cut to its room on a box", tx)
					}
				}
			}
			if drawn != len(labels) {
				t.Errorf("at %v px the frame writes %d restart labels, its layout places %d", w, drawn, len(labels))
			}
		}
	}
}

// Restarts a few pixels apart (a long range on a phone) take the three
// lines, and those with no room left on any are not named.
func TestRestartLabelsOfCloseRestarts(t *testing.T) {
	var marks []stretchMark
	for _, x := range []float64{200, 100, 105, 110, 115, 120, 300, 380} {
		marks = append(marks, stretchMark{x, "API server restart", "restart"})
	}
	labels := layoutRestartLabels(marks, 30, 400, nil)
	if i, j := overlapping(labels); i >= 0 {
		t.Fatalf("%+v and %+v overlap", labels[i], labels[j])
	}
	lines := map[float64]int{}
	for _, rl := range labels {
		lines[rl.Y]++
	}
	// 100, 105 and 110 on the three lines; 115, 120 and 200 find none
	// free; 300 on the first again; and 380 has 16 px to the plot's end,
	// too few for "restart".
	if len(labels) != 4 || len(lines) != restartLabelLines || labels[3].X != 304 || labels[3].Y != labels[0].Y {
		t.Errorf("%d labels on %d lines: %+v", len(labels), len(lines), labels)
	}
}
