package timeline

import (
	"bytes"
	"runtime"
	"testing"

	"watchlens/internal/busywatch"
	"watchlens/internal/synth"
	"watchlens/parser"
)

// BenchmarkKept reports what the model of each kind of capture keeps per
// event once built and analysed (heap-B/event), and the most it held on
// the way (peak-B/event), read through the parser as the page reads a
// file: the busy broad watch of ConfigMaps, small ConfigMaps, Leases and
// core/v1 Events (most of a cluster's watch traffic), and pods as a real
// cluster sends them. The capture's own bytes are excluded: they exist
// before the measurement starts and after it ends, as the page's Blob
// does. A page's memory never shrinks, so the peak is what a large
// capture costs the tab, times the GC's headroom.
func BenchmarkKept(b *testing.B) {
	b.Run("busywatch", func(b *testing.B) {
		benchKeptAnalysed(b, func(bl *Builder, p *peak) {
			f := bl.AddFile("synthetic")
			n := 0
			busywatch.Events(benchEvents, 1, func(e parser.Event) {
				f.Add(e)
				if n++; n%peakEvery == 0 {
					p.sample()
				}
			})
			f.Finish(busywatch.Sessions(), nil)
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
			benchKeptAnalysed(b, func(bl *Builder, p *peak) {
				// AddReader's loop, sampling the heap on the way.
				f := bl.AddFile(c.name)
				r := parser.NewReader(bytes.NewReader(data.Bytes()), parser.Options{})
				for n := 1; r.Next() && f.Add(r.Event()); n++ {
					if n%peakEvery == 0 {
						p.sample()
					}
				}
				if r.Err() != nil {
					b.Fatal(r.Err())
				}
				f.Finish(r.Sessions(), r.Diagnostics())
			})
			runtime.KeepAlive(data.Bytes())
		})
	}
}

// peakEvery is how many events are read between samples of the heap.
const peakEvery = 1 << 16

// peak is the most live heap seen above a base, sampled after a
// collection: what was garbage by then does not count.
type peak struct {
	base, most uint64
	pauses     int
}

func (p *peak) sample() {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	p.most = max(p.most, m.HeapAlloc-p.base)
}

// pause is a Builder's Pause that samples every 16th call (every 128 K
// items built or analysed).
func (p *peak) pause() {
	if p.pauses++; p.pauses%16 == 0 {
		p.sample()
	}
}

// benchKeptAnalysed builds a timeline by add, analyses it, and reports
// what the two keep per event and the peak on the way.
func benchKeptAnalysed(b *testing.B, add func(*Builder, *peak)) {
	var keep *Analysis
	for b.Loop() {
		keep = nil
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		p := &peak{base: before.HeapAlloc}
		bl := NewBuilder()
		bl.Pause = p.pause
		add(bl, p)
		keep = bl.Build().Analyze(DefaultParams())
		runtime.GC()
		runtime.ReadMemStats(&after)
		n := float64(keep.TL.Len())
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "heap-B/event")
		b.ReportMetric(float64(max(p.most, after.HeapAlloc-before.HeapAlloc))/n, "peak-B/event")
		b.ReportMetric(n, "events")
	}
	runtime.KeepAlive(keep)
}
