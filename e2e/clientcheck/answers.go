// Package clientcheck asks an engine every question the page asks, in
// one sequence, and keeps the answers: the browser test
// (e2e/browser_engine_worker_test.go) asks the engine in its worker
// through app/engine/client on a page (package page, built to wasm), asks
// the in-process engine natively, and compares the two.
package clientcheck

import (
	"crypto/sha256"
	"fmt"
	"strings"
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

	// The panels' questions.
	Files       []engine.FilesReport
	Events      []engine.EventDetail
	Finds       [][]timeline.Match
	Findings    []engine.Findings
	RangeStats  []timeline.RangeStats
	Reconnects  []engine.ReconnectAt
	Fleet       engine.Fleet
	HasFleet    bool
	FleetFrames []Frame
	FleetLayout []canvas.FleetLayout
	FleetHits   []engine.FleetHit
	FleetRanges []canvas.FleetRange
	// Reports are the reports' SHA-256s and lengths: the trace alone is
	// megabytes.
	Reports []string
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
// edge); the panels' questions (panels); then an analysis with
// Reanalysed's params, and the zones, summary, frame and the panels'
// questions again.
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
	err = panels(a, &out, zoomed)
	return out, err
}

// panels asks a the panels' questions: the files (all, and those found
// by a name), the selected event and its neighbours, finds by name, RV
// and error, the findings (all, and of one kind), the range's
// statistics, reconnects at three instants, the fleet with a frame, a
// row of hits and two ranges, and the report in every format.
func panels(a engine.Answerer, out *Answers, zoomed engine.ViewState) error {
	out.Files = append(out.Files, a.Files("", 100), a.Files("c1", 2))
	for _, i := range []int{zoomed.Selected, zoomed.Selected + 1, 0, out.Opened.Events - 1, out.Opened.Events} {
		out.Events = append(out.Events, a.Event(i))
	}
	name := out.Events[0].Object
	if i := strings.LastIndexAny(name, "/ "); i >= 0 {
		name = name[i+1:]
	}
	for _, q := range []string{name, "410", "2023"} {
		out.Finds = append(out.Finds, a.Find(q, 12, "Europe/Paris"))
	}
	out.Findings = append(out.Findings, a.Findings(timeline.Filter{}), a.Findings(timeline.Filter{Kind: "ConfigMap"}))
	out.RangeStats = append(out.RangeStats, a.RangeStats(false, zoomed.From, zoomed.To), a.RangeStats(false, 0, 1<<62))
	for _, f := range []int64{4, 2, 1} {
		out.Reconnects = append(out.Reconnects, a.ReconnectAt(zoomed.From+(zoomed.To-zoomed.From)/f, nil))
	}
	out.Fleet, out.HasFleet = a.Fleet()
	if out.HasFleet {
		st := engine.FleetState{From: out.Fleet.From, To: out.Fleet.To, Width: zoomed.Width, MaxHeight: zoomed.MaxHeight, PixelRatio: 1}
		var fr canvas.Frame
		l := a.FleetFrame(st, &fr)
		spec, _ := fr.Spec()
		floats, _ := fr.Floats(nil)
		out.FleetFrames = append(out.FleetFrames, Frame{Spec: string(spec), Floats: floats})
		out.FleetLayout = append(out.FleetLayout, l)
		for x := l.PlotX - 20; x < l.PlotX+l.PlotW; x += l.PlotW / 8 {
			// Over the first row, below its group's header when it has one.
			out.FleetHits = append(out.FleetHits, a.FleetHit(st, x, l.RowY(0, 0)+4))
		}
		mid := (st.From + st.To) / 2
		out.FleetRanges = append(out.FleetRanges, a.FleetRange(st.From, mid), a.FleetRange(mid, st.To))
	}
	for _, f := range []engine.ReportFormat{engine.ReportMarkdown, engine.ReportPaste, engine.ReportJSON, engine.ReportPerfetto} {
		r, err := a.Report(f, "https://example.test/#view")
		if err != nil {
			return err
		}
		out.Reports = append(out.Reports, fmt.Sprintf("%x %d", sha256.Sum256([]byte(r)), len(r)))
	}
	return nil
}
