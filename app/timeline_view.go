package app

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"watchlens/app/canvas"
	"watchlens/app/engine"
	"watchlens/app/jsrt"
	"watchlens/app/load"
	"watchlens/app/words"
	"watchlens/internal/quantity"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TimelineView is the timeline canvas: lanes of events per object,
// bookmarks, sessions, the cursors against the head and the red zones,
// with zoom, pan, hover and selection. Beside the canvas it renders an
// HTML summary and a table of the zones, which screen readers and tests
// can read.
//
// It asks the engine (package engine) what to draw, what lies under the
// pointer and what the view shows, with the view's state as plain data:
// the questions a worker will answer (docs/engine.md).
//
// go-app copies the exported fields from the parent on each of its
// renders, and updates the view only when one differs: so none is a func,
// which never compares equal. What the user does the view posts as an
// action (actionSelect, actionRange) for the page to handle. Everything
// derived from the fields lives in unexported fields and is rebuilt only
// when the inputs it depends on change.
type TimelineView struct {
	goapp.Compo
	// Engine holds the capture's model; Analyzed is its analysis's
	// generation (engine.Analyzed), which changes when the user changes
	// the settings, and the view redraws.
	Engine   engine.Answerer
	Analyzed int
	Filter   timeline.Filter // which events/lanes to show
	From, To int64           // visible range on the current axis; From==To==0 means the whole capture
	AxisRV   bool            // true: x axis is resourceVersion; false: time (instants, Unix ns)
	Selected int             // selected event (timeline table index), -1 for none
	// PinnedFile is 1 + the file whose group of tracks shows pinned to the
	// top and unfolded, as the fleet view opens a client (0: none).
	PinnedFile int
	// Fold and Pin are the files whose groups of tracks are folded and
	// pinned to the top, as a link has them (see file_groups.go): the
	// view adopts them when they change, and posts actionFileGroups when
	// the user folds or pins one.
	Fold, Pin string
	// Marker is the instant a reconnect is asked about, 0 for none.
	Marker int64
	// First is the first frame the engine's worker drew with the load,
	// which the view shows as it mounts (nil: none).
	First *load.FirstFrame

	// eng is the engine the state below is for, and opened what it
	// answered of the load.
	eng    engine.Answerer
	opened engine.Opened
	// collapsed holds the groups of lanes the user folded, by key, and
	// collapsedText the same as the engine reads it.
	collapsed     map[string]bool
	collapsedText string
	// The files whose groups of tracks are folded, and pinned to the top.
	foldedFiles, pinnedFiles canvas.FileSet

	// The view as the user moves it; props are adopted only when the
	// parent changes them, so a parent that does not echo actionRange back
	// does not snap the view home.
	gestures
	axisRV    bool
	selected  int
	propsSeen struct {
		from, to   int64
		axisRV     bool
		selected   int
		pinnedFile int
		fold, pin  string
	}

	maxH float64 // the room the stage gives the canvas, CSS px (see canvas.FitLayout)
	// seenTop and seenH are the stage's rows a frame draws (seenWindow).
	seenTop, seenH float64
	// stageKey is what the stage's least height was last worked out for
	// (see fitStage).
	stageKey stageKey
	// dsKey is what the canvas's data attributes of the plot were last
	// written for; bandsShown the bands its data-bands last gave, when,
	// and whether a write of the latest is due (see writeBands).
	dsKey        datasetKey
	bandsShown   []canvas.Band
	bandsWritten time.Time
	bandsDue     bool
	fr           canvas.Frame
	layout       canvas.Layout // of the last frame drawn, for the gestures
	rows         int           // the rows of lanes in the last frame drawn
	drawn        frameKey      // of the last frame drawn
	// drawnOn is the canvas element it was drawn on: go-app makes a new
	// one when the view's body is rendered anew (no capture, then one),
	// and a new canvas is blank whatever the frame's key.
	drawnOn goapp.Value
	// shows counts the frames shown (shown): a frame painted later
	// (paintBeforeNextPaint) is painted only if none came after it.
	shows int
	// shownFrom is where the canvas's pixels start on the axis: the
	// frame drawn's From, moved by the shifts since (see shiftShown).
	shownFrom float64
	pinch     *touchPinch
	pointers  map[int]float64 // the pointers down on the canvas: where each is, by id
	settle    int             // generation of the pending actionRange
	// moving says a move's range is not yet settled (see moved).
	moving bool
	frames frameSender
	stage  stageMeasure
	// answered is the last of the worker's frames drawn.
	answered drawnAnswer
	// ctx is the view's own context, from OnMount, which the engine's
	// answers are dispatched through (see own).
	ctx goapp.Context

	// What an engine in a worker (workerEngine) answered, which the view
	// shows until its next answers come: the frame on its way (asking),
	// whether with its summary (askingSummary), its generation (askGen;
	// see askFrame), whether a view was wanted meanwhile and the
	// adjustment of its last (wanted, wantedAdjust), the summary and for
	// which view, whether it is the drawn frame's (drawnSummary), the red
	// zones and for which analysis, the hovers asked, and the first frame
	// shown.
	asking        frameKey
	askingSummary bool
	askGen        int
	wanted        bool
	wantedAdjust  func(*engine.ViewState)
	summary       engine.ViewSummary
	summaryFor    frameKey
	drawnSummary  bool
	zones         []engine.ZoneRow
	zonesAll      int
	zonesFor      zonesKey
	hovers        int
	firstShown    *load.FirstFrame
}

// zonesKey is what the red zones depend on: the engine and its analysis.
type zonesKey struct {
	eng      engine.Answerer
	analyzed int
}

// touchPinch is a two-finger pinch on a touch screen in progress.
type touchPinch struct {
	a, b     int     // the two pointers
	xa, xb   float64 // where they went down
	from, to int64   // the view then
}

// The actions the view posts.
const (
	// actionSelect: the user selected an event; its value is the event's
	// index in the timeline, -1 for none.
	actionSelect = "timeline/select"
	// actionRange: the user zoomed, panned or reset the view; its value is
	// the range shown, [2]int64{from, to}, both 0 for the whole capture.
	actionRange = "timeline/range"
	// actionBrush: the user shift-dragged over a range, which the view
	// zooms to and the page shows the statistics of; its value is the
	// range, [2]int64{from, to}, on the time axis.
	actionBrush = "timeline/brush"
	// actionFileGroups: the user folded or pinned a file's group of
	// tracks; its value is [fold, pin] as a link has them.
	actionFileGroups = "timeline/file-groups"
)

