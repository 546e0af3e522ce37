package canvas

import (
	"strings"
	"testing"

	"watchlens/parser"
	"watchlens/timeline"
)

// TestFormatShownStaysOnTheCapture: the summary's range names the first
// and the last event ordinal or resourceVersion the view holds, never an
// ordinal before the capture's first event or past its last, which the
// view's margins reach. The capture is what `kubectl get -w -o json`
// prints, which leaves out managedFields: no event has a time, so the
// timeline's instants are the events' ordinals (no sample is so).
func TestFormatShownStaysOnTheCapture(t *testing.T) {
	var capture strings.Builder
	for i, typ := range []string{"ADDED", "MODIFIED", "MODIFIED", "DELETED"} {
		capture.WriteString(`{"type":"` + typ + `","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"leader","namespace":"default","uid":"6f1c2d7e-0b4a-4a53-9d8e-2f1e0c9b7a61","resourceVersion":"` +
			string(rune('5'+i)) + `"},"data":{"holder":"a"}}}` + "\n")
	}
	b := timeline.NewBuilder()
	if err := b.AddReader("kubectl-get-w.json", strings.NewReader(capture.String()), parser.Options{}); err != nil {
		t.Fatal(err)
	}
	c := NewCache(b.Build())
	if !c.NoClock() {
		t.Fatal("a capture without times has a clock: the test tests nothing of ordinals")
	}
	if c.timeLo >= 0 || c.timeHi <= 4 {
		t.Fatalf("the whole view [#%d, #%d) has no margins: the test tests nothing", c.timeLo, c.timeHi)
	}
	if from, to := c.FormatShown(false, c.timeLo, c.timeHi); from != "#0" || to != "#3" {
		t.Errorf("the whole view [#%d, #%d) is shown as %s to %s, want #0 to #3", c.timeLo, c.timeHi, from, to)
	}
	if from, to := c.FormatShown(false, 1, 3); from != "#1" || to != "#2" {
		t.Errorf("the view [#1, #3) is shown as %s to %s, want #1 to #2", from, to)
	}
	if from, to := c.FormatShown(true, -40, 1430); from != "RV 0" || to != "RV 1429" {
		t.Errorf("RVs [-40, 1430) are shown as %s to %s, want RV 0 to RV 1429", from, to)
	}
}
