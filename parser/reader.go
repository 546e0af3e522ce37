package parser

import (
	"fmt"
	"io"
	"runtime"
)

// Options bound what a Reader holds in memory.
type Options struct {
	// MaxDecompressed caps the bytes a compressed capture may expand to
	// (a decompression bomb); 0 means 16 GiB. Reaching it is a "too-big"
	// Diagnostic and reading stops there.
	MaxDecompressed int64
	// MaxEventSize is the largest single event kept; 0 means 64 MiB. A
	// larger one is skipped with a Diagnostic and reading goes on.
	MaxEventSize int
}

const (
	defaultMaxDecompressed = 16 << 30
	defaultMaxEventSize    = 64 << 20
)

// DefaultMaxEventSize is what MaxEventSize 0 means.
const DefaultMaxEventSize = defaultMaxEventSize

// Reader streams the events of a capture, like bufio.Scanner: call Next
// until it returns false, then check Err. Memory stays bounded by the
// largest event plus a small window, whatever the capture's size.
type Reader struct {
	opts   Options
	cr     *countingReader
	src    source
	lines  *lineReader
	opened bool
	done   bool
	err    error
	intern *internTable
	labels map[string]string // raw metadata.labels JSON -> Event.Labels
	// lastLabels is the last raw labels and their Event.Labels: the
	// fast path hands the same interned raw string on and on, whose
	// comparison is a pointer's.
	lastLabels [2]string
	// labelsByID holds canonical labels by their number, a slot for
	// each number modulo its length (see canonicalLabels).
	labelsByID [256]labelsByID
	seq        int
	// cur is the current event's slot in queue, nil before the first:
	// it stays as it is until the next call to Next, and a pointer to
	// it is one word written per event, not the Event's 216 bytes.
	cur     *queued
	queue   []queued
	qhead   int
	diags   []Diagnostic
	session []Session
	frame   framer
	// sawArray is set once the brackets or commas of a JSON array of
	// events were passed over, for the message of a capture with no event.
	sawArray bool
	// lineOnce has the next line read on its own: a block stopped before
	// it.
	lineOnce bool
	body     bodyScanner
	fields   fields
	memo     fastMemo
	// decoding is set while decoded bytes of an encoded body are scanned;
	// encLeft is what such bodies may still expand to.
	decoding bool
	encLeft  int64
	decHold  *decRef
}

type queued struct {
	ev  Event
	raw []byte
}

// NewReader returns a Reader of the capture in r. It does no I/O until Next.
func NewReader(r io.Reader, opts Options) *Reader {
	if opts.MaxDecompressed <= 0 {
		opts.MaxDecompressed = defaultMaxDecompressed
	}
	if opts.MaxEventSize <= 0 {
		opts.MaxEventSize = defaultMaxEventSize
	}
	rd := &Reader{opts: opts, cr: &countingReader{r: r}, intern: newInternTable(), labels: make(map[string]string)}
	rd.encLeft = opts.MaxDecompressed
	rd.body.r = rd
	rd.body.col0 = true
	rd.frame.r = rd
	return rd
}

func (r *Reader) open() {
	r.opened = true
	// A line may hold a whole event plus its time prefix and framing.
	maxLine := r.opts.MaxEventSize + 1024
	if b, ok := inPlaceBytes(r.cr.r); ok {
		r.lines = newInPlaceLineReader(b, maxLine)
		return
	}
	src, d := openSource(r.cr, r.opts.MaxDecompressed, true)
	if d != nil {
		r.addDiag(*d)
	}
	r.src = src
	if src.prefetch != nil {
		runtime.AddCleanup(r, (*prefetchReader).close, src.prefetch)
	}
	if src.wide != "" {
		r.addDiag(wideDiag(src.wide, "the capture"))
	}
	r.lines = newLineReader(src.r, maxLine)
	if src.prefetch != nil && src.wide == "" {
		r.lines.blocks = src.prefetch
	}
}

// Next advances to the next event. It returns false at the end of the
// capture or on a read error from the source (see Err).
func (r *Reader) Next() bool {
	if !r.opened {
		r.open()
	}
	for {
		if r.qhead < len(r.queue) {
			// The slot is not cleared: the next events write over it,
			// and until then what it holds (interned strings, a line
			// of the buffer or a decoded event's copy) is a queue's
			// worth of memory at most.
			q := &r.queue[r.qhead]
			r.qhead++
			r.cur = q
			return true
		}
		r.queue, r.qhead = r.queue[:0], 0
		if r.frame.dec != nil && r.frame.dec.pending {
			r.frame.pull(true)
			continue
		}
		if r.done {
			return false
		}
		if r.frame.st == fBody && !r.lineOnce && !r.frame.skipBody && r.frame.dec == nil {
			if blk, ok := r.lines.block(); ok {
				r.frame.block(blk)
				continue
			}
		}
		r.lineOnce = false
		ln, ok := r.lines.next()
		if len(r.lines.badTimes) > 0 {
			r.sayBadTimes()
		}
		if !ok {
			r.finish()
			continue
		}
		r.frame.line(ln)
	}
}

