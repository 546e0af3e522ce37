package report

import (
	"bytes"
	"strings"
	"testing"
)

// No stampede row of the report reads as ending before it begins, nor
// two rows as beginning at one instant: the lab's audit logs have
// stretches of counts within a millisecond (one of a nanosecond), which
// the table, whose starts are rounded up to the millisecond, could not
// tell apart; they are no stampede (timeline's stampedes), and every
// stampede is a row.
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
	if len(starts) < 2 || len(starts) != len(r.Fleet.Stampedes) {
		t.Errorf("%d rows of %d stampedes", len(starts), len(r.Fleet.Stampedes))
	}
}
