package app

import (
	"fmt"
	"time"

	"watchlens/app/canvas"
	"watchlens/app/jsrt"
	"watchlens/app/words"
	"watchlens/parser"
	"watchlens/report"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// progressEvery is how often the progress bar moves. Each move rendered
// the page until moveProgress: done every MiB, that cost a fifth of a 100
// MB load.
const progressEvery = 200 * time.Millisecond

// capture is what the page shows: one or more files read together onto one
// timeline. The files stay on the JS side as Blobs, so an event's full JSON
// is fetched again by its offset when the user asks for it.
type capture struct {
	sources []source
	sizes   []int64
	readErr []error // per file: the browser failed to hand over its bytes
	tl      *timeline.Timeline
	// The kinds and namespaces of its objects, for the filters: found
	// once, not on every render of the page (50 ms over 10 000 objects).
	kinds, namespaces []string
	prep              *canvas.Prepared
}

// progress is the state of the file being read.
type progress struct {
	name   string
	size   int64
	read   int64
	events int
	// building: every file is read, and the timeline is being built and
	// analysed (about a second for a million events).
	building bool
	// downloading: the file is a link's body, still coming from its
	// server; size is -1 when the server did not say it.
	downloading bool
}

func (l progress) text() string {
	if l.downloading {
		if l.size < 0 {
			return fmt.Sprintf("Downloading %s: %s", words.Isolated(l.name), words.HumanBytes(l.read))
		}
		return fmt.Sprintf("Downloading %s: %s of %s", words.Isolated(l.name), words.HumanBytes(l.read), words.HumanBytes(l.size))
	}
	if l.building {
		return fmt.Sprintf("Building the timeline of %s read from %s", words.Plural(l.events, "event"), words.Isolated(l.name))
	}
	return fmt.Sprintf("Reading %s: %s of %s, %s", words.Isolated(l.name), words.HumanBytes(l.read), words.HumanBytes(l.size), words.Plural(l.events, "event"))
}

// source is a capture file to read: a Blob on the JS side and its name.
type source struct {
	name string
	blob goapp.Value
}

// readCapture streams every source through the parser into one timeline,
// reporting progress every progressEvery, and prepares its view under
// filter. It runs in a goroutine: each chunk awaits the browser, which
// keeps the page responsive. It gives up, returning nil, once its turn is
// superseded (checked while parsing, as often as it yields). It keeps
// at most limits.maxEvents events, and says so of each file it stopped
// reading. report may be nil. With split, each capture is read whole and
// then split into virtual clients (timeline.Builder.AddReaderSplit).
func readCapture(sources []source, filter timeline.Filter, split *timeline.Split, report func(progress), turn readTurn) *capture {
	c := &capture{sources: sources}
	b := timeline.NewBuilder()
	b.MaxEvents = limits.maxEvents
	// Finishing, building and analysing a million events take a few
	// hundred ms each as wasm: they yield on the way.
	b.Pause = jsrt.YieldIfHeld
	events := 0
	lastReport := time.Now()
	// A read that panics (see safely) must not leave its worker running.
	var blobs *jsrt.BlobReader
	defer func() {
		if blobs != nil {
			blobs.Close()
		}
	}()
	for _, src := range sources {
		size := int64(src.blob.Get("size").Float())
		c.sizes = append(c.sizes, size)
		blobs = jsrt.NewBlobReader(src.blob)
		if split != nil {
			c.readErr = append(c.readErr, b.AddReaderSplit(src.name, blobs, parser.Options{}, *split))
			blobs.Close()
			continue
		}
		f := b.AddFile(src.name)
		r := parser.NewReader(blobs, parser.Options{})
		var capped error
		for r.Next() {
			// Past the Builder's MaxEvents the timeline keeps no more:
			// what was read is shown, and the file says where it stopped.
			if !f.Add(r.Event()) {
				capped = fmt.Errorf("the page keeps at most %s: it read the first %s of %s and shows what they hold; for the whole capture use the command line: watchlens analyze FILE",
					words.Plural(limits.maxEvents, "event"), words.HumanBytes(r.InputBytes()), words.HumanBytes(size))
				break
			}
			events++
			// Checking the clock every 64 events keeps its cost out of sight.
			if events&63 == 0 {
				// The reader yields between pieces of 1 MiB too, but a
				// piece of a million small events' capture opens
				// thousands of objects at first, which took up to 160 ms.
				jsrt.YieldIfHeld()
				if turn.superseded() {
					blobs.Close()
					return nil
				}
				if report != nil && events&255 == 0 && time.Since(lastReport) >= progressEvery {
					lastReport = time.Now()
					report(progress{name: src.name, size: size, read: r.InputBytes(), events: events})
				}
			}
		}
		blobs.Close()
		// Finishing and building a million events takes about a second
		// as wasm: both yield on the way, each time they have held the
		// page for jsrt.HoldAtMost. A small capture never waits for a yield.
		f.Finish(r.Sessions(), r.Diagnostics())
		if capped != nil {
			c.readErr = append(c.readErr, capped)
		} else {
			c.readErr = append(c.readErr, r.Err())
		}
	}
	if last := len(sources) - 1; report != nil {
		report(progress{name: sources[last].name, size: c.sizes[last], read: c.sizes[last], events: events, building: true})
	}
	c.tl = b.Build()
	if split != nil {
		c.alignSplit()
	}
	jsrt.YieldIfHeld()
	c.kinds, c.namespaces = laneValues(c.tl)
	jsrt.YieldIfHeld()
	c.prep = canvas.Prepare(c.tl, filter, jsrt.YieldIfHeld)
	return c
}

// alignSplit gives every file of a split capture its size and read error,
// as the panels read them (by file): a capture's own, and none for the
// virtual clients that follow it.
func (c *capture) alignSplit() {
	sizes, errs := c.sizes, c.readErr
	c.sizes, c.readErr = make([]int64, len(c.tl.Files)), make([]error, len(c.tl.Files))
	k := -1
	for i, f := range c.tl.Files {
		if f.SplitOf == "" && k+1 < len(sizes) {
			k++
			c.sizes[i], c.readErr[i] = sizes[k], errs[k]
		}
	}
}

// readTurn is one read's turn among the page's reads: it is superseded
// once the page has begun another, and a read that is no longer the
// latest gives up rather than show a capture the user has left.
//
// It is a value, not a func, because of how Chromium optimises wasm: the
// optimised readCapture, built while the warm-up ran, called the check it
// had seen there directly, and a load that passed another func (each
// closure, and each inlined copy of one, is a function of its own) threw
// that code away on its first check, 64 events in, and parsed the rest of
// the capture unoptimised.
type readTurn struct {
	reads *int // the page's count of reads begun
	mine  int  // the count when this read began
}

func (t readTurn) superseded() bool { return *t.reads != t.mine }

// analysis is what the retention model says of a capture.
type analysis struct {
	an     *timeline.Analysis
	report *report.Report
}

// analyze runs the retention model over a timeline; on a large capture it
// takes long enough that the caller runs it in a goroutine.
func analyze(tl *timeline.Timeline, params timeline.Params) analysis {
	// Over a million events the analysis takes half a second as wasm, so
	// it yields on the way.
	jsrt.YieldIfHeld()
	an := tl.Analyze(params) // pausing as its Builder's Pause says
	jsrt.YieldIfHeld()
	return analysis{an: an, report: report.New(an, nil)}
}
