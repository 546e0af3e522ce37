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
