package app

import (
	"errors"
	"fmt"

	"watchlens/app/canvas"
	"watchlens/app/jsrt"
	"watchlens/app/words"
	"watchlens/internal/quantity"
	"watchlens/parser"
	"watchlens/report"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// capture is what the page shows: one or more files read together onto one
// timeline. The files stay on the JS side as Blobs, so an event's full JSON
// is fetched again by its offset when the user asks for it.
type capture struct {
	// Per file of the timeline: the source it was read from, its size,
	// and why reading it stopped short (the browser failed to hand over
	// its bytes, or the page keeps no more events), if it did. An audit
	// log's clients have no source of their own.
	sources []source
	sizes   []int64
	readErr []error
	// logErr: why reading an audit log stopped short, for each that did.
	logErr []error
	tl     *timeline.Timeline
	// The kinds and namespaces of its objects, for the filters: found
	// once, not on every render of the page (50 ms over 10 000 objects).
	kinds, namespaces []string
	prep              *canvas.Prepared
}

// source is a capture file to read: a Blob on the JS side and its name.
type source struct {
	name string
	blob goapp.Value
}

// readCapture reads every source into one timeline, as the command line
// does (timeline.Builder.AddReader, or AddReaderSplit with split: each
// capture read whole, then split into virtual clients), and prepares its
// view under filter. It runs in a goroutine: the Builder pauses every 64
// events to let the page paint (jsrt.YieldIfHeld), reports its progress
// to report every progressEvery, and gives up, returning nil, once its
// turn is superseded. It keeps at most limits.maxEvents events, and says
// so of each file it stopped reading.
func readCapture(sources []source, filter timeline.Filter, split *timeline.Split, report *loadReport, turn readTurn) *capture {
	c := &capture{}
	b := timeline.NewBuilder()
	b.MaxEvents = limits.maxEvents
	// Reading, finishing, building and analysing a million events take a
	// few hundred ms each as wasm: they yield on the way.
	b.Pause = jsrt.YieldIfHeld
	b.Cancel = turn.superseded
	b.Progress = report.fromBuilder
	// A read that panics (see safely) must not leave its worker running.
	var blobs *jsrt.BlobReader
	defer func() {
		if blobs != nil {
			blobs.Close()
		}
	}()
	for _, src := range sources {
		size := int64(src.blob.Get("size").Float())
		report.size = size
		file := b.FilesAdded()
		blobs = jsrt.NewBlobReader(src.blob)
		var err error
		if split != nil {
			err = b.AddReaderSplit(src.name, blobs, parser.Options{}, *split)
		} else {
			err = b.AddReader(src.name, blobs, parser.Options{})
		}
		blobs.Close()
		if errors.Is(err, timeline.ErrCancelled) {
			return nil
		}
		if b.FilesAdded() == file {
			// An audit log: Build makes files of its clients.
			if err != nil {
				c.logErr = append(c.logErr, fmt.Errorf("%s: %w", words.Isolated(src.name), err))
			}
			continue
		}
		// Past the Builder's MaxEvents the timeline keeps no more: what
		// was read is shown, and the file says where it stopped.
		if read, stopped := b.StoppedAt(file); stopped {
			err = fmt.Errorf("the page keeps at most %s: it read the first %s of %s and shows what they hold; for the whole capture use the command line: watchlens analyze FILE",
				quantity.Plural(limits.maxEvents, "event"), quantity.Bytes(read), quantity.Bytes(size))
		}
		c.sources, c.sizes, c.readErr = append(c.sources, src), append(c.sizes, size), append(c.readErr, err)
		// A split's virtual clients follow their capture, whose bytes
		// hold their events.
		for range b.FilesAdded() - file - 1 {
			c.sources, c.sizes, c.readErr = append(c.sources, src), append(c.sizes, 0), append(c.readErr, nil)
		}
	}
	report.building(sources[len(sources)-1].name)
	c.tl = b.Build()
	// An audit log's clients, which Build adds after the captures, were
	// read from no one file of their own.
	for len(c.sources) < len(c.tl.Files) {
		c.sources, c.sizes, c.readErr = append(c.sources, source{}), append(c.sizes, 0), append(c.readErr, nil)
	}
	jsrt.YieldIfHeld()
	c.kinds, c.namespaces = laneValues(c.tl)
	jsrt.YieldIfHeld()
	c.prep = canvas.Prepare(c.tl, filter, jsrt.YieldIfHeld)
	return c
}

// readTurn is one read's turn among the page's reads: it is superseded
// once the page has begun another, and a read that is no longer the
// latest gives up rather than show a capture the user has left.
//
// It is a value, not a func, because of how Chromium optimises wasm: the
// optimised reading loop, built while the warm-up ran, calls the check it
// saw there directly, and a load that passed another func (each closure,
// and each inlined copy of one, is a function of its own) threw that code
// away on its first check, 64 events in, and parsed the rest of the
// capture unoptimised. Every read hands the Builder the method value
// turn.superseded, and report.fromBuilder, which are one function each.
type readTurn struct {
	reads *int // the page's count of reads begun
	mine  int  // the count when this read began
}

func (t readTurn) superseded() bool { return *t.reads != t.mine }

// analysis is what the retention model says of a capture: the verdict's
// lines, shown at once, and the report, which only the exports and Copy
// summary read and which is built when first asked for (over 10 000
// virtual clients it takes more than a second as wasm, in one task).
type analysis struct {
	an      *timeline.Analysis
	summary []timeline.SummaryLine
	built   *builtReport
}

type builtReport struct{ r *report.Report }

// report returns the analysis's report, building it the first time.
func (a analysis) report() *report.Report {
	if a.built.r == nil {
		a.built.r = report.New(a.an, nil)
	}
	return a.built.r
}

// analyze runs the retention model over a timeline; on a large capture it
// takes long enough that the caller runs it in a goroutine.
func analyze(tl *timeline.Timeline, params timeline.Params) analysis {
	// Over a million events the analysis takes half a second as wasm, so
	// it yields on the way.
	jsrt.YieldIfHeld()
	an := tl.Analyze(params) // pausing as its Builder's Pause says
	jsrt.YieldIfHeld()
	// The summary judges a reconnect of every client: over 10 000 of
	// them, a task of its own before the page renders them.
	summary := an.Summary(nil)
	jsrt.YieldIfHeld()
	return analysis{an: an, summary: summary, built: &builtReport{}}
}
