package parser

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Kubernetes protobuf, as client-go asks for built-in types by default
// (Accept: application/vnd.kubernetes.protobuf): a watch body is a stream
// of frames, each a 4-byte big-endian length and a metav1.WatchEvent; any
// other body (a LIST's answer, a Status) is one object. An object is the
// magic "k8s\x00" and a runtime.Unknown envelope around its own bytes.
// The field numbers are those of k8s.io/apimachinery's generated.proto
// (pkg/apis/meta/v1 and pkg/runtime), and the framing that of its
// pkg/util/framer (NewLengthDelimitedFrameWriter).
//
//	WatchEvent   {1 type string, 2 object RawExtension}
//	RawExtension {1 raw bytes}
//	Unknown      {1 typeMeta TypeMeta, 2 raw bytes, 3 contentEncoding, 4 contentType}
//	TypeMeta     {1 apiVersion, 2 kind}                  (runtime's, not metav1's)
//	ObjectMeta   {1 name, 2 generateName, 3 namespace, 5 uid, 6 resourceVersion,
//	              8 creationTimestamp, 9 deletionTimestamp, 11 labels, 12 annotations,
//	              17 managedFields}
//	ManagedFieldsEntry {4 time}
//	Time         {1 seconds, 2 nanos}                    (nanos dropped, as metav1.Time does)
//	ListMeta     {2 resourceVersion, 3 continue}
//	Status       {1 metadata ListMeta, 2 status, 3 message, 4 reason, 6 code}
//	a list kind  {1 metadata ListMeta, 2 items}
//
// Every top-level kind has its metadata as field 1.

var protoMagic = []byte("k8s\x00")

// isProtobuf says whether b starts Kubernetes protobuf: the magic, or a
// frame: its length, whose first byte is below 9 for any frame under
// 144 MiB (MaxEventSize is 64 MiB by default), then the key of the
// event's type, which the server writes first. JSON and YAML start with
// neither, and nor do runs of zeros.
func isProtobuf(b []byte) bool {
	return bytes.HasPrefix(b, protoMagic) || len(b) > 4 && b[0] < '\t' && b[4] == 1<<3|pbBytes
}

// isProtobufType says whether a Content-Type names Kubernetes protobuf.
func isProtobufType(ct string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(ct)), "application/vnd.kubernetes.protobuf")
}

const (
	pbVarint  = 0
	pbFixed64 = 1
	pbBytes   = 2
	pbFixed32 = 5
)

// pbError is malformed protobuf at a byte of the frame or body read.
type pbError struct {
	at  int
	msg string
}

func (e *pbError) Error() string { return fmt.Sprintf("at its byte %d: %s", e.at, e.msg) }

// pbUvarint reads a base-128 varint: n is its length, 0 when b ends
// inside it, -1 when it runs past the 10 bytes of a uint64.
func pbUvarint(b []byte) (v uint64, n int) {
	for i := 0; i < len(b) && i < 10; i++ {
		c := b[i]
		if i == 9 && c > 1 {
			return 0, -1
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, i + 1
		}
	}
	if len(b) >= 10 {
		return 0, -1
	}
	return 0, 0
}

// pbMsg reads the fields of one message; base is the offset of b[0] in
// the frame or body, for messages.
type pbMsg struct {
	b    []byte
	i    int
	base int
	err  error // why next stopped, when the bytes are malformed
}

// pbField is one field read: a varint's value, or a bytes field's data
// and the offset of its first byte.
type pbField struct {
	num  uint64
	wire int
	v    uint64
	data []byte
	at   int
}

// next reads the next field into f, as bufio.Scanner's Scan reads a
// token: it returns false at the end of the message, or on malformed
// bytes, which m.err then says.
func (m *pbMsg) next(f *pbField) bool {
	if m.err != nil {
		return false
	}
	ok, err := m.field(f)
	m.err = err
	return ok
}

// field reads the next field into f for next.
func (m *pbMsg) field(f *pbField) (bool, error) {
	if m.i >= len(m.b) {
		return false, nil
	}
	start := m.i
	key, n := pbUvarint(m.b[m.i:])
	if n <= 0 {
		return false, m.badVarint(start, n, "a field key")
	}
	m.i += n
	f.num, f.wire = key>>3, int(key&7)
	if f.num == 0 || f.num > 1<<29-1 {
		return false, &pbError{m.base + start, fmt.Sprintf("field number %d is out of range", f.num)}
	}
	switch f.wire {
	case pbVarint:
		v, n := pbUvarint(m.b[m.i:])
		if n <= 0 {
			return false, m.badVarint(m.i, n, fmt.Sprintf("the value of field %d", f.num))
		}
		f.v = v
		m.i += n
	case pbFixed64, pbFixed32:
		w := 8
		if f.wire == pbFixed32 {
			w = 4
		}
		if len(m.b)-m.i < w {
			return false, &pbError{m.base + start, fmt.Sprintf("field %d, of %d bytes, runs past the end of its message", f.num, w)}
		}
		m.i += w
	case pbBytes:
		l, n := pbUvarint(m.b[m.i:])
		if n <= 0 {
			return false, m.badVarint(m.i, n, fmt.Sprintf("the length of field %d", f.num))
		}
		m.i += n
		if l > uint64(len(m.b)-m.i) {
			return false, &pbError{m.base + start, fmt.Sprintf("field %d announces %d bytes, but its message has %d left", f.num, l, len(m.b)-m.i)}
		}
		f.data, f.at = m.b[m.i:m.i+int(l)], m.base+m.i
		m.i += int(l)
	default:
		return false, &pbError{m.base + start, fmt.Sprintf("field %d has wire type %d, which Kubernetes objects do not use", f.num, f.wire)}
	}
	return true, nil
}

