package canvas

import (
	"strings"
	"testing"

	"watchlens/timeline"
)

// recordingFleet is the fleet of the files of recording name that match
// patterns, read as the page reads dropped files (recordingTimeline).
func recordingFleet(t *testing.T, name string, patterns ...string) *FleetData {
	t.Helper()
	d := NewFleetData(recordingTimeline(t, name, patterns...).Analyze(timeline.DefaultParams()))
	if d == nil {
		t.Fatalf("%s %v: no fleet", name, patterns)
	}
	return d
}

// TestFleetShowsTheOutage: samples-outage's fleet view marks the 150 s
// when no client reached a server, named over the curves, and pointing
// into it says so, with what the records make of it: from the captures
// alone a restart of every server or the way to them cut; with the
// servers' logs, the way cut. No API server restart is drawn: the view
// used to mark the outage's start as one.
func TestFleetShowsTheOutage(t *testing.T) {
	for _, c := range []struct {
		name     string
		patterns []string
		why      string
	}{
		{"captures", []string{"*.ts.http"}, "every API server restarting, or the way to them cut"},
		{"captures and server logs", []string{"*.ts.http", "apiserver-*.log"}, "API servers a, b and c were up meanwhile"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := recordingFleet(t, "samples-outage", c.patterns...)
			if len(d.Outages) != 1 {
				t.Fatalf("outages %+v, want the load balancer's one", d.Outages)
			}
			o := d.Outages[0]
			var fr Frame
			var buf FleetScratch
			v := &FleetViewport{From: d.From, To: d.To, Width: 1280, MaxHeight: 500, PixelRatio: 1}
			l := d.Build(v, &fr, &buf)
			var names []string
			for _, rl := range l.RestartLabels {
				names = append(names, rl.Text)
			}
			if len(names) != 1 || names[0] != "no server reached" {
				t.Errorf("the marks over the curves are named %q, want the outage's alone", names)
			}
			s := v.Scale(&l)
			x := s.X((o.From + o.To) / 2)
			h := d.HitTest(v, &l, x, l.CurvesY+10)
			if !strings.Contains(h.Text, "No server reached: no request of the captured clients reached a server from") ||
				!strings.Contains(h.Text, c.why) || !strings.Contains(h.Text, "Commonest error: dial tcp 127.0.0.1:17600: connect: connection refused") {
				t.Errorf("pointing into the outage says %q, want it named, %q, and its error", h.Text, c.why)
			}
			if strings.Contains(h.Text, "restart:") {
				t.Errorf("pointing into the outage tells a restart: %q", h.Text)
			}
		})
	}
}
