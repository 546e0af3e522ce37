package parser

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"reflect"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
)

// A capture's later part may be read by a Reader of its own, in another
// thread (the engine's helper worker), while the first Reader reads the
// first part: WriteRest encodes that Reader's events in a compact form,
// and Reader.Then gives them after its own, numbered as if it had read
// the whole capture. Only captures that SplitsAtLines may be cut so, and
// only at a line start whose line SplitsAtLines too: there one Reader of
// the whole capture is between two events, and a Reader of what follows
// starts as it goes on.
//
// The chunks WriteRest writes are, each, the events (see
// restWriter.event), then what is known once they are written: the
// chunk's meta (a restMeta, see putValue) and a footer of fixed size, its
// integers little-endian:
//
//	the meta's length uint32
//	the events uint32
//	the rest's Reader's InputBytes uint64
//	at uint64
//	flags byte: restFirst, restLast
//	restVersion byte
//
// so that the events, the chunk's bulk, are written once, where they
// are handed on.
//
// Decoding must cost far less than parsing, above all as wasm, where the
// reading thread is the only one: an event is a few varints, deltas of
// the event before, and the strings of an object are written once, with
// its first event (or when its slot of restSlots was taken by another
// since), then found by its Identity.

// Rest is the events of a capture's later part, as the chunks WriteRest
// emitted, in order.
type Rest interface {
	// Next returns the next chunk, and io.EOF after the last. The
	// Reader owns each chunk it is given: the strings of its events may
	// point into it. A Rest that ends before WriteRest's last chunk,
	// even at once, gives no events past those of the chunks it gave.
	// Another error ends the Reader with it (Err).
	Next() ([]byte, error)
}

// ErrSplitMismatch is the Err of a Reader given a Rest (Then) where its
// own input does not end between two events of a body without framing:
// an HTTP response's chunked or Content-Length body, or a body a time
// prefix or a Content-Encoding wraps, goes on past the cut, and the
// rest's Reader, which started afresh there, read it otherwise. The
// capture is to be read whole by one Reader.
var ErrSplitMismatch = errors.New("parser: the capture's parts were cut where one Reader of the whole is not between two events of a plain body; read it whole")

// errRestDamaged is the Err of a Reader given a chunk WriteRest did not
// write.
var errRestDamaged = errors.New("parser: a chunk of the capture's later part does not read")

const (
	restVersion = 1
	restFirst   = 1
	restLast    = 2
	// restFooter is the bytes of a chunk's footer.
	restFooter = 4 + 4 + 8 + 8 + 1 + 1
	// restChunkSize is the size from which WriteRest hands a chunk on:
	// large enough that its header and the hand-over cost nothing per
	// event, small enough that the first events arrive early.
	restChunkSize = 512 << 10
	// restSlots is how many objects the encoder and the decoder both
	// remember, each in the slot its Identity modulo restSlots names: an
	// object whose slot another took since its last event has its
	// strings written again.
	restSlots = 1 << 15
)

// The flags of an event (restWriter.event), the most frequent in the
// first 7 bits, which a one-byte varint holds.
const (
	rfType     = 7 // the EventType
	rfRVValid  = 1 << 3
	rfIdentity = 1 << 4 // a non-zero Identity, as the delta of the last
	rfObject   = 1 << 5 // the name and uid follow (a new object)
	rfEstSec   = 1 << 6 // Estimated changes by whole seconds
	rfLabels   = 1 << 7 // the labels follow
	// rfLabelsLast: the labels are the last ones written.
	rfLabelsLast = 1 << 8
	// rfNamespace: with rfObject, the namespace follows; else it is the
	// last one written.
	rfNamespace        = 1 << 9
	rfSession          = 1 << 10
	rfKind             = 1 << 11
	rfArrival          = 1 << 12
	rfEstNs            = 1 << 13 // Estimated changes by other than whole seconds
	rfInitialEventsEnd = 1 << 14
	rfEncoded          = 1 << 15
	rfStatus           = 1 << 16
	// rfGap: the offset follows, as the delta of the last event's end
	// plus one; else it is that, the event after the last one's line
	// end.
	rfGap = 1 << 17
)

