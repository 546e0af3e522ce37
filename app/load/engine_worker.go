//go:build js && wasm

package load

import (
	"errors"

	"watchlens/app/engine"
	"watchlens/app/engine/client"
	"watchlens/app/jsrt/goappjs"
)

// spare is the page's engine worker kept warm for the next load (see
// UseEngineWorker), nil while loads read in the page's own wasm.
var spare *client.Spare

// UseEngineWorker has the page's loads read in the engine's Web Worker
// (app/engine/worker, started by script), so that the page's thread never
// holds the parsing, the model or the analysis, and the memory a load
// grew goes with its worker. warmURLs are the captures its warm-up reads,
// warmIncident the files of the incident it opens together, and warmView
// their first frames' view (client.Spare). The first spare starts now:
// its wasm compiles while the page fetches its first capture.
func UseEngineWorker(script string, warmURLs, warmIncident []string, warmView engine.ViewState) {
	spare = &client.Spare{Script: script, WarmURLs: warmURLs, WarmIncident: warmIncident, WarmView: warmView}
	spare.Prepare()
}

// ReadsInWorker says whether the page's loads read in the engine's
// worker (UseEngineWorker): the page's own parser then reads only a
// load the worker could not.
func ReadsInWorker() bool { return spare != nil }

// PrepareEngineWorker starts the next load's spare worker, if the page's
// loads read in one and none is ready: the page calls it once a capture
// is shown, so that its compiling does not compete with the load.
func PrepareEngineWorker() {
	if spare != nil {
		spare.Prepare()
	}
}

// EngineWorkerWarmed is closed once the spare engine worker has warmed
// up (client.Spare.Warmed); nil without one.
func EngineWorkerWarmed() <-chan struct{} {
	if spare == nil {
		return nil
	}
	return spare.Warmed()
}

// Release ends the worker of a capture the page no longer shows: its
// memory is given back (#26). A capture read in the page has none.
func Release(c *Capture) {
	if c == nil {
		return
	}
	if w, ok := c.Engine.(*client.Worker); ok {
		w.Terminate()
	}
}

// readInWorker reads sources in the spare engine worker, as read does in
// the page, with the first frame of opts.First drawn in the same answer.
// inPage says the worker could not read them (it failed to start, or
// ended, or the browser refused it a message): the page then reads them
// itself, as it did before the engine had a worker. A load superseded
// answers nil: its worker has ended.
//
// A worker that ran out of memory answers ErrOutOfMemory: the page's own
// wasm, smaller still, would too.
func readInWorker(sources []Source, opts Options, report *progressReport, turn Turn) (c *Capture, inPage bool, err error) {
	if spare == nil || opts.InPage {
		return nil, true, nil
	}
	in := make([]client.Source, len(sources))
	for i, s := range sources {
		in[i] = client.Source{Name: s.Name, Blob: goappjs.Unwrap(s.Blob), Found: s.Found}
	}
	eo := engine.Options{Filter: opts.Filter, Split: opts.Split, Params: opts.Params, MaxEvents: limits.maxEvents,
		Cancelled: turn.Superseded, Reading: report.reading, Progress: report.fromBuilder, Building: report.building}
	var w *client.Worker
	var opened engine.Opened
	var first client.First
	failure := Safely(func() {
		if opts.First != nil {
			w, opened, first, err = spare.OpenFirst(in, eo, *opts.First, opts.ZoneRows, report.answered)
		} else {
			w, opened, err = spare.Open(in, eo)
		}
	})
	if failure != nil {
		// A panic on the page's side: the worker, if any, goes with
		// it, and the page reads the sources itself.
		if w != nil {
			w.Terminate()
		}
		return nil, true, nil
	}
	if errors.Is(err, engine.ErrCancelled) {
		return nil, false, nil
	}
	if errors.Is(err, client.ErrOutOfMemory) {
		return nil, false, ErrOutOfMemory
	}
	if err != nil {
		return nil, true, nil
	}
	c = newCapture(w, opened, sources)
	if opts.First != nil && !first.OnFleet {
		c.First = &FirstFrame{View: first.View, Drawn: first.Drawn, Summary: first.Summary, Frame: first.Frame,
			Zones: first.Zones, ZonesAll: first.ZonesAll, Generation: opened.Generation}
	}
	return c, false, nil
}

// answered is told as the engine's worker's answer arrives, before the
// page reads it: the last report again, which moves nothing but sets
// go-app's render clock going while the answer is read, so that the
// render that shows the capture comes as soon as it is read rather than
// a clock's period after.
func (r *progressReport) answered() {
	if r.show != nil && r.built != nil {
		r.show(*r.built)
	}
}
