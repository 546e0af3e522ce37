package timeline

import (
	"strings"
	"testing"
)

// TestMetricsOnlyTellTheRestarts: the lab's Prometheus exports alone
// judge no reconnect, but show each server's new process: the summary
// says when each started, as the metrics section lists them, where it
// said only "no watch or request to judge" of a recording of three
// restarts.
func TestMetricsOnlyTellTheRestarts(t *testing.T) {
	a := buildRecording(t, "samples-lab", "prometheus/query_range/*.json.gz").Analyze(realServer())
	lines := a.Summary(nil)
	if len(lines) == 0 || lines[0].Topic != "metrics" {
		t.Fatalf("summary %+v, want the metrics line first", lines)
	}
	for _, srv := range a.TL.Metrics.Servers {
		rs := a.TL.Metrics.Restarts(srv)
		if len(rs) != 1 {
			t.Fatalf("server %s restarts %v, want the lab's one", srv, rs)
		}
		// To the second: the start time is good to about one.
		if want := srv + "'s "; !strings.Contains(lines[0].Text, want) || !strings.Contains(lines[0].Text, "at about "+FormatSecond(rs[0], nil)) {
			t.Errorf("the metrics line %q does not tell %s's restart at about %s", lines[0].Text, srv, FormatSecond(rs[0], nil))
		}
	}
}
