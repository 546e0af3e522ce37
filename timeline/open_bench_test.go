package timeline

import (
	"bytes"
	"testing"
	"time"

	"watchlens/internal/cputime"
	"watchlens/internal/synth"
	"watchlens/parser"
)

// BenchmarkOpenConfigMaps is what a page's load of a million small
// ConfigMap events does with the model: read them through the parser into
// a Builder (AddReader), build the timeline, analyse it and summarise the
// analysis. It is the capture of the browser's BrowserLoad/1M-events.
// ms/read, ms/build and ms/analyze are the three steps' shares of a round.
func BenchmarkOpenConfigMaps(b *testing.B) {
	data := synth.CaptureOf(440<<20, synth.ConfigMap)
	b.SetBytes(int64(len(data)))
	var events int
	var read, build, analyze time.Duration
	b.ResetTimer()
	cpu := cputime.Process()
	for range b.N {
		t0 := time.Now()
		bl := NewBuilder()
		if err := bl.AddReader("configmaps", bytes.NewReader(data), parser.Options{}); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		tl := bl.Build()
		t2 := time.Now()
		tl.Analyze(DefaultParams()).Summary(nil)
		t3 := time.Now()
		read, build, analyze = read+t1.Sub(t0), build+t2.Sub(t1), analyze+t3.Sub(t2)
		events = tl.Len()
	}
	cpu = cputime.Process() - cpu
	n := float64(b.N)
	b.ReportMetric(float64(events)*n/cpu, "events/cpu-s")
	b.ReportMetric(float64(read.Milliseconds())/n, "ms/read")
	b.ReportMetric(float64(build.Milliseconds())/n, "ms/build")
	b.ReportMetric(float64(analyze.Milliseconds())/n, "ms/analyze")
}
