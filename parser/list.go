package parser

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// A list response ({"kind":"ConfigMapList","metadata":{"resourceVersion":
// "283","continue":"..."},"items":[...]}) is read as what it is: each item
// is a Listed event of its own, with its place in the stream so that it
// can be shown alone, and the list's resourceVersion and continue token go
// to the session (Session.List). Lists are rare next to watch events, so
// their reading costs the watch events nothing: the list is recognised by
// its kind, once the fast path has read the value as one object.

// listWalk is what walkList reads of a list's JSON.
type listWalk struct {
	kind, apiVersion string
	rv, cont         string
	items            [][2]int // each item's [start, end) in the value
	notArray         bool     // items is neither an array nor null
	// broken is set when the walk stopped before the list's end (a list
	// cut off, or malformed JSON); brokeAt is where: the start of the item
	// it could not read, else the read position.
	broken  bool
	brokeAt int
}

// walkList reads the list in b: its kind, apiVersion, metadata's
// resourceVersion and continue (of each key, the last, as extractGJSON
// takes them), and where each item starts and ends. Of a list cut off
// before it closes it reads what comes before the cut. It checks no more
// grammar than the extents need: each item is then read as an event is.
func walkList(b []byte) listWalk {
	var w listWalk
	s := fastScanner{b: b}
	ok := s.want('{')
	if ok && !s.want('}') {
		for {
			var k string
			if k, ok = s.looseKey(); !ok {
				break
			}
			switch k {
			case "kind":
				w.kind, ok = s.looseString()
			case "apiVersion":
				w.apiVersion, ok = s.looseString()
			case "metadata":
				ok = s.listMeta(&w)
			case "items":
				ok = s.listItems(&w)
			default:
				ok = s.skipLoose()
			}
			if !ok || !s.want(',') {
				break
			}
		}
		ok = ok && s.want('}')
	}
	if !ok {
		if !w.broken {
			w.brokeAt = min(max(s.i, 0), len(b))
		}
		w.broken = true
	}
	return w
}

// listMeta reads the list's metadata; a second metadata replaces the
// first.
func (s *fastScanner) listMeta(w *listWalk) bool {
	w.rv, w.cont = "", ""
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return s.skipLoose()
	}
	s.i++
	if s.want('}') {
		return true
	}
	for {
		k, ok := s.looseKey()
		if !ok {
			return false
		}
		switch k {
		case "resourceVersion":
			w.rv, ok = s.looseString()
		case "continue":
			w.cont, ok = s.looseString()
		default:
			ok = s.skipLoose()
		}
		if !ok {
			return false
		}
		if !s.want(',') {
			return s.want('}')
		}
	}
}

// listItems notes each item's extent; a second items replaces the first.
func (s *fastScanner) listItems(w *listWalk) bool {
	w.items, w.notArray = w.items[:0], false
	s.ws()
	if s.isNull() {
		return true
	}
	if s.i < len(s.b) && s.b[s.i] != '[' {
		w.notArray = true
		return s.skipLoose()
	}
	if !s.want('[') {
		return false
	}
	if s.want(']') {
		return true
	}
	for {
		s.ws()
		start := s.i
		if !s.skipLoose() {
			w.broken, w.brokeAt = true, start
			return false
		}
		w.items = append(w.items, [2]int{start, s.i})
		if !s.want(',') {
			return s.want(']')
		}
	}
}

// looseKey reads an object's key, escapes and all, and its colon.
func (s *fastScanner) looseKey() (string, bool) {
	s.ws()
	start := s.i
	if start >= len(s.b) || s.b[start] != '"' || !s.skipLoose() {
		return "", false
	}
	k := s.b[start+1 : s.i-1]
	key := string(k)
	if bytes.IndexByte(k, '\\') >= 0 {
		key = gjson.ParseBytes(s.b[start:s.i]).String()
	}
	return key, s.want(':')
}

// looseString reads a value as extractGJSON reads a field: a string
// unescaped, a number as sent, null as "".
func (s *fastScanner) looseString() (string, bool) {
	s.ws()
	start := s.i
	if !s.skipLoose() {
		return "", false
	}
	v := gjson.ParseBytes(s.b[start:s.i])
	if v.Type == gjson.Number {
		return v.Raw, true
	}
	return v.String(), true
}

