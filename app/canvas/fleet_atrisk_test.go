package canvas

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"watchlens/internal/testsample"
	"watchlens/timeline"
)

// samples-outage's audit logs alone cannot say whether the server still
// had the clients' cursors: nobody is refused, so the refused curves are
// flat at 0, and the dashed at-risk curve is what shows the clients
// that might relist, its peak the model's, its count in the hover.
func TestFleetDrawsTheAtRiskCurve(t *testing.T) {
	audits, err := filepath.Glob(filepath.Join(testsample.Recording(t, "samples-outage"), "audit-*.log"))
	if err != nil || len(audits) == 0 {
		t.Fatalf("samples-outage's audit logs: %v, %v", audits, err)
	}
	d := NewFleetData(buildFiles(t, audits).Analyze(timeline.DefaultParams()))
	if d == nil {
		t.Fatal("no fleet")
	}
	want, at := 0, int64(0)
	for _, s := range d.Fleet.Steps {
		if s.AtRiskWithout > want {
			want, at = s.AtRiskWithout, s.T
		}
	}
	if want == 0 {
		t.Fatal("the model puts no client at risk without bookmarks")
	}
	var fr Frame
	var buf FleetScratch
	v := &FleetViewport{From: d.From, To: d.To, Width: 1280, MaxHeight: 800, PixelRatio: 1}
	l := d.Build(v, &fr, &buf)
	top := max(d.MaxWith, d.MaxWithout, d.MaxAtRiskWith, d.MaxAtRiskWithout)
	y0, h := l.CurvesY+fleetCurvesH-4, fleetCurvesH-18
	drawn, found := 0, false
	for _, op := range fr.Ops {
		if op.Kind != "seg" || !op.Dashed || op.Color != ColorIgnoring {
			continue
		}
		found = true
		for i := 1; i < op.Count; i += 2 {
			y := float64(fr.floats[op.Offset+i]) - 0.5
			drawn = max(drawn, int((y0-y)*float64(top)/h+0.5))
		}
	}
	if !found || drawn != want {
		t.Errorf("the dashed curve without bookmarks peaks at %d (drawn: %v), want the model's %d", drawn, found, want)
	}
	x := v.Scale(&l).X(at) + 0.5
	hit := d.HitTest(v, &l, x, l.CurvesY+fleetCurvesH/2)
	if w := "might be"; !strings.Contains(hit.Text, w) || !strings.Contains(hit.Text, strconv.Itoa(want)+" might be") {
		t.Errorf("the hover over the curves at the peak says %q, want %d that might relist", hit.Text, want)
	}
}