func (m *pbMsg) badVarint(at, n int, what string) error {
	if n < 0 {
		return &pbError{m.base + at, what + " is a varint longer than 10 bytes"}
	}
	return &pbError{m.base + at, what + " is a varint cut off by the end of its message"}
}

// want checks the wire type of a field the reader takes.
func (f *pbField) want(wire int, name string) error {
	if f.wire != wire {
		return &pbError{f.at, fmt.Sprintf("field %d (%s) has wire type %d, not %d", f.num, name, f.wire, wire)}
	}
	return nil
}

type pbPair struct{ k, v []byte }

// pbObject is what is read of a watch event or an object: slices of its
// bytes. A field sent twice keeps its last value and a message field
// sent twice is merged, as the Kubernetes decoder does.
type pbObject struct {
	typ                []byte
	hasType, hasObject bool
	hasKind            bool
	apiVersion, kind   []byte

	name, generateName, namespace, uid, rv []byte
	// managed is the newest managedFields time (Unix ns, 0 when none);
	// deleted and created are the timestamps, when set.
	managed                 int64
	deleted, created        int64
	hasDeleted, hasCreated  bool
	labels, annotations     []pbPair
	status, message, reason []byte
	code                    int32
	isStatus, isList        bool
	// A list's items and the offsets of their first bytes, and its
	// continue token, for the JSON shown.
	items         [][]byte
	itemsAt       []int
	continueToken []byte
}

func (o *pbObject) reset() {
	labels, annotations, items, itemsAt := o.labels[:0], o.annotations[:0], o.items[:0], o.itemsAt[:0]
	*o = pbObject{labels: labels, annotations: annotations, items: items, itemsAt: itemsAt}
}

// watchEvent reads a WatchEvent message, b, at offset base of its frame.
func (o *pbObject) watchEvent(b []byte, base int) error {
	m := pbMsg{b: b, base: base}
	var f pbField
	var raw []byte
	rawAt := 0
	for m.next(&f) {
		switch f.num {
		case 1:
			if err := f.want(pbBytes, "type"); err != nil {
				return err
			}
			o.typ, o.hasType = f.data, true
		case 2:
			if err := f.want(pbBytes, "object"); err != nil {
				return err
			}
			ext := pbMsg{b: f.data, base: f.at}
			var g pbField
			for ext.next(&g) {
				if g.num == 1 {
					if err := g.want(pbBytes, "raw"); err != nil {
						return err
					}
					raw, rawAt = g.data, g.at
				}
			}
			if ext.err != nil {
				return ext.err
			}
		}
	}
	if m.err != nil {
		return m.err
	}
	// An empty object is no object: the server always sends the field.
	if len(raw) == 0 {
		return nil
	}
	o.hasObject = true
	return o.envelope(raw, rawAt)
}

// envelope reads an object: the magic, then a runtime.Unknown.
func (o *pbObject) envelope(b []byte, base int) error {
	if !bytes.HasPrefix(b, protoMagic) {
		return &pbError{base, fmt.Sprintf("the object starts with %q, not the magic \"k8s\\x00\" of Kubernetes protobuf", clip(b[:min(len(b), 4)]))}
	}
	m := pbMsg{b: b[4:], base: base + 4}
	var f pbField
	var obj []byte
	objAt := 0
	for m.next(&f) {
		switch f.num {
		case 1:
			if err := f.want(pbBytes, "typeMeta"); err != nil {
				return err
			}
			tm := pbMsg{b: f.data, base: f.at}
			var g pbField
			for tm.next(&g) {
				switch g.num {
				case 1:
					if err := g.want(pbBytes, "apiVersion"); err != nil {
						return err
					}
					o.apiVersion = g.data
				case 2:
					if err := g.want(pbBytes, "kind"); err != nil {
						return err
					}
					o.kind, o.hasKind = g.data, true
				}
			}
			if tm.err != nil {
				return tm.err
			}
		case 2:
			if err := f.want(pbBytes, "raw"); err != nil {
				return err
			}
			obj, objAt = f.data, f.at
		}
	}
	if m.err != nil {
		return m.err
	}
	return o.object(obj, objAt)
}

