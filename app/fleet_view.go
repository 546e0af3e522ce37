package app

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"watchlens/app/canvas"
	"watchlens/app/engine"
	"watchlens/app/jsrt"
	"watchlens/internal/quantity"
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
// It asks the engine (package engine) for the fleet, its frames, what
// lies under the pointer and what a range holds, with the view's state as
// plain data: the questions a worker will answer (docs/engine.md).
//
// Its fields are the engine, its analysis and the range it opens on:
// everything else is its own state, so the page's renders leave it alone
// (see TimelineView on go-app's copying of exported fields).
type FleetView struct {
	goapp.Compo
	// Engine holds the capture's model; Analyzed is its analysis's
	// generation (engine.Analyzed), and Zone the zone that analysis was
	// asked to write times in.
	Engine   engine.Answerer
	Analyzed int
	Zone     *time.Location
	// From and To are the timeline's range on the time axis, which the
	// fleet opens on; 0 and 0 for its whole range.
	From, To int64
	// Marker is the instant a reconnect is asked about, 0 for none.
	Marker int64
	// Rehearsal marks the view the page's warm-up mounts out of sight
	// (Page.rehearseFleet): it has no element IDs, which belong to the
	// view shown, and handles none of the page's actions.
	Rehearsal bool

	gestures // its range, its rows' scroll, and the drag in progress

	// eng and analyzed are what fleet was answered for: nil and 0 before
	// it, and fleet.Rows empty when the analysis has no fleet.
	eng      engine.Answerer
	analyzed int
	fleet    engine.Fleet
	// order and servers are the rows' names and servers, a line each,
	// as the summary's data attributes hold them, and mayMix how many rows
	// the audit log may mix: worked out once per fleet, not at each
	// render (10 001 rows make 300 KB of names). rowsOn is the summary
	// element they were last written on (writeRows).
	order, servers string
	mayMix         int
	rowsOn         goapp.Value
	maxH           float64
	// picked is what the last shift-dragged range holds, nil before one.
	picked *canvas.FleetRange
	fr     canvas.Frame
	layout canvas.FleetLayout // of the last frame drawn, for the gestures
	// draws counts the worker's frames handed to be drawn: one drawn in a
	// later task (askFrame) is not, once another was handed meanwhile.
	draws  int
	frames frameSender
	stage  stageMeasure
	// answered is the last of the worker's frames drawn.
	answered drawnAnswer
	// restartLabelsShown is the canvas's data-restart-labels, the JSON
	// of the last frame's layout.RestartLabels.
	restartLabelsShown string
	// ctx is the mount's, which OnDismount (given none) posts with.
	ctx *goapp.Context
	// Of an engine in a worker (workerEngine): the frame asked last and
	// not answered yet, and the hovers asked.
	asking fleetFrameKey
	hovers int
}

// fleetFrameKey is what decides a fleet frame: the engine, its analysis
// and the view.
type fleetFrameKey struct {
	eng      engine.Answerer
	analyzed int
	st       engine.FleetState
}

// actionFleetOpen: the user picked a client, in the fleet view or the
// search box; its value is the client's file index, whose timeline the
// page then shows.
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
	return p.capture != nil && p.analysis.fleet
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

// onFleetOpen shows the timeline of the client picked in the fleet view,
// from its top, where the client's group is pinned, and writes that
// view into the URL, as every other change of the view is.
func (p *Page) onFleetOpen(ctx goapp.Context, a goapp.Action) {
	f := a.Value.(int)
	p.viewScrolls[0] = 0
	p.pinOpened(f)
	p.showView(ctx, fleetState{opened: f + 1})
	p.saveURL(ctx)
}

// pinOpened has the view (and so a link) show file f's group of tracks
// as the timeline opened from the fleet shows it: pinned to the top, the
// only one pinned, and unfolded.
func (p *Page) pinOpened(f int) {
	if p.capture == nil || f < 0 {
		return
	}
	n := len(p.capture.Opened.Files)
	p.view.pin = canvas.FileSet{}.With(f, true).String()
	p.view.fold = foldText(parseFold(p.view.fold, n).With(f, false), n)
}

// onFleetShow switches between the timeline and the fleet view, which
// the URL says.
func (p *Page) onFleetShow(ctx goapp.Context, a goapp.Action) {
	p.showView(ctx, fleetState{shown: a.Value.(bool)})
	p.saveURL(ctx)
}

