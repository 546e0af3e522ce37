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

// warmRounds is how many times the warm-up reads them. Chromium optimises
// a wasm function for its next calls once it has run enough, so one round
// leaves much of a load's path unoptimised; six bring a big load's time
// down to where more rounds no longer help, and run in the background.
const warmRounds = 6

// warmCopies is how many copies of the first warm sample the warm-up's
// last read joins into one capture of 18 MB. Read in slices that grow to
// the largest, as a big file's are, it has the browser optimise what the
// small samples do not run enough, which a big load would otherwise wait
// for Chromium to compile; more copies gain nothing.
const warmCopies = 12

// warmRenders is how many times the warm-up has go-app render the page,
// so that the first load's renders run optimised instead of having
// Chromium compile them while the load runs.
const warmRenders = 40

// warmUp reads the warm samples through the same path a dropped file
// takes (the reading worker, the parser, the timeline, the analysis, the
// first frame's drawing) and throws the result away. The browser runs
// new wasm code unoptimised at first and optimises what runs hot, so a
// first load is otherwise much slower than the same load again. It runs
// in a goroutine and yields like a load, so the page
// stays responsive, and gives up once the user opens a capture: it is
// there to speed that up, not to compete with it.
func (p *Page) warmUp(ctx goapp.Context) {
	var sources []load.Source
	for _, name := range warmSamples {
		blob, err := fetchSample(ctx, name)
		if err != nil {
			return // the samples are missing: loads stay as they were
		}
		sources = append(sources, load.Source{Name: name, Blob: blob})
	}
	turn := load.NewTurn(&p.reads)
	opened := turn.Superseded
	// A warm-up that fails (see load.Safely) only leaves the loads slower.
	warm := func(sources []load.Source) {
		loaded, err := load.Open(sources, load.Options{Params: timeline.DefaultParams()}, nil, turn)
		if err == nil {
			load.Safely(func() { warmDraw(loaded, opened) })
		}
	}
	for range warmRounds {
		if opened() {
			break
		}
		warm(sources)
	}
	if !opened() {
		copies := make([]any, warmCopies)
		for i := range copies {
			copies[i] = sources[0].Blob
		}
		warm([]load.Source{{Name: sources[0].Name, Blob: goapp.Window().Get("Blob").New(copies)}})
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
	}
	ctx.Dispatch(func(goapp.Context) { p.warm = true })
}

// warmDraws is how many times each warm-up round draws its capture's
// first frame.
const warmDraws = 4

// warmDraw draws the first frame of a warm-up capture, as wide as the
// window, on a canvas of its own that the page never shows: building a
// frame and web/timeline.js's drawing then run optimised for the first
// capture the user opens, unless one is opened meanwhile, instead of
// unoptimised and slower.
func warmDraw(loaded load.Loaded, opened func() bool) {
	draw := goapp.Window().Get("watchlensDraw")
	if draw.IsUndefined() {
		return
	}
	cv := goapp.Window().Get("document").Call("createElement", "canvas")
	v := &TimelineView{Timeline: loaded.Capture.Timeline, Analysis: loaded.Analysis, Prepared: loaded.Capture.Prepared, Selected: -1}
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
		v.paint(cv, draw, width, v.dpr(), nil)
	}
}
