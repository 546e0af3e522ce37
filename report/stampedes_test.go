package report

import (
	"bytes"
	"strings"
	"testing"
)

// No stampede row of the report reads as ending before it begins, nor
// two rows as beginning at one instant: the lab's audit logs have a
// stampede of one nanosecond within a millisecond, which the table, whose
// starts are rounded up to the millisecond, leaves out (the JSON keeps
// it).
func TestStampedesEndAfterTheyBegin(t *testing.T) {
	r := New(loadRecording(t, "samples-lab", "audit-*.log", "prometheus/query_range/*.json.gz", "fleet-klog.log").Analyze(realServer()), nil)
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(md.String(), "## Stampedes (")
	table, _, _ = strings.Cut(table, "\n## ")
	starts := map[string]bool{}
	for _, ln := range strings.Split(table, "\n") {
		cells := strings.Split(ln, " | ")
		if !strings.HasPrefix(ln, "| 20") || len(cells) < 2 {
			continue
		}
		from, to := strings.TrimSuffix(strings.TrimPrefix(cells[0], "| "), " (worst)"), cells[1]
		if to < from || starts[from] {
			t.Errorf("a stampede ends before it begins, or begins with another: %s", ln)
		}
		starts[from] = true
	}
	within := 0
	for _, s := range r.Fleet.Stampedes {
		if s.withinMillisecond {
			within++
		}
	}
	if len(starts) == 0 || within == 0 || len(starts) != len(r.Fleet.Stampedes)-within {
		t.Errorf("%d rows, %d of the %d stampedes within a millisecond: the test misses one", len(starts), within, len(r.Fleet.Stampedes))
	}
}
