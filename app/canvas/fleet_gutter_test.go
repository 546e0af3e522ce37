package canvas

import (
	"path/filepath"
	"strings"
	"testing"

	"watchlens/internal/testsample"
	"watchlens/timeline"
)

// TestFleetBandNamesFitAPhone: on a phone's canvas each band's name in
// the gutter that the whole of does not fit has a shorter wording that
// does, which the browser draws instead of cutting the whole
// ("clients sent to r…", "without bookm…"). Chromium's system-ui
// measures these names at 5.2 to 6.9 px a letter (the bold, and ━, the
// widest): gutterRuneW's 6.5 is about their most.
func TestFleetBandNamesFitAPhone(t *testing.T) {
	audits, err := filepath.Glob(filepath.Join(testsample.Recording(t, "samples-outage"), "audit-*.log"))
	if err != nil || len(audits) == 0 {
		t.Fatalf("samples-outage's audit logs: %v, %v", audits, err)
	}
	atRisk := NewFleetData(buildFiles(t, audits).Analyze(timeline.DefaultParams()))
	for _, tc := range []struct {
		name string
		d    *FleetData
	}{{"testdata/fleet", fleetData(t)}, {"samples-outage's audit logs", atRisk}} {
		for _, w := range []float64{375, 390, 414} {
			var fr Frame
			var buf FleetScratch
			v := &FleetViewport{From: tc.d.From, To: tc.d.To, Width: w, MaxHeight: 600, PixelRatio: 1}
			l := tc.d.Build(v, &fr, &buf)
			names := 0
			for _, tx := range fr.Texts {
				if tx.Align != "r" || float64(tx.X) != l.PlotX-8 {
					continue // not a band's name
				}
				names++
				if s := drawnAs(tx); strings.HasSuffix(s, "…") {
					t.Errorf("%s at %v px: the band's name %q is drawn %q in the gutter's %v px (its short form: %q)",
						tc.name, w, tx.Text, s, tx.MaxWidth, tx.Short)
				}
			}
			if names < 5 {
				t.Errorf("%s at %v px: %d bands' names found in the gutter", tc.name, w, names)
			}
		}
	}
}