// settleDelay is how long zooming and panning must pause before the page
// hears of the new range (it rewrites the URL each time).
const settleDelay = 300 * time.Millisecond

// sync brings the derived state up to date with the exported fields.
func (v *TimelineView) sync() {
	if v.Engine == nil {
		v.eng = nil
		return
	}
	if v.eng != v.Engine {
		v.eng, v.opened = v.Engine, v.Engine.Opened()
		v.collapsed, v.collapsedText = map[string]bool{}, ""
		v.dsKey, v.bandsShown = datasetKey{}, nil // the bands' labels are the new files'
		v.propsSeen.fold = v.Fold + "?"           // forces the groups below to be adopted
		v.scrollY = 0
		v.propsSeen.axisRV = !v.AxisRV // forces the range below to be adopted
		v.propsSeen.selected = v.Selected - 1
	}
	if v.Fold != v.propsSeen.fold || v.Pin != v.propsSeen.pin {
		v.propsSeen.fold, v.propsSeen.pin = v.Fold, v.Pin
		v.foldedFiles = parseFold(v.Fold, len(v.opened.Files))
		v.pinnedFiles, _ = canvas.ParseFileSet(v.Pin, maxLinkedFiles)
	}
	if v.PinnedFile != v.propsSeen.pinnedFile {
		v.propsSeen.pinnedFile = v.PinnedFile
		if f := v.PinnedFile - 1; f >= 0 {
			v.pinnedFiles, v.foldedFiles = canvas.FileSet{}.With(f, true), v.foldedFiles.With(f, false)
			v.scrollY = 0
		}
	}
	if v.AxisRV != v.propsSeen.axisRV || v.From != v.propsSeen.from || v.To != v.propsSeen.to {
		v.axisRV = v.AxisRV
		v.setRange(v.From, v.To)
		v.propsSeen.from, v.propsSeen.to, v.propsSeen.axisRV = v.From, v.To, v.AxisRV
	}
	if v.Selected != v.propsSeen.selected {
		v.selected, v.propsSeen.selected = v.Selected, v.Selected
	}
	if v.summaryFor.eng != v.eng {
		// The render that shows the capture writes the first frame's
		// summary beside the canvas: the stage then has the room it keeps
		// when the frame is drawn, which is measured for it (drawWith).
		// Written after the frame is drawn, the summary would take room
		// from under a frame drawn for more.
		if f := v.firstToShow(v.viewState(0, 0)); f != nil {
			v.takeFirstAnswers(f)
		}
	}
}

// setRange sets the view, [0, 0) meaning the whole capture.
func (v *TimelineView) setRange(from, to int64) {
	lo, hi := v.opened.Extent(v.axisRV)
	if from == 0 && to == 0 || to <= from {
		v.from, v.to = lo, hi
		return
	}
	v.from, v.to = canvas.FitRange(from, to, lo, hi)
}

func (v *TimelineView) isWhole() bool {
	lo, hi := v.opened.Extent(v.axisRV)
	return v.from == lo && v.to == hi
}

func (v *TimelineView) OnMount(ctx goapp.Context) {
	ctx.Handle(actionExportPNG, v.exportPNG)
	// A frame asked before the view was last dismounted was answered
	// into its context of then, which go-app drops.
	v.ctx, v.asking, v.wanted = ctx, frameKey{}, false
	v.askGen++
	v.sync()
	// go-app calls OnMount once the frame that mounted the view is done,
	// so the page is laid out whole and this draws at once. Deferred, the
	// drawing waited for go-app's next frame: the browser painted the page
	// with an empty canvas first, and the timeline came a paint later.
	v.draw(ctx)
}

func (v *TimelineView) OnUpdate(ctx goapp.Context) {
	v.sync()
	// go-app updates the view when a field the page passes differs, and
	// the view's own handlers render it: a frame is a sizeable part of a
	// frame's budget as wasm, so only a change of what the canvas shows
	// draws one.
	ctx.Defer(func(ctx goapp.Context) {
		if cv := canvasOf(v); cv != nil && v.eng != nil && v.drawnOn != nil && cv.Equal(v.drawnOn) && v.drawn == v.frameKey(v.measuredState(cv)) {
			return
		}
		v.draw(ctx)
	})
}

// OnResize draws the view for its new room, and places a tooltip shown
// again for it (retip).
func (v *TimelineView) OnResize(ctx goapp.Context) {
	v.retip()
	v.draw(ctx)
}

// viewState is the view as the engine's questions take it.
func (v *TimelineView) viewState(width, dpr float64) engine.ViewState {
	return engine.ViewState{Filter: v.Filter, AxisRV: v.axisRV, From: v.from, To: v.to, Width: width, MaxHeight: v.maxH, PixelRatio: dpr,
		ScrollY: v.scrollY, SeenTop: v.seenTop, SeenHeight: v.seenH, Folded: v.foldedFiles.String(), Pinned: v.pinnedFiles.String(), Collapsed: v.collapsedText, Selected: v.selected, Marker: v.marker()}
}

// measuredState is the view as the engine's questions take it, for the
// room cv's stage gives it now: its width is the CSS width the frame is
// drawn at, the stage's; measuring also reads the height the stage
// leaves the canvas (maxH) and the rows of it a frame draws (seenWindow).
func (v *TimelineView) measuredState(cv goapp.Value) engine.ViewState {
	r := v.stage.of(cv)
	width, maxH := r.frame()
	v.maxH = maxH
	v.seenTop, v.seenH = seenWindow(r)
	return v.viewState(width, r.dpr)
}

func (v *TimelineView) dpr() float64 {
	return max(goapp.Window().Get("devicePixelRatio").Float(), 1)
}

// fitStage keeps the stage at least as high as the bands and a few
// lanes: the page scrolls down rather than cut the timeline. The least
// height depends on the bands, not on the width or the room, so it is set
// before the canvas's container is measured (see measuredState), which
// then lays the page out once.
func (v *TimelineView) fitStage(cv goapp.Value) {
	st := v.viewState(400, 1)
	st.MaxHeight, st.ScrollY, st.Selected, st.Marker = 0, 0, 0, 0
	if !st.Filter.InView || st.AxisRV {
		st.From, st.To = 0, 0 // only the InView filter's rows depend on the range
	}
	key := stageKey{v.eng, st, v.Analyzed}
	if key == v.stageKey {
		return
	}
	v.stageKey = key
	l := v.eng.Layout(st)
	v.fitStageTo(cv, l.MinHeight())
}

// stageKey is what the stage's least height depends on: the capture,
// the rows, the axis, the folded and pinned files, and the analysis
// (which says whether the counterfactual cursor's band shows).
type stageKey struct {
	eng      engine.Answerer
	st       engine.ViewState
	analyzed int
}

