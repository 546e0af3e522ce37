package engine

import (
	"errors"
	"fmt"
	"io"

	"watchlens/app/canvas"
	"watchlens/app/words"
	"watchlens/internal/quantity"
	"watchlens/parser"
	"watchlens/timeline"
)

// Engine holds one load's model and answers questions about it. Its
// methods run on one goroutine at a time, as the page's do (wasm has
// one thread); a question may run in a goroutine of its own while the
// page draws, and only ever replaces the model's state whole.
type Engine struct {
	tl       *timeline.Timeline
	an       *timeline.Analysis
	summary  []timeline.SummaryLine
	prepared *canvas.Prepared
	cache    *canvas.Cache
	opened   Opened
	// analyses counts the analyses asked for: one that is no longer the
	// latest when it ends is thrown away (see Analyze).
	analyses int
	// generation counts the analyses kept, the first one included.
	generation int
	rows       rowsCache
	// layout is the last frame's, which a hit test answers for.
	layout canvas.Layout
	fs     fileSets
	fleet  fleetCache
	report reportCache
}

// Source is one file a load reads: its name, its size in bytes, and its
// bytes. Data may also be an io.Closer, closed once the file is read
// (the page reads each file as a section of one Blob, which Close passes
// over what the parser left of it).
type Source struct {
	Name string
	Size int64
	Data io.Reader
	// Found says the file was found in a folder the user dropped: one
	// that holds no watch record is left out (see Opened.LeftOut).
	Found bool
}

// Options say how a load reads its sources and analyses what they hold,
// and how it reports on its way. The funcs are the host's own: the page
// passes them in its wasm, and a worker makes them from its messages.
type Options struct {
	// Filter is the view the capture is prepared for.
	Filter timeline.Filter
	// Split, if not nil, splits each capture into virtual clients.
	Split *timeline.Split
	// Params are the retention model's settings for the analysis.
	Params timeline.Params
	// MaxEvents is the most events the load keeps (0: the Builder's
	// default); each file read past it says where it stopped.
	MaxEvents int
	// Pause lets the host's other work run between slices of a long
	// step (nil: none).
	Pause func()
	// Cancelled says the host asked another load meanwhile: the load
	// gives up with ErrCancelled. It and Progress are handed to the
	// Builder as they are: see load.Turn for why they are method values.
	Cancelled func() bool
	// Reading is told of each source before it is read, Progress of the
	// reading's progress, and Building once every file is read.
	Reading  func(Source)
	Progress func(timeline.ReadProgress)
	Building func(name string)
}

// ErrCancelled: the host asked another question of the same kind before
// this one was answered.
var ErrCancelled = errors.New("another question of the same kind was asked meanwhile")

// Opened is what a load answers at once: what the page shows before any
// view is drawn.
type Opened struct {
	// Analyzed is what the latest analysis kept says: the verdict.
	Analyzed
	// Files are the timeline's files, in its order.
	Files []File
	// LogErrs: why reading an audit log stopped short, for each that did.
	LogErrs []string
	// LeftOut are the files found in a dropped folder that hold no watch
	// record (a README, notes, scripts), left out of the timeline.
	LeftOut []string
	// Exports are the names of the Prometheus exports read, which make
	// no file of the timeline.
	Exports []string
	// The kinds and namespaces of the capture's objects, for the filters.
	Kinds, Namespaces []string
	// The capture's extent on the time axis and the resourceVersion axis.
	TimeExtent, RVExtent [2]int64
	// NoClock: the capture has no clock, and the time axis is the
	// events' order.
	NoClock bool
	// AxisCaption says what the time axis is, for the timeline's hint.
	AxisCaption string
	Events      int
}

// File is one file of the timeline. Its fields left empty cross a
// message unwritten: a fleet's thousands of virtual clients have none.
type File struct {
	Name string
	// Source is the index of the source it was read from, -1 for an
	// audit log's client (read from no one file of its own). A split's
	// virtual clients share their capture's source.
	Source int
	// Size is the bytes read for it: 0 for a split's virtual client.
	Size int64 `json:",omitempty"`
	// ReadErr says why reading it stopped short, "" if it did not.
	ReadErr string `json:",omitempty"`
	// LooksLike says what it is instead when it holds no watch event and
	// its start tells ("" otherwise); Problems counts the problems in its
	// input, and RootCause says the one that explains the others.
	LooksLike string `json:",omitempty"`
	Problems  int    `json:",omitempty"`
	RootCause string `json:",omitempty"`
	// NotCapture says why it is no watch capture when nothing in it was
	// read as one (timeline.NotCapture); its problems are then only that.
	NotCapture timeline.NotCapture `json:",omitempty"`
	// Notes say how its input was read (timeline.IsNote), which is no
	// problem: "the log's times name no time zone: they are read as UTC".
	Notes []string `json:",omitempty"`
}

// Records counts the files that are records, which the timeline gives
// a group of tracks: all but those that are no capture (File.NotCapture).
func (o *Opened) Records() int {
	n := 0
	for i := range o.Files {
		if o.Files[i].NotCapture == timeline.IsCapture {
			n++
		}
	}
	return n
}

// Extent is the capture's extent on an axis.
func (o *Opened) Extent(axisRV bool) (int64, int64) {
	if axisRV {
		return o.RVExtent[0], o.RVExtent[1]
	}
	return o.TimeExtent[0], o.TimeExtent[1]
}

