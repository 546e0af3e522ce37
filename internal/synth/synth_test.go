package synth

import (
	"bytes"
	"strings"
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
	t.Run("realistic pods", func(t *testing.T) { testClean(t, CaptureOf(64<<20, RealisticPod), 64<<20) })
	t.Run("leases", func(t *testing.T) { testClean(t, CaptureOf(5<<20, Lease), 5<<20, "MODIFIED") })
	t.Run("events", func(t *testing.T) { testClean(t, CaptureOf(5<<20, Event), 5<<20, "ADDED") })
}

// The realistic pods' managedFields must not repeat from one event to the
// next (what the parser's byte comparison skips in Pod's), as on a real
// cluster: the kubelet's entry names each pod's IP, workloads differ.
func TestRealisticPodsManagedFieldsDiffer(t *testing.T) {
	fields := func(i int) string {
		var b bytes.Buffer
		RealisticPod(&b, i)
		s := b.String()
		return s[strings.Index(s, `"managedFields"`):strings.Index(s, `"spec"`)]
	}
	for i := 1; i < 2000; i++ {
		if fields(i) == fields(i-1) {
			t.Fatalf("events %d and %d carry the same managedFields", i-1, i)
		}
	}
	var a, b bytes.Buffer
	Pod(&a, 1)
	Pod(&b, 2)
	if strings.Count(a.String(), `"fieldsV1"`) != 2 {
		t.Fatal("Pod has two managedFields entries")
	}
}

// testClean checks a capture of at least size bytes; types lists the
// event types it has (every one of ADDED, MODIFIED, DELETED when none).
func testClean(t *testing.T, data []byte, size int, types ...string) {
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
	if len(types) == 0 {
		types = []string{"ADDED", "MODIFIED", "DELETED"}
	}
	for _, typ := range types {
		if f.Counts[typ] == 0 {
			t.Errorf("counts %v: %s should occur", f.Counts, typ)
		}
	}
}