// object reads the object's own message, whose fields depend on its kind.
func (o *pbObject) object(b []byte, base int) error {
	o.isStatus = string(o.kind) == "Status"
	o.isList = strings.HasSuffix(string(o.kind), "List")
	m := pbMsg{b: b, base: base}
	var f pbField
	for m.next(&f) {
		var err2 error
		switch {
		case f.num == 1:
			if err2 = f.want(pbBytes, "metadata"); err2 == nil {
				if o.isList || o.isStatus {
					err2 = o.listMeta(f.data, f.at)
				} else {
					err2 = o.objectMeta(f.data, f.at)
				}
			}
		case o.isList && f.num == 2:
			if err2 = f.want(pbBytes, "items"); err2 == nil {
				o.items, o.itemsAt = append(o.items, f.data), append(o.itemsAt, f.at)
			}
		case o.isStatus && f.num == 2:
			if err2 = f.want(pbBytes, "status"); err2 == nil {
				o.status = f.data
			}
		case o.isStatus && f.num == 3:
			if err2 = f.want(pbBytes, "message"); err2 == nil {
				o.message = f.data
			}
		case o.isStatus && f.num == 4:
			if err2 = f.want(pbBytes, "reason"); err2 == nil {
				o.reason = f.data
			}
		case o.isStatus && f.num == 6:
			if err2 = f.want(pbVarint, "code"); err2 == nil {
				o.code = int32(f.v)
			}
		}
		if err2 != nil {
			return err2
		}
	}
	return m.err
}

func (o *pbObject) listMeta(b []byte, base int) error {
	m := pbMsg{b: b, base: base}
	var f pbField
	for m.next(&f) {
		switch f.num {
		case 2:
			if err := f.want(pbBytes, "resourceVersion"); err != nil {
				return err
			}
			o.rv = f.data
		case 3:
			if err := f.want(pbBytes, "continue"); err != nil {
				return err
			}
			o.continueToken = f.data
		}
	}
	return m.err
}

func (o *pbObject) objectMeta(b []byte, base int) error {
	m := pbMsg{b: b, base: base}
	var f pbField
	for m.next(&f) {
		var s *[]byte
		switch f.num {
		case 1:
			s = &o.name
		case 2:
			s = &o.generateName
		case 3:
			s = &o.namespace
		case 5:
			s = &o.uid
		case 6:
			s = &o.rv
		case 8, 9, 11, 12, 17:
		default:
			continue
		}
		if err := f.want(pbBytes, metaFieldNames[f.num]); err != nil {
			return err
		}
		switch f.num {
		case 8, 9:
			ns, ok, err := pbTime(f.data, f.at)
			if err != nil {
				return err
			}
			if f.num == 8 {
				o.created, o.hasCreated = ns, ok
			} else {
				o.deleted, o.hasDeleted = ns, ok
			}
		case 11, 12:
			p, err := pbMapEntry(f.data, f.at)
			if err != nil {
				return err
			}
			if f.num == 11 {
				o.labels = append(o.labels, p)
			} else {
				o.annotations = append(o.annotations, p)
			}
		case 17:
			if err := o.managedEntry(f.data, f.at); err != nil {
				return err
			}
		default:
			*s = f.data
		}
	}
	return m.err
}

var metaFieldNames = map[uint64]string{1: "name", 2: "generateName", 3: "namespace", 5: "uid", 6: "resourceVersion",
	8: "creationTimestamp", 9: "deletionTimestamp", 11: "labels", 12: "annotations", 17: "managedFields"}

func (o *pbObject) managedEntry(b []byte, base int) error {
	m := pbMsg{b: b, base: base}
	var f pbField
	for m.next(&f) {
		if f.num != 4 {
			continue
		}
		if err := f.want(pbBytes, "time"); err != nil {
			return err
		}
		// The newest time, as the JSON reading keeps it.
		if ns, ok, err := pbTime(f.data, f.at); err != nil {
			return err
		} else if ok && ns > o.managed {
			o.managed = ns
		}
	}
	return m.err
}

// pbTime reads a metav1.Time: its seconds in Unix ns. An empty message is
// the zero time, which JSON shows as null: no time.
func pbTime(b []byte, base int) (int64, bool, error) {
	if len(b) == 0 {
		return 0, false, nil
	}
	m := pbMsg{b: b, base: base}
	var f pbField
	var sec int64
	for m.next(&f) {
		if f.num == 1 {
			if err := f.want(pbVarint, "seconds"); err != nil {
				return 0, false, err
			}
			sec = int64(f.v)
		}
	}
	if m.err != nil {
		return 0, false, m.err
	}
	if sec > math.MaxInt64/int64(time.Second) || sec < math.MinInt64/int64(time.Second) {
		return 0, false, nil
	}
	return sec * 1e9, true, nil
}

// pbMapEntry reads an entry of a map<string, string>.
func pbMapEntry(b []byte, base int) (pbPair, error) {
	m := pbMsg{b: b, base: base}
	var f pbField
	var p pbPair
	for m.next(&f) {
		switch f.num {
		case 1:
			if err := f.want(pbBytes, "key"); err != nil {
				return p, err
			}
			p.k = f.data
		case 2:
			if err := f.want(pbBytes, "value"); err != nil {
				return p, err
			}
			p.v = f.data
		}
	}
	return p, m.err
}

