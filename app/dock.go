package app

import (
	"strconv"
	"strings"
	"time"

	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The dock: the panel docked under (or beside) the timeline, as the
// performance viewers have it, with a tab per panel: the selected event,
// the statistics of a range, the findings, the files and sessions read,
// the retention model. Its side and size are the user's, remembered in
// the browser's local storage.

// The dock's tabs, in order.
const (
	tabEvent     = "event"
	tabRange     = "range"
	tabFindings  = "findings"
	tabFiles     = "files"
	tabSettings  = "settings"
	tabReconnect = "reconnect"
)

// Each has a short label too, which a phone shows (web/app.css), so that
// the tabs take one line of its sheet.
var dockTabs = []struct{ id, label, short string }{
	{tabEvent, "Event", "Event"},
	{tabRange, "Range", "Range"},
	{tabFindings, "Findings", "Findings"},
	{tabFiles, "Files and sessions", "Files"},
	{tabSettings, "Model settings", "Settings"},
	{tabReconnect, "Reconnect at", "Reconnect"},
}

// dockPrefs is how the user left the dock.
type dockPrefs struct {
	side bool    // beside the timeline, not under it
	size float64 // its height (under) or width (beside), CSS px; 0: the default
	// lowered says the dock is lowered to its tabs, as a phone's sheet
	// can be (web/app.css); it is not remembered.
	lowered bool
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
	if n, err := strconv.ParseFloat(size, 64); err == nil && n >= minDockSize && n <= 4000 {
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

// sizeStyle is the dock's size as its inline style.
func (d dockPrefs) sizeStyle() (prop, value string) {
	prop = "height"
	if d.side {
		prop = "width"
	}
	if d.size <= 0 || d.lowered {
		return prop, ""
	}
	return prop, strconv.FormatFloat(d.size, 'f', 0, 64) + "px"
}

// Dock is the dock: its tab bar and the shown tab's panel. A hidden
// panel is not rendered, only its empty tabpanel: rendered, the lab's
// hidden panels would be most of the page's DOM nodes, which go-app
// makes in one long task at the end of its load. What the user did in a
// panel is kept here (kept), so a panel shown again is as they left it.
// The dock shows the Event tab when the user selects an event or goes to
// one, the Range tab when the user picks a range, and the Reconnect tab
// when the user marks an instant.
type Dock struct {
	goapp.Compo
	Prefs   dockPrefs
	Capture *capture
	// Analysis is the engine's answer of its latest analysis, for
	// Params; Analyzing says a newer one is on its way.
	Analysis  analysis
	Params    timeline.Params
	Analyzing bool
	Filter    timeline.Filter
	From, To  int64 // the range shown, both 0 for the whole capture
	AxisRV    bool
	Selected  int
	// ReconnectAt is the instant marked to reconnect at, 0 for none.
	ReconnectAt int64

	tab  string
	kept panelsKept
	// onKey is the window's Escape listener, which clears the marker.
	onKey goapp.Func
}

// panelsKept is what the panels keep while another tab is shown. Each
// panel is given a pointer to its part.
type panelsKept struct {
	event     eventKept
	brushed   *brush // the range picked, which the Range tab shows
	findings  findingsKept
	files     filesKept
	settings  settingsKept
	reconnect reconnectKept
}

// actionDockSide: the user asked for the dock on the other side.
const actionDockSide = "dock/side"

// actionDockLowered: the user lowered the phone's sheet to its tabs, or
// raised it; its value says which (bool).
const actionDockLowered = "dock/lowered"

// OnInit opens the dock on the Event tab, or on the Reconnect tab when
// an instant is marked already: a link with ?at= opens on its answer.
func (d *Dock) OnInit() {
	d.tab = tabEvent
	if d.ReconnectAt != 0 {
		d.tab = tabReconnect
	}
}

func (d *Dock) OnMount(ctx goapp.Context) {
	ctx.Handle(actionSelect, func(ctx goapp.Context, a goapp.Action) {
		if a.Value.(int) >= 0 {
			d.tab = tabEvent
		}
	})
	ctx.Handle(actionGoTo, func(ctx goapp.Context, a goapp.Action) {
		if a.Value.(timeline.Match).Event >= 0 {
			d.tab = tabEvent
		}
	})
	ctx.Handle(actionBrush, func(ctx goapp.Context, a goapp.Action) {
		r := a.Value.([2]int64)
		if b := pickRange(d.Capture, d.AxisRV, r[0], r[1]); b != nil {
			d.kept.brushed = b
		}
		d.tab = tabRange
	})
	ctx.Handle(actionReconnectAt, func(ctx goapp.Context, a goapp.Action) {
		if a.Value.(int64) != 0 {
			d.tab = tabReconnect
		}
	})
	// The window's, so that Escape clears the marker wherever the focus
	// is and whichever tab is shown, but in a field with text, whose own
	// Escape empties it first.
	d.onKey = goapp.FuncOf(func(this goapp.Value, args []goapp.Value) any {
		if args[0].Get("key").String() != "Escape" || d.ReconnectAt == 0 {
			return nil
		}
		if el := goapp.Window().Get("document").Get("activeElement"); el.Truthy() && strings.EqualFold(el.Get("tagName").String(), "input") && el.Get("value").String() != "" {
			return nil
		}
		ctx.NewActionWithValue(actionReconnectAt, int64(0))
		return nil
	})
	goapp.Window().Call("addEventListener", "keydown", d.onKey)
}

func (d *Dock) OnDismount() {
	goapp.Window().Call("removeEventListener", "keydown", d.onKey)
	d.onKey.Release()
}

func (d *Dock) Render() goapp.UI {
	c := d.Capture
	prop, size := d.Prefs.sizeStyle()
	k := &d.kept
	panel := func(id string, body func() goapp.UI) goapp.UI {
		// Focusable, so the keyboard reaches and scrolls a panel that
		// holds no control (the tabs pattern's tabpanel). Every tab's
		// tabpanel is there, for its tab's aria-controls; only the
		// shown one has a body.
		return goapp.Div().ID("dock-"+id).Class("dock-panel").Role("tabpanel").TabIndex(0).
			Aria("labelledby", "tab-"+id).Hidden(d.tab != id).Body(goapp.If(d.tab == id, body))
	}
	side := "Dock beside"
	if d.Prefs.side {
		side = "Dock below"
	}
	raise, raiseTitle := "▾", "Lower this panel to its tabs: the timeline gets the screen"
	if d.Prefs.lowered {
		raise, raiseTitle = "▴", "Raise this panel"
	}
	return goapp.Aside().ID("dock").Class("dock").Class(classIf(d.Prefs.lowered, "lowered")).Aria("label", "Details").Style(prop, size).Body(
		goapp.Div().Class("dock-bar").Body(
			goapp.Div().Class("tabs").Role("tablist").Aria("label", "Panels").Body(
				goapp.Range(dockTabs).Slice(func(i int) goapp.UI {
					t := dockTabs[i]
					// A roving tabindex: Tab reaches the selected tab
					// only, and the arrow keys move between them.
					tabIndex := -1
					if d.tab == t.id {
						tabIndex = 0
					}
					return goapp.Button().ID("tab-"+t.id).Class("tab").Role("tab").
						Aria("selected", strconv.FormatBool(d.tab == t.id)).Aria("controls", "dock-"+t.id).Aria("label", t.label).
						TabIndex(tabIndex).OnClick(d.onTab(t.id)).OnKeyDown(d.onTabKey).Body(
						goapp.Span().Class("tab-long").Text(t.label),
						goapp.Span().Class("tab-short").Text(t.short),
					)
				}),
			),
			goapp.Button().ID("dock-side").Class("quiet").Title("Put this panel beside the timeline or under it").Text(side).
				OnClick(func(ctx goapp.Context, e goapp.Event) { ctx.NewAction(actionDockSide) }),
			goapp.Button().ID("dock-raise").Class("quiet").Title(raiseTitle).Aria("label", raiseTitle).Aria("expanded", !d.Prefs.lowered).Text(raise).
				OnClick(func(ctx goapp.Context, e goapp.Event) { ctx.NewActionWithValue(actionDockLowered, !d.Prefs.lowered) }),
		),
		goapp.Div().Class("dock-body").Body(
			panel(tabEvent, func() goapp.UI {
				return &EventPanel{Capture: c, Selected: d.Selected, Zone: d.zone(), Kept: &k.event}
			}),
			panel(tabRange, func() goapp.UI {
				return &RangePanel{Capture: c, Generation: d.Analysis.generation, Zone: d.zone(), From: d.From, To: d.To, AxisRV: d.AxisRV, Brushed: k.brushed}
			}),
			panel(tabFindings, func() goapp.UI {
				return &FindingsPanel{Engine: c.Engine, Generation: d.Analysis.generation, Zone: d.zone(), Filter: d.Filter, Kept: &k.findings}
			}),
			panel(tabFiles, func() goapp.UI { return &FilesPanel{Capture: c, Kept: &k.files} }),
			panel(tabSettings, func() goapp.UI {
				return &SettingsPanel{Params: d.Params, Detected: d.Analysis.restarts, Servers: d.Analysis.servers, EtcdCompactedEvery: d.Analysis.etcdCompactedEvery,
					Analyzing: d.Analyzing, Kept: &k.settings}
			}),
			panel(tabReconnect, func() goapp.UI {
				return &ReconnectPanel{Engine: c.Engine, Generation: d.Analysis.generation, Zone: d.zone(), At: d.ReconnectAt, Kept: &k.reconnect}
			}),
		),
	)
}

// zone is the zone the panels write absolute times in: the one the
// settings ask the analysis for (UTC by default).
func (d *Dock) zone() *time.Location {
	if d.Params.Zone == nil {
		return time.UTC
	}
	return d.Params.Zone
}

func (d *Dock) onTab(id string) goapp.EventHandler {
	return func(ctx goapp.Context, e goapp.Event) {
		d.tab = id
		if d.Prefs.lowered {
			ctx.NewActionWithValue(actionDockLowered, false)
		}
	}
}

// onTabKey moves between the tabs as the WAI-ARIA tabs pattern has it:
// Left and Right to the previous and next (round), Home and End to the
// first and last; the tab reached is selected and takes the focus.
func (d *Dock) onTabKey(ctx goapp.Context, e goapp.Event) {
	at := 0
	for i, t := range dockTabs {
		if t.id == d.tab {
			at = i
		}
	}
	n := len(dockTabs)
	switch e.Get("key").String() {
	case "ArrowLeft":
		at = (at + n - 1) % n
	case "ArrowRight":
		at = (at + 1) % n
	case "Home":
		at = 0
	case "End":
		at = n - 1
	default:
		ctx.PreventUpdate()
		return
	}
	e.PreventDefault()
	d.tab = dockTabs[at].id
	id := "tab-" + d.tab
	ctx.Defer(func(goapp.Context) {
		if el := goapp.Window().GetElementByID(id); el.Truthy() {
			el.Call("focus")
		}
	})
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

// roomNoted says whether the room the view last measured for cv
// (stageMeasure, which notes it in cv's data-room) is the one its stage
// gives it now.
func roomNoted(cv, stage goapp.Value) bool {
	return cv.Get("dataset").Get("room").String() == roomOf(stage)
}

// roomOf is the room stage gives a canvas, as data-room writes it.
func roomOf(stage goapp.Value) string {
	return strconv.Itoa(stage.Get("clientWidth").Int()) + "x" + strconv.Itoa(stage.Get("clientHeight").Int())
}

// dockElementSize is the dock's size on screen now.
func dockElementSize(side bool) float64 {
	el := goapp.Window().GetElementByID("dock")
	if !el.Truthy() {
		return 0
	}
	if side {
		return el.Get("offsetWidth").Float()
	}
	return el.Get("offsetHeight").Float()
}
