package report

import (
	"bytes"
	"strings"
	"testing"
)

// No stampede of the report reads as ending before it begins: the lab's
// audit logs have one of a nanosecond, whose start the table rounds up
// to the millisecond and whose end it rounded down.
func TestStampedesEndAfterTheyBegin(t *testing.T) {
	r := New(loadRecording(t, "samples-lab", "audit-*.log", "prometheus/query_range/*.json.gz", "fleet-klog.log").Analyze(realServer()), nil)
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(md.String(), "## Stampedes (")
	table, _, _ = strings.Cut(table, "\n## ")
	rows, within := 0, 0
	for _, ln := range strings.Split(table, "\n") {
		cells := strings.Split(ln, " | ")
		if !strings.HasPrefix(ln, "| 20") || len(cells) < 2 {
			continue
		}
		rows++
		from, to := strings.TrimSuffix(strings.TrimPrefix(cells[0], "| "), " (worst)"), cells[1]
		if to < from {
			t.Errorf("a stampede ends before it begins: %s", ln)
		}
		if to == from {
			within++
		}
	}
	if rows == 0 || within == 0 {
		t.Errorf("%d stampedes, %d within a millisecond: the test misses one", rows, within)
	}
}