// putValue writes v, a value of the plain types a chunk's meta and an
// event's Status are made of, as valueReader reads it: every byte of
// its strings as it is (encoding/json would change bytes that are not
// UTF-8, which a capture's diagnostics quote), and nil apart from empty.
// The encoder and the decoder are one build, with the same types.
func putValue(b []byte, v reflect.Value) []byte {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return append(b, 0)
		}
		return putValue(append(b, 1), v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			b = putValue(b, v.Field(i))
		}
		return b
	case reflect.Slice:
		if v.IsNil() {
			return append(b, 0)
		}
		b = binary.AppendUvarint(b, uint64(v.Len())+1)
		for i := range v.Len() {
			b = putValue(b, v.Index(i))
		}
		return b
	case reflect.String:
		b = binary.AppendUvarint(b, uint64(v.Len()))
		return append(b, v.String()...)
	case reflect.Bool:
		if v.Bool() {
			return append(b, 1)
		}
		return append(b, 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return binary.AppendVarint(b, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return binary.AppendUvarint(b, v.Uint())
	}
	panic("parser: no rest encoding for a " + v.Type().String())
}

// valueReader reads what putValue wrote, from b[i]; bad is set where b
// does not hold it.
type valueReader struct {
	b   []byte
	i   int
	bad bool
}

func (r *valueReader) uvarint() uint64 {
	u, i := restUvarint(r.b, r.i)
	if i > len(r.b) {
		r.bad = true
		return 0
	}
	r.i = i
	return u
}

