package timeline

import (
	"bytes"
	"runtime"
	"sync"
	"testing"
	"time"

	"watchlens/internal/synth"
	"watchlens/parser"
)

// benchSplitCapture is a broad watch of a million small ConfigMap events
// over an hour, each line prefixed by its arrival time: split by the
// objects' names, ten thousand virtual clients.
var benchSplitCapture = sync.OnceValue(func() []byte {
	var body, out bytes.Buffer
	step := int64(time.Hour) / int64(benchEvents)
	for i := range benchEvents {
		body.Reset()
		synth.ConfigMap(&body, i)
		out.WriteString(time.Unix(0, t0+int64(i)*step).UTC().Format(time.RFC3339Nano))
		out.WriteByte(' ')
		out.Write(body.Bytes())
	}
	return out.Bytes()
})

// BenchmarkSplit10kClients reads, builds and analyses the broad capture
// split into 9 998 virtual clients (the fleet issue's target: the
// analysis under 2 s natively).
func BenchmarkSplit10kClients(b *testing.B) {
	data := benchSplitCapture()
	split, _ := ParseSplit("field=metadata.name")
	var clients int
	var build, analyze, summary time.Duration
	var ms0, ms1 runtime.MemStats
	for range b.N {
		runtime.GC()
		runtime.ReadMemStats(&ms0)
		start := time.Now()
		bl := NewBuilder()
		if err := bl.AddReaderSplit("broad", bytes.NewReader(data), parser.Options{}, split); err != nil {
			b.Fatal(err)
		}
		tl := bl.Build()
		build += time.Since(start)
		start = time.Now()
		a := tl.Analyze(DefaultParams())
		analyze += time.Since(start)
		// The page words the verdict in a task of its own, after the
		// analysis.
		start = time.Now()
		a.Summary(nil)
		summary += time.Since(start)
		runtime.GC()
		runtime.ReadMemStats(&ms1)
		clients = len(tl.Files) - 1
		runtime.KeepAlive(a)
	}
	// synth.ConfigMap's bookmark every 5000 events takes the place of
	// objects 4999 and 9999, which never change.
	if clients != 9_998 {
		b.Fatalf("%d virtual clients, want 9 998", clients)
	}
	b.ReportMetric(float64(build.Milliseconds())/float64(b.N), "ms/read+build")
	b.ReportMetric(float64(analyze.Milliseconds())/float64(b.N), "ms/analyze")
	b.ReportMetric(float64(summary.Milliseconds())/float64(b.N), "ms/summary")
	b.ReportMetric(float64(ms1.HeapAlloc-ms0.HeapAlloc)/float64(clients), "heap-B/client")
}
