package parser

import (
	"bytes"
	"fmt"
)

const (
	modeUnknown = iota
	modeJSON
	modeYAML
	modeProto // Kubernetes protobuf: see protobuf.go
)

// bodyScanner finds the top-level values (JSON objects, or YAML documents)
// in the body bytes the framer hands it, piece by piece. A value inside one
// piece is passed on in place; one that spans pieces is gathered in buf.
type bodyScanner struct {
	r    *Reader
	mode int
	col0 bool // the next body byte starts a line

	in        bool // inside a value
	depth     int
	inStr     bool
	esc       bool
	partial   bool // the value's bytes so far are in buf
	skipping  bool // the value outgrew MaxEventSize: its bytes are dropped
	garbage   bool // skipping bytes that start no value, up to a resync point
	block     bool // the piece being fed is a block of lines
	buf       []byte
	spare     []byte
	startRaw  int64
	startLine int
	// curPos and curLine are the last position lineAt counted to in the
	// current piece, and its line number.
	curPos, curLine int
	// lastRaw and yamlArrival are the end offset and arrival time of the
	// last non-blank line of the current YAML document.
	lastRaw     int64
	yamlArrival int64
	pb          protoBody
	// tv is what templatedValue reads an event's metadata with, kept
	// from one event to the next: as locals, their bytes would be
	// cleared for every event, under wasm a call out of the module for
	// each, which costs more than what they hold.
	tv templatedRead
	// pieces are where each piece of a JSON value gathered in buf starts,
	// for a list, whose items are events of their own, to give each its
	// place in the stream.
	pieces []pieceMark
	// listSoFar is the list being gathered whose whole items were read
	// as it outgrew MaxEventSize (see flushList), nil when none.
	listSoFar *List
	// opens counts the '[' in a row before a value, opened at openRaw on
	// openLine: events saved as a JSON array have one, and more are
	// diagnosed once for the run (see nestedArrays).
	opens    int
	openRaw  int64
	openLine int
}

// pieceMark is where one piece of a gathered value starts: at byte at of
// the value, stream offset raw, on line line; it arrived at arrival.
type pieceMark struct {
	at      int
	raw     int64
	line    int
	arrival int64
}

