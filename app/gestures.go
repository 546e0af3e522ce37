package app

import (
	"math"
	"strconv"
	"time"

	"watchlens/app/canvas"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// gestures is a canvas view's range and scroll as the user moves them
// with the wheel, the pointer and the keys, and the handlers that move
// them. The timeline and the fleet views embed it, so its handlers are
// theirs; the steps in which the two differ (what the plot maps to, what
// a click does, what the page hears of a move) are the view's own, behind
// gestureView, as the tracks of Perfetto's timeline each implement one
// interface the shared panning and zooming call.
type gestures struct {
	// view is the view that embeds this, set as it renders, before any
	// of its events can come.
	view     gestureView
	from, to int64   // the range shown, on the view's axis
	scrollY  float64 // how far the rows are scrolled, CSS px
	drag     *pointerDrag
	// tipShown says the tooltip is shown; tapEnd, while one a tap showed
	// is, hides it at the next pointerdown anywhere on the page (a tap
	// elsewhere, a finger's scroll) or from tapTimer, tapTipLinger on.
	tipShown bool
	tapEnd   goapp.Func
	tapTimer goapp.Value
	// tipText, tipX and tipY are the tooltip shown and where it was
	// asked for, to place it again for a new room (retip).
	tipText    string
	tipX, tipY float64
}

// tapTipLinger is how long a tooltip a tap showed stays when nothing
// else happens: a finger cannot leave a canvas as a mouse does, so the
// tooltip would stay over the plot until the next tap.
const tapTipLinger = 6 * time.Second

// gestureView is what a canvas view tells its gestures.
type gestureView interface {
	goapp.Composer
	// ready says a frame has been drawn, so the layout the handlers map
	// the pointer through exists.
	ready() bool
	// plot is where the last frame's plot sits, and the frame's width,
	// CSS px.
	plot() (x, w, width float64)
	// extent is the whole range the view can show, and minSpan the
	// least range it zooms to.
	extent() (lo, hi int64)
	minSpan() int64
	// scale maps the last frame's pixels to the axis.
	scale() canvas.Scale
	// overRows says y is on the rows that scroll, and clampScroll keeps
	// a scroll within them; rowStep is one row's height and a page's.
	overRows(y float64) bool
	clampScroll(y float64) float64
	rowStep() (row, page float64)
	// draw draws a frame; drawSelecting one with the range from pixel x0
	// to x1 shown selected.
	draw(ctx goapp.Context)
	drawSelecting(ctx goapp.Context, x0, x1 float64)
	// moved draws after the wheel or a key moved the range; settled
	// after a drag or a double-click ended.
	moved(ctx goapp.Context)
	settled(ctx goapp.Context)
	// hover says what lies under the pointer at (x, y), then calls then
	// (if not nil) once the tooltip says it: an engine in a worker
	// answers later; click does what a click there does.
	hover(ctx goapp.Context, x, y float64, then func())
	click(ctx goapp.Context, x, y float64)
	// brushed is a shift-drag over the range [from, to] ending.
	brushed(ctx goapp.Context, from, to int64)
	// instantAt is the instant at pixel x of the plot, false when the
	// plot is not one of time (see reconnectClick).
	instantAt(x float64) (int64, bool)
}

// pointerDrag is a pointer drag in progress.
type pointerDrag struct {
	x0, y0   float64
	from, to int64
	scrollY  float64
	shift    bool
	alt      bool // an Alt-click marks a reconnect instant
	moved    bool
	inRows   bool // it began on the rows, which it then scrolls
	// panel is, for a finger's drag, the timeline's pane, which the
	// drag's vertical part scrolls off the rows (the canvas takes every
	// touch, so the pane has no other place to be scrolled from on a
	// phone); panelTop is its scroll and clientY0 the finger's y when the
	// drag began.
	panel              goapp.Value
	panelTop, clientY0 float64
}

// pointer reads the pointer's position on the canvas's layout in CSS
// pixels: on the canvas, which a frame of the rows in view places that
// far down its stage (canvas.Frame.Top).
func pointer(e goapp.Event) (float64, float64) {
	return e.Get("offsetX").Float(), e.Get("offsetY").Float() + e.Get("target").Get("offsetTop").Float()
}

// clampToPlot is x moved into the last frame's plot.
func (g *gestures) clampToPlot(x float64) float64 {
	px, pw, _ := g.view.plot()
	return math.Max(px, math.Min(x, px+pw))
}

// zoom scales the view by factor around the value at pixel x.
func (g *gestures) zoom(x, factor float64) {
	anchor := g.view.scale().At(g.clampToPlot(x))
	lo, hi := g.view.extent()
	g.from, g.to = canvas.ZoomRange(g.from, g.to, anchor, factor, lo, hi, g.view.minSpan())
}

// pan shifts the view by px pixels (positive: later).
func (g *gestures) pan(px float64) {
	_, pw, _ := g.view.plot()
	lo, hi := g.view.extent()
	d := int64(math.Round(px * float64(g.to-g.from) / pw))
	g.from, g.to = canvas.PanRange(g.from, g.to, d, lo, hi)
}

func (g *gestures) scrollBy(px float64) { g.scrollY = g.view.clampScroll(g.scrollY + px) }

func (g *gestures) onWheel(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	if !g.view.ready() {
		return
	}
	e.PreventDefault()
	x, y := pointer(e)
	unit := 1.0
	switch e.Get("deltaMode").Int() {
	case 1: // lines
		unit = 16
	case 2: // pages
		unit = 400
	}
	dx, dy := e.Get("deltaX").Float()*unit, e.Get("deltaY").Float()*unit
	// A trackpad's pinch comes as a wheel turn with ctrlKey set, deltaY
	// being -100 times the log of the pinch's scale (Chromium, and Firefox
	// since 55): zooming by exp(deltaY/100) follows the fingers. A wheel's
	// notch, about 100, zooms by exp(0.2).
	perDelta := 0.002
	if e.Get("ctrlKey").Bool() {
		perDelta = 0.01
	}
	px, _, _ := g.view.plot()
	switch {
	case x < px && g.view.overRows(y):
		// Over the rows' names the wheel scrolls the rows.
		g.scrollBy(dy)
		g.view.draw(ctx)
		return
	case math.Abs(dx) > math.Abs(dy):
		g.pan(dx)
	default:
		g.zoom(x, math.Exp(math.Max(-1, math.Min(dy*perDelta, 1))))
	}
	g.view.moved(ctx)
}

func (g *gestures) onPointerDown(ctx goapp.Context, e goapp.Event) { g.pointerDown(ctx, e) }

// pointerDown starts a drag with the main button, and says whether it
// did and at which x.
func (g *gestures) pointerDown(ctx goapp.Context, e goapp.Event) (float64, bool) {
	ctx.PreventUpdate()
	if !g.view.ready() || e.Get("button").Int() != 0 {
		return 0, false
	}
	x, y := pointer(e)
	ctx.JSSrc().Call("setPointerCapture", e.Get("pointerId"))
	g.drag = &pointerDrag{x0: x, y0: y, from: g.from, to: g.to, scrollY: g.scrollY,
		shift: e.Get("shiftKey").Bool(), alt: e.Get("altKey").Bool(), inRows: g.view.overRows(y)}
	if e.Get("pointerType").String() == "touch" && !g.drag.inRows {
		if p := ctx.JSSrc().Call("closest", "#timeline-panel"); p.Truthy() {
			g.drag.panel, g.drag.panelTop, g.drag.clientY0 = p, p.Get("scrollTop").Float(), e.Get("clientY").Float()
		}
	}
	return x, true
}

func (g *gestures) onPointerMove(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	if !g.view.ready() {
		return
	}
	x, y := pointer(e)
	d := g.drag
	if d == nil {
		g.view.hover(ctx, x, y, nil)
		return
	}
	if math.Abs(x-d.x0) > 3 || math.Abs(y-d.y0) > 3 {
		d.moved = true
	}
	if !d.moved {
		return
	}
	if g.tipShown {
		// Hidden once: each move of a drag comes here.
		g.tip("", 0, 0)
	}
	if d.shift {
		g.view.drawSelecting(ctx, d.x0, g.clampToPlot(x))
		return
	}
	g.from, g.to = d.from, d.to
	g.pan(d.x0 - x)
	if d.inRows {
		g.scrollY = g.view.clampScroll(d.scrollY + d.y0 - y)
	}
	if d.panel != nil {
		d.panel.Set("scrollTop", d.panelTop+d.clientY0-e.Get("clientY").Float())
	}
	g.view.draw(ctx)
}

func (g *gestures) onPointerUp(ctx goapp.Context, e goapp.Event) {
	d := g.drag
	g.drag = nil
	if d == nil || !g.view.ready() {
		ctx.PreventUpdate()
		return
	}
	x, y := pointer(e)
	switch {
	case !d.moved && d.alt:
		g.reconnectClick(ctx, x)
	case !d.moved && e.Get("pointerType").String() == "touch":
		g.view.click(ctx, x, y)
		g.tapTip(ctx, x, y)
	case !d.moved:
		g.view.click(ctx, x, y)
	case d.shift:
		a, b := g.clampToPlot(math.Min(d.x0, x)), g.clampToPlot(math.Max(d.x0, x))
		if b-a < 4 {
			ctx.PreventUpdate()
			g.view.draw(ctx)
			return
		}
		s := g.view.scale()
		g.view.brushed(ctx, s.At(a), s.At(b))
	default:
		g.view.settled(ctx)
	}
}

// onPointerCancel forgets a drag the browser took back (the page
// scrolled, another gesture won): no click, no range to report.
func (g *gestures) onPointerCancel(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	g.drag = nil
}

// onPointerLeave hides the tooltip when the mouse leaves the canvas. A
// finger leaves it as it lifts, right after the tap that showed the
// tooltip, which then stays until tapTip's end.
func (g *gestures) onPointerLeave(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	if e.Get("pointerType").String() != "touch" {
		g.tip("", 0, 0)
	}
}

// tapTip shows, after a tap at (x, y), what lies there, as the pointer's
// hover does, and has it hide at the next pointerdown anywhere on the
// page (a tap elsewhere, a finger starting to scroll; one on the canvas
// then shows its own) or after tapTipLinger.
func (g *gestures) tapTip(ctx goapp.Context, x, y float64) {
	g.view.hover(ctx, x, y, g.endTipOnTap)
}

// endTipOnTap has the tooltip a tap showed hide at the next pointerdown
// or after tapTipLinger (see tapTip).
func (g *gestures) endTipOnTap() {
	if !g.tipShown {
		return
	}
	g.endTapTip()
	win := goapp.Window()
	g.tapEnd = goapp.FuncOf(func(goapp.Value, []goapp.Value) any {
		g.endTapTip()
		g.tip("", 0, 0)
		return nil
	})
	win.Call("addEventListener", "pointerdown", g.tapEnd, true)
	g.tapTimer = win.Call("setTimeout", g.tapEnd, tapTipLinger.Milliseconds())
}

// endTapTip removes what tapTip set up to hide the tooltip, if anything.
func (g *gestures) endTapTip() {
	if g.tapEnd == nil {
		return
	}
	win := goapp.Window()
	win.Call("removeEventListener", "pointerdown", g.tapEnd, true)
	win.Call("clearTimeout", g.tapTimer)
	g.tapEnd.Release()
	g.tapEnd = nil
}

func (g *gestures) onDblClick(ctx goapp.Context, e goapp.Event) {
	if !g.view.ready() {
		return
	}
	e.PreventDefault()
	g.from, g.to = g.view.extent()
	g.view.settled(ctx)
}

func (g *gestures) onKeyDown(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	if !g.view.ready() {
		return
	}
	px, pw, _ := g.view.plot()
	row, page := g.view.rowStep()
	center := px + pw/2
	scroll := 0.0
	switch e.Get("key").String() {
	case "ArrowLeft":
		g.pan(-pw / 10)
	case "ArrowRight":
		g.pan(pw / 10)
	case "+", "=":
		g.zoom(center, 0.7)
	case "-", "_":
		g.zoom(center, 1/0.7)
	case "0", "Home":
		g.from, g.to = g.view.extent()
	case "ArrowUp":
		scroll = -row
	case "ArrowDown":
		scroll = row
	case "PageUp":
		scroll = -page
	case "PageDown":
		scroll = page
	default:
		return
	}
	e.PreventDefault()
	if scroll != 0 {
		// Scrolling leaves the range as it is.
		g.scrollBy(scroll)
		g.view.draw(ctx)
		return
	}
	g.view.moved(ctx)
}

// tip shows text (as text, never HTML) in the tooltip near (x, y), or
// hides it when text is empty. The tooltip is moved directly: a render of
// the whole component per pointer move would be wasted work.
func (g *gestures) tip(text string, x, y float64) {
	if !g.view.Mounted() {
		return
	}
	el := g.view.JSValue().Call("querySelector", ".tl-tip")
	if el.IsNull() {
		return
	}
	st := el.Get("style")
	g.tipShown = text != ""
	if text == "" {
		g.endTapTip()
		st.Set("display", "none")
		return
	}
	g.tipText, g.tipX, g.tipY = text, x, y
	el.Set("textContent", text)
	st.Set("display", "block")
	left, top := x+14, y+14
	_, _, width := g.view.plot()
	if w := el.Get("offsetWidth").Float(); left+w > width {
		left = math.Max(0, x-14-w)
	}
	// Above the pointer where below it the box that scrolls the stage,
	// or the window, would cut it off.
	h := el.Get("offsetHeight").Float()
	if above, below := seenRows(el.Get("parentElement")); top+h > below {
		top = math.Max(above, y-14-h)
	}
	st.Set("left", strconv.FormatFloat(left, 'f', 0, 64)+"px")
	st.Set("top", strconv.FormatFloat(top, 'f', 0, 64)+"px")
}

// retip places the tooltip shown again, for the room the view has now:
// a click that selects an event grows the dock, and a tooltip placed
// below the pointer before it would hang past the timeline's new edge.
func (g *gestures) retip() {
	if g.tipShown {
		g.tip(g.tipText, g.tipX, g.tipY)
	}
}

// gestureHandlers are a view's handlers of the events on its canvas:
// gestures' own, or the view's where it does more (the timeline's pinch).
type gestureHandlers interface {
	onWheel(goapp.Context, goapp.Event)
	onPointerDown(goapp.Context, goapp.Event)
	onPointerMove(goapp.Context, goapp.Event)
	onPointerUp(goapp.Context, goapp.Event)
	onPointerCancel(goapp.Context, goapp.Event)
	onPointerLeave(goapp.Context, goapp.Event)
	onDblClick(goapp.Context, goapp.Event)
	onKeyDown(goapp.Context, goapp.Event)
}

// gestureStage is a view's stage: cv, labelled by the view, focusable and
// with h on its events, and the tooltip tip fills.
func gestureStage(h gestureHandlers, cv goapp.HTMLCanvas) goapp.UI {
	return goapp.Div().Class("tl-stage").Body(
		cv.TabIndex(0).
			Role("img").
			OnWheel(h.onWheel).
			On("pointerdown", h.onPointerDown).
			On("pointermove", h.onPointerMove).
			On("pointerup", h.onPointerUp).
			On("pointercancel", h.onPointerCancel).
			On("pointerleave", h.onPointerLeave).
			OnDblClick(h.onDblClick).
			OnKeyDown(h.onKeyDown),
		// The frame's time axis, kept at the top of the panel that
		// scrolls the tracks (web/timeline.js, drawAxis).
		goapp.Canvas().Class("tl-axis").Aria("hidden", "true"),
		goapp.Div().Class("tl-tip").Role("tooltip").Style("display", "none"),
	)
}
