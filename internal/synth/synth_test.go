package synth

import (
	"bytes"
	"regexp"
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
	t.Run("distinct objects", func(t *testing.T) {
		data := CaptureOf(5<<20, DistinctObject)
		testClean(t, data, 5<<20, "ADDED")
		tl := timeline.NewBuilder()
		if err := tl.AddReader("distinct", bytes.NewReader(data), parser.Options{}); err != nil {
			t.Fatal(err)
		}
		if built := tl.Build(); built.Lanes.Len() != built.Len() {
			t.Errorf("%d objects in %d events, want one each", built.Lanes.Len(), built.Len())
		}
	})
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
	// Between objects, as on a real cluster: the managers and their
	// operations, the controller manager's time (each pod's creation) and the kubelet's
	// fields differ, over one round of the 3000 pods.
	managers, operations, created, kubelet := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for i := 3000; i < 6000; i++ {
		mf := fields(i)
		for _, m := range regexp.MustCompile(`"manager":"([^"]+)"`).FindAllStringSubmatch(mf, -1) {
			managers[m[1]] = true
		}
		for _, m := range regexp.MustCompile(`"operation":"([^"]+)"`).FindAllStringSubmatch(mf, -1) {
			operations[m[1]] = true
		}
		created[regexp.MustCompile(`"time":"([^"]+)"`).FindStringSubmatch(mf)[1]] = true
		k := mf[strings.Index(mf, `"manager":"kubelet"`):]
		kubelet[k[strings.Index(k, `"fieldsV1"`):strings.Index(k, `"f:podIPs"`)]] = true
	}
	if len(managers) < 4 || len(operations) < 2 || len(created) < 3000 || len(kubelet) < 2 {
		t.Errorf("over 3000 pods: managers %v, operations %v, %d controller-manager times, %d kubelet field sets; want 4 managers or more, Update and Apply, a time per pod, 2 field sets or more",
			managers, operations, len(created), len(kubelet))
	}
	var a, b bytes.Buffer
	Pod(&a, 1)
	Pod(&b, 2)
	if strings.Count(a.String(), `"fieldsV1"`) != 2 {
		t.Fatal("Pod has two managedFields entries")
	}
}

// TestClocksMoveForward: every generator's times rise with its events
// however many there are, as a real capture's do: events sampled from
// the first to the 10 millionth (115 days of ConfigMaps at one a second,
// where hours modulo 24 jumped back a day every 86 400 events) carry
// object times that never go back.
func TestClocksMoveForward(t *testing.T) {
	gens := map[string]func(*bytes.Buffer, int){"pods": Pod, "configmaps": ConfigMap, "realistic pods": RealisticPod, "leases": Lease, "events": Event, "distinct objects": DistinctObject}
	for name, gen := range gens {
		t.Run(name, func(t *testing.T) {
			var data bytes.Buffer
			// Steps well under a day: every day's end falls between two.
			for i := 0; i < 10_000_000; i += 4999 {
				gen(&data, i)
			}
			r := parser.NewReader(bytes.NewReader(data.Bytes()), parser.Options{})
			last, n := int64(0), 0
			for r.Next() {
				ev := r.Event()
				if ev.Estimated == 0 {
					continue // a bookmark
				}
				if ev.Estimated < last {
					t.Fatalf("event %d of the sample (offset %d) is at %d, before the last one's %d", n, ev.Offset, ev.Estimated, last)
				}
				last, n = ev.Estimated, n+1
			}
			if r.Err() != nil || n < 1900 {
				t.Fatalf("%d events with times read, error %v", n, r.Err())
			}
		})
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