// feed scans one piece of body: b, whose first byte is at stream offset raw
// and on line no, and which arrived at arrival. A piece is one line or part
// of one, or, for a body without framing or times, a run of whole lines.
//
// It returns how many bytes it took: all of them, except in a block, where
// it stops before a line that starts with a capital letter, which may be an
// HTTP head for the framer to see.
func (s *bodyScanner) feed(b []byte, raw int64, no int, arrival int64) int {
	if len(b) == 0 {
		return 0
	}
	s.curPos, s.curLine = 0, no
	if s.mode == modeUnknown && !s.in && !s.garbage && s.r.protobufBody(b) {
		s.mode = modeProto
	}
	if s.mode == modeProto {
		return s.protoFeed(b, raw, no, arrival)
	}
	if s.mode == modeYAML {
		return s.yamlLines(b, raw, no, arrival)
	}
	if s.block && s.col0 && isUpper(b[0]) {
		return 0
	}
	i := 0
	if s.in && s.col0 && b[0] == '{' {
		s.cutBy(raw)
	}
	for i < len(b) {
		if !s.in {
			if s.garbage {
				j, head := s.resync(b, i)
				if j < 0 {
					break
				}
				if head {
					return s.stop(j)
				}
				i, s.garbage = j, false
			}
			for i < len(b) && isSpace(b[i]) {
				i++
			}
			if i == len(b) {
				break
			}
			col0 := (i == 0 && s.col0) || (i > 0 && b[i-1] == '\n')
			if s.block && col0 && isUpper(b[i]) {
				return s.stop(i)
			}
			if c := b[i]; c == '[' || c == ',' || c == ']' {
				// Events saved as a JSON array: the brackets and commas
				// between them mean nothing here.
				s.r.sawArray = true
				if c == '[' {
					if s.opens == 0 {
						s.openRaw, s.openLine = raw+int64(i), s.lineAt(b, i)
					}
					s.opens++
				} else {
					s.opens = 0
				}
				i++
				continue
			}
			if s.opens > 0 {
				// A call for every value costs more under wasm than the
				// test.
				s.nestedArrays()
			}
			if b[i] != '{' {
				if s.mode == modeUnknown && col0 && looksYAML(b[i:]) {
					s.mode = modeYAML
					return i + s.yamlLines(b[i:], raw+int64(i), s.lineAt(b, i), arrival)
				}
				s.r.addDiag(Diagnostic{Offset: raw + int64(i), Line: s.lineAt(b, i), Kind: DiagBadJSON,
					Msg: fmt.Sprintf("found %q where an event should start; skipped up to the next event", clipLine(b[i:]))})
				s.garbage = true
				continue
			}
			s.mode = modeJSON
			if j, ok := s.fastValue(b, i, col0, raw, arrival); ok {
				i = j
				continue
			}
			s.in, s.depth, s.inStr, s.esc, s.partial, s.skipping = true, 0, false, false, false, false
			s.startRaw, s.startLine = raw+int64(i), s.lineAt(b, i)
		}
		from := i
		end, st := s.scan(b, i)
		switch st {
		case scanEnd:
			s.in = false
			i = end + 1
			v := b[from:i]
			if s.partial {
				if s.skipping {
					s.tooBig(raw + int64(end) + 1)
					continue
				}
				s.mark(raw+int64(from), s.lineAt(b, from), arrival)
				s.buf = append(s.buf, v...)
				v = s.buf
				// The queued event keeps v until it is returned, so the
				// next partial value must not write over it.
				s.buf, s.spare = s.spare[:0], s.buf
			}
			if len(v) > s.r.opts.MaxEventSize && s.listSoFar == nil && !s.wholeBigList(v) {
				s.tooBig(raw + int64(end) + 1)
				continue
			}
			if !s.partial {
				s.r.onJSON(v, s.startRaw, raw+int64(end)+1, s.startLine, arrival, nil)
				continue
			}
			seq := s.r.seq
			s.r.onJSON(v, s.startRaw, raw+int64(end)+1, s.startLine, arrival, s.pieces)
			if len(s.pieces) > 0 {
				s.r.setBegan(seq, s.pieces[0].arrival)
			}
		case scanCut:
			s.r.addDiag(Diagnostic{Offset: s.startRaw, Line: s.startLine, Kind: DiagCutEvent,
				Msg: fmt.Sprintf("the event starting here breaks off at offset %d, where a line ends inside a string; it is skipped", raw+int64(end))})
			s.in = false
			i = end + 1
		case scanNewValue:
			s.cutBy(raw + int64(end))
			i = end
		case scanHead:
			s.keep(b[from:end], raw+int64(from), s.lineAt(b, from), arrival)
			return s.stop(end)
		default:
			s.keep(b[from:], raw+int64(from), s.lineAt(b, from), arrival)
			i = len(b)
		}
	}
	s.col0 = b[len(b)-1] == '\n'
	return len(b)
}

// keep adds the bytes of a value that goes on in the next piece to buf,
// unless the value is already too big to keep. They start at stream
// offset raw, on line line, and arrived at arrival.
func (s *bodyScanner) keep(v []byte, raw int64, line int, arrival int64) {
	if !s.partial {
		s.partial = true
		s.buf = s.buf[:0]
		s.pieces = s.pieces[:0]
	}
	s.mark(raw, line, arrival)
	s.appendCapped(v)
}

// mark notes that the bytes added to buf next start at raw (see pieces).
func (s *bodyScanner) mark(raw int64, line int, arrival int64) {
	if !s.skipping {
		s.pieces = append(s.pieces, pieceMark{at: len(s.buf), raw: raw, line: line, arrival: arrival})
	}
}

// appendCapped adds b to the event being kept, or gives the event up when it
// would grow past MaxEventSize: it is then skipped to its end.
func (s *bodyScanner) appendCapped(b []byte) {
	if s.skipping {
		return
	}
	if len(s.buf)+len(b) > s.r.opts.MaxEventSize {
		s.buf = append(s.buf, b...)
		if s.flushList() {
			return
		}
		s.skipping = true
		s.buf = s.buf[:0]
		return
	}
	s.buf = append(s.buf, b...)
}

