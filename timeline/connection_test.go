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

// A client's connection stays with its server between two of its
// sessions there, but not across a request that reached no server:
// samples-outage's load balancer shut every connection at 19:09:13.55,
// and a client whose first connection after the outage happened to land
// on its old server kept no connection through it. Mid-outage, no
// client reaches a server over a connection (the API servers' own
// informers, which bypass the balancer, do); in samples-lab, where
// nothing failed, most clients between two of their sessions on one
// process do.
func TestConnectionsDoNotSpanAnOutage(t *testing.T) {
	// With the captures, the clients' failed attempts keep their stints
	// apart; from the audit logs alone, which hold none, the outage the
	// logs show does.
	for _, patterns := range [][]string{{"*.ts.http", "audit-*.log"}, {"audit-*.log"}} {
		a := buildRecording(t, "samples-outage", patterns...).Analyze(realServer())
		os := a.TL.Outages()
		if len(os) == 0 {
			t.Fatalf("%v: the outage recording shows no outage", patterns)
		}
		mid := (os[0].From + os[0].To) / 2
		clients, spanning := 0, 0
		for fi, f := range a.TL.Files {
			if f.Loopback {
				continue
			}
			clients++
			if st := a.reachAt(fi, mid); st.on.server >= 0 {
				spanning++
				t.Errorf("%v: %s reaches server %s over a connection at %s, mid-outage", patterns, f.ShortName(), a.TL.Servers[st.on.server].Name, a.instant(mid))
			}
		}
		if clients < 70 {
			t.Fatalf("%v: %d clients asked, want the outage's fleet", patterns, clients)
		}
		t.Logf("%v: %d clients mid-outage, %d over a connection", patterns, clients, spanning)
	}
	lab := buildRecording(t, "samples-lab", "*.ts.http", "audit-*.log").Analyze(realServer())
	bridged := 0
	for fi := range lab.TL.Files {
		ss := lab.TL.Files[fi].Sessions
		for k := 1; k < len(ss); k++ {
			prev, next := &lab.TL.Sessions[ss[k-1]], &lab.TL.Sessions[ss[k]]
			if prev.Server >= 0 && prev.Server == next.Server && prev.Incarnation == next.Incarnation && next.Start > prev.End+1 {
				if st := lab.reachAt(fi, (prev.End+next.Start)/2); st.on.server == prev.Server {
					bridged++
				}
			}
		}
	}
	t.Logf("%d gaps between two sessions on one process in the lab kept on it", bridged)
	if bridged < 100 {
		t.Errorf("%d gaps of the lab kept on their process, want most of them", bridged)
	}
}