// showView shows the view next chooses, scrolled as the user left it.
// The timeline and the fleet view share the timeline's panel, which
// scrolls: the fleet scrolled to its summary opened the timeline with
// its legend and first tracks out of sight.
func (p *Page) showView(ctx goapp.Context, next fleetState) {
	was, now := p.fleetShown(), next.shown && p.hasFleet()
	p.fleet = next
	if was == now {
		return
	}
	panel := goapp.Window().GetElementByID("timeline-panel")
	if !panel.Truthy() {
		return
	}
	p.viewScrolls[viewIndex(was)] = panel.Get("scrollTop").Float()
	top := p.viewScrolls[viewIndex(now)]
	ctx.Defer(func(goapp.Context) {
		panel := goapp.Window().GetElementByID("timeline-panel")
		if restore := goapp.Window().Get("watchlensRestoreScroll"); panel.Truthy() && restore.Truthy() {
			restore.Invoke(panel, top)
		} else if panel.Truthy() {
			panel.Set("scrollTop", top)
		}
	})
}

// fleetShown says whether the fleet view is shown, rather than the
// timeline.
func (p *Page) fleetShown() bool { return p.fleet.shown && p.hasFleet() }

// viewIndex is a view's index in Page.viewScrolls: 0 the timeline, 1 the
// fleet.
func viewIndex(fleet bool) int {
	if fleet {
		return 1
	}
	return 0
}

// sync asks the engine for its analysis's fleet when the analysis is
// another one; an engine in a worker answers later, and the view draws
// then.
func (v *FleetView) sync(ctx goapp.Context) {
	if v.Engine == v.eng && v.Analyzed == v.analyzed {
		return
	}
	v.eng, v.analyzed = v.Engine, v.Analyzed
	v.fleet, v.picked, v.order, v.servers, v.mayMix = engine.Fleet{}, nil, "", "", 0
	if v.eng == nil {
		return
	}
	eng, gen := v.eng, v.analyzed
	if !inWorker(eng) {
		if fl, ok := eng.Fleet(); ok {
			v.adopt(fl)
		}
		return
	}
	ctx.Async(func() {
		// What asked for this fleet grew the heap: a load, which has
		// just handed the collector its pacing back, or a new analysis.
		// A cycle due then came in the task that read the fleet's
		// answer and rendered it, and marked there. Held off until the
		// view is rendered and its first frame asked for, the collection
		// runs in a task of its own (jsrt.LoadGC), and only if the heap
		// grew by half since the last.
		jsrt.LoadGC.Start()
		defer jsrt.LoadGC.Stop()
		fl, ok := eng.Fleet()
		// The view renders the fleet in a task after the one that read
		// its answer: for 10 000 clients, the two together held the
		// page's thread for 34 ms of CPU.
		jsrt.Yield()
		shown := make(chan struct{})
		ctx.Dispatch(func(ctx goapp.Context) {
			if v.eng != eng || v.analyzed != gen || !ok {
				close(shown)
				return
			}
			v.adopt(fl)
			// The frame is asked for in a task after the render's: its
			// room is read from the page's layout, which the render
			// has just changed, and the browser lays the page out then
			// (5 of the 22 ms of CPU of samples-lab's task that
			// rendered its fleet).
			ctx.Defer(func(ctx goapp.Context) {
				jsrt.InTask(func() {
					v.draw(ctx)
					close(shown)
				})
			})
		})
		waitShown(shown)
	})
}

// adopt shows fl, the fleet the engine answered.
func (v *FleetView) adopt(fl engine.Fleet) {
	v.fleet = fl
	names := make([]string, len(fl.Rows))
	servers := make([]string, len(fl.Rows))
	v.mayMix = 0
	for i, r := range fl.Rows {
		names[i], servers[i] = r.Name, r.Servers
		if r.MayMix {
			v.mayMix++
		}
	}
	v.order, v.servers = strings.Join(names, "\n"), strings.Join(servers, "\n")
	v.rowsOn = nil
	if v.to <= v.from || v.from < fl.From || v.to > fl.To {
		v.from, v.to = fl.From, fl.To
		if v.To > v.From {
			v.from, v.to = canvas.FitRange(v.From, v.To, fl.From, fl.To)
		}
	}
	v.scrollY = 0
}

// has says the view has a fleet to show.
func (v *FleetView) has() bool { return len(v.fleet.Rows) > 0 }

// OnInit asks an engine in the page's wasm for the fleet before the
// first render; one in a worker is asked once the view is mounted.
func (v *FleetView) OnInit() {
	if !inWorker(v.Engine) {
		v.sync(goapp.Context{}) // answered at once: no context is needed
	}
}