// estimated is the time estimated from the object, as the JSON reading
// does: the newest managedFields time, else the deletion, else the
// creation timestamp.
func (o *pbObject) estimated() int64 {
	est := o.managed
	if est == 0 && o.hasDeleted {
		est = o.deleted
	}
	if est == 0 && o.hasCreated {
		est = o.created
	}
	return est
}

// initialEventsEnd says whether the last k8s.io/initial-events-end
// annotation is "true".
func (o *pbObject) initialEventsEnd() bool {
	end := false
	for _, a := range o.annotations {
		if string(a.k) == "k8s.io/initial-events-end" {
			end = string(a.v) == "true"
		}
	}
	return end
}

// appendPairs appends a map's entries as a JSON object, in wire order (a
// key sent twice keeps its last value when read back, as in the map).
func appendPairs(out []byte, ps []pbPair) []byte {
	out = append(out, '{')
	for k, p := range ps {
		if k > 0 {
			out = append(out, ',')
		}
		out = appendJSONString(out, string(p.k))
		out = append(out, ':')
		out = appendJSONString(out, string(p.v))
	}
	return append(out, '}')
}

// protoFields fills the fields the JSON reading would give for the same
// event or object.
func (r *Reader) protoFields(o *pbObject, f *fields, p *protoBody) {
	*f = fields{
		hasType: o.hasType, hasObject: o.hasObject, typ: string(o.typ), hasKind: o.hasKind,
		kind: r.intern.bytes(o.kind), apiVersion: r.intern.bytes(o.apiVersion),
		namespace: r.intern.bytes(o.namespace), name: r.intern.bytes(o.name), uid: r.intern.bytes(o.uid),
		rv: string(o.rv), initialEventsEnd: o.initialEventsEnd(), estimated: o.estimated(),
		code: int(o.code), reason: string(o.reason), message: string(o.message),
	}
	if len(o.labels) > 0 {
		// canonicalLabels takes the labels' JSON; an object's labels
		// repeat event after event, so the last one is kept.
		p.scratch = appendPairs(p.scratch[:0], o.labels)
		if string(p.scratch) != p.lastLabels {
			p.lastLabels = string(p.scratch)
		}
		f.labels = p.lastLabels
	}
}

// protoBody reads a protobuf response body as its pieces come: a watch's
// frames, each read as soon as it is whole, or one object (a LIST's
// answer, a Status), read at the body's end.
type protoBody struct {
	started bool
	whole   bool // the body is one object, not frames
	hdr     [4]byte
	nhdr    int // bytes of the frame's length read
	need    int // bytes of the frame still to come
	// The frame or object being gathered, from startRaw (line startLine)
	// to endRaw; skipping is set when it outgrew MaxEventSize.
	buf, spare []byte
	startRaw   int64
	startLine  int
	endRaw     int64
	arrival    int64
	began      int64 // the arrival of the frame's first byte
	skipping   bool
	obj        pbObject
	scratch    []byte
	lastLabels string
	// hunt is the search for the next frame after a bad one (see
	// protoHunt); seen is the stream offset past the last byte fed.
	hunt pbHunt
	seen int64
}

// pbHunt looks for the next plausible frame after a bad one: a frame
// whose length was damaged, too big to keep, or whose event would not
// decode. As the JSON reader skips a bad line and reads the next,
// reading goes on at the first place where 4 bytes of length (at most
// MaxEventSize) come before the key and the value of a watch event's
// type, which the server writes first: the rest of the response is not
// lost to one bad length.
type pbHunt struct {
	on bool
	// The bad frame: where it started and where its length said it would
	// end, its line, and whether its length was too big to keep.
	from, end int64
	line      int
	tooBig    bool
	// The last bytes passed over, with their stream offsets: a frame's
	// start may come in two pieces.
	win [pbSigMax]byte
	at  [pbSigMax]int64
	n   int
}

// pbWatchTypes are the types a watch event's frame starts with.
var pbWatchTypes = [...]string{"ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"}

// pbSigMax is the length of the longest frame start the hunt looks for:
// 4 bytes of length, the type's key and length, and "MODIFIED" or
// "BOOKMARK".
const pbSigMax = 4 + 2 + 8

// frameStart says whether w ends with the start of a frame: its length
// (at most max, and room for the type and an object's key), the type's
// key and one of pbWatchTypes. It returns the frame's length and the
// number of w's bytes that start it.
func frameStart(w []byte, max int) (size, n int, ok bool) {
	for _, t := range pbWatchTypes {
		n = 4 + 2 + len(t)
		if len(w) < n {
			continue
		}
		f := w[len(w)-n:]
		if f[4] != 1<<3|pbBytes || int(f[5]) != len(t) || string(f[6:]) != t {
			continue
		}
		size = int(binary.BigEndian.Uint32(f))
		if size >= n-4+2 && size <= max {
			return size, n, true
		}
	}
	return 0, 0, false
}