// stop ends a block's feed before b[i], at the start of a line.
func (s *bodyScanner) stop(i int) int {
	s.col0 = true
	return i
}

// hasObjectKey reports whether b holds `"object"`. It looks for the 'j',
// rare in Kubernetes JSON, as bytes.Index would for the '"', which is
// everywhere.
func hasObjectKey(b []byte) bool {
	for i := 3; i < len(b); {
		k := indexByte(b[i:], 'j')
		if k < 0 {
			return false
		}
		i += k
		if objectKeyAt(b, i) {
			return true
		}
		i++
	}
	return false
}

// objectKeyAt reports whether the 'j' at b[j] is the one of an `"object"`.
func objectKeyAt(b []byte, j int) bool {
	return j >= 3 && j+5 <= len(b) && string(b[j-3:j+5]) == `"object"`
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// cutBy reports the open value as cut off by a new one starting at off.
func (s *bodyScanner) cutBy(off int64) {
	s.r.addDiag(Diagnostic{Offset: s.startRaw, Line: s.startLine, Kind: DiagCutEvent,
		Msg: fmt.Sprintf("the event starting here breaks off: a new one starts at offset %d before it closes; it is skipped", off)})
	s.in = false
}

// lineAt returns the line number of b[i], counting forward from the last
// position asked, so a piece of many lines is counted once. Where i is
// that position (the start of a compact event after the one before) it
// counts nothing, and is inlined.
func (s *bodyScanner) lineAt(b []byte, i int) int {
	if i > s.curPos {
		s.countTo(b[:i])
	}
	return s.curLine
}

// countTo counts the line ends of b after the last position asked, and
// makes its end that position. It is not inlined, so that lineAt is.
//
//go:noinline
func (s *bodyScanner) countTo(b []byte) {
	s.curLine += bytes.Count(b[s.curPos:], []byte{'\n'})
	s.curPos = len(b)
}

// linesIn returns the number of line ends in b[:n], where b is the piece
// just fed, starting on line no. It counts on from where lineAt got to,
// which after fastValue is past the last event's line end, so what is left
// to count is what lies between events.
func (s *bodyScanner) linesIn(b []byte, n, no int) int {
	if n == 0 {
		return 0
	}
	if s.curPos > n {
		return bytes.Count(b[:n], []byte{'\n'})
	}
	return s.lineAt(b, n) - no
}

// prefetchAhead is how many bytes past a line's end fastValue asks the
// CPU to bring into its cache: more than the next line of a pod (4-7 KB).
const prefetchAhead = 8 << 10

// prefetchMinLine is the shortest line after which fastValue asks for
// the next bytes.
const prefetchMinLine = 2 << 10

// fastValue is the fast way through a value starting at b[i], when its end
// can be found from the lines alone: a compact value ends where its line
// does (a raw line end cannot occur inside compact JSON), and a value
// pretty-printed from column 0 ends at the first "}" alone at column 0. The
// fast extraction must read it: all of it, or, where it stopped after the
// metadata, what it did not read must not show signs of holding anything
// but one event: a second "object" key (another event glued to a cut one),
// or a line at column 0. Other values go the slow way, where every byte is
// looked at.
func (s *bodyScanner) fastValue(b []byte, i int, col0 bool, raw int64, arrival int64) (int, bool) {
	var v []byte
	var next int
	// Where the value's last line end is found, and how many it has, so
	// that lineAt need not count them again: lastNL is past that line end.
	lastNL, lines := 0, 0
	// In a block, where the line's end is searched for, the line's scan
	// tells whether an "object" key follows the metadata; elsewhere the
	// rest is looked through for one.
	var keys objectKeys
	scanned := false
	if col0 && i+1 < len(b) && (b[i+1] == '\n' || b[i+1] == '\r') {
		// Every line inside must be indented, up to the "}" that closes.
		for k := i; ; {
			nl := bytes.IndexByte(b[k:], '\n')
			if nl < 0 || k+nl+1 == len(b) {
				return 0, false
			}
			k += nl + 1
			lines++
			if c := b[k]; c == '}' {
				next = k + 1
				lastNL = k
				break
			} else if c != ' ' && c != '\t' {
				return 0, false
			}
		}
		if next < len(b) && b[next] != '\n' && b[next] != '\r' {
			return 0, false
		}
		v = b[i:next]
		if lineEndInString(v) {
			// The fast path reads no further than it needs, and a string
			// broken by a line end is a cut value: scan reports it.
			return 0, false
		}
	} else {
		// Outside a block, a piece is one line: its end is known.
		k := len(b) - 1 - i
		if s.block {
			if next, ok := s.templatedValue(b, i, raw, arrival); ok {
				return next, true
			}
			k, keys = scanLine(b[i:])
			scanned = true
			if k >= prefetchMinLine {
				// The next lines' bytes are asked for now, to arrive
				// while this value's metadata is read; the next line's
				// scan would otherwise wait on memory for each of them.
				// The bytes asked for at the last value are asked for
				// again: fewer of them are then missing at the scan
				// than when each is asked for once. Short lines are
				// left to the CPU's own prefetcher, which keeps up
				// where the scans come close together, and for which
				// the requests cost more than they save.
				prefetchBytes(b[i+k+1 : min(i+k+1+prefetchAhead, len(b))])
			}
		}
		if k < 0 || b[i+k] != '\n' {
			return 0, false
		}
		n := i + k
		if s.block {
			// scanLine found the line's only line end.
			lastNL, lines = n+1, 1
		}
		for n > i && isSpace(b[n-1]) {
			n--
		}
		v, next = b[i:n], n
		if len(v) < 2 || v[len(v)-1] != '}' || v[len(v)-2] != '}' {
			return 0, false
		}
	}
	if len(v) > s.r.opts.MaxEventSize {
		return 0, false
	}
	// The fields are the stack's, not the Reader's: under wasm, whose
	// collector marks often beside the parser, every string written into
	// the heap costs a write barrier, and a small event writes a dozen.
	var f fields
	end, early, ok := extractFast(v, &f, s.r.intern, &s.r.memo)
	if !ok {
		return 0, false
	}
	if early && (scanned && keys.after(end) || !scanned && hasObjectKey(v[end:])) || !early && end < len(v) {
		return 0, false
	}
	line := s.lineAt(b, i)
	if lastNL > 0 {
		s.curPos, s.curLine = lastNL, line+lines
	}
	s.r.onFields(&f, v, raw+int64(i), raw+int64(next), line, arrival, true, nil)
	return next, true
}

// templatedValue is fastValue's way through a value of a block starting
// at b[i] that begins with a remembered envelope and then the metadata
// template: those bytes hold no line end (see matchTemplate), so the
// line's end is looked for after them, not in them: under wasm that
// search is a visible share of reading small events. It reads the value
// as extractFast does, and ends it as fastValue does; where either would
// decline, it declines before it has interned or kept anything, and
// fastValue goes its own way.
func (s *bodyScanner) templatedValue(b []byte, i int, raw, arrival int64) (int, bool) {
	m := &s.r.memo
	tp := &m.tmpl
	if !tp.ok || tp.skip > 0 || tp.nl || len(b)-i > s.r.opts.MaxEventSize {
		return 0, false
	}
	h := m.head(b[i:])
	if h == nil || h.nl || h.f.typ == "ERROR" || h.f.kind == "Status" {
		return 0, false
	}
	tv := &s.tv
	sc, ts, t := &tv.sc, &tv.ts, &tv.t
	sc.b, sc.i, sc.memo, sc.tab, sc.rec = b[i:], len(h.b), m, s.r.intern, nil
	if !sc.matchTemplate(tp, ts, t) {
		return 0, false
	}
	end := i + sc.i
	k, keys := scanLine(b[end:])
	if k < 0 || keys.after(0) {
		return 0, false
	}
	lastNL := end + k + 1
	n := end + k
	for n > end && isSpace(b[n-1]) {
		n--
	}
	if n-end < 2 || b[n-1] != '}' || b[n-2] != '}' {
		return 0, false
	}
	tp.fits()
	m.identity = 0
	f := h.f
	sc.takeTemplated(tp, ts, &f)
	f.estimated = t.estimate()
	line := s.lineAt(b, i)
	s.curPos, s.curLine = lastNL, line+1
	if h.watch {
		s.r.emit(&f, h.typ, b[i:n], raw+int64(i), raw+int64(n), line, arrival, true)
	} else {
		s.r.onFields(&f, b[i:n], raw+int64(i), raw+int64(n), line, arrival, true, nil)
	}
	return n, true
}

// templatedRead is what templatedValue reads an event with: its scanner,
// and the strings and times matchTemplate finds, which it writes before
// they are read.
type templatedRead struct {
	sc fastScanner
	ts templateStrings
	t  fastTimes
}

// breakOff ends the bytes fed so far where the stream breaks (damaged
// encoded data): a value open there is given up, and what comes next
// starts afresh at a line start.
func (s *bodyScanner) breakOff(msg string) {
	if s.in {
		s.r.addDiag(Diagnostic{Offset: s.startRaw, Line: s.startLine, Kind: DiagCutEvent, Msg: msg})
	}
	if s.mode == modeProto {
		s.protoBreak(msg)
	}
	s.in, s.garbage, s.col0 = false, false, true
	if s.mode == modeYAML {
		s.buf = s.buf[:0]
	}
}

func (s *bodyScanner) tooBig(end int64) {
	s.r.addDiag(Diagnostic{Offset: s.startRaw, Line: s.startLine, Kind: DiagEventTooBig,
		Msg: fmt.Sprintf("the event here is %d bytes, more than the %d kept (Options.MaxEventSize); it is skipped", end-s.startRaw, s.r.opts.MaxEventSize)})
	s.buf = s.buf[:0]
}

const (
	scanMore     = iota
	scanEnd      // the value ends at the index returned
	scanCut      // a line ends inside a string at the index returned
	scanNewValue // a '{' at column 0, at the index returned, starts a new value
	scanHead     // in a block, a line that may be an HTTP head starts at the index returned
)

// scan follows the JSON structure from b[i] and returns the index of the
// byte that closes the value. Brackets are only counted, not matched: the
// extraction that follows judges the content.
func (s *bodyScanner) scan(b []byte, i int) (int, int) {
	depth, inStr, esc := s.depth, s.inStr, s.esc
	for ; i < len(b); i++ {
		c := b[i]
		if inStr {
			switch {
			case c == '\n':
				// JSON strings hold no raw line end, escaped or not: the
				// value was cut.
				s.esc = false
				return i, scanCut
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				s.depth, s.inStr, s.esc = 0, false, false
				return i, scanEnd
			}
		case '\n':
			if i+1 < len(b) && b[i+1] == '{' {
				return i + 1, scanNewValue
			}
			if s.block && i+1 < len(b) && isUpper(b[i+1]) {
				s.depth, s.inStr, s.esc = depth, false, false
				return i + 1, scanHead
			}
		}
	}
	s.depth, s.inStr, s.esc = depth, inStr, esc
	return len(b), scanMore
}

// resync returns where reading can start again after bytes that start no
// value: a '{' at the start of a line, or the start of an event anywhere;
// head is set when it stops instead at a line that may be an HTTP head (in
// a block). It returns -1 when b holds neither.
func (s *bodyScanner) resync(b []byte, i int) (int, bool) {
	for i < len(b) {
		if (i == 0 && s.col0) || (i > 0 && b[i-1] == '\n') {
			if b[i] == '{' {
				return i, false
			}
			if s.block && isUpper(b[i]) {
				return i, true
			}
		}
		limit := len(b)
		if k := bytes.IndexByte(b[i:], '\n'); k >= 0 {
			limit = i + k + 1
		}
		if t := bytes.Index(b[i:limit], []byte(`{"type"`)); t >= 0 {
			return i + t, false
		}
		i = limit
	}
	return -1, false
}

// nestedArrays ends a run of '[' before a value: more than one opens
// arrays inside an array, which no capture saved as a JSON array has (a
// million of them were skipped without a word). The value after them is
// still read. Brackets with no value after them are said to be all the
// capture holds (see Reader.finish).
func (s *bodyScanner) nestedArrays() {
	if s.opens > 1 {
		s.r.addDiag(Diagnostic{Offset: s.openRaw, Line: s.openLine, Kind: DiagNestedArrays,
			Msg: fmt.Sprintf("%d '[' in a row start here, arrays inside arrays, where events saved as a JSON array have one; they are skipped, and what follows is read as events", s.opens)})
	}
	s.opens = 0
}

// endSession is called where a response body ends: a value still open
// there was cut off.
func (s *bodyScanner) endSession() {
	if s.mode == modeYAML {
		s.flushYAML()
	} else if s.mode == modeProto {
		s.protoEnd()
	} else if s.in {
		sess := s.r.curSession()
		sess.Truncated = true
		// A list's whole items are still the client's view of them; the
		// queue keeps them past buf's reuse.
		if !s.partial || s.skipping || !s.r.onList(bytes.Clone(s.buf), s.startRaw, s.startLine, 0, s.pieces, false) {
			s.r.addDiag(Diagnostic{Offset: s.startRaw, Line: s.startLine, Kind: DiagCutEvent,
				Msg: "the event starting here is incomplete: the response or the capture ends before it closes; it is skipped"})
		}
	}
	*s = bodyScanner{r: s.r, buf: s.buf[:0], spare: s.spare[:0], pieces: s.pieces[:0], col0: true, pb: s.pb.fresh()}
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

// looksYAML tells a YAML document ("---", or "key:" at the start of a line)
// from garbage.
func looksYAML(b []byte) bool {
	if bytes.HasPrefix(b, []byte("---")) {
		return true
	}
	for i, c := range b {
		switch {
		case c == ':':
			return i > 0 && (i+1 == len(b) || isSpace(b[i+1]))
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == '-' && i > 0, c == '.' && i > 0, c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return false
}

// yamlLines splits a piece into lines for yamlLine. It returns the bytes
// taken, as feed does.
func (s *bodyScanner) yamlLines(b []byte, raw int64, no int, arrival int64) int {
	taken := 0
	for taken < len(b) {
		ln := b[taken:]
		if s.block && s.col0 && isUpper(ln[0]) {
			return taken
		}
		if k := bytes.IndexByte(ln, '\n'); k >= 0 {
			ln = ln[:k+1]
		}
		s.yamlLine(ln, raw+int64(taken), no, arrival)
		taken += len(ln)
		no++
	}
	return taken
}

// yamlLine adds one line to the current YAML document, or ends the
// document at a "---" or "..." marker.
func (s *bodyScanner) yamlLine(b []byte, raw int64, no int, arrival int64) {
	t := trimEOL(b)
	startsLine := s.col0
	s.col0 = b[len(b)-1] == '\n'
	if startsLine && (bytes.Equal(t, []byte("---")) || bytes.HasPrefix(t, []byte("--- ")) || bytes.Equal(t, []byte("..."))) {
		s.flushYAML()
		return
	}
	if !s.in {
		tt := bytes.TrimSpace(t)
		if len(tt) == 0 || tt[0] == '#' {
			return
		}
		s.in, s.skipping = true, false
		s.buf = s.buf[:0]
		s.startRaw, s.startLine = raw, no
	}
	if len(bytes.TrimSpace(t)) > 0 {
		s.lastRaw = raw + int64(len(bytes.TrimRight(t, " \t\r")))
		s.yamlArrival = arrival
	}
	s.appendCapped(b)
}

func (s *bodyScanner) flushYAML() {
	if !s.in {
		return
	}
	s.in = false
	if s.skipping {
		s.tooBig(s.lastRaw)
		return
	}
	// A block can end several documents before the queue is drained, so
	// each queued one gets its own copy.
	s.r.onYAML(bytes.Clone(s.buf), s.startRaw, s.lastRaw, s.startLine, s.yamlArrival)
}