func (v *FleetView) OnMount(ctx goapp.Context) {
	if !v.Rehearsal {
		ctx.Handle(actionExportPNG, v.exportPNG)
	}
	v.ctx = &ctx
	v.sync(ctx)
	v.draw(ctx)
}

func (v *FleetView) OnUpdate(ctx goapp.Context) {
	v.sync(ctx)
	ctx.Defer(v.draw)
}

// OnResize draws the view for its new room, and places a tooltip shown
// again for it (retip).
func (v *FleetView) OnResize(ctx goapp.Context) {
	v.retip()
	v.draw(ctx)
}

// OnDismount hands the range shown to the timeline, which the page shows
// next: the whole range as 0 and 0, the timeline's own whole.
func (v *FleetView) OnDismount() {
	if !v.has() || v.ctx == nil {
		return
	}
	r := fleetRange{eng: v.eng, analyzed: v.analyzed}
	if v.from > v.fleet.From || v.to < v.fleet.To {
		r.from, r.to = v.from, v.to
	}
	// The page's handler runs with the page as its source, so a
	// context kept from the mount posts after it.
	v.ctx.NewActionWithValue(actionFleetRange, r)
}

// actionFleetRange: the fleet view closed on a range (a fleetRange),
// which the timeline then shows.
const actionFleetRange = "fleet/range"

// fleetRange is the time range a fleet view closed on, and the engine
// and the generation of the analysis it showed: a range of another
// capture's fleet means nothing.
type fleetRange struct {
	eng      engine.Answerer
	analyzed int
	from, to int64
}

// fleetView is the fleet view, opening on the timeline's range when it
// is one of time.
func (p *Page) fleetView() goapp.UI {
	v := &FleetView{Engine: p.capture.Engine, Analyzed: p.analysis.generation, Zone: p.analysis.zone, Marker: p.view.reconnectAt}
	if !p.view.axisRV {
		v.From, v.To = p.view.from, p.view.to
	}
	return v
}

// onFleetRange shows the fleet's last range on the timeline.
func (p *Page) onFleetRange(ctx goapp.Context, a goapp.Action) {
	r := a.Value.(fleetRange)
	if p.capture == nil || r.eng != p.capture.Engine || r.analyzed != p.analysis.generation || p.view.axisRV {
		return
	}
	p.view.from, p.view.to = r.from, r.to
	p.saveURL(ctx)
}

// state is the view as the engine's questions take it.
func (v *FleetView) state(width, dpr float64) engine.FleetState {
	return engine.FleetState{From: v.from, To: v.to, Width: width, MaxHeight: v.maxH, PixelRatio: dpr, ScrollY: v.scrollY, Marker: v.Marker}
}

func (v *FleetView) draw(ctx goapp.Context) { v.drawWith(ctx, nil) }

// drawWith has the engine build a frame, changed by adjust when not nil,
// and hands it to web/timeline.js in one call.
func (v *FleetView) drawWith(ctx goapp.Context, adjust func(*engine.FleetState)) {
	cv := canvasOf(v)
	if cv == nil || !v.has() {
		return
	}
	v.writeRows()
	fn, ok := v.frames.script(ctx, v.draw)
	if !ok {
		return
	}
	stage := cv.Get("parentElement")
	// The stage holds the bands and a dozen rows at least: the page
	// scrolls down rather than hide the rows under the dock.
	setMinHeight(stage, v.fleet.MinHeight)
	r := v.stage.of(cv)
	width, maxH := r.frame()
	v.maxH = maxH
	st := v.state(width, r.dpr)
	if adjust != nil {
		adjust(&st)
	}
	if w, ok := v.eng.(workerEngine); ok {
		v.askFrame(ctx, w, cv, fn, st)
		return
	}
	v.shown(cv, v.eng.FleetFrame(st, &v.fr))
	v.frames.send(fn, cv, &v.fr)
}

