package app

import (
	"time"

	"watchlens/app/jsrt"
	"watchlens/app/load"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// warmSamples are read in the background after the page has shown its
// first capture: real pod events as NDJSON, and a time-prefixed chunked
// HTTP capture, the two paths most dropped files take.
var warmSamples = []string{"kubectl-pods-watch.jsonl", "w1-broad-configmaps-bookmarks.ts.http"}

// warmIncident are the files of the incident the engine's spare worker
// opens together in its warm-up (package warmup, served under
// /web/warmup/): several servers' captures, audit logs, klog and
// Prometheus exports, whose code the warm samples do not run.
var warmIncident = []string{
	"c000-bookmarks.ts.http", "c101-nobookmarks.ts.http", "c107-nobookmarks.ts.http", "c150-nobookmarks.ts.http",
	"p01-proto-secret-bookmarks.ts.http", "p02-proto-nobookmarks.ts.http",
	"s000-secret-bookmarks.ts.http", "s030-secret-nobookmarks.ts.http",
	"audit-a-1.log", "audit-a-2.log", "audit-b-1.log", "audit-b-2.log", "audit-c-1.log",
	"fleet-klog.log",
	"apiserver_request_total.json.gz", "apiserver_watch_cache_events_received_total.json.gz",
	"apiserver_watch_cache_initializations_total.json.gz", "apiserver_watch_cache_resource_version.json.gz",
	"watch_cache_capacity.json.gz", "etcd_debugging_mvcc_compact_revision.json.gz",
}

// warmRenders is how many times the warm-up has go-app render the page,
// so that the first load's renders run optimised instead of having
// Chromium compile them while the load runs.
const warmRenders = 40

// warmUp reads the warm samples through the same path a dropped file
// takes (load.WarmUp: the reading worker, the parser, the timeline, the
// analysis; then the first frame's drawing) and throws the result away.
// The browser runs new wasm code unoptimised at first and optimises what
// runs hot, so a first load is otherwise much slower than the same load
// again. It runs in a goroutine and yields like a load, so the page stays
// responsive, and gives up once the user opens a capture: it is there to
// speed that up, not to compete with it. visit is the turn of the read
// the visit began (the page's first capture): a read begun after it,
// before the warm-up or during it, whether it is still going on or has
// ended, is the user's, and the warm-up gives way to it. sample is the
// built-in sample the visit opened, if it opened one: the warm-up ends
// by showing it again (rehearseShow), unless touched says the user has
// acted on the page since the visit began.
func (p *Page) warmUp(ctx goapp.Context, visit load.Turn, sample string, touched func() bool) {
	defer ctx.Dispatch(func(goapp.Context) { p.warm = true })
	opened := visit.Superseded
	// A page that reads in the engine's worker warms that worker instead
	// (below): its own parser would spend the page's thread on code the
	// loads do not run.
	if !load.ReadsInWorker() && !p.warmParser(ctx, visit) {
		return
	}
	// go-app's rendering runs unoptimised at first too, and the render
	// that shows a capture is the load's largest piece of work after the
	// parsing: render the page as it is a few times, each in a task of
	// its own.
	for range warmRenders {
		if opened() {
			break
		}
		rendered := make(chan struct{})
		ctx.Dispatch(func(goapp.Context) { close(rendered) })
		select {
		case <-rendered:
		case <-time.After(time.Second):
			return // go-app drops a dispatch to a page no longer mounted
		}
		jsrt.YieldOnce()
	}
	if !opened() {
		// The first capture the user opens is read by this worker; a
		// capture opened meanwhile starts one once it is shown.
		jsrt.PrepareReadingWorker()
		// And by the engine's spare worker, whose own warm-up the page
		// is warm only once it has run: the visit's capture took the
		// first spare, cutting its warm-up short.
		waitSpareWarmed()
		// The latest read: a user's read after it ends the fleet's
		// rehearsal.
		last := visit
		if sample != "" && !opened() && !touched() {
			last = p.rehearseShow(ctx, sample)
		}
		if load.ReadsInWorker() && !last.Superseded() {
			p.rehearseFleet(ctx, last)
		}
	}
}

// waitSpareWarmed starts the engine's spare worker, if there is none,
// and waits until its warm-up has run, at most spareWarmAtMost.
func waitSpareWarmed() {
	load.PrepareEngineWorker()
	if warmed := load.EngineWorkerWarmed(); warmed != nil {
		select {
		case <-warmed:
		case <-time.After(spareWarmAtMost):
		}
	}
}

// rehearseShow reads the visit's sample again, as a dropped file is
// read, and shows it in place of itself. A capture that replaces
// another runs code the visit's first showing did not (each panel's
// update, the answer's decoding for a new worker, the old worker's end),
// and the browser compiled and optimised it during the user's first drop:
// on a 2-core machine that drop held the page's thread for 54-77 ms,
// where the same drop after another held it 29-44 ms. The capture shown
// is the same, its range and selection kept (Page.show), so the page
// looks as it did. A user who has pressed a key, a button or the
// pointer, or scrolled, may be in the middle of something the swap would
// disturb (a question asked of the worker it ends), and is left alone.
// It returns the turn of its read.
func (p *Page) rehearseShow(ctx goapp.Context, sample string) load.Turn {
	turn := p.openSample(ctx, sample)
	if !turn.Superseded() {
		// The rehearsal took the spare: the user's drop gets the next one.
		waitSpareWarmed()
	}
	return turn
}

// rehearseFleet shows a fleet once, out of sight, before the user opens
// one. The page's first fleet runs code no timeline runs (the fleet
// view's mount, render and frames, the timeline's dismount), which
// Chromium would compile on the page's thread as the user's fleet shows,
// while its compiler threads optimise the worker's code on the same
// cores, and the task that shows it would hold the page (the numbers:
// docs/performance.md, 10 000 virtual clients). The warm-up's
// incident (warmIncident: several servers' clients) is read as dropped
// files are, in the engine's spare worker, and its fleet view mounted
// in a slot the page never shows (renderRehearsal) until it has drawn
// its first frame; then the view is dismounted, and the capture's
// worker ended. It takes a spare after the one rehearseShow took, whose
// worker lives on with the capture shown: its warm-up is brief
// (client.Spare), and so is the next one's. A read begun after turn's
// ends it.
func (p *Page) rehearseFleet(ctx goapp.Context, turn load.Turn) {
	sources, ok := fetchWarm(ctx, "/web/warmup/", warmIncident, turn)
	if !ok {
		rehearsed("not fetched")
		return
	}
	c, err := load.Open(sources, load.Options{Params: timeline.DefaultParams()}, nil, turn)
	if err != nil {
		rehearsed("not read: " + err.Error())
		return
	}
	ctx.Dispatch(func(goapp.Context) { p.rehearsal = c })
	outcome := "not drawn in " + rehearsalAtMost.String()
	for end := time.Now().Add(rehearsalAtMost); time.Now().Before(end); {
		time.Sleep(50 * time.Millisecond)
		if turn.Superseded() {
			outcome = "a read began"
			break
		}
		if cv := goapp.Window().Get("document").Call("querySelector", ".rehearsal canvas"); cv.Truthy() && cv.Get("dataset").Get("plotW").Truthy() {
			outcome = "drawn"
			break
		}
	}
	rehearsed(outcome)
	// The view goes before its worker: ended under it, the worker
	// would fail the questions it still asks.
	gone := make(chan struct{})
	ctx.Dispatch(func(ctx goapp.Context) {
		p.rehearsal = nil
		ctx.Defer(func(goapp.Context) { close(gone) })
	})
	select {
	case <-gone:
	case <-time.After(time.Second): // go-app drops a dispatch to a page no longer mounted
	}
	load.Release(c)
	// The rehearsal took the spare: the user's drop gets the next one.
	waitSpareWarmed()
}

// rehearsalAtMost is how long rehearseFleet waits for its fleet's first
// frame.
const rehearsalAtMost = 10 * time.Second

// rehearsed sets the document's watchlensRehearsal to how the fleet's
// rehearsal ended: "drawn", or why not. Nothing on screen shows a
// rehearsal, so this is the only sign of it.
func rehearsed(outcome string) {
	goapp.Window().Set("watchlensRehearsal", outcome)
}

// renderRehearsal is the slot where rehearseFleet mounts its fleet view,
// which CSS never shows (web/app.css).
func (p *Page) renderRehearsal() goapp.UI {
	c := p.rehearsal
	return goapp.Div().Class("rehearsal").Aria("hidden", "true").Body(
		&FleetView{Engine: c.Engine, Analyzed: c.Opened.Generation, Rehearsal: true},
	)
}

// noteTouches notes from now on whether the user presses a key, a
// button or the pointer, or scrolls, in the page: touched says whether
// they have, and stop ends the noting. It is called on the page's
// thread, touched from any goroutine: the wasm runs one at a time.
func noteTouches() (touched func() bool, stop func()) {
	var yes bool
	note := goapp.FuncOf(func(goapp.Value, []goapp.Value) any {
		yes = true
		return nil
	})
	kinds := []string{"pointerdown", "keydown", "wheel"}
	for _, kind := range kinds {
		goapp.Window().Call("addEventListener", kind, note, map[string]any{"capture": true, "passive": true})
	}
	return func() bool { return yes }, func() {
		for _, kind := range kinds {
			goapp.Window().Call("removeEventListener", kind, note, map[string]any{"capture": true})
		}
		note.Release()
	}
}

// warmParser reads the warm samples in the page's own wasm, as a load
// the page reads itself does, and draws them; false when the samples
// are missing or the visit's capture was opened meanwhile.
func (p *Page) warmParser(ctx goapp.Context, visit load.Turn) bool {
	opened := visit.Superseded
	sources, ok := fetchWarm(ctx, "/web/samples/", warmSamples, visit)
	if !ok {
		return false
	}
	// A draw that fails (see load.Safely) only leaves the loads slower.
	load.WarmUp(sources, visit, func(c *load.Capture) {
		load.Safely(func() { warmDraw(c, opened) })
	})
	return true
}

// fetchWarm fetches the site's files names, under dir, as the sources
// of a warm-up read; false once one is missing (loads then stay as they
// were) or turn is superseded (the user's read comes first).
func fetchWarm(ctx goapp.Context, dir string, names []string, turn load.Turn) ([]load.Source, bool) {
	sources := make([]load.Source, 0, len(names))
	for _, name := range names {
		if turn.Superseded() {
			return nil, false
		}
		blob, err := fetchStatic(ctx, dir+name)
		if err != nil {
			return nil, false
		}
		sources = append(sources, load.Source{Name: name, Blob: blob})
	}
	return sources, true
}

// spareWarmAtMost is how long the page waits for its spare engine
// worker's warm-up before it says it is warm: it only makes the first
// load faster.
const spareWarmAtMost = time.Minute

// warmDraws is how many times each warm-up round draws its capture's
// first frame.
const warmDraws = 4

// warmDraw draws the first frame of a warm-up capture, as wide as the
// window, on a canvas of its own that the page never shows: building a
// frame and web/timeline.js's drawing then run optimised for the first
// capture the user opens, unless one is opened meanwhile, instead of
// unoptimised and slower.
func warmDraw(c *load.Capture, opened func() bool) {
	draw := goapp.Window().Get("watchlensDraw")
	if draw.IsUndefined() {
		return
	}
	cv := goapp.Window().Get("document").Call("createElement", "canvas")
	v := &TimelineView{Engine: c.Engine, Analyzed: c.Opened.Generation, Selected: -1}
	v.sync()
	width := max(goapp.Window().Get("innerWidth").Float(), 320)
	for range warmDraws {
		// Each frame in a task of its own: an unoptimised frame on top of
		// what a task may hold the page for would make a warm-up task long
		// enough for a click to wait.
		jsrt.Yield()
		if opened() {
			return
		}
		v.paint(cv, draw, v.viewState(width, v.dpr()), nil)
	}
}