// protoSeg is bytes the frames are read from: a piece of the body as fed
// (piece), or the bytes of a bad frame gathered before, read again from
// its second byte by the hunt for the next frame.
type protoSeg struct {
	b     []byte
	i     int   // the next byte to read
	raw   int64 // stream offset of b[0]
	piece bool
	line  int // the bad frame's line, for bytes read again
}

// protoFeed is feed for a protobuf body.
func (s *bodyScanner) protoFeed(b []byte, raw int64, no int, arrival int64) int {
	p := &s.pb
	n := len(b)
	if s.block {
		// A block may run on into the next response's head, which the
		// framer must see: stop before a line that is one.
		n = blockHeadAt(b, s.col0)
		if n == 0 {
			return 0
		}
		b = b[:n]
	}
	s.col0 = b[len(b)-1] == '\n'
	if !p.started {
		// A frame's first byte is below 9; the magic's is 'k', which a
		// first chunk of one byte shows as well as of four.
		p.started, p.whole = true, b[0] == protoMagic[0]
		if p.whole {
			p.startRaw, p.startLine = raw, s.lineAt(b, 0)
		}
	}
	if p.whole {
		p.endRaw, p.arrival = raw+int64(len(b)), arrival
		s.gather(b)
		return n
	}
	p.seen, p.arrival = raw+int64(len(b)), arrival
	s.protoSegs(protoSeg{b: b, raw: raw, piece: true}, arrival)
	return n
}

// protoSegs reads the frames of seg and, first, of the bad frames found
// in it, each read again from its second byte as the hunt goes on.
func (s *bodyScanner) protoSegs(seg protoSeg, arrival int64) {
	var rest []protoSeg // what is left of the segments a bad frame stopped
	for {
		again := s.protoFrames(&seg, arrival)
		if again != nil {
			if seg.i < len(seg.b) {
				rest = append(rest, seg)
			}
			seg = protoSeg{b: again, raw: s.pb.hunt.from + 1, line: s.pb.hunt.line}
			continue
		}
		if len(rest) == 0 {
			return
		}
		seg, rest = rest[len(rest)-1], rest[:len(rest)-1]
	}
}

// protoFrames reads frames from seg.b[seg.i:] until its end, or until a
// frame gathered from several pieces turns out bad: it then returns that
// frame's bytes from the second on, to be read before the rest of seg.
func (s *bodyScanner) protoFrames(seg *protoSeg, arrival int64) []byte {
	p := &s.pb
	b, raw := seg.b, seg.raw
	lineAt := func(i int) int {
		if seg.piece {
			return s.lineAt(b, i)
		}
		return seg.line
	}
	for seg.i < len(b) {
		i := seg.i
		if p.hunt.on {
			seg.i += s.protoHunt(b[i:], raw+int64(i), lineAt(i))
			continue
		}
		if p.nhdr < 4 {
			if p.nhdr == 0 {
				p.startRaw, p.startLine, p.began = raw+int64(i), lineAt(i), arrival
				p.buf = p.buf[:0]
				if len(b)-i >= 4 {
					// A frame whole in this piece is read in place.
					if size := int64(binary.BigEndian.Uint32(b[i:])); size <= int64(len(b)-i-4) && size <= int64(s.r.opts.MaxEventSize) {
						end := i + 4 + int(size)
						if s.r.onFrame(b[i:end], p.startRaw, raw+int64(end), p.startLine, arrival) {
							seg.i = end
						} else {
							s.startHunt(raw+int64(end), false)
							seg.i = i + 1
						}
						continue
					}
				}
			}
			k := copy(p.hdr[p.nhdr:], b[i:])
			p.nhdr += k
			seg.i += k
			if p.nhdr < 4 {
				continue
			}
			size := int64(binary.BigEndian.Uint32(p.hdr[:]))
			if size > int64(s.r.opts.MaxEventSize) {
				s.r.addDiag(Diagnostic{Offset: p.startRaw, Line: p.startLine, Kind: DiagEventTooBig,
					Msg: fmt.Sprintf("the protobuf frame here announces %d bytes (its length: % x), more than the %d kept (Options.MaxEventSize); it is skipped, and reading goes on at the next frame found", size, p.hdr, s.r.opts.MaxEventSize)})
				s.startHunt(p.startRaw+4+size, true)
				p.buf = append(p.buf[:0], p.hdr[1:]...)
				return s.takeBuf()
			}
			p.buf = append(p.buf, p.hdr[:]...)
			p.need = int(size)
			continue
		}
		k := min(p.need, len(b)-i)
		p.buf = append(p.buf, b[i:i+k]...)
		p.need -= k
		seg.i += k
		if p.need == 0 {
			v := p.buf
			// The queued event keeps v until it is returned, so the next
			// frame must not write over it. Decoded bytes come many frames
			// at a time, and their events' bytes are copied only after
			// them all (feedDecoded): there each frame gets its own buffer.
			if s.r.decoding {
				p.buf = nil
			} else {
				p.buf, p.spare = p.spare[:0], p.buf
			}
			p.nhdr = 0
			seq := s.r.seq
			if s.r.onFrame(v, p.startRaw, raw+int64(seg.i), p.startLine, arrival) {
				s.r.setBegan(seq, p.began)
			} else {
				s.startHunt(raw+int64(seg.i), false)
				if !s.r.decoding {
					// v is read again from the segment: no frame may reuse it.
					p.spare = nil
				}
				return v[1:]
			}
		}
	}
	return nil
}