func (r *valueReader) read(v reflect.Value) {
	if r.bad {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		switch r.uvarint() {
		case 0:
			v.SetZero()
		case 1:
			p := reflect.New(v.Type().Elem())
			r.read(p.Elem())
			v.Set(p)
		default:
			r.bad = true
		}
	case reflect.Struct:
		for i := range v.NumField() {
			r.read(v.Field(i))
		}
	case reflect.Slice:
		n := r.uvarint()
		switch {
		case n == 0:
			v.SetZero()
		case n-1 > uint64(len(r.b)-r.i):
			// Each element takes a byte at least.
			r.bad = true
		default:
			s := reflect.MakeSlice(v.Type(), int(n-1), int(n-1))
			for i := range int(n - 1) {
				r.read(s.Index(i))
			}
			v.Set(s)
		}
	case reflect.String:
		n := r.uvarint()
		if n > uint64(len(r.b)-r.i) {
			r.bad = true
			return
		}
		v.SetString(string(r.b[r.i : r.i+int(n)]))
		r.i += int(n)
	case reflect.Bool:
		v.SetBool(r.uvarint() != 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(unzigzag(r.uvarint()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(r.uvarint())
	default:
		panic("parser: no rest encoding for a " + v.Type().String())
	}
}

// restMeta is what a chunk says of the rest's Reader besides its events:
// its sessions from From on (the last one an earlier chunk sent, which
// may have grown since, and those after it), how many it has in all,
// and its diagnostics since the last chunk; the last chunk adds the
// lines read and the error.
type restMeta struct {
	From     int
	N        int
	Sessions []Session
	Diags    []Diagnostic
	Lines    int
	Err      string
}

// restWriter encodes events; its fields are the last event's, which the
// next is written as deltas of.
type restWriter struct {
	events   int
	session  int
	end      int64
	length   int64
	id       uint32
	rv       uint64
	arrival  int64
	estimate int64
	kind     [2]string
	kinds    map[[2]string]int
	ns       string
	labels   string
	// ids and objLabels are the objects the decoder remembers: the
	// Identity in each slot and its labels.
	ids       [restSlots]uint32
	objLabels [restSlots]string
	// sessions is how many sessions earlier chunks sent whole; diags how
	// many diagnostics.
	sessions, diags int
}

// WriteRest reads every event of r, a Reader of a capture's bytes from
// offset at on (a line's start), not yet read, and hands them to emit in
// chunks in the form Reader.Then reads, the last ending with r's
// sessions, diagnostics, lines read and error. emit owns each chunk. An
// error from emit stops WriteRest and is returned. r's offsets count from
// the capture's start: its events', sessions' and diagnostics', and
// those its diagnostics' messages give.
func WriteRest(r *Reader, at int64, emit func(chunk []byte) error) error {
	return writeRest(r, at, restChunkSize, emit)
}

// writeRest is WriteRest handing a chunk on from size bytes of events.
func writeRest(r *Reader, at int64, size int, emit func(chunk []byte) error) error {
	if r.opened {
		panic("parser: WriteRest of a Reader already read")
	}
	r.restAt = at
	w := &restWriter{kinds: map[[2]string]int{{"", ""}: 0}, end: at}
	// The events' bytes are a local, not a field: under wasm, a pointer
	// written into the heap while the collector marks costs more than
	// the event's encoding.
	buf := make([]byte, 0, size+64<<10)
	first := true
	for r.Next() {
		buf = w.event(buf, &r.cur.ev)
		if len(buf) >= size {
			if err := emit(w.chunk(buf, r, at, first, false)); err != nil {
				return err
			}
			buf, first = make([]byte, 0, size+64<<10), false
		}
	}
	return emit(w.chunk(buf, r, at, first, true))
}

// chunk returns the chunk of buf, the events written since the last
// one.
func (w *restWriter) chunk(buf []byte, r *Reader, at int64, first, last bool) []byte {
	m := restMeta{From: max(w.sessions-1, 0), N: len(r.session)}
	m.Sessions = r.session[m.From:]
	m.Diags = r.diags[w.diags:]
	w.sessions, w.diags = len(r.session), len(r.diags)
	if last {
		if r.lines != nil {
			m.Lines = r.lines.lineNo - 1
		}
		if r.err != nil {
			m.Err = r.err.Error()
		}
	}
	flags := byte(0)
	if first {
		flags |= restFirst
	}
	if last {
		flags |= restLast
	}
	out := putValue(buf, reflect.ValueOf(m))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(out)-len(buf)))
	out = binary.LittleEndian.AppendUint32(out, uint32(w.events))
	out = binary.LittleEndian.AppendUint64(out, uint64(r.InputBytes()))
	out = binary.LittleEndian.AppendUint64(out, uint64(at))
	out = append(out, flags, restVersion)
	w.events = 0
	return out
}

// sameString is a == b, without a call where a and b are the same
// string, as the Reader's interned strings of one object are.
func sameString(a, b string) bool {
	return len(a) == len(b) && (unsafe.StringData(a) == unsafe.StringData(b) || a == b)
}

func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

func appendRestString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// event writes e: its flags, then, in this order, what they say follows
// and what always does: the session, the offset (as the delta of the
// last event's end), the length, the kind, the Identity, the namespace,
// name and uid, the labels, the resourceVersion (its text, and its
// number as a delta), the arrival and estimated times (deltas), the
// body offset and the Status.
func (w *restWriter) event(buf []byte, e *Event) []byte {
	f := uint64(e.Type) & rfType
	if e.Session != w.session {
		f |= rfSession
	}
	if e.Offset != w.end+1 {
		f |= rfGap
	}
	kindChanged := !sameString(e.Kind, w.kind[0]) || !sameString(e.APIVersion, w.kind[1])
	if kindChanged {
		f |= rfKind
	}
	id := e.Identity
	slot := id & (restSlots - 1)
	known := id != 0 && w.ids[slot] == id
	var base string
	if id != 0 {
		f |= rfIdentity
	}
	if known {
		base = w.objLabels[slot]
	} else {
		f |= rfObject
		if !sameString(e.Namespace, w.ns) {
			f |= rfNamespace
		}
	}
	if !sameString(e.Labels, base) {
		if sameString(e.Labels, w.labels) {
			f |= rfLabelsLast
		} else {
			f |= rfLabels
		}
	}
	if e.RVValid {
		f |= rfRVValid
	}
	if e.Arrival != w.arrival {
		f |= rfArrival
	}
	de := e.Estimated - w.estimate
	if de != 0 {
		if de%1e9 == 0 {
			f |= rfEstSec
			de /= 1e9
		} else {
			f |= rfEstNs
		}
	}
	if e.InitialEventsEnd {
		f |= rfInitialEventsEnd
	}
	if e.Encoded {
		f |= rfEncoded
	}
	if e.Status != nil {
		f |= rfStatus
	}

	b := binary.AppendUvarint(buf, f)
	if f&rfSession != 0 {
		b = binary.AppendUvarint(b, uint64(e.Session))
		w.session = e.Session
	}
	if f&rfGap != 0 {
		b = binary.AppendUvarint(b, zigzag(e.Offset-w.end-1))
	}
	b = binary.AppendUvarint(b, zigzag(e.Length-w.length))
	w.end, w.length = e.Offset+e.Length, e.Length
	if kindChanged {
		k := [2]string{e.Kind, e.APIVersion}
		i, ok := w.kinds[k]
		if !ok {
			i = len(w.kinds)
			w.kinds[k] = i
		}
		b = binary.AppendUvarint(b, uint64(i))
		if !ok {
			b = appendRestString(b, e.Kind)
			b = appendRestString(b, e.APIVersion)
		}
		w.kind = k
	}
	if id != 0 {
		b = binary.AppendUvarint(b, zigzag(int64(id)-int64(w.id)))
		w.id = id
	}
	if !known {
		if f&rfNamespace != 0 {
			b = appendRestString(b, e.Namespace)
			w.ns = e.Namespace
		}
		b = appendRestString(b, e.Name)
		b = appendRestString(b, e.UID)
	}
	if f&rfLabels != 0 {
		b = appendRestString(b, e.Labels)
		w.labels = e.Labels
	}
	if id != 0 {
		w.ids[slot] = id
		setString(&w.objLabels[slot], e.Labels)
	}
	b = appendRestString(b, e.RV)
	if e.RVValid {
		b = binary.AppendUvarint(b, zigzag(int64(e.RVNum-w.rv)))
		w.rv = e.RVNum
	}
	if f&rfArrival != 0 {
		b = binary.AppendUvarint(b, zigzag(e.Arrival-w.arrival))
		w.arrival = e.Arrival
	}
	if de != 0 {
		b = binary.AppendUvarint(b, zigzag(de))
		w.estimate = e.Estimated
	}
	if e.Encoded {
		b = binary.AppendUvarint(b, uint64(e.BodyOffset))
	}
	if e.Status != nil {
		b = putValue(b, reflect.ValueOf(e.Status).Elem())
	}
	w.events++
	return b
}

// restObject is what the decoder remembers of an object, in its slot.
type restObject struct {
	id                    uint32
	ns, name, uid, labels string
}

// restReader gives a Reader's rest (Then): it decodes the chunks' events
// one by one into cur; they are read as deltas of the last one, whose
// fields are kept here.
type restReader struct {
	src Rest
	// on is set once the Reader's own input is read and the rest's
	// events are given; err is why the rest was not taken (see
	// startRest).
	on  bool
	err error
	at  int64
	// b is the current chunk's events, i where the next one starts,
	// metaBytes its meta.
	b         []byte
	i         int
	metaBytes []byte
	// left is the events of b not yet given; last says b is the last
	// chunk, ended that no more come.
	left        int
	last, ended bool
	input       int64
	// sessBase is the index of the Reader's last session, which the
	// rest's first continues; base is that session as the Reader's own
	// input left it. lineBase is the lines the Reader read, idBase its
	// highest Identity.
	sessBase int
	base     Session
	lineBase int
	idBase   uint32

	// cur is the current event, without its strings: where they are.
	cur      restEvent
	session  int // the rest's own session number
	end      int64
	id       uint32
	rvNum    uint64
	kinds    [][2]string
	ns       string
	labels   string
	objs     []restObject
	arena    []byte
	arrival  int64
	estimate int64
	// none is the object of events without an Identity, rv an odd
	// resourceVersion's copy (see restEvent.rvOdd), status the current
	// event's Status.
	none   restObject
	rv     string
	status *Status
}

// restEvent is the decoded event that Event makes up: its strings are
// where they are, its kind in kinds, its object in objs or none, its
// resourceVersion in the chunk or rv. Decoding writes no pointer: under
// wasm, whose collector marks on the reading thread, a pointer written
// while it marks costs more than the rest of an event's decoding, and
// the Event that Event returns is written on the caller's stack.
type restEvent struct {
	seq, session   int
	offset, length int64
	typ            EventType
	rvValid, rvOdd bool
	iee, encoded   bool
	kind           int
	// obj is the index in objs of the event's object, -1 for none.
	obj               int
	rvAt, rvLen       int
	rvNum             uint64
	identity          uint32
	arrival, estimate int64
	bodyOffset        int64
}

// Then has r, once the events of its own input are read, give those of
// rest: the capture from the line start where r's input ends, read by
// a Reader of its own and written by WriteRest. r's events and rest's
// come as one Reader reading the whole capture gives them: their Seq,
// Offset, Session and the Diagnostics' Offset and Line go on from r's,
// rest's first session continues r's last one, and Sessions and
// Diagnostics are the whole capture's once Next has returned false (as
// each chunk arrives, they are those of the events read so far, or a
// little more).
//
// Identity is the rest's Reader's, its non-zero numbers raised by the
// highest number r gave, so that the two parts' numbers never meet: one
// number is still one object, and one object keeps its number within
// each part, but an object of both parts has one number in each (where
// one Reader of the whole may have given it one).
//
// Raw is nil for rest's events, and InputBytes counts from the cut the
// input the rest's Reader had read when it wrote the chunk at hand.
// A rest that gives no chunk (io.EOF at once) leaves r as if it had none;
// where r's input does not end between two events of a plain body, r
// ends with ErrSplitMismatch. Call Then before the first Next.
func (r *Reader) Then(rest Rest) {
	if r.opened {
		panic("parser: Reader.Then after Next")
	}
	r.rest = &restReader{src: rest}
}

// startRest is called where r's own input ends: it takes the rest's
// first chunk and, if r is where the rest's Reader began, goes on with
// it. It returns false where r ends with its own input, err set when
// with an error.
func (r *Reader) startRest() bool {
	d := r.rest
	chunk, err := d.src.Next()
	if err != nil {
		if err != io.EOF {
			d.err = err
		}
		return false
	}
	at := r.lines.base + int64(r.lines.end)
	f, body := &r.frame, &r.body
	if r.lines.err != nil || r.cr.err != nil {
		return false
	}
	if f.st != fBody || f.dec != nil || f.skipBody || !f.inSession || r.lines.midLine || r.lines.prefixed ||
		body.mode == modeYAML || body.mode == modeProto || r.src.codec != "" || r.src.wide != "" || len(r.session) == 0 {
		d.err = ErrSplitMismatch
		return false
	}
	d.b = chunk
	if !d.header(true) {
		d.err = errRestDamaged
		return false
	}
	if d.at != at {
		d.err = ErrSplitMismatch
		return false
	}
	// What one Reader of the whole would do as the rest's first line,
	// a '{' at a line's start, comes in.
	if body.in {
		body.cutBy(at)
	}
	if body.opens > 0 {
		body.nestedArrays()
	}
	d.sessBase = len(r.session) - 1
	d.base = r.session[d.sessBase]
	d.lineBase = r.lines.lineNo - 1
	d.idBase = r.intern.ids
	d.end = at
	// Event and Raw of the rest's events see no current event of r's
	// own, and InputBytes reads the rest's progress where it reads an
	// in-place line reader's: each stays the few instructions inlined
	// into the caller that it is for r's own events.
	r.cur = nil
	r.lines = &lineReader{inPlace: true, start: int(at), lineNo: r.lines.lineNo}
	d.objs = make([]restObject, restSlots)
	d.kinds = [][2]string{{"", ""}}
	d.cur.obj, d.cur.rvOdd = -1, true
	d.on = true
	if !d.meta(r) {
		r.err = errRestDamaged
		d.left, d.ended = 0, true
	}
	return true
}

// header reads a chunk's footer, and has d.b the chunk's events and
// d.metaBytes its meta; it says whether the chunk reads.
func (d *restReader) header(first bool) bool {
	b := d.b
	if len(b) < restFooter || b[len(b)-1] != restVersion {
		return false
	}
	ft := b[len(b)-restFooter:]
	n, events := binary.LittleEndian.Uint32(ft), binary.LittleEndian.Uint32(ft[4:])
	flags := ft[24]
	if (flags&restFirst != 0) != first || int64(n) > int64(len(b)-restFooter) {
		return false
	}
	d.last = flags&restLast != 0
	if first {
		d.at = int64(binary.LittleEndian.Uint64(ft[16:]))
	}
	d.input = d.at + int64(binary.LittleEndian.Uint64(ft[8:]))
	meta := len(b) - restFooter - int(n)
	d.b, d.i, d.metaBytes, d.left = b[:meta], 0, b[meta:len(b)-restFooter], int(events)
	return true
}

// meta reads a chunk's meta, whose footer was read, into r's sessions
// and diagnostics.
func (d *restReader) meta(r *Reader) bool {
	var m restMeta
	v := valueReader{b: d.metaBytes}
	if v.read(reflect.ValueOf(&m).Elem()); v.bad || v.i != len(v.b) || m.From < 0 || d.sessBase+m.From > len(r.session) {
		return false
	}
	for k, s := range m.Sessions {
		i := d.sessBase + m.From + k
		if m.From+k == 0 {
			b := d.base
			b.End, b.EndArrival = s.End, s.EndArrival
			b.Events += s.Events
			b.Truncated = b.Truncated || s.Truncated
			if s.Status != nil {
				b.Status = s.Status
			}
			if s.List != nil {
				b.List = s.List
			}
			s = b
		} else {
			s.Index = i
		}
		if i < len(r.session) {
			r.session[i] = s
		} else {
			r.session = append(r.session, s)
		}
	}
	if n := d.sessBase + max(m.N, 1); n < len(r.session) {
		r.session = r.session[:n]
	}
	for _, g := range m.Diags {
		if g.Kind == DiagEmpty {
			continue
		}
		if g.Line > 0 {
			g.Line += d.lineBase
		}
		r.addDiag(g)
	}
	if d.last {
		r.lines.lineNo = d.lineBase + m.Lines + 1
		if m.Err != "" {
			r.err = errors.New(m.Err)
		}
	}
	r.lines.start = int(d.input)
	return true
}

// pull takes the rest's next chunk; it says whether one came.
func (d *restReader) pull(r *Reader) bool {
	chunk, err := d.src.Next()
	if err != nil {
		if err != io.EOF {
			r.err = err
		}
		d.ended = true
		return false
	}
	d.b = chunk
	if !d.header(false) || !d.meta(r) {
		r.err = errRestDamaged
		d.ended = true
		return false
	}
	return true
}

// nextRest is Next once the rest's events are given: it decodes the
// next event into d.cur (see restWriter.event), whose fields are the
// last event's. It is one function with the decoding: under wasm a call
// is a visible share of an event's cost.
func (r *Reader) nextRest() bool {
	d := r.rest
	for d.left == 0 {
		if d.last || d.ended || !d.pull(r) {
			d.left, d.ended = 0, true
			r.done = true
			return false
		}
	}
	d.left--
	c := &d.cur
	b := d.b
	f, i := restUvarint(b, d.i)
	var u uint64
	if f&rfSession != 0 {
		u, i = restUvarint(b, i)
		if u >= uint64(len(r.session)-d.sessBase) {
			return r.restDamaged()
		}
		d.session = int(u)
	}
	c.offset = d.end + 1
	if f&rfGap != 0 {
		u, i = restUvarint(b, i)
		c.offset += unzigzag(u)
	}
	u, i = restUvarint(b, i)
	c.length += unzigzag(u)
	d.end = c.offset + c.length
	if f&rfKind != 0 {
		u, i = restUvarint(b, i)
		switch {
		case u < uint64(len(d.kinds)):
		case u == uint64(len(d.kinds)) && i <= len(b):
			var k, a []byte
			k, i = restBytes(b, i)
			a, i = restBytes(b, i)
			d.kinds = append(d.kinds, [2]string{string(k), string(a)})
		default:
			return r.restDamaged()
		}
		c.kind = int(u)
	}
	var id uint32
	if f&rfIdentity != 0 {
		u, i = restUvarint(b, i)
		d.id = uint32(int64(d.id) + unzigzag(u))
		id = d.id
	}
	o := &d.none
	c.obj = -1
	if id != 0 {
		c.obj = int(id & (restSlots - 1))
		o = &d.objs[c.obj]
	}
	if f&rfObject != 0 {
		var x []byte
		if f&rfNamespace != 0 {
			x, i = restBytes(b, i)
			d.ns = d.keep(x)
		}
		var name, uid []byte
		name, i = restBytes(b, i)
		uid, i = restBytes(b, i)
		// The strings are kept only where they change: the object of
		// the events without an Identity, none, is mostly a
		// bookmark's, all of whose strings are empty.
		o.id = id
		setString(&o.ns, d.ns)
		if string(name) != o.name {
			o.name = d.keep(name)
		}
		if string(uid) != o.uid {
			o.uid = d.keep(uid)
		}
		setString(&o.labels, "")
	} else if o.id != id || id == 0 {
		return r.restDamaged()
	}
	if f&rfLabelsLast != 0 {
		setString(&o.labels, d.labels)
	}
	if f&rfLabels != 0 {
		var x []byte
		x, i = restBytes(b, i)
		d.labels = d.keep(x)
		o.labels = d.labels
	}
	if id != 0 {
		id += d.idBase
	}
	c.identity = id
	// restBytes, inlined by hand: it is not, and every event has a
	// resourceVersion.
	u, i = restUvarint(b, i)
	j := i + int(u)
	if u > uint64(len(b)) || j > len(b) {
		return r.restDamaged()
	}
	c.rvAt, c.rvLen = i, j-i
	i = j
	c.rvValid = f&rfRVValid != 0
	c.rvNum = 0
	if c.rvValid {
		u, i = restUvarint(b, i)
		d.rvNum += uint64(unzigzag(u))
		c.rvNum = d.rvNum
	}
	// A consumer keeps the text of no resourceVersion but the odd ones,
	// which are copied: the chunk need not outlive its events.
	c.rvOdd = !c.rvValid || c.rvLen == 0 || b[c.rvAt] == '0'
	if c.rvOdd {
		setString(&d.rv, string(b[c.rvAt:j]))
	}
	if f&rfArrival != 0 {
		u, i = restUvarint(b, i)
		d.arrival += unzigzag(u)
	}
	switch {
	case f&rfEstSec != 0:
		u, i = restUvarint(b, i)
		d.estimate += unzigzag(u) * 1e9
	case f&rfEstNs != 0:
		u, i = restUvarint(b, i)
		d.estimate += unzigzag(u)
	}
	c.encoded = f&rfEncoded != 0
	c.bodyOffset = 0
	if c.encoded {
		u, i = restUvarint(b, i)
		c.bodyOffset = int64(u)
	}
	if f&rfStatus != 0 {
		d.status = new(Status)
		v := valueReader{b: b, i: i}
		if v.read(reflect.ValueOf(d.status).Elem()); v.bad {
			return r.restDamaged()
		}
		i = v.i
	} else if d.status != nil {
		d.status = nil
	}
	if i > len(b) {
		return r.restDamaged()
	}
	d.i = i
	c.seq = r.seq
	r.seq++
	c.session = d.sessBase + d.session
	c.typ = EventType(f & rfType)
	c.arrival, c.estimate = d.arrival, d.estimate
	c.iee = f&rfInitialEventsEnd != 0
	return true
}

// restDamaged ends r where a chunk does not read.
func (r *Reader) restDamaged() bool {
	d := r.rest
	r.err = errRestDamaged
	d.left, d.ended = 0, true
	r.done = true
	return false
}

// restEvent is Event where r has no current event of its own: the rest's
// current one (Then), made up of what nextRest decoded, or none.
func (r *Reader) restEvent() Event {
	d := r.rest
	if d == nil || !d.on {
		return Event{}
	}
	c := &d.cur
	o := &d.none
	if c.obj >= 0 {
		o = &d.objs[c.obj]
	}
	rv := d.rv
	if !c.rvOdd {
		rv = unsafe.String(&d.b[c.rvAt], c.rvLen)
	}
	k := &d.kinds[c.kind]
	return Event{Seq: c.seq, Session: c.session, Offset: c.offset, Length: c.length, Type: c.typ,
		Kind: k[0], APIVersion: k[1], Namespace: o.ns, Name: o.name, UID: o.uid, Labels: o.labels,
		RV: rv, RVNum: c.rvNum, RVValid: c.rvValid, Identity: c.identity,
		Arrival: c.arrival, Estimated: c.estimate, InitialEventsEnd: c.iee,
		Encoded: c.encoded, BodyOffset: c.bodyOffset, Status: d.status}
}

// keep returns a string of b, which outlives the chunk: the strings of
// objects share blocks, so that each new one costs no allocation and
// keeps no chunk alive.
func (d *restReader) keep(b []byte) string {
	switch {
	case len(b) == 0:
		return ""
	case len(b) > 1<<10:
		return string(b)
	}
	if cap(d.arena)-len(d.arena) < len(b) {
		d.arena = make([]byte, 0, 64<<10)
	}
	n := len(d.arena)
	d.arena = append(d.arena, b...)
	return unsafe.String(&d.arena[n], len(b))
}

// restUvarint reads the varint at b[i] and returns it and the index
// after it; an index past len(b) where b does not hold one, which the
// reads after it keep. It is inlined: a call per varint costs, under
// wasm, as much as the rest of an event's decoding.
func restUvarint(b []byte, i int) (uint64, int) {
	if i < len(b) && b[i] < 0x80 {
		return uint64(b[i]), i + 1
	}
	var v uint64
	for s := uint(0); i < len(b); s += 7 {
		c := b[i]
		i++
		v |= uint64(c&0x7f) << s
		if c < 0x80 {
			return v, i
		}
	}
	return 0, len(b) + 1
}

// restBytes reads the string at b[i] as restUvarint reads a varint.
func restBytes(b []byte, i int) ([]byte, int) {
	n, i := restUvarint(b, i)
	if j := i + int(n); n <= uint64(len(b)) && j <= len(b) {
		return b[i:j], j
	}
	return nil, len(b) + 1
}

// setString sets *p to s unless it is s already: under wasm, whose
// collector marks on the reading thread, a pointer written while it
// marks costs far more than the rest of an event's decoding, and the
// event's strings are mostly the last one's.
func setString(p *string, s string) {
	if len(*p) != len(s) || unsafe.StringData(*p) != unsafe.StringData(s) {
		*p = s
	}
}

// SplitsAtLines says whether b, the raw bytes of a capture's start or of
// the line start where it would be cut, starts with a line that is one
// whole JSON watch event or Kubernetes object, '{' first, in compact
// form: newline-delimited JSON of events, with no compression, time
// prefixes or HTTP framing. A capture whose start SplitsAtLines may be
// read in two parts (Reader.Then) cut at a line start where b
// SplitsAtLines.
func SplitsAtLines(b []byte) bool {
	nl := bytes.IndexByte(b, '\n')
	if len(b) == 0 || b[0] != '{' || nl < 0 {
		return false
	}
	// One whole value, and white space after it (ValidBytes allows it).
	v := b[:nl]
	if !gjson.ValidBytes(v) {
		return false
	}
	top := gjson.ParseBytes(v)
	typ, obj := top.Get("type"), top.Get("object")
	if typ.Exists() {
		switch typ.String() {
		case "ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR":
		default:
			return false
		}
		return typ.Type == gjson.String && obj.IsObject()
	}
	kind := top.Get("kind")
	return !obj.Exists() && kind.Type == gjson.String && kind.String() != "" && kind.String() != "Status" &&
		!strings.HasSuffix(kind.String(), "List") && top.Get("metadata").IsObject()
}

// NextSplit returns the index in b of the first line start, after a line
// end, where b[i:] SplitsAtLines, or -1: b is a window of a capture
// from about where it is to be cut, which must hold the whole line
// there.
func NextSplit(b []byte) int {
	for i := 0; i < len(b); {
		k := bytes.IndexByte(b[i:], '\n')
		if k < 0 {
			return -1
		}
		i += k + 1
		if SplitsAtLines(b[i:]) {
			return i
		}
	}
	return -1
}
