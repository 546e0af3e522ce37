package parser

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unsafe"

	"watchlens/internal/word"
)

// The fast path reads the fields without building anything. In the order
// the API server writes ("type", then "object" with kind, apiVersion and
// metadata first) it stops after the metadata and never looks at spec or
// status, which are most of the bytes; in other orders it walks the whole
// value once. A key that repeats in what it reads has its last value, as
// in extractGJSON. It gives exactly what extractGJSON gives (FuzzFastVsGJSON
// holds it to that) and declines, returning false, whenever the input
// strays from what it knows: escapes in what it reads, values of other
// types, malformed JSON, Status objects, a second "object" or "metadata".
// The caller then uses extractGJSON.
//
// Where it stops early, a repeated key after the stop (a second "type"
// after the object, a second "kind", "apiVersion" or "metadata" after the
// metadata) goes unseen, except a second "object", which the callers
// look for: seeing the others would mean walking spec and status, most
// of a pod's bytes, which the fast path exists to skip.

// fastScanner walks one JSON value; i is the read position.
type fastScanner struct {
	b    []byte
	i    int
	memo *fastMemo
	tab  *internTable
	rec  *metaRecorder // gathers a metaTemplate, when not nil
}

// fastMemo remembers, per manager of managedFields, the fieldsV1 value
// of the last entry it wrote. Most of the metadata's bytes are fieldsV1,
// and they repeat: the same object's next event, and objects of one
// controller, carry the same ones byte for byte. Where the bytes match a
// value the scanner walked before, the walk would go the same way (an
// object's extent and validity depend only on its own bytes), so it is
// skipped by a comparison, many times faster than the walk. They are
// remembered by manager, not by position in managedFields: an entry some
// objects have and others not (a policy agent's, a kubectl annotate's)
// moves the entries after it, which then follow another manager's.
type fastMemo struct {
	managers [maxManagers]managerMemo
	// nextManager is the slot of managers the next new manager takes.
	nextManager int
	// byShape holds more of them, found by how they begin.
	byShape fieldsByShape
	// recent holds labels and owner references (see skipRecent), apart
	// from the fieldsV1, which they would push out.
	recent fieldsByShape
	// last holds the strings interned last for kind, apiVersion, the
	// object's identity (see identity) and labels, which mostly repeat
	// from one event to the next: a comparison saves the intern table's
	// hashing and its cache misses. lastID are their numbers.
	last   [4]string
	lastID [4]uint32
	// identity is the number of the last extracted event's identity, 0
	// when it had none (see Event.Identity).
	identity uint32
	// heads are the envelopes of recent events up to the value of the
	// object's metadata, with what the walk had read by then: the type,
	// kind and apiVersion. An event that starts with the same bytes is
	// read from there, as the walk would go the same way (it reads no
	// byte beyond a position to get there).
	heads [4]fastHead
	// entries are, per position in managedFields, the bytes of the last
	// entry from its "{" to the value of its first "time" key (pre), and
	// from after that value to the entry's "}" (post): they are skipped
	// by a comparison as fieldsV1 is.
	entries [4]entryMemo
	// scratch gathers an object's identity for the intern table where it
	// is too long to be built in the table's spare room (probeIdentity).
	scratch []byte
	// tmpl is the metadata last walked after a remembered envelope, and
	// rec what gathers the next.
	tmpl metaTemplate
	rec  metaRecorder
	// rvs holds the bytes of recent resourceVersions (see rvString).
	rvs []byte
	// hours are, per position in managedFields, the hour of the last
	// time read there: a pod's entries are written at different times
	// (its creation, its last status), each mostly near the last pod's.
	hours [4]hourMemo
	// hoursPast is the hour of the last time read in the entries after
	// those of hours, all of them.
	hoursPast hourMemo
}

// managerMemo is what fastMemo remembers of one manager's entries: its
// name and the fieldsV1 values of its last two entries of different
// forms, newer the one read last. A manager writes its entries in a few
// forms that differ early on (the kubelet's pod conditions, which differ
// between two kubelet versions), each mostly the same from one object to
// the next but for a few bytes near its end (the pod's IP).
type managerMemo struct {
	used  bool
	name  []byte
	vals  [2]fieldsMemo
	newer int
}

// fieldsMemo is a fieldsV1 value held, b, and cps, the points of the walk
// over it where the next value may go on from.
type fieldsMemo struct {
	b   []byte
	cps []fieldsCP
}

// maxManagers is how many managers fastMemo remembers, and
// maxManagerName the longest name it tells apart: longer ones share the
// slot of the unnamed entries. With values of maxManagerValue bytes at
// most, a manager's memory stays under 96 KiB, the managers' under 1 MiB.
const (
	maxManagers     = 8
	maxManagerName  = 256
	maxManagerValue = maxMemo / 2
)

// managerSlot returns the slot of managers that remembers the manager
// named name (nil for an entry without one), given the least recently
// made one where none does.
func (m *fastMemo) managerSlot(name []byte) int {
	if len(name) > maxManagerName {
		name = nil
	}
	for k := range m.managers {
		// The lengths first: under wasm the call costs more than the
		// comparison of a name, and most names differ in length.
		if mm := &m.managers[k]; mm.used && len(mm.name) == len(name) && equalBytes(mm.name, name) {
			return k
		}
	}
	k := m.nextManager
	m.nextManager = (k + 1) % maxManagers
	mm := &m.managers[k]
	mm.used, mm.name = true, append(mm.name[:0], name...)
	for v := range mm.vals {
		mm.vals[v].b, mm.vals[v].cps = mm.vals[v].b[:0], mm.vals[v].cps[:0]
	}
	return k
}

// hourAt is the hour remembered for the times of managedFields'
// entry-th entry: its time is h.parse(v), parseTimeBytes(v) as it would
// take it. It holds no call, and is inlined: under wasm a call costs
// about what reading a time of a remembered hour does.
func (m *fastMemo) hourAt(entry int) *hourMemo {
	if uint(entry) < uint(len(m.hours)) {
		return &m.hours[entry]
	}
	return &m.hoursPast
}

// rvBlock is how many bytes of resourceVersions share one allocation.
const rvBlock = 4 << 10