// startHunt starts the search for the next frame after the bad one that
// started at startRaw and whose length said it would end at end.
func (s *bodyScanner) startHunt(end int64, tooBig bool) {
	p := &s.pb
	p.nhdr, p.need = 0, 0
	p.hunt = pbHunt{on: true, from: p.startRaw, end: end, line: p.startLine, tooBig: tooBig}
}

// takeBuf hands over the bytes gathered, which the hunt reads again, and
// gathers the next frame in a buffer of its own.
func (s *bodyScanner) takeBuf() []byte {
	p := &s.pb
	v := p.buf
	p.buf = nil
	return v
}

// protoHunt passes over b, at stream offset raw, looking for the start
// of a frame (frameStart). It returns how many bytes it took: up to the
// end of b, or to the end of a frame start found, which then is the
// frame being gathered.
func (s *bodyScanner) protoHunt(b []byte, raw int64, line int) int {
	p := &s.pb
	h := &p.hunt
	for j, c := range b {
		if h.n == pbSigMax {
			copy(h.win[:], h.win[1:])
			copy(h.at[:], h.at[1:])
			h.n--
		}
		h.win[h.n], h.at[h.n] = c, raw+int64(j)
		h.n++
		size, n, ok := frameStart(h.win[:h.n], s.r.opts.MaxEventSize)
		if !ok {
			continue
		}
		start := h.at[h.n-n]
		if start != h.end {
			// The bad frame's length was wrong: say where reading goes
			// on, and what it found there.
			s.r.addDiag(Diagnostic{Offset: start, Line: line, Kind: DiagResync,
				Msg: fmt.Sprintf("reading goes on at the protobuf frame found here (its length: % x, %d bytes, then the type %q), %d bytes after the bad frame at offset %d; the bytes between are skipped",
					h.win[h.n-n:h.n-n+4], size, h.win[h.n-n+6:h.n], start-h.from, h.from)})
		}
		p.startRaw, p.startLine = start, line
		p.buf = append(p.buf[:0], h.win[h.n-n:h.n]...)
		copy(p.hdr[:], p.buf)
		p.nhdr, p.need = 4, size-(n-4)
		*h = pbHunt{}
		return j + 1
	}
	return len(b)
}

// gather adds b to the object being kept, or gives it up when it would
// grow past MaxEventSize.
func (s *bodyScanner) gather(b []byte) {
	p := &s.pb
	if p.skipping {
		return
	}
	if len(p.buf)+len(b) > s.r.opts.MaxEventSize {
		p.skipping, p.buf = true, p.buf[:0]
		return
	}
	p.buf = append(p.buf, b...)
}

// blockHeadAt returns where in the block b the first line that is an HTTP
// request or status line starts, or len(b).
func blockHeadAt(b []byte, col0 bool) int {
	for i := 0; i < len(b); {
		if (i > 0 || col0) && isUpper(b[i]) {
			eol := bytes.IndexByte(b[i:], '\n')
			if ln := b[i : i+eol+1]; isStatusLine(ln) || isRequestLine(ln) {
				return i
			}
		}
		k := bytes.IndexByte(b[i:], '\n')
		if k < 0 {
			break
		}
		i += k + 1
	}
	return len(b)
}

// protoEnd ends a protobuf body: the object gathered is read, or a frame
// left open was cut off. A frame whose length runs past the end may have
// had its length damaged: the frames in the bytes it took are read, and
// the session is cut only when there are none.
func (s *bodyScanner) protoEnd() {
	p := &s.pb
	r := s.r
	switch {
	case p.whole && p.skipping:
		r.addDiag(Diagnostic{Offset: p.startRaw, Line: p.startLine, Kind: DiagEventTooBig,
			Msg: fmt.Sprintf("the protobuf object here is %d bytes, more than the %d kept (Options.MaxEventSize); it is skipped", p.endRaw-p.startRaw, r.opts.MaxEventSize)})
		return
	case p.whole:
		r.onProtoObject(p.buf, p.startRaw, p.endRaw, p.startLine, p.arrival)
		// The queued event keeps the bytes: the next body gathers in spare.
		p.buf, p.spare = p.spare[:0], p.buf
		return
	}
	cut := false
	for p.nhdr > 0 {
		if p.nhdr < 4 {
			r.addDiag(Diagnostic{Offset: p.startRaw, Line: p.startLine, Kind: DiagCutEvent,
				Msg: fmt.Sprintf("the protobuf frame starting here is cut off: the response ends inside its 4-byte length, after %d bytes (% x); it is skipped", p.nhdr, p.hdr[:p.nhdr])})
			p.nhdr, cut = 0, true
			break
		}
		announced := len(p.buf) - 4 + p.need
		r.addDiag(Diagnostic{Offset: p.startRaw, Line: p.startLine, Kind: DiagCutEvent,
			Msg: fmt.Sprintf("the protobuf frame starting here announces %d bytes, but the response ends after %d of them (its length: % x); it is skipped", announced, len(p.buf)-4, p.hdr)})
		s.startHunt(p.startRaw+4+int64(announced), false)
		s.protoSegs(protoSeg{b: s.takeBuf()[1:], raw: p.hunt.from + 1, line: p.hunt.line}, p.arrival)
		// Still hunting: no frame in the rest, so the response was cut
		// inside this one, not after a wrong length.
		cut = p.hunt.on
	}
	if cut {
		r.curSession().Truncated = true
	}
	if h := &p.hunt; h.on && h.tooBig && h.end > p.seen {
		r.curSession().Truncated = true
		r.addDiag(Diagnostic{Offset: h.from, Line: h.line, Kind: DiagCutEvent,
			Msg: fmt.Sprintf("the response ends %d bytes before the end of the protobuf frame starting here, which was too big to keep", h.end-p.seen)})
	}
	p.hunt = pbHunt{}
}

