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
	benchOpen(b, synth.CaptureOf(440<<20, synth.ConfigMap))
}

// BenchmarkOpenRealisticPods is the same for 100 MB of pods as a real
// cluster sends them (BrowserLoad/realistic-pods-100MB): few events, each
// large, so the parser's share of the read is most of it. ms/parse is the
// parser's reading alone, outside the round: ms/read less ms/parse is the
// Builder's own work of adding the events.
func BenchmarkOpenRealisticPods(b *testing.B) {
	data := synth.CaptureOf(100<<20, synth.RealisticPod)
	var wall, cpu time.Duration
	for range b.N {
		var step cputime.Step
		step.Start()
		r := parser.NewReader(bytes.NewReader(data), parser.Options{})
		for r.Next() {
		}
		if r.Err() != nil {
			b.Fatal(r.Err())
		}
		step.End(&wall, &cpu)
	}
	benchOpen(b, data)
	b.ReportMetric(float64(wall.Microseconds())/1e3/float64(b.N), "ms/parse")
	b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/parse")
}

// benchOpen reads data into a Builder, builds, analyses and summarises
// it, b.N times, and reports the steps' times: of the wall (ms/) and of
// the CPU (cpu-ms/), which other work on a loaded machine inflates far
// less.
func benchOpen(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	var events int
	var wall, cpu [3]time.Duration
	b.ResetTimer()
	all := cputime.Process()
	for range b.N {
		bl := NewBuilder()
		var step cputime.Step
		step.Start()
		if err := bl.AddReader("capture", bytes.NewReader(data), parser.Options{}); err != nil {
			b.Fatal(err)
		}
		step.End(&wall[0], &cpu[0])
		tl := bl.Build()
		step.End(&wall[1], &cpu[1])
		tl.Analyze(DefaultParams()).Summary(nil)
		step.End(&wall[2], &cpu[2])
		events = tl.Len()
	}
	all = cputime.Process() - all
	n := float64(b.N)
	b.ReportMetric(float64(events)*n/all, "events/cpu-s")
	for k, name := range []string{"read", "build", "analyze"} {
		b.ReportMetric(float64(wall[k].Microseconds())/1e3/n, "ms/"+name)
		b.ReportMetric(float64(cpu[k].Microseconds())/1e3/n, "cpu-ms/"+name)
	}
}

// BenchmarkAddParsed is the Builder's own share of a load's read: the
// events of 100 MB of realistic pods and of ConfigMaps, parsed before the
// timer starts, added to a file and the file finished, as AddReader does
// with what the parser reads.
func BenchmarkAddParsed(b *testing.B) {
	for _, c := range []struct {
		name  string
		event func(*bytes.Buffer, int)
	}{
		{"realistic-pods", synth.RealisticPod},
		{"configmaps", synth.ConfigMap},
	} {
		b.Run(c.name, func(b *testing.B) {
			r := parser.NewReader(bytes.NewReader(synth.CaptureOf(100<<20, c.event)), parser.Options{})
			var events []parser.Event
			for r.Next() {
				events = append(events, r.Event())
			}
			b.ResetTimer()
			cpu := cputime.Process()
			for range b.N {
				f := NewBuilder().AddFile(c.name)
				f.oneReader = true // as AddReader's (readEvents)
				for _, ev := range events {
					f.Add(ev)
				}
				f.Finish(r.Sessions(), r.Diagnostics())
			}
			cpu = cputime.Process() - cpu
			b.ReportMetric(cpu*1e3/float64(b.N), "cpu-ms/add")
			b.ReportMetric(float64(len(events))*float64(b.N)/cpu, "events/cpu-s")
		})
	}
}
