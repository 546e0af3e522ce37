package app

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"watchlens/app/jsrt"
	"watchlens/report"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// renderExports is the header's Export menu: the report as Markdown
// (for a postmortem document) and JSON (for scripts), the visible
// timeline as PNG with its title, files, range and legend, and a trace
// for Perfetto UI.
func (p *Page) renderExports() goapp.UI {
	return goapp.Details().ID("exports").Class("exports menu").Body(
		goapp.Summary().Text("Export"),
		goapp.Div().Class("menu-items").Body(
			goapp.Button().ID("export-md").Text("Markdown report").OnClick(p.onExportMarkdown),
			goapp.Button().ID("export-json").Text("JSON report").OnClick(p.onExportJSON),
			goapp.Button().ID("export-png").Text("Timeline PNG").OnClick(p.onExportPNG),
			goapp.Button().ID("export-perfetto").Title("Chrome JSON trace format: open it in ui.perfetto.dev or chrome://tracing").Text("Perfetto trace").OnClick(p.onExportPerfetto),
		),
	)
}

func (p *Page) onExportPerfetto(ctx goapp.Context, e goapp.Event) {
	an := p.analysis.an
	p.exportReport("watchlens-trace.json", "application/json", func(w io.Writer) error { return report.WritePerfetto(w, an) })
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
	png := goapp.Window().Get("watchlensPNG")
	if !png.Truthy() {
		jsrt.SaveURL("watchlens-timeline.png", canvas.Call("toDataURL", "image/png").String())
		return
	}
	spec, _ := json.Marshal(p.pngSpec())
	jsrt.SaveURL("watchlens-timeline.png", png.Invoke(canvas, string(spec)).String())
}

// pngSpec is what the PNG carries around the timeline: a title, the
// files, the range shown, the verdict's first line and the legend.
type pngSpec struct {
	Title  string      `json:"title"`
	Lines  []string    `json:"lines"`
	Legend [][3]string `json:"legend"` // symbol, colour, text
}

func (p *Page) pngSpec() pngSpec {
	s := pngSpec{Title: "watchlens: " + strings.Join(p.fileNames(), ", ")}
	c := p.capture
	from, to := p.view.from, p.view.to
	if from == 0 && to == 0 {
		from, to = c.prep.Cache.Extent(p.view.axisRV)
	}
	s.Lines = append(s.Lines, "Shown: "+c.prep.Cache.FormatPos(p.view.axisRV, from)+" to "+c.prep.Cache.FormatPos(p.view.axisRV, to))
	if r := p.analysis.report; r != nil && len(r.Summary) > 0 {
		s.Lines = append(s.Lines, r.Summary[0].Text)
	}
	for _, l := range legendItems {
		s.Legend = append(s.Legend, [3]string{l.sym, l.color, l.text})
	}
	return s
}
