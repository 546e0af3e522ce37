package app

import (
	"bytes"
	"io"

	"watchlens/app/jsrt"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// renderExports offers the report as Markdown (for a postmortem document)
// and JSON (for scripts), and the visible timeline as PNG.
func (p *Page) renderExports() goapp.UI {
	return goapp.Div().ID("exports").Class("exports").Body(
		goapp.Span().Text("Export: "),
		goapp.Button().ID("export-md").Text("Markdown report").OnClick(p.onExportMarkdown),
		goapp.Button().ID("export-json").Text("JSON report").OnClick(p.onExportJSON),
		goapp.Button().ID("export-png").Text("Timeline PNG").OnClick(p.onExportPNG),
	)
}

func (p *Page) onExportMarkdown(ctx goapp.Context, e goapp.Event) {
	p.exportReport("watchlens-report.md", "text/markdown", p.analysis.report.WriteMarkdown)
}

func (p *Page) onExportJSON(ctx goapp.Context, e goapp.Event) {
	p.exportReport("watchlens-report.json", "application/json", p.analysis.report.WriteJSON)
}

// exportReport downloads the report in the form write renders.
func (p *Page) exportReport(name, mime string, write func(io.Writer) error) {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		p.problem = "The report could not be written: " + err.Error()
		return
	}
	jsrt.Download(name, mime, b.Bytes())
}

func (p *Page) onExportPNG(ctx goapp.Context, e goapp.Event) {
	canvas := goapp.Window().Get("document").Call("querySelector", "#timeline-panel canvas")
	if !canvas.Truthy() {
		p.problem = "There is no timeline to export yet."
		return
	}
	jsrt.SaveURL("watchlens-timeline.png", canvas.Call("toDataURL", "image/png").String())
}
