package timeline

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"watchlens/internal/cputime"
	"watchlens/internal/synth"
	"watchlens/parser"
)

var (
	modelOnce   sync.Once
	modelReader *parser.Reader
	modelEvents []parser.Event // read once: the benchmark's first run and its timed one share them
)

// BenchmarkModelConfigMaps is the model's own share of a page's load of a
// million small ConfigMap events (BenchmarkOpenConfigMaps less the
// parser): the events, parsed before the timer starts, added to a file as
// AddReader adds them and the file finished (add), the timeline built
// (build) and analysed (analyze). least-cpu-ms/ is a step's least CPU
// time over the rounds, which other work on a loaded machine inflates
// least.
func BenchmarkModelConfigMaps(b *testing.B) {
	modelOnce.Do(func() {
		r := parser.NewReader(bytes.NewReader(synth.CaptureOf(440<<20, synth.ConfigMap)), parser.Options{})
		for r.Next() {
			modelEvents = append(modelEvents, r.Event())
		}
		modelReader = r
	})
	r, events := modelReader, modelEvents
	if r.Err() != nil {
		b.Fatal(r.Err())
	}
	var wall, cpu, least [3]time.Duration
	b.ResetTimer()
	for range b.N {
		bl := NewBuilder()
		var round [3]time.Duration
		var step cputime.Step
		step.Start()
		f := bl.AddFile("configmaps")
		f.oneReader = true // as AddReader's (readEvents)
		for k := range events {
			f.add(&events[k])
		}
		f.Finish(r.Sessions(), r.Diagnostics())
		step.End(&wall[0], &round[0])
		tl := bl.Build()
		step.End(&wall[1], &round[1])
		tl.Analyze(DefaultParams())
		step.End(&wall[2], &round[2])
		for k, d := range round {
			cpu[k] += d
			if least[k] == 0 || d < least[k] {
				least[k] = d
			}
		}
	}
	n := float64(b.N)
	for k, name := range []string{"add", "build", "analyze"} {
		b.ReportMetric(float64(wall[k].Microseconds())/1e3/n, "ms/"+name)
		b.ReportMetric(float64(cpu[k].Microseconds())/1e3/n, "cpu-ms/"+name)
		b.ReportMetric(float64(least[k].Microseconds())/1e3, "least-cpu-ms/"+name)
	}
}
