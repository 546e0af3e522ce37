package app

import (
	"encoding/json"

	"watchlens/app/canvas"
	"watchlens/app/engine"
	"watchlens/app/jsrt"
	"watchlens/internal/quantity"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// actionExportPNG: the user asked for the view shown, the timeline or the
// fleet, as a picture; its value is the pngSpec of what frames it, which
// the view completes with its range and legend.
const actionExportPNG = "timeline/png"

// pngScale is the picture's pixels per CSS pixel, whatever the screen's:
// sharp in a document viewed on a HiDPI screen or printed.
const pngScale = 2

// exportPNG draws the timeline again as a picture, at pngScale and
// without the controls drawn on the canvas, with the timeline's legend.
func (v *TimelineView) exportPNG(ctx goapp.Context, a goapp.Action) {
	ctx.PreventUpdate()
	if !v.ready() {
		ctx.NewActionWithValue(actionProblem, "There is no timeline to export yet.")
		return
	}
	st := v.viewState(v.layout.Width, pngScale)
	st.Print = true
	eng, spec := v.eng, a.Value.(pngSpec)
	type picture struct {
		fr    canvas.Frame
		shown engine.ViewSummary
	}
	ask(ctx, eng, func() *picture {
		p := &picture{}
		eng.Frame(st, &p.fr)
		p.shown = eng.Summary(st)
		return p
	}, func(ctx goapp.Context, p *picture) {
		ctx.PreventUpdate()
		spec.Lines = append(spec.Lines, "Shown: "+p.shown.FromText+" to "+p.shown.ToText)
		servers, metrics := len(p.shown.Servers) > 0, false
		for _, sv := range p.shown.Servers {
			metrics = metrics || sv.Metrics
		}
		for _, l := range legendItems {
			if l.from == "servers" && !servers || l.from == "metrics" && !metrics {
				continue
			}
			spec.Legend = append(spec.Legend, [3]string{l.sym, l.color, l.text})
		}
		exportPicture(ctx, canvasOf(v), &v.frames, &p.fr, spec)
	})
}

// fleetLegend is the fleet view's marks, in its PNG.
var fleetLegend = [][3]string{
	{"━", canvas.ColorIgnoring, "clients a reconnect then would send to relist, without bookmarks"},
	{"━", canvas.ColorAware, "with bookmarks"},
	{"▮", canvas.ColorDeleted, "relists seen"},
	{"■", canvas.ColorZone, "a reconnect of the client's own cursor refused (410)"},
	{"▥", canvas.ColorZone, "refused had it chosen otherwise about bookmarks"},
	{"○", canvas.ColorFg, "a relist"},
	{"┆", canvas.ColorFg, "API server restart"},
	{"✗", canvas.ColorFg, "a client that did not ask for bookmarks"},
}

// exportPNG draws the fleet again as a picture at pngScale, its rows as
// scrolled, with the fleet's legend.
func (v *FleetView) exportPNG(ctx goapp.Context, a goapp.Action) {
	ctx.PreventUpdate()
	cv := canvasOf(v)
	if cv == nil || !v.has() {
		ctx.NewActionWithValue(actionProblem, "There is no fleet to export yet.")
		return
	}
	st := v.state(v.layout.Width, pngScale)
	st.Print = true
	eng, spec := v.eng, a.Value.(pngSpec)
	loc := v.zone()
	spec.Lines = append(spec.Lines, "Fleet of "+quantity.Plural(len(v.fleet.Rows), "client")+", shown: "+timeline.FormatInstant(v.from, loc)+" to "+timeline.FormatInstant(v.to, loc))
	spec.Legend = fleetLegend
	ask(ctx, eng, func() *canvas.Frame {
		var fr canvas.Frame
		eng.FleetFrame(st, &fr)
		return &fr
	}, func(ctx goapp.Context, fr *canvas.Frame) {
		ctx.PreventUpdate()
		exportPicture(ctx, cv, &v.frames, fr, spec)
	})
}

// exportPicture draws fr on a canvas of its own beside the shown canvas
// cv (where the page's colours resolve), has web/timeline.js's
// watchlensPNG put the title, the verdict and the legend of spec around
// it, and downloads the picture.
func exportPicture(ctx goapp.Context, cv goapp.Value, frames *frameSender, fr *canvas.Frame, spec pngSpec) {
	draw, png := goapp.Window().Get("watchlensDraw"), goapp.Window().Get("watchlensPNG")
	if cv == nil || !draw.Truthy() || !png.Truthy() {
		ctx.NewActionWithValue(actionProblem, "There is nothing to export yet.")
		return
	}
	js, err := json.Marshal(spec)
	if err != nil {
		ctx.NewActionWithValue(actionProblem, "The picture could not be made: "+err.Error())
		return
	}
	doc := goapp.Window().Get("document")
	pic := doc.Call("createElement", "canvas")
	style := pic.Get("style")
	style.Set("position", "absolute")
	style.Set("visibility", "hidden")
	cv.Get("parentElement").Call("appendChild", pic)
	defer pic.Call("remove")
	frames.send(draw, pic, fr)
	url := png.Invoke(pic, string(js)).String()
	// What the picture holds, on the canvas shown, for tools that check
	// it (the browser tests).
	ds := cv.Get("dataset")
	ds.Set("pngTop", pic.Get("dataset").Get("pngTop"))
	ds.Set("pngText", pic.Get("dataset").Get("pngText"))
	ds.Set("pngLegend", pic.Get("dataset").Get("pngLegend"))
	jsrt.SaveURL("watchlens-timeline.png", url)
}