func (r *Reader) finish() {
	r.done = true
	r.frame.eof()
	r.dropVoidSession()
	if r.src.close != nil {
		r.src.close()
	}
	err := r.lines.err
	switch {
	case r.cr.err != nil:
		// Whatever layer saw it first, a failing source is the caller's
		// error, not a problem of the capture.
		r.err = r.cr.err
	case err == nil:
	case err == errTooBig:
		r.addDiag(Diagnostic{Offset: r.lines.base + int64(r.lines.end), Kind: DiagTooBig,
			Msg: fmt.Sprintf("the %s data expands beyond %d bytes (Options.MaxDecompressed), which looks like a decompression bomb; reading stopped there and only what came before was read", r.src.codec, r.opts.MaxDecompressed)})
	case r.src.codec != "":
		d := compressionDiag(r.cr, r.src.codec, err)
		r.addDiag(*d)
	default:
		r.err = err
	}
	if r.err == nil && r.seq == 0 && len(r.diags) == 0 && !r.sawResponse() {
		msg := "the capture holds no event, only white space"
		if r.sawArray {
			msg = "the capture holds no event, only the brackets and commas of a JSON array, and white space"
		}
		if r.lines.base+int64(r.lines.end) == 0 {
			msg = "the capture is empty"
			if r.src.codec != "" {
				msg = "the " + r.src.codec + " stream decompresses to nothing"
			}
		}
		r.addDiag(Diagnostic{Kind: DiagEmpty, Msg: msg})
	}
}

// sawResponse says whether a session has a request, an HTTP head, a
// Status or a list: something read, even with no event.
func (r *Reader) sawResponse() bool {
	for _, s := range r.session {
		if s.Request != nil || s.HTTPStatus != 0 || s.Status != nil || s.List != nil {
			return true
		}
	}
	return false
}

// Event returns the current event.
func (r *Reader) Event() Event {
	if r.cur == nil {
		return Event{}
	}
	return r.cur.ev
}

// Current is the current event in place, nil before the first: a
// consumer that reads its fields copies none of the Event's 216 bytes,
// which as wasm is a bulk memory copy for each Event returned and each
// passed on by value. It is the Reader's, valid until the next call to
// Next.
func (r *Reader) Current() *Event {
	if r.cur == nil {
		return nil
	}
	return &r.cur.ev
}

// Raw returns the current event's body bytes with all framing removed: its
// JSON, or its YAML document; for protobuf, its frame, length included, or
// the body that is one object. They are valid until the next call to Next.
func (r *Reader) Raw() []byte {
	if r.cur == nil {
		return nil
	}
	return r.cur.raw
}

// Sessions returns the sessions seen so far; all of them once Next has
// returned false.
func (r *Reader) Sessions() []Session { return r.session }

// Diagnostics returns the problems found so far in the input.
func (r *Reader) Diagnostics() []Diagnostic { return r.diags }

// Err returns the source's read error, if any. Bad input is never an Err:
// it is a Diagnostic.
func (r *Reader) Err() error { return r.err }

// InputBytes returns the bytes consumed from the source so far.
func (r *Reader) InputBytes() int64 {
	if r.lines != nil && r.lines.inPlace {
		return int64(r.lines.start)
	}
	return r.cr.n.Load()
}

// maxDiagnostics bounds the diagnostics kept, so that a long file of
// garbage costs no more memory than a short one.
const maxDiagnostics = 1000

func (r *Reader) addDiag(d Diagnostic) {
	if r.decoding {
		r.decodedDiag(&d)
	}
	switch {
	case len(r.diags) < maxDiagnostics-1:
		r.diags = append(r.diags, d)
	case len(r.diags) == maxDiagnostics-1:
		d.Kind = DiagTooMany
		d.Msg = fmt.Sprintf("more than %d problems: from here on they are no longer listed, but reading goes on", maxDiagnostics-1)
		r.diags = append(r.diags, d)
	}
}

// Capture is a whole capture read into memory.
type Capture struct {
	Events      []Event
	Sessions    []Session
	Diagnostics []Diagnostic
}

// ReadAll reads every event of r. The error is the source's read error only;
// whatever was read before it is returned with it.
func ReadAll(r io.Reader, opts Options) (*Capture, error) {
	rd := NewReader(r, opts)
	c := &Capture{}
	for rd.Next() {
		c.Events = append(c.Events, rd.Event())
	}
	c.Sessions, c.Diagnostics = rd.Sessions(), rd.Diagnostics()
	return c, rd.Err()
}

// internString returns the Reader's one copy of s.
func (r *Reader) internString(s string) string { return r.intern.string(s) }

// curSession returns the session events are being read into, opening one
// for a capture that has no HTTP head.
func (r *Reader) curSession() *Session {
	if len(r.session) == 0 {
		r.newSession(0, 0)
	}
	return &r.session[len(r.session)-1]
}

// dropVoidSession removes the last session if nothing of a watch
// connection was read in it: no request, HTTP head, Status, list or event, only
// bytes that were diagnosed (the shell command pasted above a capture).
// Kept, it would be a connection that never was, at an unknown time.
// No event refers to it, since it has none.
func (r *Reader) dropVoidSession() {
	if n := len(r.session); n > 0 {
		if s := &r.session[n-1]; s.Events == 0 && s.Request == nil && s.HTTPStatus == 0 && s.Status == nil && s.List == nil {
			r.session = r.session[:n-1]
		}
	}
}

func (r *Reader) newSession(offset int64, arrival int64) *Session {
	r.session = append(r.session, Session{Index: len(r.session), Offset: offset, End: offset,
		StartArrival: arrival, EndArrival: arrival})
	return &r.session[len(r.session)-1]
}