// Open reads every source into one timeline, as the command line does
// (timeline.Builder.AddReader, or AddReaderSplit with a split: each
// capture read whole, then split into virtual clients), prepares its
// first frame under opts.Filter and analyses it. It returns ErrCancelled
// once opts.Cancelled says so.
func Open(sources []Source, opts Options) (*Engine, Opened, error) {
	pause := opts.Pause
	if pause == nil {
		pause = func() {}
	}
	b := timeline.NewBuilder()
	if opts.MaxEvents > 0 {
		b.MaxEvents = opts.MaxEvents
	}
	// Reading, finishing, building and analysing a million events take a
	// few hundred ms each as wasm: they pause on the way.
	b.Pause = pause
	b.Cancel = opts.Cancelled
	b.Progress = opts.Progress
	var o Opened
	for i, src := range sources {
		// AddReader asks every 64 events of a capture; an audit log or
		// an export is read whole.
		if opts.Cancelled != nil && opts.Cancelled() {
			return nil, Opened{}, ErrCancelled
		}
		if opts.Reading != nil {
			opts.Reading(src)
		}
		file, stoppedBefore := b.FilesAdded(), b.Stopped()
		var err error
		if opts.Split != nil {
			err = b.AddReaderSplit(src.Name, src.Data, parser.Options{}, *opts.Split)
		} else {
			err = b.AddReader(src.Name, src.Data, parser.Options{})
		}
		if c, ok := src.Data.(io.Closer); ok {
			c.Close()
		}
		if errors.Is(err, timeline.ErrCancelled) {
			return nil, Opened{}, ErrCancelled
		}
		if b.FilesAdded() == file {
			// An audit log: Build makes files of its clients.
			if err != nil {
				o.LogErrs = append(o.LogErrs, fmt.Sprintf("%s: %v", words.Isolated(src.Name), err))
			} else if b.Stopped() && !stoppedBefore {
				// The log reached the Builder's MaxEvents, which an audit
				// log's requests and clients count against: the records
				// after are not kept, and the log says so, as a capture does.
				o.LogErrs = append(o.LogErrs, fmt.Sprintf("%s: the page keeps at most %s, an audit log's requests and clients counted among them, and shows what was read before; for the whole log use the command line: watchlens analyze FILE",
					words.Isolated(src.Name), quantity.Plural(b.MaxEvents, "event")))
			}
			continue
		}
		if src.Found && err == nil && b.LeaveOutUnread(file) {
			o.LeftOut = append(o.LeftOut, src.Name)
			continue
		}
		// Past the Builder's MaxEvents the timeline keeps no more: what
		// was read is shown, and the file says where it stopped.
		if read, stopped := b.StoppedAt(file); stopped {
			err = fmt.Errorf("the page keeps at most %s: it read the first %s of %s and shows what they hold; for the whole capture use the command line: watchlens analyze FILE",
				quantity.Plural(b.MaxEvents, "event"), quantity.Bytes(read), quantity.Bytes(src.Size))
		}
		o.Files = append(o.Files, File{Name: src.Name, Source: i, Size: src.Size, ReadErr: errText(err)})
		// A split's virtual clients follow their capture, whose bytes
		// hold their events.
		for range b.FilesAdded() - file - 1 {
			o.Files = append(o.Files, File{Source: i})
		}
	}
	if opts.Building != nil && len(sources) > 0 {
		opts.Building(sources[len(sources)-1].Name)
	}
	e := &Engine{tl: b.Build()}
	// The files' names are the timeline's (a virtual client's is its
	// capture's and its client's); an audit log's clients, which Build
	// adds after the captures, were read from no one file of their own.
	for len(o.Files) < len(e.tl.Files) {
		o.Files = append(o.Files, File{Source: -1})
	}
	for i, f := range e.tl.Files {
		o.Files[i].Name = f.Name
	}
	noteFiles(e.tl, &o)
	pause()
	o.Kinds, o.Namespaces = laneValues(e.tl)
	pause()
	e.prepared = canvas.Prepare(e.tl, opts.Filter, pause)
	e.cache = e.prepared.Cache
	o.TimeExtent[0], o.TimeExtent[1] = e.cache.Extent(false)
	o.RVExtent[0], o.RVExtent[1] = e.cache.Extent(true)
	o.NoClock = e.cache.NoClock()
	o.AxisCaption = axisCaption(e.tl, o.NoClock)
	o.Events = e.tl.Len()
	e.opened = o
	a, err := e.Analyze(opts.Params, pause)
	if err != nil {
		return nil, Opened{}, err
	}
	e.opened.Analyzed = a
	return e, e.opened, nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// axisCaption says what the time axis is.
func axisCaption(tl *timeline.Timeline, noClock bool) string {
	if noClock {
		return "x axis: event order (the capture has no clock)"
	}
	for _, f := range tl.Files {
		if f.Clock != timeline.ClockArrival {
			return "x axis: time, UTC; estimated from HTTP Date headers and object timestamps (about 1 s of error)"
		}
	}
	return "x axis: time, UTC, as recorded on arrival"
}

// Opened is the load's answer, with the verdict of the latest analysis
// kept.
func (e *Engine) Opened() Opened { return e.opened }

// Timeline and Analysis are the model itself, for the panels that still
// read it directly rather than ask (docs/engine.md lists them): they go
// once every panel asks its questions, when the engine moves to a
// worker.
func (e *Engine) Timeline() *timeline.Timeline { return e.tl }

// Analysis: see Timeline.
func (e *Engine) Analysis() *timeline.Analysis { return e.an }