// datasetKey is what decides the canvas's data attributes of the plot
// (where the plot and the lanes are).
type datasetKey struct {
	plotX, plotW, lanesY float64
}

// frameKey is what decides a frame's pixels: the engine, its analysis
// and the view.
type frameKey struct {
	eng      engine.Answerer
	analyzed int
	st       engine.ViewState
}

func (v *TimelineView) frameKey(st engine.ViewState) frameKey {
	return frameKey{eng: v.eng, analyzed: v.Analyzed, st: st}
}

// draw builds a frame and hands it to web/timeline.js in one call.
func (v *TimelineView) draw(ctx goapp.Context) {
	v.drawWith(ctx, nil)
}

func (v *TimelineView) drawWith(ctx goapp.Context, adjust func(*engine.ViewState)) {
	cv := canvasOf(v)
	if cv == nil || v.eng == nil {
		return
	}
	fn, ok := v.frames.script(ctx, v.draw)
	if !ok {
		return
	}
	if w, ok := v.eng.(workerEngine); ok {
		st := v.measuredState(cv)
		if adjust != nil {
			adjust(&st)
		}
		if v.showFirst(cv, fn, st) {
			// Measured again: the stage's least height may have given
			// the canvas another room.
			st = v.measuredState(cv)
			if adjust != nil {
				adjust(&st)
			}
		}
		v.shiftShown(cv, st)
		v.askFrame(ctx, w, cv, fn, st, adjust)
		return
	}
	// The stage's least height first: reading the width then lays the
	// page out once, with it.
	v.fitStage(cv)
	v.paint(cv, fn, v.measuredState(cv), adjust)
}

// showFirst shows the first frame the engine's worker drew with the load,
// if it is this view's and nothing is drawn yet, and says whether it did:
// the capture's first paint has its timeline drawn. The frame shows what
// st does (the range, the filter, the selection, the files folded and
// pinned) but may be drawn for another room: the frame of st, if it
// differs, replaces it once it comes.
func (v *TimelineView) showFirst(cv, draw goapp.Value, st engine.ViewState) bool {
	f := v.firstToShow(st)
	if f == nil {
		return false
	}
	v.firstShown = f
	l := f.Drawn.Layout
	v.fitStageTo(cv, l.MinHeight())
	v.shown(cv, frameKey{v.eng, v.Analyzed, f.View}, f.Drawn)
	v.paintBeforeNextPaint(cv, draw, f.Frame)
	v.takeFirstAnswers(f)
	v.drawnSummary = true
	return true
}

// paintBeforeNextPaint draws e, the frame last shown on cv, in the
// browser's next animation frame, which runs before that frame's paint:
// the first paint of the capture has its timeline, as when it is drawn at
// once, but the render that shows a capture's panels and the drawing of
// its timeline are each a task of their own, not one task twice as long
// that holds the page's thread (with the other core busy, over 50 ms).
// A frame shown meanwhile (the worker's answer for another room) is
// newer, and this one is not drawn over it. The canvas is sized for the
// frame before, in a task of its own (web/timeline.js's
// watchlensReserve): the browser allocates its pixels then, not in the
// frame's drawing.
func (v *TimelineView) paintBeforeNextPaint(cv, draw goapp.Value, e canvas.EncodedJS) {
	shows := v.shows
	jsrt.InTask(func() {
		if v.shows == shows {
			reserveJS(cv, e)
		}
	})
	var paint goapp.Func
	paint = goapp.FuncOf(func(goapp.Value, []goapp.Value) any {
		paint.Release()
		if v.shows == shows {
			sendJS(draw, cv, e)
			// The pixels start at the frame's From, whatever a pan
			// shifted before they were drawn.
			v.shownFrom = float64(v.drawn.st.From)
			v.marked(cv)
			// The page is laid out whole by now. A visit's first
			// capture mounts the view before the page around it has
			// its final layout (a stage of 300 px that is 365 once
			// painted, at 1280x800), and the frame drawn for the room
			// measured then leaves lanes out and the stage's foot
			// blank: it is asked again for the room the stage gives
			// now.
			if !roomNoted(cv, cv.Get("parentElement")) {
				v.ctx.Dispatch(v.draw)
			}
		}
		return nil
	})
	goapp.Window().Call("requestAnimationFrame", paint)
}

// takeFirstAnswers keeps what the worker answered with the first frame f
// beside it: its summary, and its red zones when they came whole.
func (v *TimelineView) takeFirstAnswers(f *load.FirstFrame) {
	v.summary, v.summaryFor = f.Summary, frameKey{v.eng, v.Analyzed, engine.SummaryOf(f.View, f.Drawn)}
	if f.Zones != nil || f.ZonesAll == 0 {
		v.zones, v.zonesAll, v.zonesFor = f.Zones, f.ZonesAll, zonesKey{v.eng, v.Analyzed}
	}
}

// firstToShow is the first frame the engine's worker drew with the load
// (First), if it is yet to be shown and shows what st does: nothing is
// drawn of this engine yet, and it is of this analysis.
func (v *TimelineView) firstToShow(st engine.ViewState) *load.FirstFrame {
	f := v.First
	if f == nil || v.firstShown == f || f.Generation != v.Analyzed || v.drawn.eng == v.eng || !sameContent(f.View, st) {
		return nil
	}
	return f
}

// sameContent says whether views a and b show the same, whatever the
// room they are drawn in and the rows' scroll.
func sameContent(a, b engine.ViewState) bool {
	a.Width, a.MaxHeight, a.PixelRatio, a.ScrollY = 0, 0, 0, 0
	b.Width, b.MaxHeight, b.PixelRatio, b.ScrollY = 0, 0, 0, 0
	return a == b
}

// shiftShown moves the pixels on the canvas cv to where st puts them,
// when st pans the view the frame drawn shows and nothing else: the pan
// shows at once, and the frame the engine's worker answers replaces it
// (web/timeline.js's watchlensShift, which moves them once an animation
// frame however many moves come in it). Labels written over the plot (a
// phone's) would move with it, so the view is not shifted then.
func (v *TimelineView) shiftShown(cv goapp.Value, st engine.ViewState) {
	d := v.drawn.st
	if v.drawnOn == nil || !cv.Equal(v.drawnOn) || v.drawn.eng != v.eng || v.layout.LabelsOver || v.layout.PlotW <= 0 {
		return
	}
	a, b := st, d
	a.From, a.To, b.From, b.To = 0, 0, 0, 0
	a.SeenTop, a.SeenHeight = b.SeenTop, b.SeenHeight // the rows in view move alike
	span := float64(st.To - st.From)
	if a != b || st.To-st.From != d.To-d.From || span <= 0 {
		return
	}
	dx := (v.shownFrom - float64(st.From)) * v.layout.PlotW / span
	if math.Abs(dx) < 0.5 || math.Abs(dx) >= v.layout.PlotW {
		return
	}
	shift := goapp.Window().Get("watchlensShift")
	if !shift.Truthy() {
		return
	}
	shift.Invoke(cv, dx, v.layout.PlotX, v.layout.PlotW)
	v.shownFrom = float64(st.From)
}