// askFrame asks the engine's worker for the fleet's frame of st on a
// goroutine of askers and shows it when it comes, unless a later one was
// asked meanwhile: the frame drawn last stays on the canvas until then.
func (v *FleetView) askFrame(ctx goapp.Context, w workerEngine, cv, draw goapp.Value, st engine.FleetState) {
	key := fleetFrameKey{v.eng, v.analyzed, st}
	if key == v.asking {
		return
	}
	v.asking = key
	askers.run(func() {
		l, enc, err := w.AskEncodedFleetFrame(st)
		ctx.Dispatch(func(ctx goapp.Context) {
			ctx.PreventUpdate()
			if v.asking != key {
				return // a later frame is on its way
			}
			v.asking = fleetFrameKey{}
			if err != nil || v.eng != key.eng {
				return
			}
			// Drawn as the worker sent it: its spec and floats are never
			// read into Go and encoded again.
			v.draws++
			if !needsPixels(cv, l.Width, l.Height, st.PixelRatio) {
				v.shown(cv, l)
				sendJS(draw, cv, enc)
				v.answered.drew(w, enc)
				return
			}
			// A new canvas, or a new size: its pixels are allocated in a
			// task of their own, and the frame drawn in the next, unless
			// a later frame was drawn meanwhile: in the drawing, the
			// allocation took 19 of the 29 ms the fleet's first frame
			// took after samples-lab's load.
			n := v.draws
			jsrt.InTask(func() {
				if v.draws == n {
					reserveJS(cv, enc)
				}
			})
			jsrt.InTask(func() {
				if v.draws == n {
					v.shown(cv, l)
					sendJS(draw, cv, enc)
					v.answered.drew(w, enc)
				}
			})
		})
	})
}

// shown keeps l, the layout of the frame about to be drawn on cv, for
// the gestures, and writes where its parts are on the canvas.
func (v *FleetView) shown(cv goapp.Value, l canvas.FleetLayout) {
	prev := v.layout
	v.layout = l
	ds := cv.Get("dataset")
	if prev.PlotX != v.layout.PlotX || prev.PlotW != v.layout.PlotW || prev.RowsY != v.layout.RowsY || prev.CurvesY != v.layout.CurvesY {
		// Where the plot, the curves and the rows sit, for tools that
		// point at them (the browser tests do).
		ds.Set("plotX", v.layout.PlotX)
		ds.Set("plotW", v.layout.PlotW)
		ds.Set("curvesY", v.layout.CurvesY)
		ds.Set("histY", v.layout.HistY)
		ds.Set("rowsY", v.layout.RowsY)
		ds.Set("rowH", canvas.FleetRowH)
	}
	if text, err := json.Marshal(v.layout.RestartLabels); err == nil && string(text) != v.restartLabelsShown {
		// Where the restarts' names are written, for tools that check
		// they never overlap (the browser tests do).
		v.restartLabelsShown = string(text)
		ds.Set("restartLabels", v.restartLabelsShown)
	}
	ds.Set("scrollY", v.scrollY)
	ds.Set("from", strconv.FormatInt(v.from, 10))
	ds.Set("to", strconv.FormatInt(v.to, 10))
}

func (v *FleetView) Render() goapp.UI {
	v.gestures.view = v
	if !v.has() {
		return goapp.Section().Class("timeline")
	}
	return goapp.Section().Class("timeline").ID(v.id("fleet")).Body(
		goapp.H3().Class("tl-visually-hidden").Text("Fleet"),
		v.renderHeadline(),
		gestureStage(v, goapp.Canvas().
			Aria("label", "The fleet: a row per client, riskiest first, red where a reconnect would have been refused; use the arrow keys to pan and scroll, + and - to zoom, 0 to reset; the summary below lists what it shows").
			Aria("describedby", "fleet-summary")),
		v.renderPicked(),
		v.renderSummary(),
	)
}

// id is the element ID name, none in a rehearsal.
func (v *FleetView) id(name string) string {
	if v.Rehearsal {
		return ""
	}
	return name
}

// renderHeadline says what the view shows, and its marks: each in its
// short words too, which a phone shows (web/app.css), where the whole
// key was cut after its first mark.
func (v *FleetView) renderHeadline() goapp.UI {
	key := func(sym, color, text, short string) goapp.UI {
		return goapp.Span().Class("fleet-key").Body(goapp.Span().Class("tl-sym").Style("color", "var("+color+")").Aria("hidden", "true").Text(sym),
			goapp.Span().Class("key-long").Text(text), goapp.Span().Class("key-short").Text(short))
	}
	return goapp.Div().Class("tl-legend").Body(
		goapp.P().Class("tl-hint").Body(
			key("■", canvas.ColorZone, "a reconnect then would get 410 Gone and relist", "410 Gone: relist"),
			key("▨", canvas.ColorZone, "hatched: it would have, had the client made the other choice about bookmarks", "had it chosen otherwise"),
			key("○", canvas.ColorFg, "a relist seen", "relist seen"),
			goapp.If(v.fleet.NeverSynced > 0, func() goapp.UI {
				return key("▪", canvas.ColorFg, "a whole read by a client that never synced", "read, never synced")
			}),
			key("✗", canvas.ColorFg, "did not ask for bookmarks", "no bookmarks"),
			key("┆", canvas.ColorFg, "API server restart", "restart"),
			goapp.If(v.fleet.Outages > 0, func() goapp.UI {
				return key("┆", canvas.ColorError, "no server reached: no client's request got through (an outage)", "no server reached")
			}),
			goapp.If(v.fleet.ByServer, func() goapp.UI {
				return key("|a#2", canvas.ColorMuted, "the API server, and its process, a client's requests went to from there (audit logs)", "server and process")
			}),
		),
		goapp.P().Class("tl-hint").Text(v.rowsOrder()+" Click a row: open its timeline · wheel: zoom, over the names: scroll · drag: pan · shift-drag: count what a range holds · Alt-click: what a reconnect of every client then would get · double-click: reset."),
	)
}

