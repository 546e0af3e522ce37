package synth

import (
	"bytes"
	"testing"

	"watchlens/parser"
	"watchlens/timeline"
)

// TestCaptureIsClean holds the generator to what the benchmarks assume: a
// capture the parser reads without a diagnostic and the timeline without an
// anomaly, of the size asked.
func TestCaptureIsClean(t *testing.T) {
	data := Capture(100 << 20)
	if len(data) < 100<<20 {
		t.Fatalf("%d bytes, want at least %d", len(data), 100<<20)
	}
	b := timeline.NewBuilder()
	if err := b.AddReader("synth", bytes.NewReader(data), parser.Options{}); err != nil {
		t.Fatal(err)
	}
	tl := b.Build()
	f := tl.Files[0]
	if len(f.Diagnostics) != 0 || len(tl.Anomalies) != 0 {
		t.Fatalf("%d diagnostics, %d anomalies; first: %v %v", len(f.Diagnostics), len(tl.Anomalies), f.Diagnostics, tl.Anomalies[:min(3, len(tl.Anomalies))])
	}
	if f.Counts["ADDED"] == 0 || f.Counts["MODIFIED"] == 0 || f.Counts["DELETED"] == 0 {
		t.Errorf("counts %v: every type should occur", f.Counts)
	}
}
