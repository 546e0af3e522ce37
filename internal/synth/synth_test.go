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
	t.Run("pods", func(t *testing.T) { testClean(t, Capture(100<<20), 100<<20) })
	t.Run("configmaps", func(t *testing.T) { testClean(t, CaptureOf(20<<20, ConfigMap), 20<<20) })
}

func testClean(t *testing.T, data []byte, size int) {
	if len(data) < size {
		t.Fatalf("%d bytes, want at least %d", len(data), size)
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
