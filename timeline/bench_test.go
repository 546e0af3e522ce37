package timeline

import (
	"bytes"
	"runtime"
	"sync"
	"testing"

	"watchlens/internal/busywatch"
	"watchlens/internal/cputime"
	"watchlens/internal/synth"
	"watchlens/parser"
)

const benchEvents = 1_000_000

// addSynthetic streams n events of a busy broad watch into a new file:
// 10 000 objects, a change every 3.6 ms (an hour), a bookmark a minute.
func addSynthetic(b *Builder, n int) {
	f := b.AddFile("synthetic")
	busywatch.Events(n, 1, func(e parser.Event) { f.Add(e) })
	f.Finish(busywatch.Sessions(), nil)
}

var (
	benchOnce sync.Once
	benchTL   *Timeline
)

func benchTimeline() *Timeline {
	benchOnce.Do(func() {
		b := NewBuilder()
		addSynthetic(b, benchEvents)
		benchTL = b.Build()
	})
	return benchTL
}

// BenchmarkBins is the level-of-detail query of a full-width view: 2000
// pixel columns over 1 M events, 200 lanes on screen. Target < 5 ms.
func BenchmarkBins(b *testing.B) {
	tl := benchTimeline()
	q := BinQuery{From: tl.Start(), To: tl.End() + 1, Columns: 2000, LaneFrom: 0, LaneTo: 200, File: -1}
	out := tl.Bins(q, nil)
	b.ResetTimer()
	for b.Loop() {
		out = tl.Bins(q, out)
	}
}

// BenchmarkBinsZoom: the same view zoomed to a tenth of the capture.
func BenchmarkBinsZoom(b *testing.B) {
	tl := benchTimeline()
	span := tl.End() - tl.Start()
	q := BinQuery{From: tl.Start() + span/2, To: tl.Start() + span/2 + span/10, Columns: 2000, LaneFrom: 0, LaneTo: 200, File: -1}
	out := tl.Bins(q, nil)
	b.ResetTimer()
	for b.Loop() {
		out = tl.Bins(q, out)
	}
}

// BenchmarkBinsRV: the same over the resourceVersion axis (a full scan).
func BenchmarkBinsRV(b *testing.B) {
	tl := benchTimeline()
	q := BinQuery{Axis: AxisRV, From: 1000, To: 1000 + benchEvents + 1, Columns: 2000, LaneFrom: 0, LaneTo: 200, File: -1}
	out := tl.Bins(q, nil)
	b.ResetTimer()
	for b.Loop() {
		out = tl.Bins(q, out)
	}
}

// BenchmarkRanges: the events of a time range and of an RV range.
func BenchmarkRanges(b *testing.B) {
	tl := benchTimeline()
	tl.RVRange(0, 0, 1) // build the RV index outside the loop
	span := tl.End() - tl.Start()
	for b.Loop() {
		lo, hi := tl.TimeRange(tl.Start()+span/3, tl.Start()+span/3+span/100)
		if hi-lo < 1000 {
			b.Fatal(lo, hi)
		}
		if n := len(tl.RVRange(500_000, 510_000, 0)); n < 9_000 {
			b.Fatal(n)
		}
	}
}

// BenchmarkAnalyze: window models, zones, gaps and what-if over 1 M events.
func BenchmarkAnalyze(b *testing.B) {
	tl := benchTimeline()
	cpu := 0.0
	for b.Loop() {
		if cpu == 0 {
			cpu = cputime.Process() // b.Loop's first call has reset the timer
		}
		tl.Analyze(DefaultParams())
	}
	// The CPU's time, which other work on a loaded machine inflates far
	// less than the wall's.
	b.ReportMetric((cputime.Process()-cpu)*1e3/float64(b.N), "cpu-ms/op")
}

// BenchmarkBuild measures building a 1 M event timeline and reports the
// heap it keeps per event.
func BenchmarkBuild(b *testing.B) {
	benchKept(b, func() *Timeline {
		bl := NewBuilder()
		addSynthetic(bl, benchEvents)
		return bl.Build()
	})
}

// BenchmarkBuildCapture1GB measures what the timeline of a 1 GB capture
// of realistic 7 KB pod events keeps per event, read through the parser
// as the page reads a file. The capture's own bytes are excluded: they
// exist before the measurement starts and after it ends.
func BenchmarkBuildCapture1GB(b *testing.B) {
	data := synth.Capture(1 << 30)
	benchKept(b, func() *Timeline {
		bl := NewBuilder()
		if err := bl.AddReader("synth", bytes.NewReader(data), parser.Options{}); err != nil {
			b.Fatal(err)
		}
		return bl.Build()
	})
	runtime.KeepAlive(data)
}

// benchKept times build and reports the heap its timeline keeps per event,
// and what it allocated per event.
func benchKept(b *testing.B, build func() *Timeline) {
	var keep *Timeline
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		keep = build()
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(keep.Len()), "heap-B/event")
		// What building allocated on the way, kept or not: it sets the
		// GC cycles a page loading the capture goes through, each of
		// which holds the page while it marks what is kept.
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(keep.Len()), "alloc-B/event")
		b.ReportMetric(float64(keep.Len()), "events")
	}
	runtime.KeepAlive(keep)
}

// BenchmarkReadAndAdd reads 500 000 small events into a Builder with
// AddReader, as a page's load does before the model is built: ConfigMaps
// of 10 000 objects, re-created every 50 000 events, and core/v1 Events,
// each a new object. events/cpu-s is per
// second of the process's CPU time (as wasm, node's compilers' too).
func BenchmarkReadAndAdd(b *testing.B) {
	for _, c := range []struct {
		name  string
		event func(*bytes.Buffer, int)
	}{
		{"configmaps", synth.ConfigMap},
		{"events", synth.Event},
	} {
		b.Run(c.name, func(b *testing.B) {
			const n = 500_000
			var data bytes.Buffer
			for i := range n {
				c.event(&data, i)
			}
			b.SetBytes(int64(data.Len()))
			b.ResetTimer()
			cpu := cputime.Process()
			for range b.N {
				bl := NewBuilder()
				if err := bl.AddReader(c.name, bytes.NewReader(data.Bytes()), parser.Options{}); err != nil {
					b.Fatal(err)
				}
				if got := bl.files[0].file.Events; got != n {
					b.Fatalf("%d events, want %d", got, n)
				}
			}
			cpu = cputime.Process() - cpu
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(n)*float64(b.N)/cpu, "events/cpu-s")
		})
	}
}
