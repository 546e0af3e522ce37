// Package clientcheck asks an engine every question the page asks, in
// one sequence, and keeps the answers: the browser test
// (e2e/browser_engine_worker_test.go) asks the engine in its worker
// through app/engine/client on a page (package page, built to wasm), asks
// the in-process engine natively, and compares the two.
package clientcheck

import (
	"time"

	"watchlens/app/canvas"
	"watchlens/app/engine"
	"watchlens/timeline"
)

// Frame is a frame's answer: what the engine said of it, and the frame
// as web/timeline.js draws it.
type Frame struct {
	Drawn  engine.Drawn
	Spec   string
	Floats []byte
}

// Answers are the answers to the sequence AskEvery asks, in its order.
type Answers struct {
	Opened    engine.Opened
	Frames    []Frame
	Layouts   []canvas.Layout
	Summaries []engine.ViewSummary
	Hits      []engine.Hit
	Steps     []engine.Step
	Zones     [][]engine.ZoneRow
	ZoneCount []int
	Analyzed  []engine.Analyzed
}

// Reanalysed are the params of the sequence's second analysis: a
// shorter cache window, and the sentences' times in Paris (the zone
// crosses by name).
func Reanalysed() (timeline.Params, error) {
	p := timeline.DefaultParams()
	p.CacheWindow = 20 * time.Second
	loc, err := timeline.ParseZone("Europe/Paris")
	p.Zone = loc
	return p, err
}

// AskEvery asks a, just opened, every question: the whole capture's
// frame, layout and summary at width by height CSS px; the red zones;
// a zoom into its second quarter, hit tests over its first rows, the
// steps forward and back from the first event hit (or from the range's
// edge); then an analysis with Reanalysed's params, and the
// zones, summary and frame again.
func AskEvery(a engine.Answerer, width, height float64) (Answers, error) {
	var out Answers
	out.Opened = a.Opened()
	var fr canvas.Frame
	frame := func(st engine.ViewState) engine.Drawn {
		d := a.Frame(st, &fr)
		spec, _ := fr.Spec()
		floats, _ := fr.Floats(nil)
		out.Frames = append(out.Frames, Frame{Drawn: d, Spec: string(spec), Floats: floats})
		return d
	}
	zones := func() {
		rows, n := a.Zones(8)
		out.Zones, out.ZoneCount = append(out.Zones, rows), append(out.ZoneCount, n)
	}
	whole := engine.ViewState{Width: width, MaxHeight: height, PixelRatio: 1, Selected: -1}
	whole.From, whole.To = out.Opened.Extent(false)
	out.Layouts = append(out.Layouts, a.Layout(whole))
	frame(whole)
	out.Summaries = append(out.Summaries, a.Summary(whole))
	zones()

	zoomed := whole
	zoomed.From, zoomed.To = whole.From+(whole.To-whole.From)/4, whole.From+(whole.To-whole.From)/2
	d := frame(zoomed)
	// A grid of hits over the first rows of lanes and the bands above
	// them; the steps start from the first event hit.
	zoomed.Selected = -1
	for y := d.Layout.LanesY - 3*canvas.RowHeight; y < d.Layout.LanesY+6*canvas.RowHeight; y += canvas.RowHeight / 2 {
		for x := d.Layout.PlotX - 20; x < d.Layout.PlotX+d.Layout.PlotW; x += d.Layout.PlotW / 16 {
			h := a.Hit(zoomed, x, y)
			out.Hits = append(out.Hits, h)
			if zoomed.Selected < 0 && h.Event >= 0 {
				zoomed.Selected = h.Event
			}
		}
	}
	out.Layouts = append(out.Layouts, a.Layout(zoomed))
	out.Summaries = append(out.Summaries, a.Summary(zoomed))
	out.Steps = append(out.Steps, a.Step(zoomed, true), a.Step(zoomed, false))

	params, err := Reanalysed()
	if err != nil {
		return out, err
	}
	an, err := a.Analyze(params, nil)
	if err != nil {
		return out, err
	}
	out.Analyzed = append(out.Analyzed, an)
	zones()
	out.Summaries = append(out.Summaries, a.Summary(whole))
	frame(whole)
	return out, nil
}