// rvString returns v, a resourceVersion, as a string, and its value
// where it has read it (see fields.rvParsed). They are all
// different, so not worth interning, and small: an allocation each
// would be most of the allocations of small events, which cost more as
// wasm, whose collector runs on the parser's thread. The usual ones, decimal
// numbers below 10^18 without a leading zero, are copied into a block
// they share; any other is a string of its own, for it may be kept
// (the timeline keeps the odd ones), and would keep its block alive.
func (s *fastScanner) rvString(v []byte) (string, uint64, bool) {
	m := s.memo
	if m == nil || len(v) == 0 || len(v) > 18 || v[0] == '0' {
		return string(v), 0, false
	}
	// copyDecimal writes 16 bytes, the loop below as many as v has.
	if cap(m.rvs)-len(m.rvs) < max(len(v), 16) {
		m.rvs = make([]byte, 0, rvBlock)
	}
	// Copied as read, into the block's spare room, which is taken only
	// for a number: under wasm the copy's call costs more than the bytes.
	n := len(m.rvs)
	if len(v) <= 16 && cap(v) >= 16 {
		num, ok := copyDecimal(m.rvs[n:n+16], v)
		if !ok {
			return string(v), 0, false
		}
		m.rvs = m.rvs[:n+len(v)]
		return unsafe.String(&m.rvs[n], len(v)), num, true
	}
	dst := m.rvs[n : n+len(v)]
	var num uint64
	for k, c := range v {
		if c < '0' || c > '9' {
			return string(v), 0, false
		}
		num = num*10 + uint64(c-'0')
		dst[k] = c
	}
	m.rvs = m.rvs[:n+len(v)]
	return unsafe.String(&m.rvs[n], len(v)), num, true
}

// fastHead is an envelope remembered in fastMemo.heads.
type fastHead struct {
	b []byte
	f fields
	// nl says that b holds a raw line end.
	nl bool
	// typ is f.watchType(), where watch says it is one: an event read
	// from the envelope to the end of its metadata is then emitted
	// without onFields' checks, which would find the same.
	typ   EventType
	watch bool
}

// maxHead bounds a remembered envelope, which is compared in every event.
const maxHead = 256

// remember keeps the envelope b, which the walk read into f, in place of the
// oldest one.
func (m *fastMemo) remember(b []byte, f *fields) {
	last := len(m.heads) - 1
	old := m.heads[last].b
	copy(m.heads[1:], m.heads[:last])
	m.heads[0] = fastHead{b: append(old[:0], b...), f: *f, nl: bytes.IndexByte(b, '\n') >= 0}
	m.heads[0].typ, m.heads[0].watch = f.watchType()
}

// head returns the first remembered envelope that b starts with and goes
// on after, or nil.
func (m *fastMemo) head(b []byte) *fastHead {
	for k := range m.heads {
		h := &m.heads[k]
		if n := len(h.b); n > 0 && n < len(b) && equalBytes(b[:n], h.b) {
			return h
		}
	}
	return nil
}

// interned returns the table's copy of v, or the same string interned
// last at slot.
func (s *fastScanner) interned(slot int, v []byte) string {
	x, _ := s.internedID(slot, v)
	return x
}

// internedID is interned with the string's number in the table.
func (s *fastScanner) internedID(slot int, v []byte) (string, uint32) {
	if len(v) == 0 {
		return "", 0
	}
	m := s.memo
	if m == nil {
		return s.tab.bytesID(v)
	}
	if equalStrings(unsafe.String(unsafe.SliceData(v), len(v)), m.last[slot]) {
		return m.last[slot], m.lastID[slot]
	}
	x, id := s.tab.bytesID(v)
	m.last[slot], m.lastID[slot] = x, id
	return x, id
}

// maxMemo bounds a remembered value; larger ones are walked every time.
const maxMemo = 64 << 10

// skipMemo skips the fieldsV1 at the read position of an entry of the
// manager in slot of managers: an object equal to one of the manager's
// values, or to the one of the same beginning in byShape, is skipped by
// a comparison; else it is walked, from where it starts to differ from
// the manager's value it begins as for longest if it can, and
// remembered in both. It takes the place of that value where it begins
// as it for half of that value's length or more, else of the older one.
func (s *fastScanner) skipMemo(slot int) bool {
	s.ws()
	m := s.memo
	mm := &m.managers[slot]
	start := s.i
	best, same := 1-mm.newer, 0
	// The newer value first: mostly the one the object's last event had.
	for j := range mm.vals {
		k := mm.newer ^ j
		v := mm.vals[k].b
		if len(v) == 0 {
			continue
		}
		c := commonPrefix(s.b[start:], v)
		if c == len(v) {
			s.i += c
			mm.newer = k
			return true
		}
		if c > same {
			best, same = k, c
		}
	}
	src := &mm.vals[best]
	into := best
	if 2*same < len(src.b) {
		into = 1 - mm.newer
	}
	dst := &mm.vals[into]
	// Hashing the beginning costs about what walking as many bytes does:
	// only where the value was long is it worth it. A value that begins
	// as the manager's for all the bytes hashed (a pod's kubelet entry,
	// which differs from the last pod's in its IP, near its end) has that
	// one's hash, whose value in byShape is that one or older, and is not
	// looked for.
	var set *shapeSet
	var tag uint64
	if len(src.b) >= minShaped && same < shapeLen {
		set, tag = m.byShape.set(s.b, s.i, shapeLen, slot, s.tab.seed)
		if n := set.find(tag, s.b, s.i); n > 0 {
			s.i += n
			return true
		}
	}
	// The walk, from the last point where it went as over src, or from
	// the start; the points it passes are dst's.
	end := -1
	if k := len(src.cps); k > 0 {
		for k > 0 && src.cps[k-1].off >= int32(same) {
			k--
		}
		if k > 0 {
			cp := src.cps[k-1]
			dst.cps = append(dst.cps[:0], src.cps[:k]...)
			end = fieldsV1Walk(s.b, start, start+int(cp.off), int(cp.depth), &dst.cps)
		}
	}
	if end < 0 {
		dst.cps = dst.cps[:0]
		if s.i < len(s.b) && s.b[s.i] == '{' {
			end = fieldsV1Walk(s.b, start, start+1, 1, &dst.cps)
		}
	}
	if end >= 0 {
		s.i = end
	} else {
		dst.cps = dst.cps[:0]
		if !s.skip() {
			return false
		}
	}
	if v := s.b[start:s.i]; v[0] == '{' && len(v) <= maxManagerValue {
		dst.b = append(dst.b[:0], v...)
		mm.newer = into
		if set != nil && len(v) <= maxShaped {
			set.put(tag, v)
		}
	} else {
		dst.b, dst.cps = dst.b[:0], dst.cps[:0]
	}
	return true
}

// fieldsByShape holds recent fieldsV1 values by a hash of their first
// shapeLen bytes and their position in managedFields. On a cluster, the
// event before is mostly another object's: a pod's controller entry lists
// its workload's containers, which differ from the last pod's; the
// entries of the same workload's pods are equal, and start with their
// owner's uid, within the first shapeLen bytes, which is what tells them
// apart from the other workloads'. A value found is only a candidate,
// compared byte for byte, so a hash that collides costs a walk, never a
// wrong answer.
//
// Each hash has a set of four values, the one found or put last first:
// with one value a hash, the controller entries of the 97 workloads of
// the realistic pods' benchmark shared slots often enough that a fifth
// of them were walked.
type fieldsByShape struct {
	sets []shapeSet
}

