package app

import (
	"strings"

	"watchlens/app/engine"
	"watchlens/app/jsrt"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// ExportMenu is the header's Export menu: the report as Markdown (for a
// postmortem document) and JSON (for scripts), the view shown (the
// timeline or the fleet) as a PNG with its title, files, range, verdict
// and legend, and a trace for Perfetto UI. What goes wrong it posts for the page to say (actionProblem).
type ExportMenu struct {
	goapp.Compo
	Capture  *capture
	Analysis analysis
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
	x.export(ctx, engine.ReportPerfetto, "watchlens-trace.json", "application/json")
}

func (x *ExportMenu) onExportMarkdown(ctx goapp.Context, e goapp.Event) {
	x.export(ctx, engine.ReportMarkdown, "watchlens-report.md", "text/markdown")
}

// onExportJSON downloads the JSON report, whose times are UTC whatever
// zone the page writes in (a contract, report/REPORT.md, which the engine
// keeps).
func (x *ExportMenu) onExportJSON(ctx goapp.Context, e goapp.Event) {
	x.export(ctx, engine.ReportJSON, "watchlens-report.json", "application/json")
}

// export asks the engine for the report in format, and downloads it as
// name. Over 10 000 virtual clients the report takes more than a second
// as wasm: the click's handler does not wait for it.
func (x *ExportMenu) export(ctx goapp.Context, format engine.ReportFormat, name, mime string) {
	eng := x.Capture.Engine
	ctx.Async(func() {
		text, err := eng.Report(format, "")
		ctx.Dispatch(func(ctx goapp.Context) {
			if err != nil {
				ctx.NewActionWithValue(actionProblem, "The report could not be written: "+err.Error())
				return
			}
			jsrt.Download(name, mime, []byte(text))
		})
	})
}

func (x *ExportMenu) onExportPNG(ctx goapp.Context, e goapp.Event) {
	// The view shown, the timeline or the fleet, draws its own picture
	// (timeline_png.go).
	ctx.NewActionWithValue(actionExportPNG, x.pngSpec())
}

// pngSpec is what the PNG carries around the view: a title, the range
// shown, the whole verdict and the view's legend.
type pngSpec struct {
	Title   string      `json:"title"`
	Lines   []string    `json:"lines"`
	Verdict []string    `json:"verdict"`
	Legend  [][3]string `json:"legend"` // symbol, colour, text
}

// pngSpec is the picture's title and verdict; the view adds its range
// and legend.
func (x *ExportMenu) pngSpec() pngSpec {
	s := pngSpec{Title: "watchlens: " + strings.Join(x.Capture.fileNames(), ", ")}
	for _, l := range x.Analysis.summary {
		s.Verdict = append(s.Verdict, l.Text)
	}
	return s
}
