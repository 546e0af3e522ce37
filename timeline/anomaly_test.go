package timeline

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"watchlens/parser"
)

// TestAnomaliesCappedPerKind: a capture of one event repeated keeps
// maxAnomaliesPerKind "repeated" anomalies, counts them all, and the
// reports say how many more there were.
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
	rep := BuildReport(tl, DefaultParams())
	if got := rep.AnomalyCounts; got["repeated"] != n-1 || got["rv-backwards"] != 1 || len(got) != 2 {
		t.Errorf("anomalyCounts = %v, want repeated %d, rv-backwards 1", got, n-1)
	}
	var text, md, js bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	more := "and 1999 more \"repeated\" anomalies"
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
		if !strings.Contains(out, more) {
			t.Errorf("the %s report does not say %q", name, more)
		}
		if strings.Contains(out, "more \"rv-backwards\"") {
			t.Errorf("the %s report says more rv-backwards anomalies were left out", name)
		}
	}
	if !strings.Contains(js.String(), `"anomalyCounts": {`) {
		t.Errorf("the JSON report has no anomalyCounts")
	}
}