// inGesture says whether the user is moving the view: a drag, a pinch, or
// a wheel's or a key's moves not settled yet.
func (v *TimelineView) inGesture() bool {
	return v.pinch != nil || v.moving || (v.drag != nil && v.drag.moved)
}

// own is the view's own context once it is mounted, else ctx. An event's
// context is its element's (the canvas), which go-app may replace while
// an answer is on its way: a Dispatch on an element no longer mounted is
// dropped, and a frame's answer with it, after which no frame was asked
// again (a click's selection was never drawn).
func (v *TimelineView) own(ctx goapp.Context) goapp.Context {
	if v.ctx.Src() != nil && v.ctx.Src().Mounted() {
		return v.ctx
	}
	return ctx
}

// askFrame asks the engine's worker for the frame of st on a goroutine
// of askers, and, after a new analysis, the red zones, and shows them
// when they come: the frame drawn last stays on the canvas until then.
//
// While the user moves the view (inGesture), one frame question is on
// its way at a time, asked without the summary: a view wanted meanwhile
// (adjust is how it was made) waits, and the latest is asked once the
// answer is drawn, so that each answer is drawn, however often the
// pointer moves. (Asked at once, each question superseded the one
// before, and a drag faster than the worker drew nothing until it
// stopped.) Any other view, a gesture's end, a click or a fold, is asked
// at once with its summary, and replaces the frame on its way, whose
// answer is dropped (askGen): the summary is only ever worked out for
// the view the user stopped at.
func (v *TimelineView) askFrame(ctx goapp.Context, w workerEngine, cv, draw goapp.Value, st engine.ViewState, adjust func(*engine.ViewState)) {
	key := v.frameKey(st)
	// A scroll of the panel asks for other rows of the same view, one
	// question at a time as a gesture does, and the summary drawn holds.
	scrolled := key != v.drawn && sameButSeen(key, v.drawn)
	moving := v.inGesture() || scrolled
	if v.asking != (frameKey{}) && moving {
		v.wanted, v.wantedAdjust = key != v.asking, adjust
		return
	}
	summary := !v.inGesture() && !(scrolled && v.drawnSummary)
	shifted := v.shownFrom != float64(v.drawn.st.From)
	if v.asking == (frameKey{}) && v.drawnFits(key) && cv.Equal(v.drawnOn) && !shifted && (v.drawnSummary || !summary) {
		// The frame drawn is key's: it now counts as drawn for key's
		// room.
		v.drawn = key
		return
	}
	v.wanted, v.wantedAdjust = false, nil
	if key == v.asking && v.askingSummary == summary {
		return // the same question is on its way
	}
	v.askGen++
	gen := v.askGen
	v.asking, v.askingSummary = key, summary
	zk := zonesKey{v.eng, v.Analyzed}
	zones := v.zonesFor != zk
	ctx = v.own(ctx)
	askers.run(func() {
		d, s, enc, err := w.AskEncodedFrame(st, summary)
		var rows []engine.ZoneRow
		all := 0
		if err == nil && zones {
			rows, all = w.Zones(maxZoneRows)
		}
		ctx.Dispatch(func(ctx goapp.Context) {
			if gen != v.askGen {
				ctx.PreventUpdate()
				return // a frame asked at once took this one's place
			}
			v.asking = frameKey{}
			if v.wanted || errors.Is(err, engine.ErrCancelled) {
				// The view moved on, or another frame question (a
				// picture's) took this one's place: the view as it is
				// now, once this answer is drawn.
				again := v.wantedAdjust
				if !v.wanted {
					again = adjust
				}
				v.wanted, v.wantedAdjust = false, nil
				defer v.drawWith(ctx, again)
			}
			if err != nil || v.eng != key.eng {
				ctx.PreventUpdate()
				return
			}
			if l := d.Layout; v.fitStageTo(cv, l.MinHeight()) {
				// The stage grew to hold the bands: the room changed.
				defer v.draw(ctx)
			}
			v.showEncoded(cv, draw, key, d, enc)
			v.answered.drew(w, enc)
			v.drawnSummary = summary || scrolled && v.drawnSummary
			changed := zones
			if zones {
				v.zones, v.zonesAll, v.zonesFor = rows, all, zk
			}
			if sk := (frameKey{key.eng, key.analyzed, engine.SummaryOf(st, d)}); summary && (sk != v.summaryFor || !reflect.DeepEqual(s, v.summary)) {
				v.summary, v.summaryFor, changed = s, sk, true
			}
			if !changed || v.inGesture() || v.drag != nil {
				// What the view writes beside the canvas is the same, or
				// the user is moving it: go-app renders nothing for a
				// frame (the page renders once the move settles).
				ctx.PreventUpdate()
			}
		})
	})
}

// drawnFits says whether the frame drawn is the frame of key: drawn for
// key, or for another room that lays it out alike (canvas's FitsRoom).
// The first frame, drawn with the load for the room the page foresaw,
// is kept so when the room measured shows as many rows.
func (v *TimelineView) drawnFits(key frameKey) bool {
	if key == v.drawn {
		return true
	}
	other := key
	other.st.MaxHeight = v.drawn.st.MaxHeight
	return other == v.drawn && v.layout.FitsRoom(key.st.MaxHeight)
}

// sameButSeen says whether two frames differ at most in the rows of the
// layout they draw.
func sameButSeen(a, b frameKey) bool {
	a.st.SeenTop, a.st.SeenHeight = b.st.SeenTop, b.st.SeenHeight
	return a == b
}

// onSeen draws the rows the panel has scrolled into view: web/timeline.js
// tells the canvas once an animation frame while its panel scrolls.
func (v *TimelineView) onSeen(ctx goapp.Context, _ goapp.Event) {
	ctx.PreventUpdate()
	v.draw(ctx)
}

// fitStageTo gives the stage the least height minH, and says whether
// that changed it.
func (v *TimelineView) fitStageTo(cv goapp.Value, minH float64) bool {
	return setMinHeight(cv.Get("parentElement"), minH)
}

