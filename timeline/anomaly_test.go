package timeline

import (
	"testing"
	"time"

	"watchlens/parser"
)

// TestAnomaliesCappedPerKind: a capture of one event repeated keeps
// maxAnomaliesPerKind "repeated" anomalies and counts them all.
func TestAnomaliesCappedPerKind(t *testing.T) {
	const n = 3 * maxAnomaliesPerKind
	c := (&capture{}).watch(req("1", false), 0, time.Hour)
	for i := 0; i < n; i++ {
		c.ev(parser.Modified, 5, time.Duration(i)*time.Millisecond, "a")
	}
	c.ev(parser.Modified, 4, time.Hour-time.Second, "b") // one rv-backwards
	tl := build(c)
	kept := map[string]int{}
	for _, a := range tl.Anomalies {
		kept[a.Kind]++
	}
	if kept["repeated"] != maxAnomaliesPerKind || kept["rv-backwards"] != 1 {
		t.Errorf("kept %v, want %d repeated and 1 rv-backwards", kept, maxAnomaliesPerKind)
	}
	if got := tl.AnomalyCounts; got["repeated"] != n-1 || got["rv-backwards"] != 1 || len(got) != 2 {
		t.Errorf("AnomalyCounts = %v, want repeated %d, rv-backwards 1", got, n-1)
	}
}

// TestNoBookmarkSilenceOfAHealthyServer: the watches of samples-outage
// and samples-lab, served by healthy kube-apiservers v1.37, went up to
// 78 s between bookmarks, and none is told as a silence (samples-lab's
// protobuf clients seemed to go two minutes without one, where their
// captures stamp each bookmark's last bytes with the next: LateStamp); a
// watch that went two minutes without one is.
func TestNoBookmarkSilenceOfAHealthyServer(t *testing.T) {
	silences := func(tl *Timeline) (n int, longest time.Duration) {
		for _, a := range tl.Anomalies {
			if a.Kind == "no-bookmarks" {
				n++
			}
		}
		for _, s := range tl.Sessions {
			if s.Request != nil && s.Request.AllowWatchBookmarks && tl.Files[s.File].Clock == ClockArrival {
				from := s.Start
				for i := s.firstEv; i >= 0 && i <= s.lastEv; i++ {
					if parser.EventType(tl.tab.typ.at(i)) == parser.Bookmark {
						longest = max(longest, time.Duration(tl.tab.t.at(i)-from))
						from = tl.tab.t.at(i)
					}
				}
			}
		}
		return n, longest
	}
	n, longest := silences(buildRecording(t, "samples-outage", "*.ts.http"))
	if n > 0 || longest < 75*time.Second {
		t.Errorf("samples-outage: %d watches told silent, the longest time between bookmarks %v (want none told, and a gap past 75 s to tell apart)", n, longest)
	}
	if n, longest := silences(buildRecording(t, "samples-lab", "*.ts.http")); n > 0 || longest < time.Minute {
		t.Errorf("samples-lab: %d watches told silent, the longest time between bookmarks %v", n, longest)
	}
	c := (&capture{}).watch(req("1", true), 0, 5*time.Minute).bookmark(2, time.Minute).bookmark(3, 3*time.Minute).bookmark(4, 4*time.Minute)
	if n, _ := silences(build(c)); n != 1 {
		t.Errorf("a watch with bookmarks at 1, 3 and 4 minutes: %d silences told, want the one from 1 to 3", n)
	}
}