// rowsOrder says in what order the rows come.
func (v *FleetView) rowsOrder() string {
	if v.fleet.ByServer {
		return "Rows: by the API server each client was on longest, as the audit logs say; riskiest client first within each."
	}
	return "Rows: riskiest client first."
}

// renderPicked says what the shift-dragged range holds.
func (v *FleetView) renderPicked() goapp.UI {
	r := v.picked
	if r == nil {
		return goapp.P().ID(v.id("fleet-range")).Class("tl-hint").Text("Shift-drag over the fleet to count the clients and relists of a stretch of time.")
	}
	text := "From " + timeline.FormatClock(r.From, v.zone()) + " to " + timeline.FormatClock(r.To, v.zone()) + ": a reconnect would have sent " +
		quantity.Plural(r.Without, "client") + " to relist without bookmarks (at most " + strconv.Itoa(r.PeakWithout) + " at once) and " +
		strconv.Itoa(r.With) + " with bookmarks (at most " + strconv.Itoa(r.PeakWith) + " at once); " + quantity.Plural(r.Relists, "relist") + " seen."
	return goapp.P().ID(v.id("fleet-range")).Class("tl-hint").
		DataSet("from", strconv.FormatInt(r.From, 10)).DataSet("to", strconv.FormatInt(r.To, 10)).
		DataSet("with", r.With).DataSet("without", r.Without).
		DataSet("peak-with", r.PeakWith).DataSet("peak-without", r.PeakWithout).
		DataSet("relists", r.Relists).
		Text(text)
}

// writeRows gives the summary its data-order and data-servers, the
// rows' names and servers, once per fleet and summary element: rendered
// by go-app, each was formatted anew and compared at every render of the
// view, hundreds of kilobytes for 10 000 clients.
func (v *FleetView) writeRows() {
	dl := v.JSValue().Call("querySelector", "#fleet-summary")
	if dl.IsNull() || dl.IsUndefined() || (v.rowsOn != nil && dl.Equal(v.rowsOn)) {
		return
	}
	ds := dl.Get("dataset")
	ds.Set("order", v.order)
	ds.Set("servers", v.servers)
	v.rowsOn = dl
}

// renderSummary is the fleet in words, for screen readers and tests.
func (v *FleetView) renderSummary() goapp.UI {
	fl := &v.fleet
	// The verdict's own sentence, so that the page and the report say
	// one thing.
	worst := fl.WorstWords
	if worst == "" {
		worst = "None: no moment would have sent two clients or more to relist at once."
	}
	return goapp.Dl().ID(v.id("fleet-summary")).Class("tl-summary").
		DataSet("clients", len(fl.Rows)).
		DataSet("max-with", fl.MaxWith).
		DataSet("max-without", fl.MaxWithout).
		DataSet("relists", fl.Relists).
		DataSet("restarts", fl.Restarts).
		DataSet("outages", fl.Outages).
		Body(
			goapp.Dt().Text("Clients"),
			goapp.Dd().Text(strconv.Itoa(len(fl.Rows))),
			goapp.Dt().Text("Relists seen"),
			goapp.Dd().Text(strconv.Itoa(fl.Relists)),
			goapp.Dt().Text("Worst moment for every watch to drop"),
			goapp.Dd().ID(v.id("fleet-worst")).Text(worst),
			goapp.Dt().Text("API server restarts seen"),
			goapp.Dd().Text(strconv.Itoa(fl.Restarts)),
			goapp.If(fl.ProbableRestarts > 0, func() goapp.UI {
				return goapp.Dt().Text("Probable restarts (the clients' watches alone suggest them)")
			}),
			goapp.If(fl.ProbableRestarts > 0, func() goapp.UI {
				return goapp.Dd().Text(strconv.Itoa(fl.ProbableRestarts))
			}),
			goapp.If(fl.Outages > 0, func() goapp.UI {
				return goapp.Dt().Text("Outages: no client's request reached a server")
			}),
			goapp.If(fl.Outages > 0, func() goapp.UI {
				return goapp.Dd().Text(strconv.Itoa(fl.Outages))
			}),
			goapp.If(v.mayMix > 0, func() goapp.UI {
				return goapp.Dt().Text(canvas.MayMixMark + "Rows that may mix two clients")
			}),
			goapp.If(v.mayMix > 0, func() goapp.UI {
				return goapp.Dd().ID(v.id("fleet-may-mix")).Text(strconv.Itoa(v.mayMix) + ": the audit log alone cannot tell each from another informer of the same User-Agent, user, address and selector. The clients' own logs, opened with the audit logs, tell them apart.")
			}),
		)
}