type shapeSet struct{ ways [shapeWays]shapeSlot }

// shapeSlot is a value held, b, and the full hash of its beginning, tag,
// which tells most values of another beginning in the set without
// comparing their bytes.
type shapeSlot struct {
	tag uint64
	b   []byte
}

const (
	shapeLen  = 256
	shapeBits = 7 // sets of shapeWays values: 512 values
	shapeWays = 4
	minShaped = 512     // see skipMemo
	maxShaped = 8 << 10 // the largest value held: 512 of them take at most 4 MiB
)

// set returns the set of the value at b[i], by a hash of its first n
// bytes (rounded down to words, and no further than b's end) and of
// kind, and its tag. The kind of a fieldsV1 is the slot of its manager
// in fastMemo.managers (see recentKind for the others).
func (c *fieldsByShape) set(b []byte, i, n, kind int, seed uint64) (*shapeSet, uint64) {
	if c.sets == nil {
		c.sets = make([]shapeSet, 1<<shapeBits)
	}
	n = min(len(b)-i, n) &^ 7
	h := word.Mix(seed^uint64(kind+1)*word.Mul1, b[i:i+n])
	h ^= h >> 29
	h *= word.Mul1
	return &c.sets[h>>(64-shapeBits)], h
}

// find returns the length of the set's value of tag that b holds at i,
// or 0, and makes it the first.
func (st *shapeSet) find(tag uint64, b []byte, i int) int {
	for k := range st.ways {
		if w := &st.ways[k]; w.tag == tag && len(w.b) > 0 && bytesAt(b, i, w.b) {
			st.first(k)
			return len(st.ways[0].b)
		}
	}
	return 0
}

// put makes v, of tag, the set's first value, in place of the one of the
// same tag, else of the last one, whose memory it takes: a beginning that
// many values share (a pod's kubelet entry, which differs in its IP near
// the end) takes one place, not all of them.
func (st *shapeSet) put(tag uint64, v []byte) {
	k := len(st.ways) - 1
	for j := range st.ways {
		if st.ways[j].tag == tag {
			k = j
			break
		}
	}
	st.first(k)
	w := &st.ways[0]
	w.tag, w.b = tag, append(w.b[:0], v...)
}

// first moves the k-th value of the set to the front. The first stays
// where it is without a copy: the ways hold slices, whose copy is the
// runtime's typedslicecopy, a call even for none.
func (st *shapeSet) first(k int) {
	if k == 0 {
		return
	}
	w := st.ways[k]
	copy(st.ways[1:k+1], st.ways[:k])
	st.ways[0] = w
}

// skipFieldsV1 skips a value of managedFields' fieldsV1 at the read
// position: objects whose values are objects, written without white space
// (`{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}`), most of a pod's
// metadata. Its grammar needs no stack and no state but where it is, so
// it is walked in a loop of its own, without skipContainer's general one;
// on anything else (white space, another type of value) it walks the
// value with skip from its start. What it accepts, skipContainer accepts
// with the same end, but for nesting deeper than skipContainer's stack,
// which gjson reads as it does any other.
func (s *fastScanner) skipFieldsV1() bool {
	if end := fieldsV1End(s.b, s.i); end >= 0 {
		s.i = end
		return true
	}
	return s.skip()
}

// fieldsV1End returns the index after the value of skipFieldsV1's form at
// b[i], or -1 if the bytes there are not one.
func fieldsV1End(b []byte, i int) int {
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	return fieldsV1Walk(b, i, i+1, 1, nil)
}

// fieldsCP is a point of a walk of a fieldsV1 value where it was at a key
// after a ',': off bytes from the value's start, at depth open objects.
// Where another value begins with the same off+1 bytes, its walk is at
// the same point, and goes on from there (see skipMemo).
type fieldsCP struct{ off, depth int32 }

// cpGap is the least distance between two fieldsCPs.
const cpGap = 48

// fieldsV1Walk is fieldsV1End's walk from b[i], depth objects deep in the
// value that starts at b[v], where the walk is at a key or at the '}' of
// an empty object. With cps, it appends to *cps the points it passes.
func fieldsV1Walk(b []byte, v, i, depth int, cps *[]fieldsCP) int {
	lastCP := i
	for i < len(b) {
		// After a '{': a key, or the '}' of an empty object.
		if b[i] == '"' {
			// stringEnd, written out (see skipContainer).
			i++
			for {
				if i+8 <= len(b) {
					x := word.Load64(b, i)
					q, bs := x^(lsb*'"'), x^(lsb*'\\')
					m := ((q-lsb)&^q | (bs-lsb)&^bs) & msb
					if m == 0 {
						i += 8
						continue
					}
					i += bits.TrailingZeros64(m) >> 3
				} else {
					for i < len(b) && b[i] != '"' && b[i] != '\\' {
						i++
					}
					if i >= len(b) {
						return -1
					}
				}
				if b[i] == '"' {
					break
				}
				i += 2
			}
			// The key's closing quote, then its value's '{'.
			if i+2 >= len(b) || b[i+1] != ':' || b[i+2] != '{' {
				return -1
			}
			i += 3
			depth++
			continue
		}
		if b[i] != '}' {
			return -1
		}
		// Closing: after it, more closes, or a ',' and the next key.
		for {
			i++
			if depth--; depth == 0 {
				return i
			}
			if i >= len(b) {
				return -1
			}
			if b[i] == '}' {
				continue
			}
			if b[i] != ',' {
				return -1
			}
			i++
			if i >= len(b) || b[i] != '"' {
				return -1
			}
			if cps != nil && i-lastCP >= cpGap && i-v <= maxMemo {
				*cps = append(*cps, fieldsCP{int32(i - v), int32(depth)})
				lastCP = i
			}
			break
		}
	}
	return -1
}

// jsonDelim marks the bytes that may follow a value inside a container:
// they end a number or literal.
var jsonDelim = [256]bool{',': true, '}': true, ']': true, ' ': true, '\t': true, '\n': true, '\r': true}

func (s *fastScanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// want consumes c after optional whitespace.
func (s *fastScanner) want(c byte) bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str reads a string without escapes; it declines (false) on a backslash,
// since gjson unescapes and matching that is not worth it here.
func (s *fastScanner) str() ([]byte, bool) {
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, false
	}
	b := s.b
	start := s.i + 1
	// The first '"' or '\\', eight bytes at a time, written out: every
	// key and value read goes through here, and under wasm a call costs
	// more than the eight bytes tested.
	j := start
	for ; j+8 <= len(b); j += 8 {
		x := word.Load64(b, j)
		q, bs := x^(lsb*'"'), x^(lsb*'\\')
		// The lowest set bit marks the first zero byte exactly.
		if m := ((q-lsb)&^q | (bs-lsb)&^bs) & msb; m != 0 {
			j += bits.TrailingZeros64(m) >> 3
			return s.strEnd(start, j)
		}
	}
	for j < len(b) && b[j] != '"' && b[j] != '\\' {
		j++
	}
	return s.strEnd(start, j)
}

