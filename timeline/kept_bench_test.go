package timeline

import (
	"bytes"
	"runtime"
	"testing"

	"watchlens/internal/synth"
	"watchlens/parser"
)

// BenchmarkKept reports what the model of each kind of capture keeps per
// event once built and analysed (heap-B/event), read through the parser
// as the page reads a file: the busy broad watch of ConfigMaps, small
// ConfigMaps, Leases and core/v1 Events (most of a cluster's watch
// traffic), and pods as a real cluster sends them. The capture's own
// bytes are excluded: they exist before the measurement starts and after
// it ends, as the page's Blob does.
func BenchmarkKept(b *testing.B) {
	b.Run("busywatch", func(b *testing.B) {
		benchKeptAnalysed(b, func() *Timeline {
			bl := NewBuilder()
			addSynthetic(bl, benchEvents)
			return bl.Build()
		})
	})
	for _, c := range []struct {
		name   string
		events int
		event  func(*bytes.Buffer, int)
	}{
		{"configmaps", 500_000, synth.ConfigMap},
		{"leases", 500_000, synth.Lease},
		{"events", 500_000, synth.Event},
		{"realistic-pods", 150_000, synth.RealisticPod},
	} {
		b.Run(c.name, func(b *testing.B) {
			var data bytes.Buffer
			for i := range c.events {
				c.event(&data, i)
			}
			benchKeptAnalysed(b, func() *Timeline {
				bl := NewBuilder()
				if err := bl.AddReader(c.name, bytes.NewReader(data.Bytes()), parser.Options{}); err != nil {
					b.Fatal(err)
				}
				return bl.Build()
			})
			runtime.KeepAlive(data.Bytes())
		})
	}
}

// benchKeptAnalysed is benchKept for a timeline and its analysis.
func benchKeptAnalysed(b *testing.B, build func() *Timeline) {
	var keep *Analysis
	for b.Loop() {
		keep = nil
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		keep = build().Analyze(DefaultParams())
		runtime.GC()
		runtime.ReadMemStats(&after)
		n := float64(keep.TL.Len())
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "heap-B/event")
		b.ReportMetric(n, "events")
	}
	runtime.KeepAlive(keep)
}
