package app

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"time"

	"watchlens/app/jsrt"
	"watchlens/report"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// ExportMenu is the header's Export menu: the report as Markdown (for a
// postmortem document) and JSON (for scripts), the visible timeline as
// PNG with its title, files, range, verdict and legend, and a trace for Perfetto
// UI. What goes wrong it posts for the page to say (actionProblem).
type ExportMenu struct {
	goapp.Compo
	Capture  *capture
	Analysis analysis
	From, To int64 // the range shown, both 0 for the whole capture
	AxisRV   bool
}

// actionProblem: something the user asked for failed; its value is what
// to tell them.
const actionProblem = "page/problem"

func (x *ExportMenu) Render() goapp.UI {
	return goapp.Details().ID("exports").Class("exports menu").Body(
		goapp.Summary().Text("Export"),
		goapp.Div().Class("menu-items").Body(
			goapp.Button().ID("export-md").Text("Markdown report").OnClick(x.onExportMarkdown),
			goapp.Button().ID("export-json").Text("JSON report").OnClick(x.onExportJSON),
			goapp.Button().ID("export-png").Text("Timeline PNG").OnClick(x.onExportPNG),
			goapp.Button().ID("export-perfetto").Title("Chrome JSON trace format: open it in ui.perfetto.dev or chrome://tracing").Text("Perfetto trace").OnClick(x.onExportPerfetto),
		),
	)
}

func (x *ExportMenu) onExportPerfetto(ctx goapp.Context, e goapp.Event) {
	an := x.Analysis.an
	x.export(ctx, "watchlens-trace.json", "application/json", func(w io.Writer) error { return report.WritePerfetto(w, an) })
}

func (x *ExportMenu) onExportMarkdown(ctx goapp.Context, e goapp.Event) {
	x.export(ctx, "watchlens-report.md", "text/markdown", x.Analysis.report().WriteMarkdown)
}

// onExportJSON downloads the JSON report, whose times are UTC whatever
// zone the page writes in (a contract, report/REPORT.md): in another zone
// the model's sentences are written again in UTC.
func (x *ExportMenu) onExportJSON(ctx goapp.Context, e goapp.Event) {
	rep := x.Analysis.report()
	if an := x.Analysis.an; zoneOf(an) != time.UTC {
		p := an.Params
		p.Zone = nil
		rep = report.New(an.TL.Analyze(p), nil)
	}
	x.export(ctx, "watchlens-report.json", "application/json", rep.WriteJSON)
}

// export downloads the report in the form write renders.
func (x *ExportMenu) export(ctx goapp.Context, name, mime string, write func(io.Writer) error) {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		ctx.NewActionWithValue(actionProblem, "The report could not be written: "+err.Error())
		return
	}
	jsrt.Download(name, mime, b.Bytes())
}

func (x *ExportMenu) onExportPNG(ctx goapp.Context, e goapp.Event) {
	spec, _ := json.Marshal(x.pngSpec())
	// The timeline draws its own picture (TimelineView.exportPNG); the
	// fleet's is its canvas as shown.
	if goapp.Window().GetElementByID("timeline").Truthy() {
		ctx.NewActionWithValue(actionExportPNG, string(spec))
		return
	}
	canvas := goapp.Window().Get("document").Call("querySelector", "#timeline-panel canvas")
	png := goapp.Window().Get("watchlensPNG")
	if !canvas.Truthy() || !png.Truthy() {
		ctx.NewActionWithValue(actionProblem, "There is no timeline to export yet.")
		return
	}
	jsrt.SaveURL("watchlens-timeline.png", png.Invoke(canvas, string(spec)).String())
}

// pngSpec is what the PNG carries around the timeline: a title, the
// range shown, the whole verdict and the legend.
type pngSpec struct {
	Title   string      `json:"title"`
	Lines   []string    `json:"lines"`
	Verdict []string    `json:"verdict"`
	Legend  [][3]string `json:"legend"` // symbol, colour, text
}

func (x *ExportMenu) pngSpec() pngSpec {
	c := x.Capture
	s := pngSpec{Title: "watchlens: " + strings.Join(c.fileNames(), ", ")}
	from, to := x.From, x.To
	if from == 0 && to == 0 {
		from, to = c.Prepared.Cache.Extent(x.AxisRV)
	}
	s.Lines = append(s.Lines, "Shown: "+c.Prepared.Cache.FormatPos(x.AxisRV, from)+" to "+c.Prepared.Cache.FormatPos(x.AxisRV, to))
	for _, l := range x.Analysis.summary {
		s.Verdict = append(s.Verdict, l.Text)
	}
	for _, l := range legendItems {
		s.Legend = append(s.Legend, [3]string{l.sym, l.color, l.text})
	}
	return s
}
