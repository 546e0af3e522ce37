package timeline

import (
	"strings"
	"testing"
	"time"
)

// TestAuditBookmarksPlacedAsSent: the lab's audit logs and Prometheus
// exports, without a capture. A client whose watches asked for bookmarks
// got them, a minute apart, at the head the metrics show; its cursor was
// the RV of its last request only in the log. Before, c000-bookmarks's
// reconnect late in the recording was refused ('every API server would
// refuse it') and the worst moment sent 83 clients to relist with
// bookmarks, where the captures count 1 (SUMMARY.txt: bookmark-aware
// 224 ok, 0 x 410).
func TestAuditBookmarksPlacedAsSent(t *testing.T) {
	a := buildRecording(t, "samples-lab", "audit-*.log", "prometheus/query_range/*.json.gz").Analyze(realServer())
	fl := a.Fleet()
	if fl == nil || fl.Worst < 0 {
		t.Fatal("no fleet or no worst moment")
	}
	if w := fl.Stampedes[fl.Worst]; w.With > 5 || w.Without < 100 {
		t.Errorf("the worst moment sends %d clients to relist with bookmarks and %d without; the captures count 1 and 145", w.With, w.Without)
	}
	at := time.Date(2026, 12, 1, 18, 21, 0, 0, time.UTC).UnixNano()
	judged := 0
	for fi := range a.TL.Files {
		f := &a.TL.Files[fi]
		if !f.Audit || f.Loopback || !strings.Contains(f.Client, "-bookmarks/") {
			continue
		}
		for _, v := range a.ResumeAt(fi, at) {
			if v.Kind != BookmarkAware {
				continue
			}
			if v.Outcome == Refused {
				t.Errorf("%s at 18:21 with the bookmarks it asked for: %s, %q", f.Client, v.Outcome, v.Reason)
			}
			if v.Outcome != Unknown {
				judged++
			}
		}
	}
	if judged < 50 {
		t.Errorf("%d reconnects of the clients that asked for bookmarks judged at 18:21, want most of the 100", judged)
	}
}
