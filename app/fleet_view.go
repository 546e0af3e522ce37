package app

import (
	"math"
	"strconv"
	"strings"
	"time"

	"watchlens/app/canvas"
	"watchlens/app/words"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// FleetView is the fleet on one clock: a row per client, riskiest first,
// red where a reconnect of the client would have been refused; above the
// rows the clients a reconnect would have sent to relist at each instant,
// with and without bookmarks, the relists seen, and the API server
// restarts. It pans and zooms as the timeline does; a click on a row
// opens that client's timeline, a shift-drag counts what a range holds.
//
// Its fields are the analysis and the range it opens on: everything else
// is its own state, so the page's renders leave it alone (see
// TimelineView on go-app's copying of exported fields).
type FleetView struct {
	goapp.Compo
	Analysis *timeline.Analysis
	// From and To are the timeline's range on the time axis, which the
	// fleet opens on; 0 and 0 for its whole range.
	From, To int64

	data     *canvas.FleetData
	dataFor  *timeline.Analysis
	from, to int64
	scrollY  float64
	maxH     float64
	// stageMinH is the least height given to the stage, CSS px.
	stageMinH float64
	// picked is what the last shift-dragged range holds, nil before one.
	picked   *canvas.FleetRange
	fr       canvas.Frame
	scratch  canvas.FleetScratch
	layout   canvas.FleetLayout // of the last frame drawn, for hit-testing
	drag     *fleetDrag
	bytes    []byte
	jsBuf    goapp.Value
	jsBufLen int
	waits    int // frames put off because web/timeline.js was not loaded yet
	// ctx is the mount's, which OnDismount (given none) posts with.
	ctx *goapp.Context
}

// fleetDrag is a pointer drag on the fleet's canvas in progress.
type fleetDrag struct {
	x0, y0   float64
	from, to int64
	scrollY  float64
	shift    bool
	moved    bool
	inRows   bool
}

// actionFleetOpen: the user picked a client in the fleet view; its value
// is the client's file index, whose timeline the page then shows.
const actionFleetOpen = "fleet/open"

// actionFleetShow: the user switched between the timeline (false) and the
// fleet view (true).
const actionFleetShow = "fleet/show"

// fleetState is the page's choice between the timeline and the fleet
// view, and the client last opened from the fleet.
type fleetState struct {
	shown bool
	// opened is 1 + the file whose timeline the fleet view opened, 0
	// for none (see TimelineView.PinnedFile).
	opened int
}

// hasFleet says whether the capture open has a fleet: two clients or more.
func (p *Page) hasFleet() bool {
	return p.capture != nil && p.analysis.an != nil && p.analysis.an.Fleet() != nil
}

// viewSwitch offers the fleet view beside the timeline, when two or
// more clients are open.
func viewSwitch(fleetShown bool) goapp.UI {
	button := func(id, text, title string, fleet bool) goapp.UI {
		return goapp.Button().ID(id).Class("tab").Title(title).Aria("pressed", fleetShown == fleet).Text(text).
			OnClick(func(ctx goapp.Context, e goapp.Event) { ctx.NewActionWithValue(actionFleetShow, fleet) })
	}
	return goapp.Span().ID("view-switch").Class("view-switch").Role("group").Aria("label", "View").Body(
		button("show-timeline", "Timeline", "Every event of the files open, a group of tracks per file", false),
		button("show-fleet", "Fleet", "Every client on one clock: who would have relisted when, with and without bookmarks", true),
	)
}

// onFleetOpen shows the timeline of the client picked in the fleet view.
func (p *Page) onFleetOpen(ctx goapp.Context, a goapp.Action) {
	p.fleet = fleetState{opened: a.Value.(int) + 1}
}

// sync brings the data up to date with the analysis.
func (v *FleetView) sync() {
	if v.Analysis == v.dataFor {
		return
	}
	v.dataFor = v.Analysis
	v.data, v.picked = nil, nil
	if v.Analysis != nil {
		v.data = canvas.NewFleetData(v.Analysis)
	}
	if v.data != nil {
		if v.to <= v.from || v.from < v.data.From || v.to > v.data.To {
			v.from, v.to = v.data.From, v.data.To
			if v.To > v.From {
				v.from, v.to = canvas.FitRange(v.From, v.To, v.data.From, v.data.To)
			}
		}
		v.scrollY = 0
	}
}

func (v *FleetView) OnMount(ctx goapp.Context) {
	v.ctx = &ctx
	v.sync()
	v.draw(ctx)
}

func (v *FleetView) OnUpdate(ctx goapp.Context) {
	v.sync()
	ctx.Defer(v.draw)
}

func (v *FleetView) OnResize(ctx goapp.Context) { v.draw(ctx) }

// OnDismount hands the range shown to the timeline, which the page shows
// next: the whole range as 0 and 0, the timeline's own whole.
func (v *FleetView) OnDismount() {
	if v.data == nil || v.ctx == nil {
		return
	}
	r := fleetRange{an: v.dataFor}
	if v.from > v.data.From || v.to < v.data.To {
		r.from, r.to = v.from, v.to
	}
	// The page's handler runs with the page as its source, so a
	// context kept from the mount posts after it.
	v.ctx.NewActionWithValue(actionFleetRange, r)
}

// actionFleetRange: the fleet view closed on a range (a fleetRange),
// which the timeline then shows.
const actionFleetRange = "fleet/range"

// fleetRange is the time range a fleet view closed on, and the analysis
// it showed: a range of another capture's fleet means nothing.
type fleetRange struct {
	an       *timeline.Analysis
	from, to int64
}

// fleetView is the fleet view, opening on the timeline's range when it
// is one of time.
func (p *Page) fleetView() goapp.UI {
	v := &FleetView{Analysis: p.analysis.an}
	if !p.view.axisRV {
		v.From, v.To = p.view.from, p.view.to
	}
	return v
}

// onFleetRange shows the fleet's last range on the timeline.
func (p *Page) onFleetRange(ctx goapp.Context, a goapp.Action) {
	r := a.Value.(fleetRange)
	if r.an != p.analysis.an || p.view.axisRV {
		return
	}
	p.view.from, p.view.to = r.from, r.to
	p.saveURL(ctx)
}

func (v *FleetView) viewport(width, dpr float64) *canvas.FleetViewport {
	return &canvas.FleetViewport{From: v.from, To: v.to, Width: width, MaxHeight: v.maxH, PixelRatio: dpr, ScrollY: v.scrollY}
}

// canvas is the component's canvas element.
func (v *FleetView) canvas() goapp.Value {
	if !v.Mounted() {
		return nil
	}
	c := v.JSValue().Call("querySelector", "canvas")
	if c.IsNull() || c.IsUndefined() {
		return nil
	}
	return c
}

func (v *FleetView) draw(ctx goapp.Context) { v.drawWith(ctx, nil) }

// drawWith builds a frame, changed by adjust when not nil, and hands it
// to web/timeline.js in one call.
func (v *FleetView) drawWith(ctx goapp.Context, adjust func(*canvas.FleetViewport)) {
	cv := v.canvas()
	if cv == nil || v.data == nil {
		return
	}
	fn := goapp.Window().Get("watchlensDraw")
	if fn.IsUndefined() {
		if v.waits < 50 {
			v.waits++
			ctx.After(200*time.Millisecond, func(ctx goapp.Context) { ctx.PreventUpdate(); v.draw(ctx) })
		}
		return
	}
	stage := cv.Get("parentElement")
	if minH := v.data.MinHeight(); minH != v.stageMinH {
		// The stage holds the bands and a dozen rows at least: the page
		// scrolls down rather than hide the rows under the dock.
		v.stageMinH = minH
		stage.Get("style").Set("minHeight", strconv.FormatFloat(minH, 'f', 0, 64)+"px")
	}
	v.maxH = 0
	if h := stage.Get("clientHeight").Float(); h >= 100 {
		v.maxH = h
	}
	width := max(stage.Get("clientWidth").Float(), 320)
	vp := v.viewport(width, max(goapp.Window().Get("devicePixelRatio").Float(), 1))
	if adjust != nil {
		adjust(vp)
	}
	prev := v.layout
	v.layout = v.data.Build(vp, &v.fr, &v.scratch)
	if prev.PlotX != v.layout.PlotX || prev.PlotW != v.layout.PlotW || prev.RowsY != v.layout.RowsY || prev.CurvesY != v.layout.CurvesY {
		// Where the plot, the curves and the rows sit, for tools that
		// point at them (the browser tests do).
		ds := cv.Get("dataset")
		ds.Set("plotX", v.layout.PlotX)
		ds.Set("plotW", v.layout.PlotW)
		ds.Set("curvesY", v.layout.CurvesY)
		ds.Set("histY", v.layout.HistY)
		ds.Set("rowsY", v.layout.RowsY)
		ds.Set("rowH", canvas.FleetRowH)
	}
	cv.Get("dataset").Set("scrollY", v.scrollY)
	cv.Get("dataset").Set("from", strconv.FormatInt(v.from, 10))
	cv.Get("dataset").Set("to", strconv.FormatInt(v.to, 10))
	spec, err := v.fr.Spec()
	if err != nil {
		return
	}
	b, n := v.fr.Floats(v.bytes)
	v.bytes = b
	if v.jsBuf == nil || v.jsBufLen < len(b) {
		v.jsBufLen = max(len(b), 1<<16)
		v.jsBuf = goapp.Window().Get("Uint8Array").New(v.jsBufLen)
	}
	goapp.CopyBytesToJS(v.jsBuf, b)
	fn.Invoke(cv, string(spec), v.jsBuf, n)
}

func (v *FleetView) Render() goapp.UI {
	v.sync()
	if v.data == nil {
		return goapp.Section().Class("timeline")
	}
	return goapp.Section().Class("timeline").ID("fleet").Body(
		goapp.H3().Class("tl-visually-hidden").Text("Fleet"),
		v.renderHeadline(),
		goapp.Div().Class("tl-stage").Body(
			goapp.Canvas().
				TabIndex(0).
				Role("img").
				Aria("label", "The fleet: a row per client, riskiest first, red where a reconnect would have been refused; use the arrow keys to pan and scroll, + and - to zoom, 0 to reset; the summary below lists what it shows").
				Aria("describedby", "fleet-summary").
				OnWheel(v.onWheel).
				On("pointerdown", v.onPointerDown).
				On("pointermove", v.onPointerMove).
				On("pointerup", v.onPointerUp).
				On("pointercancel", v.onPointerCancel).
				On("pointerleave", v.onPointerLeave).
				OnDblClick(v.onDblClick).
				OnKeyDown(v.onKeyDown),
			goapp.Div().Class("tl-tip").Role("tooltip").Style("display", "none"),
		),
		v.renderPicked(),
		v.renderSummary(),
	)
}

// renderHeadline says what the view shows, and its marks.
func (v *FleetView) renderHeadline() goapp.UI {
	key := func(sym, color, opacity, text string) goapp.UI {
		return goapp.Span().Style("margin-right", "0.9em").Body(goapp.Span().Class("tl-sym").Style("color", "var("+color+")").Style("opacity", opacity).Aria("hidden", "true").Text(sym), goapp.Text(text))
	}
	return goapp.Div().Class("tl-legend").Body(
		goapp.P().Class("tl-hint").Body(
			key("■", canvas.ColorZone, "", "a reconnect then would get 410 Gone and relist"),
			key("■", canvas.ColorZone, "0.35", "pale: it would have, had the client made the other choice about bookmarks"),
			key("○", canvas.ColorFg, "", "a relist seen"),
			key("✗", canvas.ColorFg, "", "did not ask for bookmarks"),
			key("┆", canvas.ColorFg, "", "API server restart"),
		),
		goapp.P().Class("tl-hint").Text("Rows: riskiest client first. Click a row: open its timeline · wheel: zoom, over the names: scroll · drag: pan · shift-drag: count what a range holds · double-click: reset."),
	)
}

// renderPicked says what the shift-dragged range holds.
func (v *FleetView) renderPicked() goapp.UI {
	r := v.picked
	if r == nil {
		return goapp.P().ID("fleet-range").Class("tl-hint").Text("Shift-drag over the fleet to count the clients and relists of a stretch of time.")
	}
	text := "From " + fleetClock(r.From) + " to " + fleetClock(r.To) + ": a reconnect would have sent " +
		words.Plural(r.Without, "client") + " to relist without bookmarks (at most " + strconv.Itoa(r.PeakWithout) + " at once) and " +
		strconv.Itoa(r.With) + " with bookmarks (at most " + strconv.Itoa(r.PeakWith) + " at once); " + words.Plural(r.Relists, "relist") + " seen."
	return goapp.P().ID("fleet-range").Class("tl-hint").
		DataSet("from", strconv.FormatInt(r.From, 10)).DataSet("to", strconv.FormatInt(r.To, 10)).
		DataSet("with", r.With).DataSet("without", r.Without).
		DataSet("peak-with", r.PeakWith).DataSet("peak-without", r.PeakWithout).
		DataSet("relists", r.Relists).
		Text(text)
}

// renderSummary is the fleet in words, for screen readers and tests.
func (v *FleetView) renderSummary() goapp.UI {
	fl := v.data.Fleet
	names := make([]string, len(v.data.Rows))
	for i, r := range v.data.Rows {
		names[i] = r.Client.Name
	}
	return goapp.Dl().ID("fleet-summary").Class("tl-summary").
		DataSet("clients", len(v.data.Rows)).
		DataSet("order", strings.Join(names, "\n")).
		DataSet("max-with", v.data.MaxWith).
		DataSet("max-without", v.data.MaxWithout).
		DataSet("relists", fl.RelistsObserved).
		DataSet("restarts", len(v.data.Restarts)).
		Body(
			goapp.Dt().Text("Clients"),
			goapp.Dd().Text(strconv.Itoa(len(v.data.Rows))),
			goapp.Dt().Text("Relists seen"),
			goapp.Dd().Text(strconv.Itoa(fl.RelistsObserved)),
			goapp.Dt().Text("Worst moment for every watch to drop"),
			goapp.Dd().Text(words.Plural(v.data.MaxWithout, "client")+" sent to relist without bookmarks, "+strconv.Itoa(v.data.MaxWith)+" with them"),
			goapp.Dt().Text("API server restarts seen"),
			goapp.Dd().Text(strconv.Itoa(len(v.data.Restarts))),
		)
}

// clockText shows an instant of the shared clock, UTC.
func fleetClock(t int64) string { return time.Unix(0, t).UTC().Format("15:04:05.000") }

// ready says a frame has been drawn, so the layout the handlers map the
// pointer through exists.
func (v *FleetView) ready() bool { return v.data != nil && v.layout.PlotW > 0 }

func (v *FleetView) scale() canvas.Scale { return v.viewport(v.layout.Width, 1).Scale(&v.layout) }

// zoom scales the view by factor around the instant at pixel x.
func (v *FleetView) zoom(x, factor float64) {
	anchor := v.scale().At(math.Max(v.layout.PlotX, math.Min(x, v.layout.PlotX+v.layout.PlotW)))
	v.from, v.to = canvas.ZoomRange(v.from, v.to, anchor, factor, v.data.From, v.data.To, canvas.MinSpanTime)
}

// pan shifts the view by px pixels (positive: later).
func (v *FleetView) pan(px float64) {
	d := int64(math.Round(px * float64(v.to-v.from) / v.layout.PlotW))
	v.from, v.to = canvas.PanRange(v.from, v.to, d, v.data.From, v.data.To)
}

func (v *FleetView) scrollBy(px float64) { v.scrollY = v.layout.ClampScroll(v.scrollY + px) }

func (v *FleetView) onWheel(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	if !v.ready() {
		return
	}
	e.PreventDefault()
	x, y := pointer(e)
	unit := 1.0
	switch e.Get("deltaMode").Int() {
	case 1:
		unit = 16
	case 2:
		unit = 400
	}
	dx, dy := e.Get("deltaX").Float()*unit, e.Get("deltaY").Float()*unit
	perDelta := 0.002 // as the timeline's wheel (TimelineView.onWheel)
	if e.Get("ctrlKey").Bool() {
		perDelta = 0.01
	}
	switch {
	case x < v.layout.PlotX && v.layout.AreaAt(y) == canvas.FleetRows:
		v.scrollBy(dy)
	case math.Abs(dx) > math.Abs(dy):
		v.pan(dx)
	default:
		v.zoom(x, math.Exp(math.Max(-1, math.Min(dy*perDelta, 1))))
	}
	v.draw(ctx)
}

func (v *FleetView) onPointerDown(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	if !v.ready() || e.Get("button").Int() != 0 {
		return
	}
	x, y := pointer(e)
	ctx.JSSrc().Call("setPointerCapture", e.Get("pointerId"))
	v.drag = &fleetDrag{x0: x, y0: y, from: v.from, to: v.to, scrollY: v.scrollY,
		shift: e.Get("shiftKey").Bool(), inRows: v.layout.AreaAt(y) == canvas.FleetRows}
}

func (v *FleetView) onPointerMove(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	if !v.ready() {
		return
	}
	x, y := pointer(e)
	d := v.drag
	if d == nil {
		h := v.data.HitTest(v.viewport(v.layout.Width, 1), &v.layout, x, y)
		v.tip(h.Text, x, y)
		return
	}
	if math.Abs(x-d.x0) > 3 || math.Abs(y-d.y0) > 3 {
		d.moved = true
	}
	if !d.moved {
		return
	}
	v.tip("", 0, 0)
	if d.shift {
		v.drawWith(ctx, func(vp *canvas.FleetViewport) {
			vp.Selecting, vp.SelectFrom, vp.SelectTo = true, d.x0, math.Max(v.layout.PlotX, math.Min(x, v.layout.PlotX+v.layout.PlotW))
		})
		return
	}
	v.from, v.to = d.from, d.to
	v.pan(d.x0 - x)
	if d.inRows {
		v.scrollY = v.layout.ClampScroll(d.scrollY + d.y0 - y)
	}
	v.draw(ctx)
}

func (v *FleetView) onPointerUp(ctx goapp.Context, e goapp.Event) {
	d := v.drag
	v.drag = nil
	if d == nil || !v.ready() {
		ctx.PreventUpdate()
		return
	}
	x, y := pointer(e)
	switch {
	case !d.moved:
		h := v.data.HitTest(v.viewport(v.layout.Width, 1), &v.layout, x, y)
		if h.Row < 0 {
			ctx.PreventUpdate()
			return
		}
		ctx.NewActionWithValue(actionFleetOpen, v.data.Rows[h.Row].Client.File)
	case d.shift:
		a, b := math.Max(math.Min(d.x0, x), v.layout.PlotX), math.Min(math.Max(d.x0, x), v.layout.PlotX+v.layout.PlotW)
		if b-a < 4 {
			ctx.PreventUpdate()
			v.draw(ctx)
			return
		}
		s := v.scale()
		r := v.data.RangeCounts(s.At(a), s.At(b))
		v.picked = &r
		v.from, v.to = canvas.FitRange(r.From, max(r.To, r.From+canvas.MinSpanTime), v.data.From, v.data.To)
		v.draw(ctx)
	default:
		ctx.PreventUpdate()
		v.draw(ctx)
	}
}

func (v *FleetView) onPointerCancel(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	v.drag = nil
}

func (v *FleetView) onPointerLeave(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	v.tip("", 0, 0)
}

func (v *FleetView) onDblClick(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	if !v.ready() {
		return
	}
	e.PreventDefault()
	v.from, v.to = v.data.From, v.data.To
	v.draw(ctx)
}

func (v *FleetView) onKeyDown(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	if !v.ready() {
		return
	}
	center := v.layout.PlotX + v.layout.PlotW/2
	switch e.Get("key").String() {
	case "ArrowLeft":
		v.pan(-v.layout.PlotW / 10)
	case "ArrowRight":
		v.pan(v.layout.PlotW / 10)
	case "+", "=":
		v.zoom(center, 0.7)
	case "-", "_":
		v.zoom(center, 1/0.7)
	case "0", "Home":
		v.from, v.to = v.data.From, v.data.To
	case "ArrowUp":
		v.scrollBy(-canvas.FleetRowH)
	case "ArrowDown":
		v.scrollBy(canvas.FleetRowH)
	case "PageUp":
		v.scrollBy(-v.layout.RowsH)
	case "PageDown":
		v.scrollBy(v.layout.RowsH)
	default:
		return
	}
	e.PreventDefault()
	v.draw(ctx)
}

// tip shows text in the tooltip near (x, y), or hides it when text is
// empty, without rendering the component.
func (v *FleetView) tip(text string, x, y float64) {
	if !v.Mounted() {
		return
	}
	el := v.JSValue().Call("querySelector", ".tl-tip")
	if el.IsNull() {
		return
	}
	st := el.Get("style")
	if text == "" {
		st.Set("display", "none")
		return
	}
	el.Set("textContent", text)
	st.Set("display", "block")
	left, top := x+14, y+14
	if w := el.Get("offsetWidth").Float(); left+w > v.layout.Width {
		left = math.Max(0, x-14-w)
	}
	st.Set("left", strconv.FormatFloat(left, 'f', 0, 64)+"px")
	st.Set("top", strconv.FormatFloat(top, 'f', 0, 64)+"px")
}