// setMinHeight gives el the least height h, CSS px (0: the
// stylesheet's), and says whether that changed it. It compares with the element's own style, not with
// the height a view last gave: a view keeps its state across captures,
// while the stage it gave that height may be a new element (the fleet
// view renders no stage until the engine answers its fleet), whose least
// height is then the stylesheet's, and a fleet as high as the last one
// was drawn over what follows its stage.
func setMinHeight(el goapp.Value, h float64) bool {
	want := ""
	if h > 0 {
		want = strconv.FormatFloat(h, 'f', 0, 64) + "px"
	}
	style := el.Get("style")
	if style.Get("minHeight").String() == want {
		return false
	}
	style.Set("minHeight", want)
	return true
}

// paint has the engine build the frame of the view st, changed by
// adjust, and has draw (web/timeline.js's watchlensDraw) draw it on cv.
func (v *TimelineView) paint(cv, draw goapp.Value, st engine.ViewState, adjust func(*engine.ViewState)) {
	if adjust != nil {
		adjust(&st)
	}
	d := v.eng.Frame(st, &v.fr)
	v.show(cv, draw, v.frameKey(st), d, &v.fr)
}

// show draws frame fr, of the view key, on cv through draw, and keeps
// what the engine answered of it (d) for the gestures.
func (v *TimelineView) show(cv, draw goapp.Value, key frameKey, d engine.Drawn, fr *canvas.Frame) {
	v.shown(cv, key, d)
	v.frames.send(draw, cv, fr)
	v.marked(cv)
}

// showEncoded is show for a frame as the worker sent it.
func (v *TimelineView) showEncoded(cv, draw goapp.Value, key frameKey, d engine.Drawn, e canvas.EncodedJS) {
	v.shown(cv, key, d)
	sendJS(draw, cv, e)
	v.marked(cv)
}

// shown keeps what the engine answered of the frame of key about to be
// drawn on cv (d) for the gestures.
func (v *TimelineView) shown(cv goapp.Value, key frameKey, d engine.Drawn) {
	// The engine keeps the scroll within the rows it drew.
	v.layout, v.rows, v.scrollY = d.Layout, d.Rows, d.ScrollY
	key.st.ScrollY = d.ScrollY
	v.drawn, v.drawnOn, v.shownFrom = key, cv, float64(key.st.From)
	v.shows++
}

// marked writes on cv where the plot and the bands of the frame just
// drawn on it are, once it is drawn: a tool that reads them (the browser
// tests) finds the canvas as they describe it.
func (v *TimelineView) marked(cv goapp.Value) {
	if key := (datasetKey{v.layout.PlotX, v.layout.PlotW, v.layout.LanesY}); key != v.dsKey {
		v.dsKey = key
		// Where the plot and the lanes sit, for tools that need to point
		// at a mark (the browser tests click one).
		ds := cv.Get("dataset")
		ds.Set("plotX", v.layout.PlotX)
		ds.Set("plotW", v.layout.PlotW)
		ds.Set("lanesY", v.layout.LanesY)
		ds.Set("rowH", canvas.RowHeight)
	}
	v.writeBands(cv)
}

// bandsEvery is how often at most the canvas's data-bands is written
// again when only its cursor strips' RV scales moved.
const bandsEvery = 250 * time.Millisecond

// writeBands gives the canvas's data-bands the bands of the frame drawn,
// for tools that point at one: JSON of the layout's own []canvas.Band,
// each with its kind by name, its place, its file (-1: all files share
// it), its label and, of a cursor strip, its RV scale in the frame. The
// strips' scales move in every frame of a pan, and encoding the bands of
// many file groups that often would cost a good part of each frame: a
// change of the scales alone is written at most every bandsEvery, and
// once more after the last.
func (v *TimelineView) writeBands(cv goapp.Value) {
	if slices.Equal(v.layout.Bands, v.bandsShown) {
		return
	}
	if len(v.layout.Bands) == len(v.bandsShown) && time.Since(v.bandsWritten) < bandsEvery &&
		slices.EqualFunc(v.layout.Bands, v.bandsShown, sameButRVs) {
		if !v.bandsDue {
			v.bandsDue = true
			time.AfterFunc(bandsEvery, func() {
				v.bandsDue = false
				v.writeBands(cv)
			})
		}
		return
	}
	v.bandsShown = append(v.bandsShown[:0], v.layout.Bands...)
	v.bandsWritten = time.Now()
	text, err := json.Marshal(v.bandsShown)
	if err != nil {
		// A kind without a name (see canvas's TestBandsAsJSON): a reader
		// fails on this, and says it.
		text = []byte(err.Error())
	}
	cv.Get("dataset").Set("bands", string(text))
}

// sameButRVs says whether two bands differ at most in their RV scales.
func sameButRVs(a, b canvas.Band) bool {
	a.RVTop, a.RVBot = b.RVTop, b.RVBot
	return a == b
}

func (v *TimelineView) Render() goapp.UI {
	v.gestures.view = v
	v.sync()
	if v.eng == nil {
		return goapp.Section().Class("timeline")
	}
	return goapp.Section().Class("timeline").ID("timeline").Body(
		goapp.H3().Class("tl-visually-hidden").Text("Timeline"),
		v.renderLegend(),
		gestureStage(v, goapp.Canvas().
			Aria("label", "Timeline of the capture: use the arrow keys to pan, + and - to zoom, 0 to reset, [ and ] to step through the events; the summary below lists what it shows").
			Aria("describedby", "timeline-summary").
			DataSet("selected", v.selected).
			On("watchlensseen", v.onSeen)),
		goapp.If(v.opened.Records() > canvas.MaxFileGroups, func() goapp.UI {
			return goapp.P().ID("files-not-drawn").Class("hint").Text("Tracks are drawn for the first " + strconv.Itoa(canvas.MaxFileGroups) + " of the " + quantity.Plural(v.opened.Records(), "file") +
				" open, pinned ones first; the fleet view shows every client.")
		}),
		v.renderSummary(),
		v.renderZones(),
	)
}

func (v *TimelineView) axisCaption() string {
	if v.axisRV {
		return "x axis: resourceVersion (compared as numbers, as the API server does)"
	}
	return v.opened.AxisCaption
}

