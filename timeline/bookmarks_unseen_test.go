package timeline

import (
	"strings"
	"testing"
	"time"
)

// TestBookmarksTheRecordsCannotShow: the lab's informers' klog, alone,
// shows neither the bookmarks they asked for nor those they received, so
// the fleet's headline says what bookmarks would have saved is not known
// (it said "bookmarks save 0 %", where half the fleet asked and none of
// those relisted), and every reconnect's with-bookmarks side is not
// judged. samples-outage's audit logs show each watch's request: the
// bookmarks line says they asked, and not that they got none.
func TestBookmarksTheRecordsCannotShow(t *testing.T) {
	a := buildRecording(t, "samples-lab", "fleet-klog.log").Analyze(realServer())
	summary := ""
	for _, l := range a.Summary(nil) {
		summary += l.Text + "\n"
	}
	if !strings.Contains(summary, "what bookmarks would have saved is not known") || strings.Contains(summary, "bookmarks save") {
		t.Errorf("the klog's summary:\n%s", summary)
	}
	fl := a.Fleet()
	if fl == nil || fl.RelistsObserved != 81 {
		t.Fatalf("the klog's fleet: %+v, want its 81 relists", fl)
	}
	for _, c := range fl.Clients {
		if c.RelistsWith != 0 || c.UnknownWith != c.Reconnects || c.RelistsWithout != len(c.Relists) {
			t.Errorf("%s: %d relists with bookmarks, %d not judged of %d reconnects, %d without (%d seen)",
				c.Name, c.RelistsWith, c.UnknownWith, c.Reconnects, c.RelistsWithout, len(c.Relists))
		}
	}

	a = buildRecording(t, "samples-outage", "audit-*.log").Analyze(realServer())
	lines := 0
	for _, l := range a.Summary(nil) {
		if l.Topic != "bookmarks" {
			continue
		}
		lines++
		if !strings.Contains(l.Text, "asked for bookmarks (an audit log shows the requests, not the bookmarks received") || !strings.Contains(l.Text, "its cursor, the head its last bookmark carried, is not known") ||
			strings.Contains(l.Text, "got none") || strings.Contains(l.Text, "every watch long enough for one received") {
			t.Errorf("the audit logs' bookmarks line: %q", l.Text)
		}
	}
	if lines == 0 {
		t.Error("the audit logs' summary has no bookmarks line")
	}
}

// TestUnsyncedFromLogsCountNoObjects: samples-watchlist's audit logs
// alone show its 48 informers that never synced and how often they asked
// again, not what they read: the line said "0 objects, 0 B", where the
// captures count 135. It says the logs do not show them.
func TestUnsyncedFromLogsCountNoObjects(t *testing.T) {
	a := buildRecording(t, "samples-watchlist", "audit-*.log").Analyze(realServer())
	line := summaryTopic(a, "unsynced")
	if !strings.HasPrefix(line, "48 clients") || !strings.Contains(line, "the logs do not show the objects they read") || strings.Contains(line, "0 objects") {
		t.Errorf("the unsynced line: %q", line)
	}
}

// TestNoGoneAndNothingJudged: samples-watchlist's informers' klog, alone,
// shows no 410 and names no cursor its 91 reconnects resumed from:
// none of them is judged, and the summary says so, not that none would
// have been refused. Its captures judge them: none refused with the
// bookmarks received, which the line says with no "but".
func TestNoGoneAndNothingJudged(t *testing.T) {
	captured := buildRecording(t, "samples-watchlist", "*.ts.http").Analyze(realServer())
	if line := summaryTopic(captured, "observed"); captured.WhatIf.RelistsWith != 0 ||
		!strings.HasPrefix(line, "No 410 was observed, and of the 91 reconnects recorded, none would have been refused with the clients' bookmarks; without them") {
		t.Errorf("the captures' what-if %+v; the summary says %q", captured.WhatIf, line)
	}

	a := buildRecording(t, "samples-watchlist", "fleet-klog.log").Analyze(realServer())
	w := a.WhatIf
	if w.Reconnects != 91 || w.UnknownWith != 91 || w.UnknownWithout != 91 {
		t.Fatalf("the what-if: %+v, want the 91 reconnects, none judged", w)
	}
	line := summaryTopic(a, "observed")
	if !strings.HasPrefix(line, "No 410 was observed, but none of the 91 reconnects recorded could be judged: cursor not known") || strings.Contains(line, "would have been refused") {
		t.Errorf("the summary says %q", line)
	}
	// The restarts it suggests are told as the logs date the clients'
	// reconnects, not as sends.
	if restart := summaryTopic(a, "restart"); !strings.Contains(restart, "and the first reconnect a server answered, as the clients' logs date it, was at 2026-12-01 18:46:46.418 UTC") || strings.Contains(restart, "sent at") {
		t.Errorf("the restart line says %q", restart)
	}
}

// TestNoGoneButWithoutBookmarks: w3-then-resume's one reconnect, read as
// from a server with no watch cache whose etcd compacts every 2 minutes,
// is accepted with its bookmarks and refused without them: the line
// sets the two apart with a "but".
func TestNoGoneButWithoutBookmarks(t *testing.T) {
	p := DefaultParams()
	p.WatchCache, p.EtcdInterval = false, 2*time.Minute
	a := buildRecording(t, "samples-real", "w3-then-resume.ts.http").Analyze(p)
	if w := a.WhatIf; w.Reconnects != 1 || w.RelistsWith != 0 || w.RelistsWithout != 1 {
		t.Fatalf("the what-if %+v, want its reconnect refused without bookmarks alone", w)
	}
	want := "No 410 was observed, and of the 1 reconnect recorded, none would have been refused with the client's bookmarks, but 1 would have been without them."
	if line := summaryTopic(a, "observed"); !strings.Contains(line, want) {
		t.Errorf("the summary says %q, want %q", line, want)
	}
}

// TestNoGoneOneAtRisk: samples-fleet's c26 did not ask for bookmarks,
// and its one reconnect came with a cursor past what the server is sure
// to keep: the line says it was at risk, not that it would not have been
// refused.
func TestNoGoneOneAtRisk(t *testing.T) {
	a := buildRecording(t, "samples-fleet", "c26-nobookmarks.ts.http").Analyze(DefaultParams())
	if w := a.WhatIf; w.Reconnects != 1 || w.AtRiskWith != 1 || w.RelistsWith+w.RelistsWithout != 0 {
		t.Fatalf("the what-if %+v, want its one reconnect at risk", w)
	}
	want := "No 410 was observed, and the one reconnect recorded was at risk of a 410: the records cannot tell whether it would have been refused."
	if line := summaryTopic(a, "observed"); !strings.Contains(line, want) {
		t.Errorf("the summary says %q, want %q", line, want)
	}
}
