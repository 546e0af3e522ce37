package timeline

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The fleet's captures and audit logs: where a client's connection says
// which server a reconnect reaches, its calibration zones are that
// server's own 410s' (c10-c19's were only at risk when the server was
// not known), and no refused zone covers a resume the server accepted.
func TestFleetZonesOnTheConnectionsServer(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join(fleetDir, "*.ts.http"))
	for k := range names {
		names[k] = filepath.Base(names[k])
	}
	a := buildFleetFiles(t, append(names, fleetAuditLogs...)...).Analyze(realServer())
	tl := a.TL
	if len(tl.Servers) != 2 {
		t.Fatalf("%d servers, want a and b", len(tl.Servers))
	}
	calibrated := map[string]int{}
	for _, z := range a.Zones {
		name := tl.Files[z.File].Name
		if z.Model != ModelCalibration || name < "c10" || name >= "c20" {
			continue
		}
		switch why := a.ZoneReason(z); {
		case strings.Contains(why, "'s own 410 at "):
			calibrated[name]++
		case !strings.Contains(why, "each of the 2 servers had answered"):
			t.Errorf("%s's refused calibration zone from %s: %q is neither its server's own 410 nor every server's", name, FormatClock(z.From, time.UTC), why)
		}
	}
	t.Logf("refused calibration zones of c10-c19 by their server's own 410: %v", calibrated)
	if len(calibrated) < 5 {
		t.Errorf("%d of c10-c19 have a calibration zone refused by their server's own 410, want most", len(calibrated))
	}
	// No refused zone where the server accepted.
	d := int64(a.Params.Delay)
	accepted := 0
	for _, r := range a.Resumes {
		if r.Observed != Accepted {
			continue
		}
		s := &tl.Sessions[r.Session]
		accepted++
		for _, z := range a.Zones {
			if z.File == s.File && z.Kind == BookmarkAware && z.From <= s.Start-d && s.Start-d < z.To {
				t.Errorf("%s's resume from RV %s at %s was accepted by %s, inside a refused zone (%v): %s",
					tl.Files[s.File].Name, r.RV, FormatClock(s.Start, time.UTC), serverOf(tl, r.Session), z.Model, a.ZoneReason(z))
			}
		}
	}
	if accepted < 100 {
		t.Errorf("%d accepted resumes checked, want the fleet's", accepted)
	}
}
