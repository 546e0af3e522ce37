package engine

import (
	"encoding/json"
	"testing"

	"watchlens/app/canvas"
	"watchlens/internal/testsample"
	"watchlens/timeline"
)

// BenchmarkDrawnCrossing is what a frame's Drawn costs to cross from the
// engine's worker to the page, written and read, in its binary form and
// as the JSON it crossed as before, side by side, read over the frame
// before as the page reads them: one capture's (7 bands), and
// samples-fleet's 52 files' with their groups folded, as the page opens
// more than three files (56 bands), and unfolded (368 bands).
func BenchmarkDrawnCrossing(b *testing.B) {
	one := testsample.Files(b, testsample.BaseName, testsample.Sample(b, "w3-then-resume.ts.http"))
	fleet := testsample.Files(b, testsample.AsGiven, testsample.FleetRecords(b)...)
	// frame is what the engine drew of files' whole view, their groups
	// folded when folded says so.
	frame := func(files []testsample.File, folded ...bool) []Drawn {
		e, o, err := Open(sources(files), Options{Params: timeline.DefaultParams()})
		if err != nil {
			b.Fatal(err)
		}
		var out []Drawn
		for _, fold := range folded {
			st := whole(o)
			if fold {
				st.Folded = canvas.AllFiles(len(o.Files)).String()
			}
			var fr canvas.Frame
			out = append(out, e.Frame(st, &fr))
		}
		return out
	}
	ones, fleets := frame(one, false), frame(fleet, true, false)
	for _, c := range []struct {
		name string
		d    Drawn
	}{{"one-capture", ones[0]}, {"fleet-folded", fleets[0]}, {"fleet-unfolded", fleets[1]}} {
		d := c.d
		b.Run(c.name+"/binary", func(b *testing.B) {
			var buf []byte
			got := d
			for b.Loop() {
				buf, _ = d.AppendBinary(buf[:0])
				if err := got.UnmarshalBinary(buf); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(buf)), "bytes")
		})
		b.Run(c.name+"/json", func(b *testing.B) {
			var n int
			for b.Loop() {
				buf, err := json.Marshal(d)
				if err != nil {
					b.Fatal(err)
				}
				var got Drawn
				if err := json.Unmarshal(buf, &got); err != nil {
					b.Fatal(err)
				}
				n = len(buf)
			}
			b.ReportMetric(float64(n), "bytes")
		})
	}
}