// legendItems is the timeline's legend, on the page and in its PNG.
//
// from names the records an item's mark needs ("servers": an API
// server's track, from its audit logs or its metrics; "metrics": a
// server's Prometheus series; "" none): the PNG's legend leaves out the
// marks its picture cannot have.
var legendItems = []struct{ sym, color, opacity, text, from string }{
	{"▲", canvas.ColorAdded, "", "ADDED", ""},
	{"●", canvas.ColorModified, "", "MODIFIED", ""},
	{"✕", canvas.ColorDeleted, "", "DELETED", ""},
	{"◆", canvas.ColorObserved, "", "OBSERVED (no event type)", ""},
	{"○", canvas.ColorListed, "", "LISTED (an object as a LIST showed it)", ""},
	{"|", canvas.ColorBookmark, "", "BOOKMARK", ""},
	{"▼", canvas.ColorError, "", "ERROR", ""},
	{"■", canvas.ColorZone, "", "red zone: a drop here, resumed, gets 410", ""},
	{"■", canvas.ColorRisk, "", "amber zone: at risk, past the history the server is sure to keep", ""},
	{"▂", canvas.ColorObserved, "", "events per pixel column (log scale)", ""},
	{"▬", canvas.ColorSession, "", "watch session", ""},
	{"▮", canvas.ColorDeleted, "", "reconnect gap", ""},
	{"━", canvas.ColorAware, "", "cursor with the bookmarks received", ""},
	{"━", canvas.ColorIgnoring, "", "cursor ignoring bookmarks", ""},
	{"━", canvas.ColorHead, "", "head estimate", ""},
	{"▬", canvas.ColorSession, "0.55", "an API server's process, from its audit logs (▲ a new process: its restart)", "servers"},
	{"━", canvas.ColorAware, "", "a server's watch cache head RV, per resource, from its metrics", "metrics"},
	{"▮", canvas.ColorDeleted, "", "a server's LISTs per second (its WATCHes pale), from its metrics", "metrics"},
}

func (v *TimelineView) renderLegend() goapp.UI {
	key := func(i int, label string) goapp.UI {
		l := legendItems[i]
		return goapp.Span().Body(goapp.Span().Class("tl-sym").Style("color", "var("+l.color+")").Aria("hidden", "true").Text(l.sym), goapp.Text(label))
	}
	// Folded, the legend's line names the marks a first look needs.
	return goapp.Details().Class("tl-legend").Body(
		goapp.Summary().Body(goapp.Text("Legend and controls:"), key(0, "ADDED"), key(1, "MODIFIED"), key(2, "DELETED"), key(5, "BOOKMARK"), key(6, "ERROR"),
			key(7, "410 zone"), key(8, "at risk"), key(12, "cursor as recorded"), key(13, "ignoring bookmarks")),
		goapp.Ul().Aria("label", "Legend").Body(
			goapp.Range(legendItems).Slice(func(i int) goapp.UI {
				l := legendItems[i]
				return goapp.Li().Body(
					goapp.Span().Class("tl-sym").Style("color", "var("+l.color+")").Style("opacity", l.opacity).Aria("hidden", "true").Text(l.sym),
					goapp.Text(l.text),
				)
			}),
		),
		goapp.P().Class("tl-hint").Text(v.axisCaption()+". Wheel or pinch: zoom · drag: pan · shift-drag: zoom to a range and count what it holds · Alt-click: what a reconnect at that instant would get · double-click: reset · keys: ← → pan, ↑ ↓ scroll, + − zoom, 0 reset, [ ] previous / next event."),
	)
}

// shownSummary is the summary of the view (and the view it is of):
// asked now of an engine in the page's wasm, and of one in a worker the
// last one it answered, false before its first.
func (v *TimelineView) shownSummary() (engine.ViewSummary, engine.ViewState, bool) {
	if !inWorker(v.eng) {
		st := v.viewState(v.layout.Width, 1)
		return v.eng.Summary(st), st, true
	}
	return v.summary, v.summaryFor.st, v.summaryFor.eng == v.eng
}

func (v *TimelineView) renderSummary() goapp.UI {
	s, st, ok := v.shownSummary()
	if !ok {
		return goapp.Dl().Class("tl-summary")
	}
	lo, hi := v.opened.Extent(st.AxisRV)
	aw, ig := s.Zones[timeline.BookmarkAware], s.Zones[timeline.BookmarkIgnoring]
	seconds := func(z timeline.ZoneTotal) float64 { return float64(z.Length) / 1e9 }
	zoneText := func(z timeline.ZoneTotal) string {
		return quantity.Plural(z.Count, "zone") + ", " + timeline.FormatDuration(z.Length)
	}
	axis := axisName(st.AxisRV)
	servers := s.Servers
	return goapp.Dl().ID("timeline-summary").Class("tl-summary").
		DataSet("files", strings.Join(s.Files, "\n")).
		DataSet("axis", axis).
		DataSet("from", strconv.FormatInt(st.From, 10)).
		DataSet("to", strconv.FormatInt(st.To, 10)).
		DataSet("whole", st.From == lo && st.To == hi).
		DataSet("lanes", s.Lanes).
		DataSet("groups", s.Groups).
		DataSet("rows", s.Rows).
		DataSet("bookmarks", s.Bookmarks).
		DataSet("errors", s.Errors).
		DataSet("zones-aware", aw.Count).
		DataSet("zones-aware-seconds", strconv.FormatFloat(seconds(aw), 'f', 3, 64)).
		DataSet("zones-ignoring", ig.Count).
		DataSet("zones-ignoring-seconds", strconv.FormatFloat(seconds(ig), 'f', 3, 64)).
		DataSet("selected", st.Selected).
		DataSet("servers", serversData(servers)).
		Body(
			goapp.Dt().Text("In view"),
			goapp.Dd().Text(s.FromText+" to "+s.ToText),
			goapp.Dt().Text("Objects"),
			goapp.Dd().Text(quantity.Plural(s.Lanes, "lane")+" in "+quantity.Plural(s.Groups, "group")),
			goapp.Dt().Text("Bookmarks in view"),
			goapp.Dd().Text(strconv.Itoa(s.Bookmarks)),
			goapp.Dt().Text("Observed errors in view"),
			goapp.Dd().Text(strconv.Itoa(s.Errors)),
			goapp.Dt().Text("410 zones, "+timeline.BookmarkAware.Words()),
			goapp.Dd().Text(zoneText(aw)),
			goapp.Dt().Text("410 zones, "+timeline.BookmarkIgnoring.Words()),
			goapp.Dd().Text(zoneText(ig)),
			goapp.If(len(servers) > 0, func() goapp.UI {
				return goapp.Div().Body(goapp.Dt().Text("API servers"), goapp.Dd().ID("servers-shown").Text(serversText(servers)))
			}),
			goapp.Dt().Text("Selected"),
			goapp.Dd().Class("tl-selected").Text(s.Selected),
		)
}

