package parser

import (
	"math/bits"

	"watchlens/internal/word"
)

// A small object's metadata mostly repeats the last event's byte for
// byte but for a few strings: its name, uid, resourceVersion, times. As
// wasm, walking it key by key was most of the time of reading a small
// event. metaTemplate is the metadata last walked after a remembered
// envelope (fromHead), with those strings cut out: an event whose
// metadata has the same bytes around strings of its own, none with an
// escape, is read by comparing the bytes and finding each string's end.
// The walk would go the same way over it: its keys, and every value but
// those strings, are the same bytes, and what it does with the strings
// (take them, parse a time) depends on nothing else. What the walk made
// of the rest (the labels, the initial-events-end annotation) is kept.
// The memos the walk would update (managedFields' entries, fieldsV1) are
// left as they are: they only ever skip bytes found equal, so what they
// hold changes no answer.
type metaTemplate struct {
	ok   bool
	b    []byte     // the metadata, from its '{' to its '}'
	vars []metaVar  // the strings cut out, in order
	f    metaResult // what the walk made of the rest
	// misses counts the events in a row that did not fit; past
	// maxTemplateMisses the template is not tried for skipTemplate events.
	misses, skip int
}

// metaVar is a string of the metadata: b[off:off+n], whose use is role.
type metaVar struct {
	off, n int
	role   int // a metadata key's index (mName...mDeletion), or roleTime
	entry  int // for roleTime, the managedFields entry
}

// roleTime marks a managedFields entry's "time".
const roleTime = -1

type metaResult struct {
	labels           string
	initialEventsEnd bool
}

const (
	maxTemplate       = 4 << 10
	maxTemplateMisses = 8
	skipTemplate      = 256
)

// metaRecorder gathers a template while metadata walks.
type metaRecorder struct {
	start int // where the metadata starts in the scanner's bytes
	vars  []metaVar
	seen  uint32 // the metadata keys seen, by index: one repeated spoils it
	bad   bool
}

// key notes metadata key idx; a repeated one makes the walk no template.
func (r *metaRecorder) key(idx int) {
	if idx == mOther {
		return
	}
	if r.seen&(1<<idx) != 0 {
		r.bad = true
	}
	r.seen |= 1 << idx
}

// str notes the string that ends before s.i, read for role.
func (r *metaRecorder) str(s *fastScanner, v []byte, role, entry int) {
	if r == nil {
		return
	}
	r.vars = append(r.vars, metaVar{off: s.i - 1 - len(v) - r.start, n: len(v), role: role, entry: entry})
}

// metadataTemplated reads the metadata at the read position as the
// template, if it fits, into f and t.
func (s *fastScanner) metadataTemplated(tp *metaTemplate, f *fields, t *fastTimes) bool {
	b, i := s.b, s.i
	var name, namespace, uid []byte
	prev := 0
	var at int64
	entry := -1
	for _, v := range tp.vars {
		c := tp.b[prev:v.off]
		if !bytesAt(b, i, c) {
			return false
		}
		i += len(c)
		// The string's end: its quote, with no backslash before it.
		j := i
		for ; j+8 <= len(b); j += 8 {
			x := word.Load64(b, j)
			q, bs := x^(lsb*'"'), x^(lsb*'\\')
			if m := ((q-lsb)&^q | (bs-lsb)&^bs) & msb; m != 0 {
				j += bits.TrailingZeros64(m) >> 3
				break
			}
		}
		for j < len(b) && b[j] != '"' && b[j] != '\\' {
			j++
		}
		if j >= len(b) || b[j] != '"' {
			return false
		}
		val := b[i:j]
		i, prev = j, v.off+v.n
		switch v.role {
		case mName:
			name = val
		case mNamespace:
			namespace = val
		case mUID:
			uid = val
		case mRV:
			f.rv, f.rvNum, f.rvParsed = s.rvString(val)
		case mCreation:
			t.creation = val
		case mDeletion:
			t.deletion = val
		case roleTime:
			if v.entry != entry {
				t.managed = max(t.managed, at)
				entry, at = v.entry, 0
			}
			at, _ = parseTimeBytes(val)
		}
	}
	c := tp.b[prev:]
	if !bytesAt(b, i, c) {
		return false
	}
	t.managed = max(t.managed, at)
	s.i = i + len(c)
	f.labels, f.initialEventsEnd = tp.f.labels, tp.f.initialEventsEnd
	s.identity(f, uid, name, namespace)
	return true
}

// metadataFromHead reads the metadata after a remembered envelope: as the
// template, if it fits, else walked, and the walk kept as the next
// template. Where the template has missed maxTemplateMisses events in a
// row (a pod's metadata differs from the last pod's in more than
// strings), it is neither tried nor made for skipTemplate events.
func (s *fastScanner) metadataFromHead(tp *metaTemplate, f *fields, t *fastTimes) bool {
	start := s.i
	if tp.skip > 0 {
		tp.skip--
	} else if tp.ok {
		f0 := *f
		if s.metadataTemplated(tp, f, t) {
			tp.misses = 0
			return true
		}
		*f, *t, s.i = f0, fastTimes{}, start
		if tp.misses++; tp.misses >= maxTemplateMisses {
			tp.misses, tp.skip = 0, skipTemplate
		}
	}
	if tp.skip > 1 {
		return s.metadata(f, t)
	}
	rec := &s.memo.rec
	*rec = metaRecorder{start: start, vars: rec.vars[:0]}
	s.rec = rec
	ok := s.metadata(f, t)
	s.rec = nil
	tp.ok = false
	if ok && !rec.bad && s.i-start <= maxTemplate {
		tp.ok = true
		tp.b = append(tp.b[:0], s.b[start:s.i]...)
		tp.vars = append(tp.vars[:0], rec.vars...)
		tp.f = metaResult{labels: f.labels, initialEventsEnd: f.initialEventsEnd}
	}
	return ok
}
