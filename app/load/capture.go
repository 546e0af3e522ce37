package load

import (
	"errors"

	"watchlens/app/canvas"
	"watchlens/app/engine"
	"watchlens/app/jsrt"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Capture is what a load makes for the page to show: one or more files
// read together onto one timeline, held by the engine that answers the
// page's questions about it. The files stay on the JS side as Blobs, so
// an event's full JSON is fetched again by its offset when the user asks
// for it.
type Capture struct {
	// Engine answers the page's questions about the model (the engine in
	// the page's own wasm, or a client of it in a worker); Opened is what
	// it answered of the load.
	Engine engine.Answerer
	Opened engine.Opened
	// Per file of the timeline: the source it was read from, its size,
	// and why reading it stopped short (the browser failed to hand over
	// its bytes, or the page keeps no more events), if it did. An audit
	// log's clients have no source of their own.
	Sources []Source
	Sizes   []int64
	ReadErr []error
	// LogErr: why reading an audit log stopped short, for each that did.
	LogErr []error
	// LeftOut are the files found in a dropped folder that hold no watch
	// record (a README, notes, scripts), left out of the timeline.
	LeftOut []string
	// The kinds and namespaces of its objects, for the filters.
	Kinds, Namespaces []string
	// First is the timeline's first frame, when the engine's worker drew
	// it with the load (Options.First): the page shows it at once.
	First *FirstFrame
}

// FirstFrame is a load's first frame, drawn by the engine's worker with
// the load, and what the view shows beside it.
type FirstFrame struct {
	// View is the view drawn, its range filled in (the whole capture for
	// Options.First's 0, 0).
	View    engine.ViewState
	Drawn   engine.Drawn
	Summary engine.ViewSummary
	// Frame is the frame as the worker sent it, which the page hands to
	// web/timeline.js as it is (canvas.EncodedJS).
	Frame canvas.EncodedJS
	// Zones are the first Options.ZoneRows red zones, of ZonesAll.
	Zones    []engine.ZoneRow
	ZonesAll int
	// Generation is the analysis's the frame shows.
	Generation int
}

// Source is a capture file to read: a Blob on the JS side and its name.
type Source struct {
	Name string
	Blob goapp.Value
	// Found says the file was found in a folder the user dropped: one
	// that holds no watch record is left out (see Capture.LeftOut).
	Found bool
}

// read has the engine read every source into one timeline, prepare its
// view under opts.Filter and analyse it (engine.Open). It runs in a
// goroutine: the engine pauses every 64 events to let the page paint
// (jsrt.YieldIfHeld), reports its progress to report every
// progressEvery, and gives up, returning nil, once its turn is
// superseded. It keeps at most limits.maxEvents events, and says so of
// each file it stopped reading.
//
// When the page has an engine worker (UseEngineWorker) the sources are
// read there instead, and the page reads them itself only when the
// worker cannot.
func read(sources []Source, opts Options, report *progressReport, turn Turn) (*Capture, error) {
	if c, inPage, err := readInWorker(sources, opts, report, turn); !inPage {
		return c, err
	}
	sizes := make([]int64, len(sources))
	for i, src := range sources {
		sizes[i] = int64(src.Blob.Get("size").Float())
	}
	data, endReads := sourceReaders(sources, sizes)
	defer endReads()
	in := make([]engine.Source, len(sources))
	for i, src := range sources {
		in[i] = engine.Source{Name: src.Name, Size: sizes[i], Found: src.Found, Data: data[i]}
	}
	eng, opened, err := engine.Open(in, engine.Options{Filter: opts.Filter, Split: opts.Split, Params: opts.Params, MaxEvents: limits.maxEvents,
		Pause: jsrt.YieldIfHeld, Cancelled: turn.Superseded, Reading: report.reading, Progress: report.fromBuilder, Building: report.building})
	if errors.Is(err, engine.ErrCancelled) {
		return nil, nil
	}
	return newCapture(eng, opened, sources), nil
}

// newCapture is the capture the engine eng opened of sources.
func newCapture(eng engine.Answerer, opened engine.Opened, sources []Source) *Capture {
	c := &Capture{Engine: eng, Opened: opened, LeftOut: opened.LeftOut, Kinds: opened.Kinds, Namespaces: opened.Namespaces}
	// Sized at once: grown a file at a time, the 10 001 files of 10 000
	// virtual clients took 15 ms of the page's thread.
	n := len(opened.Files)
	c.Sources, c.Sizes, c.ReadErr = make([]Source, 0, n), make([]int64, 0, n), make([]error, 0, n)
	for _, f := range opened.Files {
		var src Source
		if f.Source >= 0 {
			src = sources[f.Source]
		}
		c.Sources, c.Sizes, c.ReadErr = append(c.Sources, src), append(c.Sizes, f.Size), append(c.ReadErr, errOf(f.ReadErr))
	}
	for _, e := range opened.LogErrs {
		c.LogErr = append(c.LogErr, errors.New(e))
	}
	return c
}

// errOf is the error a reason says, nil for none.
func errOf(reason string) error {
	if reason == "" {
		return nil
	}
	return errors.New(reason)
}

// Turn is one read's turn among the page's reads: it is superseded
// once the page has begun another, and a read that is no longer the
// latest gives up rather than show a capture the user has left.
//
// It is a value, not a func, because of how Chromium optimises wasm: the
// optimised reading loop, built while the warm-up ran, calls the check it
// saw there directly, and a load that passed another func (each closure,
// and each inlined copy of one, is a function of its own) threw that code
// away on its first check, 64 events in, and parsed the rest of the
// capture unoptimised. Every read hands the engine the method value
// turn.Superseded, and report.fromBuilder, which are one function each.
type Turn struct {
	reads *int // the page's count of reads begun
	mine  int  // the count when this read began
}

// NewTurn is the turn of the read the page begins now: reads is the
// page's count of reads begun, this one included, which the page raises
// whenever it begins another.
func NewTurn(reads *int) Turn { return Turn{reads, *reads} }

// Superseded says whether the page has begun another read since.
func (t Turn) Superseded() bool { return *t.reads != t.mine }