// zone is the zone the view writes times in: the analysis's.
func (v *FleetView) zone() *time.Location {
	if v.Zone == nil {
		return time.UTC
	}
	return v.Zone
}

func (v *FleetView) ready() bool { return v.has() && v.layout.PlotW > 0 }

func (v *FleetView) plot() (x, w, width float64) {
	return v.layout.PlotX, v.layout.PlotW, v.layout.Width
}

func (v *FleetView) extent() (lo, hi int64) { return v.fleet.From, v.fleet.To }

func (v *FleetView) minSpan() int64 { return canvas.MinSpanTime }

func (v *FleetView) scale() canvas.Scale {
	return canvas.Scale{From: v.from, To: v.to, X0: v.layout.PlotX, Width: v.layout.PlotW}
}

func (v *FleetView) overRows(y float64) bool { return v.layout.AreaAt(y) == canvas.FleetRows }

func (v *FleetView) clampScroll(y float64) float64 { return v.layout.ClampScroll(y) }

func (v *FleetView) rowStep() (row, page float64) { return canvas.FleetRowH, v.layout.RowsH }

func (v *FleetView) drawSelecting(ctx goapp.Context, x0, x1 float64) {
	v.drawWith(ctx, func(st *engine.FleetState) { st.Selecting, st.SelectFrom, st.SelectTo = true, x0, x1 })
}

// moved draws: the page does not follow the fleet's range until the view
// closes (see OnDismount).
func (v *FleetView) moved(ctx goapp.Context) { v.draw(ctx) }

func (v *FleetView) settled(ctx goapp.Context) {
	ctx.PreventUpdate()
	v.draw(ctx)
}

func (v *FleetView) hover(ctx goapp.Context, x, y float64, then func()) {
	st, eng := v.state(v.layout.Width, 1), v.eng
	v.hovers++
	n := v.hovers
	ask(ctx, eng, func() engine.FleetHit { return eng.FleetHit(st, x, y) }, func(ctx goapp.Context, h engine.FleetHit) {
		ctx.PreventUpdate()
		if n == v.hovers && v.eng == eng {
			v.tip(h.Text, x, y) // the latest hover's: the pointer is there
			if then != nil {
				then()
			}
		}
	})
}

// click opens the timeline of the client on the row clicked.
func (v *FleetView) click(ctx goapp.Context, x, y float64) {
	st, eng := v.state(v.layout.Width, 1), v.eng
	ask(ctx, eng, func() engine.FleetHit { return eng.FleetHit(st, x, y) }, func(ctx goapp.Context, h engine.FleetHit) {
		if h.File < 0 || v.eng != eng {
			ctx.PreventUpdate()
			return
		}
		ctx.NewActionWithValue(actionFleetOpen, h.File)
	})
	if inWorker(eng) {
		ctx.PreventUpdate() // the answer acts, when it comes
	}
}

// brushed counts what the range holds, which the view zooms to.
func (v *FleetView) brushed(ctx goapp.Context, from, to int64) {
	eng := v.eng
	ask(ctx, eng, func() canvas.FleetRange { return eng.FleetRange(from, to) }, func(ctx goapp.Context, r canvas.FleetRange) {
		if v.eng != eng {
			return
		}
		v.picked = &r
		v.from, v.to = canvas.FitRange(r.From, max(r.To, r.From+canvas.MinSpanTime), v.fleet.From, v.fleet.To)
		v.draw(ctx)
	})
}