// skipLoose passes over one value, counting brackets and honouring
// strings, with no limit to their nesting: it finds an item's extent, and
// the item's own reading judges its content. It returns false where the
// bytes end first.
func (s *fastScanner) skipLoose() bool {
	s.ws()
	b := s.b
	if s.i >= len(b) {
		return false
	}
	switch b[s.i] {
	case '"':
		j := stringEnd(b, s.i+1)
		if j < 0 {
			return false
		}
		s.i = j
		return true
	case '{', '[':
		depth := 0
		for i := s.i; i < len(b); i++ {
			switch b[i] {
			case '"':
				j := stringEnd(b, i+1)
				if j < 0 {
					return false
				}
				i = j - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					s.i = i + 1
					return true
				}
			}
		}
		return false
	}
	start := s.i
	for s.i < len(b) && !jsonDelim[b[s.i]] {
		s.i++
	}
	return s.i > start && s.i < len(b)
}

// onList reads the list in v, which starts at stream offset start on line
// line, as Listed events and the session's List, and says whether v is a
// list. pieces maps v to the stream when it was gathered from several
// pieces; arrival is the time of its end (for a cut list, the last
// piece's). complete is false for a list the response or the capture cut
// off.
func (r *Reader) onList(v []byte, start int64, line int, arrival int64, pieces []pieceMark, complete bool) bool {
	w := walkList(v)
	if !strings.HasSuffix(w.kind, "List") {
		return false
	}
	pos := newStreamMap(v, start, line, pieces)
	if !complete && len(pieces) > 0 {
		arrival = pieces[len(pieces)-1].arrival
	}
	sess := r.curSession()
	list := &List{Kind: r.internString(w.kind), RV: w.rv, Continue: w.cont, Complete: complete && !w.broken && !w.notArray}
	if part := r.body.listSoFar; part != nil {
		// The items read as the list outgrew MaxEventSize come first.
		list.Items, list.Complete = part.Items, list.Complete && part.Complete
		r.body.listSoFar = nil
	}
	sess.List = list
	r.listItems(v, w, pos, list, arrival)
	switch {
	case w.notArray:
		r.addDiag(Diagnostic{Offset: start, Line: line, Kind: DiagBadList,
			Msg: fmt.Sprintf("the items of this %s are not an array; it is read without items", clipString(w.kind))})
	case w.broken && complete:
		at, _ := pos.at(w.brokeAt)
		r.addDiag(Diagnostic{Offset: start, Line: line, Kind: DiagBadList,
			Msg: fmt.Sprintf("this %s is not valid JSON from offset %d; its %d items before are read", clipString(w.kind), at, list.Items)})
	case !complete:
		at, _ := pos.at(w.brokeAt)
		r.addDiag(Diagnostic{Offset: start, Line: line, Kind: DiagCutList,
			Msg: fmt.Sprintf("this %s is incomplete: the response or the capture ends at offset %d before it closes; its %d whole items are read", clipString(w.kind), at, list.Items)})
	}
	return true
}

// wholeBigList says whether v, a value larger than MaxEventSize that came
// whole in one piece, is a list, which is then read as any list is: its
// bytes are in memory already, and its items are events of their own.
func (s *bodyScanner) wholeBigList(v []byte) bool {
	w := walkList(v)
	if !strings.HasSuffix(w.kind, "List") {
		return false
	}
	s.bigList(w.kind)
	return true
}

// bigList says that the list of kind starting at the value's start is
// larger than MaxEventSize, and read item by item.
func (s *bodyScanner) bigList(kind string) {
	s.r.addDiag(Diagnostic{Offset: s.startRaw, Line: s.startLine, Kind: DiagBigList,
		Msg: fmt.Sprintf("this %s is larger than the %d bytes kept whole (Options.MaxEventSize): its items are read as they come", clipString(kind), s.r.opts.MaxEventSize)})
}

