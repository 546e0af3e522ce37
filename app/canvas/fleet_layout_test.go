package canvas

import "testing"

// TestFleetGutterOnAPhone: on a phone's canvas the clients' names get a
// third of the width, not the timeline's fifth (72 px cut each name of
// samples-fleet to "fleet-c…"), and the plot keeps the rest; on a wide
// canvas the fleet's gutter is the timeline's.
func TestFleetGutterOnAPhone(t *testing.T) {
	for _, w := range []float64{360, 370, 414} {
		l := NewFleetLayout(w, 0, 44)
		if l.PlotX < w/3 || l.PlotX <= gutterFor(w) {
			t.Errorf("at %v px the names have %v px, want a third (%v), more than the timeline's %v", w, l.PlotX, w/3, gutterFor(w))
		}
		if l.PlotW < w/2 {
			t.Errorf("at %v px the plot has %v px, less than half", w, l.PlotW)
		}
	}
	for _, w := range []float64{1024, 1440} {
		if l := NewFleetLayout(w, 0, 44); l.PlotX != gutterFor(w) {
			t.Errorf("at %v px the fleet's gutter is %v px, the timeline's %v", w, l.PlotX, gutterFor(w))
		}
	}
}