// maxZoneRows keeps a pathological capture from rendering a huge table.
const maxZoneRows = 2000

func (v *TimelineView) renderZones() goapp.UI {
	zones, all := v.zones, v.zonesAll
	if !inWorker(v.eng) {
		zones, all = v.eng.Zones(maxZoneRows)
	}
	caption := "Red zones: where a dropped watch, resumed from its cursor, would get 410 Gone (" + strconv.Itoa(all) + ")"
	if all > maxZoneRows {
		caption += "; the first " + strconv.Itoa(maxZoneRows) + " are listed"
	}
	// The wrapper, not the table, is hidden: a table grows to its content
	// whatever its width says, which widened the whole page.
	return goapp.Div().Class("tl-visually-hidden").Body(goapp.Table().ID("zones-table").Body(
		goapp.Caption().Text(caption),
		goapp.THead().Body(goapp.Tr().Body(
			goapp.Th().Scope("col").Text("cursor"),
			goapp.Th().Scope("col").Text("from"),
			goapp.Th().Scope("col").Text("to"),
			goapp.Th().Scope("col").Text("model"),
			goapp.Th().Scope("col").Text("reason"),
		)),
		goapp.TBody().Body(
			goapp.Range(zones).Slice(func(i int) goapp.UI {
				z := zones[i]
				return goapp.Tr().DataSet("cursor", z.Cursor).DataSet("model", z.Model).Body(
					goapp.Td().Text(z.Where),
					goapp.Td().Text(z.From),
					goapp.Td().Text(z.To),
					goapp.Td().Text(z.Model),
					goapp.Td().Text(z.Reason),
				)
			}),
		),
	))
}

// moved redraws after the user moved the view and tells the page once
// the movement settles.
func (v *TimelineView) moved(ctx goapp.Context) {
	v.moving = true
	v.draw(ctx)
	v.settle++
	gen := v.settle
	v.own(ctx).After(settleDelay, func(ctx goapp.Context) {
		if gen != v.settle {
			// A later move settles instead. Without this, go-app
			// rendered the whole page for every wheel notch, a settle
			// delay later, in the middle of the zooming that followed.
			ctx.PreventUpdate()
			return
		}
		v.moving = false
		if inWorker(v.eng) {
			// The move's frames came without their summary.
			v.draw(ctx)
		}
		v.emitRange(ctx)
	})
}

// emitRange tells the page the range now shown ([0, 0) for the whole).
func (v *TimelineView) emitRange(ctx goapp.Context) {
	v.settle++
	v.moving = false
	from, to := v.from, v.to
	if v.isWhole() {
		from, to = 0, 0
	}
	ctx.NewActionWithValue(actionRange, [2]int64{from, to})
}

func (v *TimelineView) ready() bool { return v.eng != nil && v.layout.PlotW > 0 }

func (v *TimelineView) plot() (x, w, width float64) {
	return v.layout.PlotX, v.layout.PlotW, v.layout.Width
}

func (v *TimelineView) extent() (lo, hi int64) { return v.opened.Extent(v.axisRV) }

func (v *TimelineView) minSpan() int64 {
	if v.axisRV {
		return canvas.MinSpanRV
	}
	return canvas.MinSpanTime
}

func (v *TimelineView) scale() canvas.Scale {
	return canvas.Scale{From: v.from, To: v.to, X0: v.layout.PlotX, Width: v.layout.PlotW}
}

func (v *TimelineView) overRows(y float64) bool { return v.layout.BandAt(y) == canvas.BandLanes }

func (v *TimelineView) clampScroll(y float64) float64 { return v.layout.ClampScroll(y) }

func (v *TimelineView) rowStep() (row, page float64) { return canvas.RowHeight, v.layout.LanesH }

func (v *TimelineView) drawSelecting(ctx goapp.Context, x0, x1 float64) {
	v.drawWith(ctx, func(st *engine.ViewState) { st.Selecting, st.SelectFrom, st.SelectTo = true, x0, x1 })
}

// settled draws and tells the page the range at once: a drag or a
// double-click is one move, not a stream of them.
func (v *TimelineView) settled(ctx goapp.Context) {
	v.moving = false // the frame is asked at once, with its summary
	v.draw(ctx)
	v.emitRange(ctx)
}

// brushed zooms to the range, at least minSpan wide, and has the page
// count what it holds.
func (v *TimelineView) brushed(ctx goapp.Context, from, to int64) {
	lo, hi := v.extent()
	if to-from < v.minSpan() {
		from, to = canvas.ZoomRange(from, to, (from+to)/2, 1, lo, hi, v.minSpan())
	}
	v.from, v.to = canvas.FitRange(from, to, lo, hi)
	v.settled(ctx)
	ctx.NewActionWithValue(actionBrush, [2]int64{v.from, v.to})
}

// onPointerDown starts a drag, as the fleet's does, and tracks the
// fingers down: a second one turns the drag into a pinch.
func (v *TimelineView) onPointerDown(ctx goapp.Context, e goapp.Event) {
	x, ok := v.pointerDown(ctx, e)
	if !ok {
		return
	}
	if v.pointers == nil {
		v.pointers = map[int]float64{}
	}
	v.pointers[e.Get("pointerId").Int()] = x
	if len(v.pointers) == 2 {
		var ids []int
		for id := range v.pointers {
			ids = append(ids, id)
		}
		v.drag, v.pinch = nil, &touchPinch{a: ids[0], b: ids[1], xa: v.pointers[ids[0]], xb: v.pointers[ids[1]], from: v.from, to: v.to}
		return
	}
	if v.pinch != nil {
		v.drag = nil // a third finger
	}
}

// onPointerMove follows a pinch's fingers, or else a drag or the hover.
func (v *TimelineView) onPointerMove(ctx goapp.Context, e goapp.Event) {
	id := e.Get("pointerId").Int()
	if _, down := v.pointers[id]; down {
		v.pointers[id], _ = pointer(e)
	}
	p := v.pinch
	if p == nil {
		v.gestures.onPointerMove(ctx, e)
		return
	}
	ctx.PreventUpdate()
	if v.ready() && (id == p.a || id == p.b) {
		v.pinchTo(p)
		v.moved(ctx)
	}
}