// strEnd ends str's string, which starts at start, at j, where the first
// '"' or '\\' after it is, or the input's end.
func (s *fastScanner) strEnd(start, j int) ([]byte, bool) {
	if j >= len(s.b) || s.b[j] != '"' {
		return nil, false
	}
	s.i = j + 1
	return s.b[start:j], true
}

// isNull consumes a null literal.
func (s *fastScanner) isNull() bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == 'n' && bytes.HasPrefix(s.b[s.i:], []byte("null")) && (s.i+4 == len(s.b) || jsonDelim[s.b[s.i+4]]) {
		s.i += 4
		return true
	}
	return false
}

// strOrNull reads a string, or null as gjson's "".
func (s *fastScanner) strOrNull() ([]byte, bool) {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == 'n' && s.isNull() {
		return nil, true
	}
	return s.str()
}

// skip passes over one value of any type. It counts brackets and honours
// strings but does not validate: an invalid value makes the walk decline
// later, or is what gjson would also see past.
func (s *fastScanner) skip() bool {
	s.ws()
	if s.i >= len(s.b) {
		return false
	}
	switch s.b[s.i] {
	case '"':
		return s.skipString()
	case '{', '[':
		return s.skipContainer()
	}
	return s.skipLiteral()
}

// skipLiteral passes over true, false, null or a number, and declines
// anything else: on malformed input gjson has its own ways, not worth
// copying.
func (s *fastScanner) skipLiteral() bool {
	start := s.i
	for s.i < len(s.b) && !jsonDelim[s.b[s.i]] {
		s.i++
	}
	lit := s.b[start:s.i]
	switch string(lit) {
	case "true", "false", "null":
		return true
	}
	return validNumber(lit)
}

