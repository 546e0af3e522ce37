package timeline

import (
	"fmt"
	"strings"
	"testing"
)

// TestContradictedVerdicts: samples-lab's captures alone, read as one
// API server's, have 5 reconnects accepted that another server's 410
// had put below its history: the summary says the verdicts contradict
// them, names the first, and says how to give the analysis its several
// servers. Given -servers 3, a 410 refuses no other server's reconnect,
// none is contradicted, and the line is gone.
func TestContradictedVerdicts(t *testing.T) {
	tl := buildRecording(t, "samples-lab", "*.ts.http")
	contradicted := func(a *Analysis) (n int, line string) {
		for _, r := range a.Resumes {
			if r.Contradicts() {
				n++
			}
		}
		for _, l := range a.Summary(nil) {
			if l.Topic == "contradicted" {
				line = l.Text
			}
		}
		return n, line
	}
	n, line := contradicted(tl.Analyze(DefaultParams()))
	// Of every resume of a cursor, the first watch after each LIST too:
	// not the what-if's fewer reconnects.
	want := fmt.Sprintf("The verdicts contradict 5 of the %d resumes recorded (watches from a resourceVersion: the reconnects, and the watch after each LIST): ", len(tl.Analyze(DefaultParams()).Resumes))
	if n != 5 || !strings.HasPrefix(line, want) || !strings.Contains(line, "the server accepted s036-secret-nobookmarks.ts.http's reconnect from RV 330") ||
		!strings.Contains(line, "-servers N") {
		t.Errorf("one server: %d reconnects contradicted; the summary says %q", n, line)
	}
	p := DefaultParams()
	p.Servers = 3
	if n, line := contradicted(tl.Analyze(p)); n != 0 || line != "" {
		t.Errorf("three servers: %d reconnects contradicted; the summary says %q", n, line)
	}
}

// TestLoopbackNotTheQuestion: samples-watchlist's audit logs hold the
// API servers' own informers beside the fleet's 99 clients: the
// reconnects the what-if counts are the fleet's 91 resumes (README), as
// the captures show them, and no summary line speaks of the servers' own.
func TestLoopbackNotTheQuestion(t *testing.T) {
	captured := buildRecording(t, "samples-watchlist", "*.ts.http").Analyze(DefaultParams())
	a := buildRecording(t, "samples-watchlist", "audit-*.log").Analyze(DefaultParams())
	if captured.WhatIf.Reconnects != 91 || a.WhatIf.Reconnects != 91 {
		t.Errorf("reconnects: %d from the captures, %d from the audit logs; want the README's 91", captured.WhatIf.Reconnects, a.WhatIf.Reconnects)
	}
	loopback, summary := 0, a.Summary(nil)
	for _, f := range a.TL.Files {
		if !f.Loopback {
			continue
		}
		loopback++
		for _, l := range summary {
			if strings.Contains(l.Text, f.ShortName()) {
				t.Errorf("the summary speaks of the server's own informer %s: %q", f.ShortName(), l.Text)
			}
		}
	}
	if loopback == 0 {
		t.Error("the audit logs show no API server's own informer")
	}
}
