package engine

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"watchlens/app/canvas"
	"watchlens/internal/cputime"
	"watchlens/internal/synth"
	"watchlens/timeline"
)

// BenchmarkOpenAnswer is what the engine's worker does for a page's load
// of one file (app/engine/worker's open question): Open reads it, builds,
// prepares and analyses the timeline, then the answer draws the first
// frame of the whole capture, summarises it, lists the first red zones
// and encodes each part as the answer carries it. read is Open's
// reading, open the rest of Open, answer the answer's; each is timed by
// the wall (ms/) and by the process's CPU (cpu-ms/), which other work on
// a loaded machine inflates far less.
func BenchmarkOpenAnswer(b *testing.B) {
	for _, c := range []struct {
		name string
		size int
		ev   func(*bytes.Buffer, int)
	}{
		{"realistic-pods", 100 << 20, synth.RealisticPod},
		{"configmaps", 440 << 20, synth.ConfigMap},
	} {
		b.Run(c.name, func(b *testing.B) {
			data := synth.CaptureOf(c.size, c.ev)
			b.SetBytes(int64(len(data)))
			var fr canvas.Frame
			var wall, cpu [3]time.Duration
			b.ResetTimer()
			for range b.N {
				var step cputime.Step
				step.Start()
				src := []Source{{Name: c.name + ".jsonl", Size: int64(len(data)), Data: bytes.NewReader(data)}}
				building := func(string) { step.End(&wall[0], &cpu[0]) }
				e, o, err := Open(src, Options{Params: timeline.DefaultParams(), Building: building})
				if err != nil {
					b.Fatal(err)
				}
				step.End(&wall[1], &cpu[1])
				benchAnswer(b, e, o, &fr)
				step.End(&wall[2], &cpu[2])
			}
			n := float64(b.N)
			for k, name := range []string{"read", "open", "answer"} {
				b.ReportMetric(float64(wall[k].Microseconds())/1e3/n, "ms/"+name)
				b.ReportMetric(float64(cpu[k].Microseconds())/1e3/n, "cpu-ms/"+name)
			}
		})
	}
}

// benchAnswer answers an open as the worker's answerOpened does, with
// the page's first view of a capture (the whole of it, 1280 CSS pixels
// wide) and its most red zones, encoding what it would post.
func benchAnswer(b *testing.B, e *Engine, o Opened, fr *canvas.Frame) {
	files := o.Files
	o.Files = nil
	st := ViewState{Width: 1280, PixelRatio: 1, Selected: -1}
	st.From, st.To = o.Extent(false)
	d := e.Frame(st, fr)
	spec, err := fr.Spec()
	if err != nil {
		b.Fatal(err)
	}
	floats, _ := fr.Floats(nil)
	zones, _ := e.Zones(2000)
	for _, v := range []any{o, files, d, e.Summary(SummaryOf(st, d)), zones} {
		if _, err := json.Marshal(v); err != nil {
			b.Fatal(err)
		}
	}
	if len(spec) == 0 || len(floats) == 0 {
		b.Fatal("an empty frame")
	}
}
