package load

import (
	"errors"

	"watchlens/app/engine"
	"watchlens/timeline"
)

// Options say how a load reads its sources and analyses what they hold.
type Options struct {
	// Filter is the view the capture is prepared for.
	Filter timeline.Filter
	// Split, if not nil, splits each capture into virtual clients.
	Split *timeline.Split
	// Params are the retention model's settings for the analysis.
	Params timeline.Params
	// First, if not nil, is the timeline's first view (a range of 0, 0:
	// the whole capture), which a load in the engine's worker draws with
	// its answer (Capture.First), with the first ZoneRows red zones.
	First    *engine.ViewState
	ZoneRows int
	// InPage reads in the page's own wasm even when the page has an
	// engine worker: the page's warm-up, whose point is the page's code.
	InPage bool
}

// Open has the engine read sources into one capture and analyse it
// (the verdict is the capture's Opened.Summary). It runs in a goroutine, passes its progress to show at most every progressEvery (a
// nil show gets nothing), and returns ErrSuperseded once turn is
// superseded. A panic in the read or the analysis ends the load with its
// error (see Safely), so the page can open another capture.
func Open(sources []Source, opts Options, show func(Progress), turn Turn) (*Capture, error) {
	var c *Capture
	var err error
	failure := Safely(func() { c, err = read(sources, opts, newProgressReport(show), turn) })
	if failure == nil {
		failure = err
	}
	if failure != nil && !turn.Superseded() {
		return nil, failure
	}
	if c == nil || turn.Superseded() {
		// A capture read in a worker the page will not show gives its
		// memory back now.
		Release(c)
		return nil, ErrSuperseded
	}
	return c, nil
}

// ErrOutOfMemory ends a load whose engine ran out of memory: a browser
// gives a wasm program at most 4 GiB, often less.
var ErrOutOfMemory = errors.New("the engine ran out of memory reading the capture")
