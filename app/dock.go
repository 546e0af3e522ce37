package app

import (
	"strconv"
	"strings"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The dock: the panel docked under (or beside) the timeline, as the
// performance viewers have it, with a tab per panel: the selected event,
// the statistics of a range, the findings, the files and sessions read,
// the retention model. Its side and size are the user's, remembered in
// the browser's local storage.

// The dock's tabs, in order.
const (
	tabEvent    = "event"
	tabRange    = "range"
	tabFindings = "findings"
	tabFiles    = "files"
	tabSettings = "settings"
)

var dockTabs = []struct{ id, label string }{
	{tabEvent, "Event"},
	{tabRange, "Range"},
	{tabFindings, "Findings"},
	{tabFiles, "Files and sessions"},
	{tabSettings, "Model settings"},
}

// dockPrefs is how the user left the dock.
type dockPrefs struct {
	side bool    // beside the timeline, not under it
	size float64 // its height (under) or width (beside), CSS px; 0: the default
}

const dockStorageKey = "watchlens.dock"

// loadDockPrefs reads the dock's side and size from local storage
// ("bottom:320", "side:480").
func loadDockPrefs() dockPrefs {
	var d dockPrefs
	st := goapp.Window().Get("localStorage")
	if !st.Truthy() {
		return d
	}
	v := st.Call("getItem", dockStorageKey)
	if !v.Truthy() {
		return d
	}
	side, size, _ := strings.Cut(v.String(), ":")
	d.side = side == "side"
	if n, err := strconv.ParseFloat(size, 64); err == nil && n >= 120 && n <= 4000 {
		d.size = n
	}
	return d
}

func (d dockPrefs) save() {
	if st := goapp.Window().Get("localStorage"); st.Truthy() {
		side := "bottom"
		if d.side {
			side = "side"
		}
		st.Call("setItem", dockStorageKey, side+":"+strconv.FormatFloat(d.size, 'f', 0, 64))
	}
}

// dockStyle is the dock's size as its inline style.
func (d dockPrefs) sizeStyle() (prop, value string) {
	prop = "height"
	if d.side {
		prop = "width"
	}
	if d.size <= 0 {
		return prop, ""
	}
	return prop, strconv.FormatFloat(d.size, 'f', 0, 64) + "px"
}

// renderDock renders the dock: its tab bar and every tab's panel, the
// panels not shown being hidden (not removed, so each keeps its state,
// and go-app does not remount them when the tab changes).
func (p *Page) renderDock() goapp.UI {
	c := p.capture
	prop, size := p.dock.sizeStyle()
	panel := func(id string, body goapp.UI) goapp.UI {
		return goapp.Div().ID("dock-"+id).Class("dock-panel").Role("tabpanel").
			Aria("labelledby", "tab-"+id).Hidden(p.tab != id).Body(body)
	}
	side := "Dock beside"
	if p.dock.side {
		side = "Dock below"
	}
	return goapp.Aside().ID("dock").Class("dock").Aria("label", "Details").Style(prop, size).Body(
		goapp.Div().Class("dock-bar").Body(
			goapp.Div().Class("tabs").Role("tablist").Aria("label", "Panels").Body(
				goapp.Range(dockTabs).Slice(func(i int) goapp.UI {
					t := dockTabs[i]
					return goapp.Button().ID("tab-"+t.id).Class("tab").Role("tab").
						Aria("selected", strconv.FormatBool(p.tab == t.id)).Aria("controls", "dock-"+t.id).
						Text(t.label).OnClick(p.onTab(t.id))
				}),
			),
			goapp.Button().ID("dock-side").Class("quiet").Title("Put this panel beside the timeline or under it").Text(side).OnClick(p.onDockSide),
		),
		goapp.Div().Class("dock-body").Body(
			panel(tabEvent, p.renderDetail()),
			panel(tabRange, p.renderRange()),
			panel(tabFindings, p.renderFindings()),
			panel(tabFiles, goapp.Div().Body(goapp.Range(c.tl.Files).Slice(func(i int) goapp.UI { return c.renderFile(i) }))),
			panel(tabSettings, p.renderSettings()),
		),
	)
}

func (p *Page) onTab(id string) goapp.EventHandler {
	return func(ctx goapp.Context, e goapp.Event) { p.tab = id }
}

func (p *Page) onDockSide(ctx goapp.Context, e goapp.Event) {
	p.dock.side = !p.dock.side
	p.dock.size = 0
	p.dock.save()
	relayout(ctx)
}

// relayout has the timeline fit its new room once the page is laid out
// again. go-app tells components of the window's resizes (250 ms after
// the last), and its ResizeContent only tells the children of the
// element whose handler runs: a resize of the window it is.
func relayout(ctx goapp.Context) {
	ctx.Defer(func(goapp.Context) {
		goapp.Window().Call("dispatchEvent", goapp.Window().Get("Event").New("resize"))
	})
}

// renderSplitter is the handle between the timeline and the dock: drag
// it, or focus it and use the arrow keys, to give one more room.
func (p *Page) renderSplitter() goapp.UI {
	orient := "horizontal"
	if p.dock.side {
		orient = "vertical"
	}
	return goapp.Div().ID("splitter").Class("splitter").Role("separator").TabIndex(0).
		Aria("orientation", orient).Aria("label", "Resize the panel (arrow keys)").
		On("pointerdown", p.onSplitDown).
		On("pointermove", p.onSplitMove).
		On("pointerup", p.onSplitUp).
		OnKeyDown(p.onSplitKey)
}

// dockElementSize is the dock's size on screen now.
func (p *Page) dockElementSize() float64 {
	el := goapp.Window().GetElementByID("dock")
	if !el.Truthy() {
		return 0
	}
	if p.dock.side {
		return el.Get("offsetWidth").Float()
	}
	return el.Get("offsetHeight").Float()
}

func (p *Page) onSplitDown(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	ctx.JSSrc().Call("setPointerCapture", e.Get("pointerId"))
	p.split = &splitDrag{x: e.Get("clientX").Float(), y: e.Get("clientY").Float(), size: p.dockElementSize()}
}

// splitDrag is a drag of the splitter in progress.
type splitDrag struct{ x, y, size float64 }

func (p *Page) onSplitMove(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	d := p.split
	if d == nil {
		return
	}
	delta := d.y - e.Get("clientY").Float()
	if p.dock.side {
		delta = d.x - e.Get("clientX").Float()
	}
	p.resizeDock(d.size + delta)
}

func (p *Page) onSplitUp(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	if p.split == nil {
		return
	}
	p.split = nil
	p.dock.save()
	relayout(ctx)
}

func (p *Page) onSplitKey(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	step := 0.0
	switch e.Get("key").String() {
	case "ArrowUp", "ArrowLeft":
		step = 40
	case "ArrowDown", "ArrowRight":
		step = -40
	default:
		return
	}
	e.PreventDefault()
	p.resizeDock(p.dockElementSize() + step)
	p.dock.save()
	relayout(ctx)
}

// resizeDock sets the dock's size in place, without rendering the page.
func (p *Page) resizeDock(size float64) {
	size = max(size, 120)
	p.dock.size = size
	if el := goapp.Window().GetElementByID("dock"); el.Truthy() {
		prop, v := p.dock.sizeStyle()
		el.Get("style").Set(prop, v)
	}
}