// protoBreak gives up the frame open where the stream breaks (damaged
// encoded data); reading goes on with a frame at the next byte.
func (s *bodyScanner) protoBreak(msg string) {
	p := &s.pb
	if !p.whole && (p.nhdr > 0 || p.hunt.tooBig) {
		s.r.addDiag(Diagnostic{Offset: p.startRaw, Line: p.startLine, Kind: DiagCutEvent, Msg: msg})
	}
	p.nhdr, p.need, p.hunt = 0, 0, pbHunt{}
}

// onFrame turns one frame, v (its length included), into an event, or
// says it is bad with a diagnostic: its length may be wrong, and the
// caller looks for the next frame.
func (r *Reader) onFrame(v []byte, start, end int64, line int, arrival int64) bool {
	p := &r.body.pb
	o := &p.obj
	o.reset()
	if err := o.watchEvent(v[4:], 4); err != nil {
		r.addDiag(Diagnostic{Offset: start, Line: line, Kind: DiagBadProtobuf,
			Msg: fmt.Sprintf("the protobuf watch event in the %d-byte frame starting here (its length: % x) is malformed %v; it is skipped", len(v), v[:4], err)})
		return false
	}
	if !o.hasType {
		r.addDiag(Diagnostic{Offset: start, Line: line, Kind: DiagNoType,
			Msg: fmt.Sprintf("the protobuf watch event in the frame starting here (its length: % x) has no type; it is skipped", v[:4])})
		return false
	}
	r.protoFields(o, &r.fields, p)
	r.onFields(&r.fields, v, start, end, line, arrival, false, nil)
	return true
}

// onProtoObject turns a body that is one object into an event (an
// OBSERVED object, a LIST's answer as the JSON reading gives it: one
// event of the list's kind at its resourceVersion), a session Status or
// a diagnostic.
func (r *Reader) onProtoObject(v []byte, start, end int64, line int, arrival int64) {
	p := &r.body.pb
	o := &p.obj
	o.reset()
	if err := o.envelope(v, 0); err != nil {
		r.addDiag(Diagnostic{Offset: start, Line: line, Kind: DiagBadProtobuf,
			Msg: fmt.Sprintf("the protobuf object of this %d-byte response body is malformed %v; it is skipped", len(v), err)})
		return
	}
	if !o.hasKind {
		r.addDiag(Diagnostic{Offset: start, Line: line, Kind: DiagNotEvent,
			Msg: "the protobuf object of this response body names no kind; it is skipped"})
		return
	}
	if o.isList && r.onProtoList(o, v, start, end, line, arrival) {
		return
	}
	r.protoFields(o, &r.fields, p)
	r.onFields(&r.fields, v, start, end, line, arrival, false, nil)
}

// onProtoList reads a protobuf LIST's answer as the JSON one is read: the
// session's List, and each item a LISTED event of the list's item kind.
// An item's bytes are not located in the stream, so each event spans the
// whole answer (its detail shows the list, items' metadata included).
func (r *Reader) onProtoList(o *pbObject, v []byte, start, end int64, line int, arrival int64) bool {
	kind := string(o.kind)
	if !strings.HasSuffix(kind, "List") {
		return false
	}
	list := &List{Kind: r.internString(kind), RV: string(o.rv), Continue: string(o.continueToken), Complete: true}
	r.curSession().List = list
	itemKind := strings.TrimSuffix(kind, "List")
	p := &r.body.pb
	for k, b := range o.items {
		it := pbObject{kind: []byte(itemKind), apiVersion: o.apiVersion, hasKind: true}
		if err := it.object(b, o.itemsAt[k]); err != nil {
			r.addDiag(Diagnostic{Offset: start, Line: line, Kind: DiagBadListItem,
				Msg: fmt.Sprintf("item %d of this protobuf %s is malformed %v; it is skipped", k, clipString(kind), err)})
			list.Complete = false
			continue
		}
		r.protoFields(&it, &r.fields, p)
		r.emit(&r.fields, Listed, v, start, end, line, arrival, false)
		list.Items++
	}
	return true
}

