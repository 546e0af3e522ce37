package load

import (
	"errors"
	"fmt"
	"io"

	"watchlens/app/canvas"
	"watchlens/app/jsrt"
	"watchlens/app/jsrt/goappjs"
	"watchlens/app/words"
	"watchlens/internal/quantity"
	"watchlens/parser"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Capture is what a load makes for the page to show: one or more files
// read together onto one timeline. The files stay on the JS side as Blobs, so an event's full JSON
// is fetched again by its offset when the user asks for it.
type Capture struct {
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
	LeftOut  []string
	Timeline *timeline.Timeline
	// The kinds and namespaces of its objects, for the filters: found
	// once, not on every render of the page (50 ms over 10 000 objects).
	Kinds, Namespaces []string
	Prepared          *canvas.Prepared
}

// Source is a capture file to read: a Blob on the JS side and its name.
type Source struct {
	Name string
	Blob goapp.Value
	// Found says the file was found in a folder the user dropped: one
	// that holds no watch record is left out (see Capture.LeftOut).
	Found bool
}

// read reads every source into one timeline, as the command line
// does (timeline.Builder.AddReader, or AddReaderSplit with split: each
// capture read whole, then split into virtual clients), and prepares its
// view under filter. It runs in a goroutine: the Builder pauses every 64
// events to let the page paint (jsrt.YieldIfHeld), reports its progress
// to report every progressEvery, and gives up, returning nil, once its
// turn is superseded. It keeps at most limits.maxEvents events, and says
// so of each file it stopped reading.
func read(sources []Source, filter timeline.Filter, split *timeline.Split, report *progressReport, turn Turn) *Capture {
	c := &Capture{}
	b := timeline.NewBuilder()
	b.MaxEvents = limits.maxEvents
	// Reading, finishing, building and analysing a million events take a
	// few hundred ms each as wasm: they yield on the way.
	b.Pause = jsrt.YieldIfHeld
	b.Cancel = turn.Superseded
	b.Progress = report.fromBuilder
	// A read that panics (see Safely) must not leave its worker running.
	var blobs *jsrt.BlobReader
	var all *joined
	defer func() {
		if blobs != nil {
			blobs.Close()
		}
		if all != nil {
			all.close()
		}
	}()
	if len(sources) > 1 {
		all = joinSources(sources)
	}
	for _, src := range sources {
		size := int64(src.Blob.Get("size").Float())
		report.size = size
		file := b.FilesAdded()
		// Read as a section of them all, or alone once that read failed
		// (each file then says its own reason).
		var in io.Reader
		var sec *section
		if all != nil {
			sec = all.next(size)
			in = sec
		} else {
			blobs = jsrt.NewBlobReader(goappjs.Unwrap(src.Blob))
			in = blobs
		}
		var err error
		if split != nil {
			err = b.AddReaderSplit(src.Name, in, parser.Options{}, *split)
		} else {
			err = b.AddReader(src.Name, in, parser.Options{})
		}
		if sec != nil && !sec.finish() {
			all.close()
			all = nil
		} else if blobs != nil {
			blobs.Close()
		}
		if errors.Is(err, timeline.ErrCancelled) {
			return nil
		}
		if b.FilesAdded() == file {
			// An audit log: Build makes files of its clients.
			if err != nil {
				c.LogErr = append(c.LogErr, fmt.Errorf("%s: %w", words.Isolated(src.Name), err))
			}
			continue
		}
		if src.Found && err == nil && b.LeaveOutUnread(file) {
			c.LeftOut = append(c.LeftOut, src.Name)
			continue
		}
		// Past the Builder's MaxEvents the timeline keeps no more: what
		// was read is shown, and the file says where it stopped.
		if read, stopped := b.StoppedAt(file); stopped {
			err = fmt.Errorf("the page keeps at most %s: it read the first %s of %s and shows what they hold; for the whole capture use the command line: watchlens analyze FILE",
				quantity.Plural(limits.maxEvents, "event"), quantity.Bytes(read), quantity.Bytes(size))
		}
		c.Sources, c.Sizes, c.ReadErr = append(c.Sources, src), append(c.Sizes, size), append(c.ReadErr, err)
		// A split's virtual clients follow their capture, whose bytes
		// hold their events.
		for range b.FilesAdded() - file - 1 {
			c.Sources, c.Sizes, c.ReadErr = append(c.Sources, src), append(c.Sizes, 0), append(c.ReadErr, nil)
		}
	}
	report.building(sources[len(sources)-1].Name)
	c.Timeline = b.Build()
	// An audit log's clients, which Build adds after the captures, were
	// read from no one file of their own.
	for len(c.Sources) < len(c.Timeline.Files) {
		c.Sources, c.Sizes, c.ReadErr = append(c.Sources, Source{}), append(c.Sizes, 0), append(c.ReadErr, nil)
	}
	jsrt.YieldIfHeld()
	c.Kinds, c.Namespaces = laneValues(c.Timeline)
	jsrt.YieldIfHeld()
	c.Prepared = canvas.Prepare(c.Timeline, filter, jsrt.YieldIfHeld)
	return c
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
// capture unoptimised. Every read hands the Builder the method value
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

// Analyze runs the retention model over a timeline, and says its verdict's
// lines; on a large capture it takes long enough that the caller runs it
// in a goroutine.
func Analyze(tl *timeline.Timeline, params timeline.Params) (*timeline.Analysis, []timeline.SummaryLine) {
	// Over a million events the analysis takes half a second as wasm, so
	// it yields on the way.
	jsrt.YieldIfHeld()
	an := tl.Analyze(params) // pausing as its Builder's Pause says
	jsrt.YieldIfHeld()
	// The summary judges a reconnect of every client: over 10 000 of
	// them, a task of its own before the page renders them.
	summary := an.Summary(nil)
	jsrt.YieldIfHeld()
	return an, summary
}