// listItems reads the items w found in the list v as Listed events of
// list, each at its place in the stream (pos).
func (r *Reader) listItems(v []byte, w listWalk, pos *streamMap, list *List, arrival int64) {
	// Items in a typed list carry no kind or apiVersion of their own.
	itemKind := r.internString(strings.TrimSuffix(w.kind, "List"))
	apiVersion := r.internString(w.apiVersion)
	for k, it := range w.items {
		item := v[it[0]:it[1]]
		from, ln := pos.at(it[0])
		last, _ := pos.at(it[1] - 1) // the end may be where framing starts
		to := last + 1
		if item[0] != '{' {
			r.addDiag(Diagnostic{Offset: from, Line: ln, Kind: DiagBadListItem,
				Msg: fmt.Sprintf("item %d of this %s is %q, not an object; it is skipped", k, clipString(w.kind), clip(item))})
			continue
		}
		f := &r.fields
		_, _, interned := extractFast(item, f, r.intern, &r.memo)
		if !interned || f.hasObject {
			// An item is an object, even one with "type" or "object" keys.
			*f = fields{}
			objectFields(gjson.ParseBytes(item), f)
			interned = false
		}
		if !f.hasKind {
			f.kind, f.apiVersion = itemKind, apiVersion
		}
		r.emit(f, Listed, item, from, to, ln, arrival, interned)
		list.Items++
	}
}

// flushList reads, of the list being gathered in buf when it outgrows
// MaxEventSize, the whole items so far as events, and keeps in buf only
// the list's head and what follows its last whole item: a LIST answer of
// any size is read item by item rather than dropped. It returns false
// when buf holds no list with a whole item to read.
func (s *bodyScanner) flushList() bool {
	r := s.r
	w := walkList(s.buf)
	if !strings.HasSuffix(w.kind, "List") || !w.broken || w.notArray || len(w.items) == 0 || w.brokeAt < w.items[len(w.items)-1][1] {
		return false
	}
	head, rest := w.items[0][0], w.brokeAt
	if s.listSoFar == nil {
		s.listSoFar = &List{Complete: true}
		s.bigList(w.kind)
	}
	// The events keep their bytes until they are returned: they get a
	// copy, and buf is compacted under them.
	v := bytes.Clone(s.buf[:rest])
	pos := newStreamMap(v, s.startRaw, s.startLine, s.pieces)
	r.listItems(v, w, pos, s.listSoFar, s.pieces[len(s.pieces)-1].arrival)
	// The bytes kept from rest on start where rest was in the stream.
	raw, line := newStreamMap(s.buf, s.startRaw, s.startLine, s.pieces).at(rest)
	in := 0 // the piece rest is in
	for k, pc := range s.pieces {
		if pc.at <= rest {
			in = k
		}
	}
	var kept []pieceMark
	for k, pc := range s.pieces {
		if pc.at < head {
			kept = append(kept, pc)
		}
		if k == in {
			kept = append(kept, pieceMark{at: head, raw: raw, line: line, arrival: pc.arrival})
		}
		if pc.at > rest {
			pc.at -= rest - head
			kept = append(kept, pc)
		}
	}
	s.pieces = append(s.pieces[:0], kept...)
	s.buf = append(s.buf[:head], s.buf[rest:]...)
	return true
}

// streamMap gives positions of a value's bytes in the stream: a value
// gathered from several pieces had framing (chunk sizes, time prefixes)
// between them. Positions must be asked in increasing order.
type streamMap struct {
	v      []byte
	pieces []pieceMark
	p      int // the piece of the last position asked
	k      int // the last position asked
	line   int // its line
}

func newStreamMap(v []byte, start int64, line int, pieces []pieceMark) *streamMap {
	if len(pieces) == 0 {
		pieces = []pieceMark{{raw: start, line: line}}
	}
	return &streamMap{v: v, pieces: pieces, line: pieces[0].line}
}

// at returns the stream offset and line of v[k].
func (m *streamMap) at(k int) (int64, int) {
	for m.p+1 < len(m.pieces) && m.pieces[m.p+1].at <= k {
		m.p++
		m.k, m.line = m.pieces[m.p].at, m.pieces[m.p].line
	}
	if k > m.k {
		m.line += bytes.Count(m.v[m.k:k], []byte{'\n'})
		m.k = k
	}
	pc := m.pieces[m.p]
	return pc.raw + int64(k-pc.at), m.line
}
