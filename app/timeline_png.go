package app

import (
	"watchlens/app/canvas"
	"watchlens/app/jsrt"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// actionExportPNG: the user asked for the timeline as a picture; its
// value is the JSON of what frames it (pngSpec).
const actionExportPNG = "timeline/png"

// pngScale is the picture's pixels per CSS pixel, whatever the screen's:
// sharp in a document viewed on a HiDPI screen or printed.
const pngScale = 2

// exportPNG draws the view again as a picture, at pngScale and without
// the controls drawn on the canvas, on a canvas of its own beside the
// shown one (where the page's colours resolve), and has web/timeline.js's
// watchlensPNG put the title, the verdict and the legend around it.
func (v *TimelineView) exportPNG(ctx goapp.Context, a goapp.Action) {
	ctx.PreventUpdate()
	cv := canvasOf(v)
	draw, png := goapp.Window().Get("watchlensDraw"), goapp.Window().Get("watchlensPNG")
	if cv == nil || !v.ready() || !draw.Truthy() || !png.Truthy() {
		ctx.NewActionWithValue(actionProblem, "There is no timeline to export yet.")
		return
	}
	doc := goapp.Window().Get("document")
	pic := doc.Call("createElement", "canvas")
	style := pic.Get("style")
	style.Set("position", "absolute")
	style.Set("visibility", "hidden")
	cv.Get("parentElement").Call("appendChild", pic)
	defer pic.Call("remove")

	st := v.viewState(v.layout.Width, pngScale)
	st.Print = true
	var fr canvas.Frame
	v.cache.Build(st, &fr)
	v.frames.send(draw, pic, &fr)
	url := png.Invoke(pic, a.Value.(string)).String()
	// What the picture holds, on the canvas shown, for tools that check
	// it (the browser tests).
	ds := cv.Get("dataset")
	ds.Set("pngTop", pic.Get("dataset").Get("pngTop"))
	ds.Set("pngText", pic.Get("dataset").Get("pngText"))
	jsrt.SaveURL("watchlens-timeline.png", url)
}