// protobufJSON renders a protobuf event's bytes (Reader.Raw: a frame, or
// a body that is one object) as JSON of the fields the reader takes.
func protobufJSON(b []byte) ([]byte, error) {
	var o pbObject
	var out []byte
	if bytes.HasPrefix(b, protoMagic) {
		if err := o.envelope(b, 0); err != nil {
			return nil, fmt.Errorf("protobuf: the object is malformed %v; no JSON to show", err)
		}
		return o.appendJSON(out), nil
	}
	if len(b) < 4 || int64(binary.BigEndian.Uint32(b)) != int64(len(b)-4) {
		return nil, fmt.Errorf("protobuf: the %d bytes are not one length-prefixed frame (their framing could not be told from the data); no JSON to show", len(b))
	}
	if err := o.watchEvent(b[4:], 4); err != nil {
		return nil, fmt.Errorf("protobuf: the watch event is malformed %v; no JSON to show", err)
	}
	out = append(out, `{"type":`...)
	out = appendJSONString(out, string(o.typ))
	if o.hasObject {
		out = append(out, `,"object":`...)
		out = o.appendJSON(out)
	}
	return append(out, '}'), nil
}

// appendJSON renders the object read: its kind, its metadata, a Status's
// fields and a list's items' metadata. A note says that the rest is not
// shown.
func (o *pbObject) appendJSON(out []byte) []byte {
	out = append(out, `{"_watchlens":"read from Kubernetes protobuf: only the fields watchlens reads are shown","kind":`...)
	out = appendJSONString(out, string(o.kind))
	out = append(out, `,"apiVersion":`...)
	out = appendJSONString(out, string(o.apiVersion))
	out = append(out, `,"metadata":`...)
	out = o.appendMeta(out)
	if o.isStatus {
		out = append(out, `,"status":`...)
		out = appendJSONString(out, string(o.status))
		out = append(out, `,"message":`...)
		out = appendJSONString(out, string(o.message))
		out = append(out, `,"reason":`...)
		out = appendJSONString(out, string(o.reason))
		out = append(out, `,"code":`...)
		out = strconv.AppendInt(out, int64(o.code), 10)
	}
	if o.isList {
		item := strings.TrimSuffix(string(o.kind), "List")
		out = append(out, `,"items":[`...)
		for k, b := range o.items {
			if k > 0 {
				out = append(out, ',')
			}
			it := pbObject{kind: []byte(item)}
			if err := it.object(b, o.itemsAt[k]); err != nil {
				out = append(out, `{"_watchlens":`...)
				out = appendJSONString(out, "malformed "+err.Error())
				out = append(out, '}')
				continue
			}
			out = append(out, `{"metadata":`...)
			out = it.appendMeta(out)
			out = append(out, '}')
		}
		out = append(out, ']')
	}
	return append(out, '}')
}

func (o *pbObject) appendMeta(out []byte) []byte {
	out = append(out, '{')
	n := 0
	str := func(key string, v []byte) {
		if len(v) == 0 {
			return
		}
		if n > 0 {
			out = append(out, ',')
		}
		n++
		out = append(out, '"')
		out = append(out, key...)
		out = append(out, `":`...)
		out = appendJSONString(out, string(v))
	}
	tm := func(key string, ns int64, ok bool) {
		if ok {
			str(key, []byte(time.Unix(0, ns).UTC().Format(time.RFC3339)))
		}
	}
	str("name", o.name)
	str("generateName", o.generateName)
	str("namespace", o.namespace)
	str("uid", o.uid)
	str("resourceVersion", o.rv)
	str("continue", o.continueToken)
	tm("creationTimestamp", o.created, o.hasCreated)
	tm("deletionTimestamp", o.deleted, o.hasDeleted)
	for _, m := range []struct {
		key string
		ps  []pbPair
	}{{"labels", o.labels}, {"annotations", o.annotations}} {
		if len(m.ps) > 0 {
			if n > 0 {
				out = append(out, ',')
			}
			n++
			out = append(out, `"`+m.key+`":`...)
			out = appendPairs(out, m.ps)
		}
	}
	return append(out, '}')
}

// protobufBody says whether a body starting with b is protobuf: by its
// bytes, or, for a body that starts with no JSON, by its Content-Type.
func (r *Reader) protobufBody(b []byte) bool {
	if isProtobuf(b) {
		return true
	}
	if b[0] == '{' || isSpace(b[0]) {
		return false
	}
	for _, h := range r.curSession().Headers {
		if strings.EqualFold(h.Name, "Content-Type") {
			return isProtobufType(h.Value)
		}
	}
	return false
}

// fresh returns the state for the next body, keeping the buffers.
func (p *protoBody) fresh() protoBody {
	return protoBody{buf: p.buf[:0], spare: p.spare[:0], obj: p.obj, scratch: p.scratch, lastLabels: p.lastLabels}
}