func validNumber(b []byte) bool {
	i := 0
	digits := func() bool {
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i > j
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if !digits() {
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	return i == len(b)
}

func (s *fastScanner) skipString() bool {
	j := stringEnd(s.b, s.i+1)
	s.i = j
	return j >= 0
}

// stringEnd returns the index after the quote closing the string whose
// contents start at b[i], or -1. It is str's search in a loop, written
// out: under wasm a call costs more than the eight bytes tested,
// and the keys of managedFields, skipped in every event, are that short.
func stringEnd(b []byte, i int) int {
	for i+8 <= len(b) {
		x := word.Load64(b, i)
		q, bs := x^(lsb*'"'), x^(lsb*'\\')
		m := ((q-lsb)&^q | (bs-lsb)&^bs) & msb
		if m == 0 {
			i += 8
			continue
		}
		i += bits.TrailingZeros64(m) >> 3
		if b[i] == '"' {
			return i + 1
		}
		i += 2
	}
	for i < len(b) {
		switch b[i] {
		case '"':
			return i + 1
		case '\\':
			i += 2
		default:
			i++
		}
	}
	return -1
}

// lineEndInString says whether a raw line end falls inside one of b's
// strings, which JSON does not allow. It is one loop with its state in a
// variable, eight bytes at a time as stringEnd is: outside a string only a
// quote matters, inside one a quote, a backslash or a line end (escaped
// or not, as scan has it). Only the
// lowest marked byte of a word is taken: the subtraction's borrow can mark
// bytes above it that match nothing.
func lineEndInString(b []byte) bool {
	inStr := false
	for i := 0; i < len(b); {
		if i+8 <= len(b) {
			x := word.Load64(b, i)
			q := x ^ (lsb * '"')
			m := (q - lsb) &^ q
			if inStr {
				bs, nl := x^(lsb*'\\'), x^(lsb*'\n')
				m |= (bs-lsb)&^bs | (nl-lsb)&^nl
			}
			if m&msb == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m&msb) >> 3
		}
		switch c := b[i]; {
		case c == '"':
			inStr = !inStr
		case !inStr:
		case c == '\\':
			// An escaped line end is still a raw one, as scan has it.
			if i+1 < len(b) && b[i+1] == '\n' {
				return true
			}
			i++
		case c == '\n':
			return true
		}
		i++
	}
	return false
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// skipContainer passes over an object or array, checking its grammar on
// the way: on malformed JSON gjson goes its own way, which the fast path
// must not guess, so it declines instead.
func (s *fastScanner) skipContainer() bool {
	const (
		wantValue        = iota // after ':' or an array's ','
		wantValueOrClose        // after '['
		wantKey                 // after an object's ','
		wantKeyOrClose          // after '{'
		wantColon
		wantCommaOrClose
	)
	b := s.b
	// stack holds the open containers' closing bytes; deeper nesting than
	// Kubernetes objects have is left to gjson.
	var stack [64]byte
	depth := 0
	state := wantValue
	for i := s.i; i < len(b); i++ {
		c := b[i]
		// One test for the usual structural byte, four for whitespace.
		if c <= ' ' && (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
			continue
		}
		if c == '"' {
			switch state {
			case wantKey, wantKeyOrClose:
				state = wantColon
			case wantValue, wantValueOrClose:
				state = wantCommaOrClose
			default:
				return false
			}
			// stringEnd, written out: most of what is skipped is short
			// keys, and under wasm the call costs more than the scan.
			i++
			for {
				if i+8 <= len(b) {
					x := word.Load64(b, i)
					q, bs := x^(lsb*'"'), x^(lsb*'\\')
					m := ((q-lsb)&^q | (bs-lsb)&^bs) & msb
					if m == 0 {
						i += 8
						continue
					}
					i += bits.TrailingZeros64(m) >> 3
				} else {
					for i < len(b) && b[i] != '"' && b[i] != '\\' {
						i++
					}
					if i >= len(b) {
						return false
					}
				}
				if b[i] == '"' {
					break // the loop's i++ steps over it
				}
				i += 2
			}
			// A key's colon mostly follows at once: taking it here saves
			// a turn of the loop, and so does taking the "{}" and ","
			// after it, which is most of managedFields' fieldsV1. Inside
			// an object, the comma goes on to a key.
			if state == wantColon && i+1 < len(b) && b[i+1] == ':' {
				i++
				state = wantValue
				if i+2 < len(b) && b[i+1] == '{' && b[i+2] == '}' && depth < len(stack) {
					i += 2
					state = wantCommaOrClose
					if i+1 < len(b) && b[i+1] == ',' {
						i++
						state = wantKey
					}
				}
			}
			continue
		}
		switch state {
		case wantKey, wantKeyOrClose:
			if c == '}' && state == wantKeyOrClose {
				break
			}
			return false
		case wantColon:
			if c != ':' {
				return false
			}
			state = wantValue
			continue
		case wantCommaOrClose:
			if c == ',' {
				if stack[depth-1] == '}' {
					state = wantKey
				} else {
					state = wantValue
				}
				continue
			}
			if c != '}' && c != ']' {
				return false
			}
		default: // a value, or a close after '['
			switch {
			case c == ']' && state == wantValueOrClose:
			case c == '{' || c == '[':
				if depth == len(stack) {
					return false
				}
				if depth > 0 && i+1 < len(b) && b[i+1] == c+2 {
					// Empty, as most of managedFields' fieldsV1 is:
					// opened and closed in one turn.
					i++
					state = wantCommaOrClose
					continue
				}
				stack[depth] = c + 2 // '{'+2 is '}', '['+2 is ']'
				depth++
				if c == '{' {
					state = wantKeyOrClose
				} else {
					state = wantValueOrClose
				}
				continue
			default:
				s.i = i
				if depth == 0 || !s.skipLiteral() {
					return false
				}
				i = s.i - 1
				state = wantCommaOrClose
				continue
			}
		}
		// c closes the innermost container.
		if depth == 0 || c != stack[depth-1] {
			return false
		}
		depth--
		if depth == 0 {
			s.i = i + 1
			return true
		}
		state = wantCommaOrClose
	}
	return false
}

// object calls fn for each key of the object at the read position, with
// the position at the key's value; fn must consume the value. It returns
// false if fn or the object's syntax fails, or fn asks to stop early (stop).
func (s *fastScanner) object(fn func(key []byte) (ok, stop bool)) bool {
	if !s.want('{') {
		return false
	}
	if s.want('}') {
		return true
	}
	for {
		k, ok := s.str()
		if !ok || !s.want(':') {
			return false
		}
		ok, stop := fn(k)
		if !ok {
			return false
		}
		if stop {
			return true
		}
		if s.want(',') {
			continue
		}
		return s.want('}')
	}
}

// extractFast fills f from the value in b, or returns false where the
// reference extraction must be used. end is the read position when it
// stopped: after the object's metadata when the type came before the
// object (the API server's order; early is set then), else after the whole
// value. The strings kept are tab's copies.
func extractFast(b []byte, f *fields, tab *internTable, memo *fastMemo) (end int, early, ok bool) {
	s := fastScanner{b: b, memo: memo, tab: tab}
	if memo != nil {
		memo.identity = 0
		if h := memo.head(b); h != nil {
			// fromHead sets every field: cleared first, they would be
			// written twice, as a small event's other work.
			return s.fromHead(f, h)
		}
	}
	*f = fields{}
	// top collects kind, apiVersion and metadata found beside "type", as
	// extractGJSON uses them when there is no "object".
	var top fields
	var topSeen objectSeen
	var topTimes fastTimes
	ok = s.object(func(k []byte) (bool, bool) {
		switch string(k) {
		case "type":
			v, ok := s.str()
			if !ok {
				return false, false
			}
			f.hasType, f.typ = true, eventTypeString(v)
			return true, false
		case "object":
			if f.hasObject {
				return false, false
			}
			f.hasObject = true
			// After the type, only a repeated key later in the envelope
			// could change the result (see above): stop at the object's
			// metadata.
			var seen objectSeen
			var times fastTimes
			stopEarly := f.hasType
			// Where the walk to the metadata depends on no more than the
			// envelope's bytes, it is remembered (see fastMemo.heads).
			head := stopEarly && topSeen == (objectSeen{})
			if !s.objectFields(f, &seen, &times, stopEarly, head) {
				return false, false
			}
			f.estimated = times.estimate()
			early = stopEarly
			return true, stopEarly
		case "kind", "apiVersion", "metadata":
			return s.objectField(k, &top, &topSeen, &topTimes), false
		}
		return s.skip(), false
	})
	if !ok {
		return 0, false, false
	}
	if !f.hasObject {
		hasType, typ := f.hasType, f.typ
		*f = top
		f.hasType, f.typ = hasType, typ
		f.estimated = topTimes.estimate()
	}
	// Status objects carry code, reason and message, which only the
	// reference reads.
	if f.typ == "ERROR" || f.kind == "Status" {
		return 0, false, false
	}
	return s.i, early, true
}

// eventTypeString returns the wire type as a constant string, so the
// common ones cost no allocation.
func eventTypeString(v []byte) string {
	for _, n := range eventTypeNames[Added:Observed] {
		if string(v) == n {
			return n
		}
	}
	return string(v)
}

type objectSeen struct{ kind, apiVersion, metadata bool }

// fromHead goes on from the end of a remembered envelope, h, as the walk
// that remembered it went on: it reads the metadata, and stops there.
func (s *fastScanner) fromHead(f *fields, h *fastHead) (end int, early, ok bool) {
	*f = h.f
	s.i = len(h.b)
	var times fastTimes
	tp := &s.memo.tmpl
	if !s.metadataFromHead(tp, f, &times) {
		return 0, false, false
	}
	f.estimated = times.estimate()
	if f.typ == "ERROR" || f.kind == "Status" {
		return 0, false, false
	}
	return s.i, true, true
}

// objectFields reads kind, apiVersion and metadata of the object at the read
// position; with stopEarly it stops once it has all three. With head, it
// remembers the envelope up to the metadata when it comes last of the three
// (see fastMemo.heads).
func (s *fastScanner) objectFields(f *fields, seen *objectSeen, t *fastTimes, stopEarly, head bool) bool {
	return s.object(func(k []byte) (bool, bool) {
		if head && s.memo != nil && seen.kind && seen.apiVersion && !seen.metadata && string(k) == "metadata" && s.i <= maxHead {
			s.memo.remember(s.b[:s.i], f)
		}
		ok := s.objectField(k, f, seen, t)
		return ok, stopEarly && seen.kind && seen.apiVersion && seen.metadata
	})
}

// objectField reads the value of key k of an object: kind, apiVersion
// (the last occurrence, as extractGJSON), metadata (declining a second
// one, whose fields would have to replace the first's), or skips it.
func (s *fastScanner) objectField(k []byte, f *fields, seen *objectSeen, t *fastTimes) bool {
	switch string(k) {
	case "kind":
		// gjson says a null kind exists, with the value "".
		v, ok := s.strOrNull()
		seen.kind, f.hasKind = true, true
		f.kind = s.interned(0, v)
		return ok
	case "apiVersion":
		v, ok := s.strOrNull()
		seen.apiVersion = true
		f.apiVersion = s.interned(1, v)
		return ok
	case "metadata":
		if seen.metadata {
			return false
		}
		seen.metadata = true
		return s.metadata(f, t)
	}
	return s.skip()
}

type fastTimes struct {
	managed            int64
	deletion, creation []byte
}

// estimate is the event's estimated time: the newest managedFields time,
// else the deletion's, else the creation's. It is inlined where there is
// a managedFields time, as a small event mostly has.
func (t *fastTimes) estimate() int64 {
	if t.managed != 0 {
		return t.managed
	}
	return t.metadataTime()
}

// metadataTime is the deletion's time, else the creation's.
func (t *fastTimes) metadataTime() int64 {
	if ns, ok := parseTimeBytes(t.deletion); ok {
		return ns
	}
	ns, _ := parseTimeBytes(t.creation)
	return ns
}

// The keys of metadata read.
const (
	mName = iota
	mNamespace
	mUID
	mRV
	mCreation
	mDeletion
	mAnnotations
	mManagedFields
	mLabels
	mOwners
	mOther
)

// metadataKey tells the key k of metadata: by its length, then by its
// bytes, the long ones compared by words (equalShort), where a switch on
// the string would call the runtime's comparison, which goes a byte at a
// time under wasm.
func metadataKey(k []byte) int {
	switch len(k) {
	case 3:
		if string(k) == "uid" {
			return mUID
		}
	case 4:
		if string(k) == "name" {
			return mName
		}
	case 6:
		if string(k) == "labels" {
			return mLabels
		}
	case 9:
		if equalShort(k, "namespace") {
			return mNamespace
		}
	case 11:
		if equalShort(k, "annotations") {
			return mAnnotations
		}
	case 13:
		if equalShort(k, "managedFields") {
			return mManagedFields
		}
	case 15:
		if equalShort(k, "resourceVersion") {
			return mRV
		}
		if equalShort(k, "ownerReferences") {
			return mOwners
		}
	case 17:
		// Both end in "p", and equalShort takes 16 bytes at most.
		if k[16] != 'p' {
			break
		}
		if equalShort(k[:16], "creationTimestam") {
			return mCreation
		}
		if equalShort(k[:16], "deletionTimestam") {
			return mDeletion
		}
	}
	return mOther
}

// metadata reads the metadata object at the read position. It is object
// written out, without a callback per key: with small events, calls are
// much of the cost under wasm.
func (s *fastScanner) metadata(f *fields, t *fastTimes) bool {
	if !s.want('{') {
		return false
	}
	if s.want('}') {
		return true
	}
	var name, namespace, uid []byte
	for {
		k, ok := s.str()
		if !ok || !s.colon() {
			return false
		}
		// A key that repeats replaces what the one before gave.
		idx := metadataKey(k)
		if s.rec != nil {
			s.rec.key(idx)
		}
		if idx >= mOwners {
			from := s.i
			if idx == mOwners {
				// A controller's objects have the same owner.
				_, ok = s.skipRecent(recentOwners)
			} else {
				ok = s.skip()
			}
			if s.rec != nil && ok {
				s.rec.skipped(s.b, from, s.i)
			}
		} else {
			switch idx {
			case mAnnotations:
				f.initialEventsEnd = false
				ok = s.annotations(f)
			case mManagedFields:
				t.managed = 0
				ok = s.managedFields(t)
			case mLabels:
				s.ws()
				// An object's labels repeat from event to event. The
				// last ones, walked to their end, are an object: where the
				// same bytes come, the walk would end after them again.
				if m := s.memo; m != nil && len(m.last[3]) > 0 && m.last[3][0] == '{' &&
					len(s.b)-s.i >= len(m.last[3]) && equalStrings(unsafe.String(&s.b[s.i], len(m.last[3])), m.last[3]) {
					s.i += len(m.last[3])
					f.labels, f.labelsID = m.last[3], m.lastID[3]
					break
				}
				// A controller's objects have the same labels.
				var v []byte
				if v, ok = s.skipRecent(recentLabels); ok {
					f.labels, f.labelsID = s.internedID(3, v)
				}
			default:
				var v []byte
				v, ok = s.strOrNull()
				if s.rec != nil && ok && v != nil {
					s.rec.str(s, v, idx, 0)
				}
				switch idx {
				case mName:
					name = v
				case mNamespace:
					namespace = v
				case mUID:
					uid = v
				case mRV:
					f.rv, f.rvNum, f.rvParsed = s.rvString(v)
				case mCreation:
					t.creation = v
				case mDeletion:
					t.deletion = v
				}
			}
		}
		if !ok {
			return false
		}
		if s.want(',') {
			continue
		}
		if !s.want('}') {
			return false
		}
		s.identity(f, uid, name, namespace)
		return true
	}
}

// identity sets the uid, name and namespace of f from their bytes, as
// substrings of one interned string, their concatenation followed by
// the lengths of the first two: an object's three then cost one lookup
// in the intern table, not three, and the object's events share them as
// before. The lengths make the number exact: two objects whose three run
// together into the same bytes (a uid that ends where another's name
// begins) are two strings, and two numbers.
func (s *fastScanner) identity(f *fields, uid, name, namespace []byte) {
	if s.memo == nil {
		if len(uid)+len(name)+len(namespace) > 0 {
			c := s.tab.bytes(appendIdentity(nil, uid, name, namespace))
			splitIdentity(f, c, len(uid), len(name), len(namespace))
		}
		return
	}
	var k identityKey
	s.probeIdentity(&k, uid, name, namespace)
	s.takeIdentity(f, &k)
}

// identityKey is an object's key in the intern table (appendIdentity),
// its probe there, and the lengths of its parts.
type identityKey struct {
	b []byte // nil for an object with no uid, name or namespace
	// last says that b is the memo's identity, interned last, which is
	// not probed for.
	last                 bool
	probe                internProbe
	uid, name, namespace int
}

// probeIdentity makes k the key of the object of uid, name and
// namespace, built where the intern table would keep it (spare): an
// object new to the table is not copied again, into memory written for
// the first time, which under wasm costs more than the bytes. Unless it
// is the identity interned last, it is probed for: the slots read, mostly
// cache misses for a new object, then arrive while the caller does other
// work before takeIdentity, which must not intern anything in between.
func (s *fastScanner) probeIdentity(k *identityKey, uid, name, namespace []byte) {
	// Field by field: the whole struct at once is cleared first, under
	// wasm a call out of the module.
	k.b, k.last, k.probe = nil, false, internProbe{}
	k.uid, k.name, k.namespace = len(uid), len(name), len(namespace)
	if len(uid)+len(name)+len(namespace) == 0 {
		return
	}
	m := s.memo
	if n := len(uid) + len(name) + len(namespace) + 2*binary.MaxVarintLen32; n <= maxBlockString {
		k.b = appendIdentity(s.tab.spare(n), uid, name, namespace)
	} else {
		m.scratch = appendIdentity(m.scratch[:0], uid, name, namespace)
		k.b = m.scratch
	}
	// A new object's key differs from the last one's in its first
	// bytes (its uid's), told apart without equalStrings' call.
	if last := m.last[2]; len(last) == len(k.b) && (len(last) < 8 || word.Load64(k.b, 0) == word.Load64(unsafe.Slice(unsafe.StringData(last), len(last)), 0)) &&
		equalStrings(unsafe.String(unsafe.SliceData(k.b), len(k.b)), last) {
		k.last = true
		return
	}
	// probe's reads, written out: the call costs more than they do.
	t := s.tab
	h := t.hash(k.b)
	k.probe = internProbe{h: h, cur: t.first(h)}
	if t.prev != nil {
		k.probe.prev = t.prev.first(h)
	}
}

// takeIdentity sets the uid, name and namespace of f, and the memo's
// identity, from the object whose key k probeIdentity made.
func (s *fastScanner) takeIdentity(f *fields, k *identityKey) {
	if k.b == nil {
		return
	}
	m := s.memo
	if !k.last {
		m.last[2], m.lastID[2] = s.tab.probedID(k.b, k.probe)
	}
	m.identity = m.lastID[2]
	splitIdentity(f, m.last[2], k.uid, k.name, k.namespace)
}

// splitIdentity sets the uid, name and namespace of f from c, their
// interned key, and their lengths.
func splitIdentity(f *fields, c string, uid, name, namespace int) {
	f.uid, f.name, f.namespace = c[:uid], c[uid:uid+name], c[uid+name:uid+name+namespace]
}

// appendIdentity appends the intern table's key of an object: its uid,
// name and namespace, then the lengths of the uid and the name.
func appendIdentity(b, uid, name, namespace []byte) []byte {
	b = append(append(append(b, uid...), name...), namespace...)
	if len(uid) < 0x80 && len(name) < 0x80 {
		// Their uvarints, one byte each, as they mostly are: the calls
		// costs more than the appends under wasm.
		return append(b, byte(len(uid)), byte(len(name)))
	}
	return binary.AppendUvarint(binary.AppendUvarint(b, uint64(len(uid))), uint64(len(name)))
}

// colon consumes the colon after a key, mostly right after its quote.
// The loops that read keys (metadata, managedEntry) read each with str and
// then colon, which is inlined: under wasm a call costs about what reading
// a short key does.
func (s *fastScanner) colon() bool {
	if s.i < len(s.b) && s.b[s.i] == ':' {
		s.i++
		return true
	}
	return s.want(':')
}

func (s *fastScanner) annotations(f *fields) bool {
	s.ws()
	if s.isNull() {
		return true
	}
	return s.object(func(k []byte) (bool, bool) {
		if string(k) != "k8s.io/initial-events-end" {
			return s.skip(), false
		}
		v, ok := s.strOrNull()
		f.initialEventsEnd = string(v) == "true"
		return ok, false
	})
}

func (s *fastScanner) managedFields(t *fastTimes) bool {
	s.ws()
	if s.isNull() {
		return true
	}
	if !s.want('[') {
		return false
	}
	if s.want(']') {
		return true
	}
	for entry := 0; ; entry++ {
		if !s.managedEntry(entry, t) {
			return false
		}
		if s.want(',') {
			continue
		}
		return s.want(']')
	}
}

// entryMemo is what fastMemo remembers of a managedFields entry: its
// bytes before and after its time, where pre holds the value of its
// manager (mgrLen -1 when it does not), and where post holds the value of
// its fieldsV1 (fieldsLen -1 when it does not, or holds a manager too).
type entryMemo struct {
	pre, post            []byte
	mgrOff, mgrLen       int
	fieldsOff, fieldsLen int
}

// managedEntry reads one entry of managedFields for its "time" (the last
// one, if it repeats) and keeps the newest of the entries' times. The
// bytes before the first time's value and after it mostly repeat from one
// event to the next, and where they equal the remembered ones they are
// skipped: the walk over them would go the same way, for it depends on
// nothing but them and whether the time was read. The bytes after are
// remembered only when they hold no other "time", which would replace it.
func (s *fastScanner) managedEntry(entry int, t *fastTimes) bool {
	var e *entryMemo
	if s.memo != nil && entry < len(s.memo.entries) {
		e = &s.memo.entries[entry]
	}
	s.ws()
	start := s.i
	seen := false      // a "time" was read
	again := false     // and another one after it
	var at int64       // the last time read, 0 if none or not a time
	timeEnd := -1      // where the first time's value ended
	afterValue := true // the read position is after a key's value
	// The manager's name is s.b[mgrAt:mgrAt+mgrLen], where mgrAt >= 0.
	mgrAt, mgrLen := -1, 0
	// The fieldsV1 after the time is s.b[fieldsFrom:fieldsEnd], where
	// fieldsEnd >= 0; split says that it is the entry's only one, and
	// that no manager follows the time.
	fieldsFrom, fieldsEnd := -1, -1
	split := true
	// A walk that makes a template takes every key, to note the strings
	// of the values it skips.
	if e != nil && s.rec == nil && len(e.pre) > 0 && bytesAt(s.b, s.i, e.pre) {
		if e.mgrLen >= 0 {
			mgrAt, mgrLen = start+e.mgrOff, e.mgrLen
		}
		s.i += len(e.pre)
		var ok bool
		if at, ok = s.entryTime(entry); !ok {
			return false
		}
		seen, timeEnd = true, s.i
		if len(e.post) > 0 && (e.fieldsLen < 0 || wholePostFirst) && bytesAt(s.b, s.i, e.post) {
			s.i += len(e.post)
			t.managed = max(t.managed, at)
			return true
		}
		if len(e.post) > 0 && e.fieldsLen >= 0 && bytesAt(s.b, s.i, e.post[:e.fieldsOff]) {
			// The bytes up to the fieldsV1 are the same, and so is the
			// manager: the walk would take its value as skipMemo does,
			// which compares it with the manager's last values once,
			// where comparing the whole of post would compare it a
			// second time, to no avail where it differs (a pod's
			// kubelet entry, in the pod's IP, near its end).
			s.i += e.fieldsOff
			fieldsFrom = s.i
			if !s.skipMemo(s.memo.managerSlot(s.managerName(mgrAt, mgrLen))) {
				return false
			}
			fieldsEnd = s.i
			if rest := e.post[e.fieldsOff+e.fieldsLen:]; bytesAt(s.b, s.i, rest) {
				s.i += len(rest)
				t.managed = max(t.managed, at)
				return true
			}
		}
	} else {
		if !s.want('{') {
			return false
		}
		if s.want('}') {
			return true
		}
		afterValue = false
	}
	for {
		if afterValue {
			if s.want(',') {
				afterValue = false
				continue
			}
			if !s.want('}') {
				return false
			}
			if e != nil && timeEnd >= 0 && !again && s.i-timeEnd <= maxMemo {
				e.post = append(e.post[:0], s.b[timeEnd:s.i]...)
				e.fieldsOff, e.fieldsLen = fieldsFrom-timeEnd, fieldsEnd-fieldsFrom
				if fieldsEnd < 0 || !split {
					e.fieldsLen = -1
				}
			}
			t.managed = max(t.managed, at)
			return true
		}
		k, ok := s.str()
		if !ok || !s.colon() {
			return false
		}
		from := s.i
		switch {
		case string(k) == "manager" && s.memo != nil:
			// Its name picks the memo of fieldsV1; one with an escape
			// or of another type picks none.
			split = split && !seen
			if v, isStr := s.str(); isStr {
				mgrAt, mgrLen = s.i-1-len(v), len(v)
			} else {
				s.i, mgrAt = from, -1
				ok = s.skip()
			}
		case string(k) == "fieldsV1" && s.memo != nil:
			ok = s.skipMemo(s.memo.managerSlot(s.managerName(mgrAt, mgrLen)))
			if seen && fieldsEnd < 0 {
				fieldsFrom, fieldsEnd = from, s.i
			} else {
				// A second one, or one before the time.
				split = false
			}
		case string(k) == "fieldsV1":
			s.ws()
			ok = s.skipFieldsV1()
		case string(k) == "time":
			if !seen && e != nil && s.i-start <= maxMemo {
				e.pre = append(e.pre[:0], s.b[start:s.i]...)
				e.mgrOff, e.mgrLen = mgrAt-start, -1
				if mgrAt >= 0 {
					e.mgrLen = mgrLen
				}
			}
			at, ok = s.entryTime(entry)
			if seen {
				again = true
			} else {
				seen, timeEnd = true, s.i
			}
		default:
			ok = s.skip()
		}
		if !ok {
			return false
		}
		if s.rec != nil && string(k) != "time" {
			s.rec.skipped(s.b, from, s.i)
		}
		afterValue = true
	}
}

// managerName returns the name of an entry's manager, s.b[at:at+n], or
// nil where at < 0.
func (s *fastScanner) managerName(at, n int) []byte {
	if at < 0 {
		return nil
	}
	return s.b[at : at+n]
}

// entryTime reads a managedFields time: its Unix ns, 0 if it is not a
// time.
func (s *fastScanner) entryTime(entry int) (int64, bool) {
	v, ok := s.str()
	if !ok {
		return 0, false
	}
	s.rec.str(s, v, roleTime, entry)
	if s.memo != nil {
		ns, _ := s.memo.hourAt(entry).parse(v)
		return ns, true
	}
	ns, _ := parseTimeBytes(v)
	return ns, true
}

// bytesAt reports whether b holds p at i.
func bytesAt(b []byte, i int, p []byte) bool {
	return len(b)-i >= len(p) && equalBytes(b[i:i+len(p)], p)
}

// parseTimeBytes is parseTime without allocating for the usual
// "2006-01-02T15:04:05Z", and the same with a fraction of 1 to 9 digits
// (a MicroTime's "2006-01-02T15:04:05.000000Z"); other forms go to
// time.Parse.
func parseTimeBytes(b []byte) (int64, bool) {
	rest, ok := afterHour(b)
	if !ok || !hourForm(b) {
		return parseTime(string(b))
	}
	num := func(i, n int) int {
		v := 0
		for _, c := range b[i : i+n] {
			v = v*10 + int(c-'0')
		}
		return v
	}
	year, month, day, hour := num(0, 4), num(5, 2), num(8, 2), num(11, 2)
	if month < 1 || month > 12 || day < 1 || hour > 23 {
		return parseTime(string(b))
	}
	if day > daysIn(month, year) { // the 31st of a 30-day month, which time.Parse refuses
		return 0, false
	}
	// time.Date, written out: under wasm it costs as much as reading the
	// rest of the metadata.
	y := int64(year)
	if month <= 2 {
		y--
	}
	era := y / 400
	if y < 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	doy := int64((153*((month+9)%12)+2)/5 + day - 1)
	days := era*146097 + yoe*365 + yoe/4 - yoe/100 + doy - 719468
	return (days*86400+int64(hour*3600))*1e9 + rest, true
}

// hourForm says whether b begins with parseTimeBytes' own form of a date
// and hour, "2006-01-02T15", which it reads without time.Parse. The
// years at the ends of MinTime..MaxTime, and those past them, are not:
// its sum would wrap, and time.Parse's answer is checked there.
func hourForm(b []byte) bool {
	if len(b) < 13 || b[4] != '-' || b[7] != '-' || b[10] != 'T' {
		return false
	}
	for _, k := range [...]int{0, 1, 2, 3, 5, 6, 8, 9, 11, 12} {
		if b[k] < '0' || b[k] > '9' {
			return false
		}
	}
	year := int(b[0]-'0')*1000 + int(b[1]-'0')*100 + int(b[2]-'0')*10 + int(b[3]-'0')
	return year > minYear && year < maxYear
}

// afterHour reads the rest of a time in parseTimeBytes' own form,
// ":04:05Z" or ":04:05.000000Z" (a fraction of 1 to 9 digits), as the ns
// past the hour.
func afterHour(b []byte) (int64, bool) {
	n := len(b)
	if n < 20 || n > 30 || n == 21 || b[n-1] != 'Z' {
		return 0, false
	}
	// b[12:20] as one word: the hour's last digit, ":04:05", and the
	// 'Z' or the fraction's '.'.
	w := word.Load64(b, 12)
	d, ok := digitBytes(w, 0x00ffff00ffff0000)
	if !ok || w&0x000000ff0000ff00 != 0x0000003a00003a00 {
		return 0, false
	}
	minute := int64(d>>16&0xff)*10 + int64(d>>24&0xff)
	sec := int64(d>>40&0xff)*10 + int64(d>>48&0xff)
	if minute > 59 || sec > 59 {
		return 0, false
	}
	var frac int64
	if n > 20 {
		if b[19] != '.' {
			return 0, false
		}
		for _, c := range b[20 : n-1] {
			if c < '0' || c > '9' {
				return 0, false
			}
			frac = frac*10 + int64(c-'0')
		}
		for range 30 - n {
			frac *= 10
		}
	}
	return (minute*60+sec)*1e9 + frac, true
}

// daysIn returns the days of a month of the proleptic Gregorian calendar.
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