// pinchTo zooms and pans the view so that the instants under the two
// fingers when they went down stay under them.
func (v *TimelineView) pinchTo(p *touchPinch) {
	xa, xb := v.pointers[p.a], v.pointers[p.b]
	d0, d1 := math.Abs(p.xb-p.xa), math.Abs(xb-xa)
	if d0 < 1 || d1 < 1 {
		return
	}
	v.from, v.to = p.from, p.to
	v.zoom((p.xa+p.xb)/2, d0/d1)
	v.pan((p.xa + p.xb - xa - xb) / 2)
}

// onPointerUp ends a pinch, or else a drag.
func (v *TimelineView) onPointerUp(ctx goapp.Context, e goapp.Event) {
	delete(v.pointers, e.Get("pointerId").Int())
	if v.pinch == nil {
		v.gestures.onPointerUp(ctx, e)
		return
	}
	// Lifting either finger ends the pinch; the other does nothing more
	// until it is lifted too.
	v.pinch = nil
	if v.ready() {
		v.settled(ctx)
	}
}

// click selects the event under the pointer, or folds a group.
func (v *TimelineView) click(ctx goapp.Context, x, y float64) {
	st, eng := v.viewState(v.layout.Width, 1), v.eng
	type picked struct {
		h  engine.Hit
		ok bool
	}
	ask(v.own(ctx), eng, func() picked {
		if w, ok := eng.(workerEngine); ok {
			h, err := w.Pick(st, x, y)
			return picked{h, err == nil}
		}
		return picked{eng.Hit(st, x, y), true}
	}, func(ctx goapp.Context, p picked) {
		if !p.ok || v.eng != eng {
			ctx.PreventUpdate()
			return
		}
		v.clicked(ctx, p.h, x, y)
	})
	if inWorker(eng) {
		ctx.PreventUpdate() // the answer renders, when it comes
	}
}

// clicked does what a click at (x, y) does, given what lies there (h).
func (v *TimelineView) clicked(ctx goapp.Context, h engine.Hit, x, y float64) {
	// A click ends a wheel's move: what it changes is asked at once.
	v.moving = false
	if h.FileBand {
		if h.Pin {
			v.pinnedFiles = v.pinnedFiles.Toggle(h.File)
		} else {
			v.foldedFiles = v.foldedFiles.Toggle(h.File)
		}
		v.propsSeen.fold, v.propsSeen.pin = foldText(v.foldedFiles, len(v.opened.Files)), v.pinnedFiles.String()
		ctx.NewActionWithValue(actionFileGroups, [2]string{v.propsSeen.fold, v.propsSeen.pin})
		v.draw(ctx)
		v.hover(ctx, x, y, nil) // the tooltip says what a click does now
		ctx.PreventUpdate()
		return
	}
	if h.Group >= 0 {
		v.collapsed[h.GroupKey] = !h.GroupCollapsed
		v.collapsedText = engine.CollapsedText(v.collapsed)
		v.draw(ctx)
		return
	}
	if h.Event < 0 && v.layout.BandAt(y) != canvas.BandLanes && h.Text != "" {
		// A click on a session or a zone reads it; it does not unselect.
		ctx.PreventUpdate()
		return
	}
	v.selected = h.Event
	v.draw(ctx)
	ctx.NewActionWithValue(actionSelect, h.Event)
}

// onPointerCancel forgets a pointer the browser took back, and the drag
// or the pinch it was part of.
func (v *TimelineView) onPointerCancel(ctx goapp.Context, e goapp.Event) {
	v.gestures.onPointerCancel(ctx, e)
	delete(v.pointers, e.Get("pointerId").Int())
	v.pinch = nil
}

// onKeyDown steps through the events with [ and ], and moves the view
// with the keys the fleet's takes too.
func (v *TimelineView) onKeyDown(ctx goapp.Context, e goapp.Event) {
	if k := e.Get("key").String(); (k == "[" || k == "]") && v.ready() {
		ctx.PreventUpdate()
		e.PreventDefault()
		v.stepSelection(ctx, k == "]")
		return
	}
	v.gestures.onKeyDown(ctx, e)
}

// stepSelection selects the next (or previous) shown event in time order,
// so that the events can be walked from the keyboard; the view follows.
// Without a selection it starts at the edge of the view.
func (v *TimelineView) stepSelection(ctx goapp.Context, forward bool) {
	st, eng := v.viewState(v.layout.Width, 1), v.eng
	ask(v.own(ctx), eng, func() engine.Step { return eng.Step(st, forward) }, func(ctx goapp.Context, next engine.Step) {
		if v.eng != eng || v.selected != st.Selected {
			// Another capture, or the selection moved meanwhile.
			ctx.PreventUpdate()
			return
		}
		v.stepTo(ctx, next)
	})
}

// stepTo selects next, the event a step came to, and brings it into view.
func (v *TimelineView) stepTo(ctx goapp.Context, next engine.Step) {
	if next.Event < 0 {
		ctx.PreventUpdate()
		return
	}
	v.selected = next.Event
	if span := v.to - v.from; !v.axisRV && (next.T < v.from || next.T >= v.to) {
		v.from = next.T - span/2
		v.to = v.from + span
		v.moved(ctx)
	} else {
		v.draw(ctx)
	}
	ctx.NewActionWithValue(actionSelect, next.Event)
}

// hover shows what lies under the pointer.
func (v *TimelineView) hover(ctx goapp.Context, x, y float64, then func()) {
	st, eng := v.viewState(v.layout.Width, 1), v.eng
	v.hovers++
	n := v.hovers
	ask(v.own(ctx), eng, func() engine.Hit { return eng.Hit(st, x, y) }, func(ctx goapp.Context, h engine.Hit) {
		ctx.PreventUpdate()
		if n == v.hovers && v.eng == eng {
			v.tip(h.Text, x, y) // the latest hover's: the pointer is there
			if then != nil {
				then()
			}
		}
	})
}

// serversData lists the servers drawn for tools: "name processes
// metrics", one a line ("b 2 true").
func serversData(servers []canvas.ServerSummary) string {
	lines := make([]string, len(servers))
	for i, s := range servers {
		lines[i] = s.Name + " " + strconv.Itoa(s.Processes) + " " + strconv.FormatBool(s.Metrics)
	}
	return strings.Join(lines, "\n")
}

// serversText says which servers the timeline draws: "a (2 processes,
// metrics), b (1 process)".
func serversText(servers []canvas.ServerSummary) string {
	parts := make([]string, len(servers))
	for i, s := range servers {
		parts[i] = words.Isolated(s.Name) + " (" + strconv.Itoa(s.Processes) + " process"
		if s.Processes != 1 {
			parts[i] += "es"
		}
		if s.Metrics {
			parts[i] += ", metrics"
		}
		parts[i] += ")"
	}
	return strings.Join(parts, ", ")
}
