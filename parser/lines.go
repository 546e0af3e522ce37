package parser

import (
	"bytes"
	"io"
	"time"
)

// line is one line of the decompressed stream with its arrival-time prefix
// removed, a piece of a line too long to hold at once, or (from block) a
// run of whole lines.
type line struct {
	b         []byte // content after any prefix, with its '\n' if it has one
	raw       int64  // offset of b[0] in the decompressed stream
	lineStart int64  // offset where the line began, prefix included
	no        int    // 1-based line number
	arrival   int64  // Unix ns of the line's time prefix (or the last one seen)
	start     bool   // b begins the line
}

// lineReader cuts the decompressed stream into lines inside one window
// buffer, so the common case (a whole event on one line) is never copied
// again. Lines longer than maxLine come out in pieces.
type lineReader struct {
	src        io.Reader
	buf        []byte
	start, end int   // unread bytes are buf[start:end]
	scanned    int   // buf[start:start+scanned] holds no '\n'
	base       int64 // stream offset of buf[0]
	eof        bool
	err        error // the source's read error, other than io.EOF
	maxLine    int
	lineNo     int
	midLine    bool // the next byte continues a line already started
	// sniffed is set once the first line has shown whether the capture
	// has time prefixes (prefixed); only then may lines be read in blocks.
	sniffed, prefixed bool
	arrival           int64 // the last time prefix read, Unix ns
	clock             prefixClock
	lineBegin         int64 // stream offset where the current line began
	// badTimes are the arrival prefixes outside MinTime..MaxTime read
	// since the Reader last took them (at most maxBadTimes).
	badTimes []badTime
	// blocks, when set, is read in place instead of src: buf is one of
	// its blocks, or own while a line that spans two blocks is read, with
	// pend (at stream offset pendBase) the rest of the second block.
	// srcOff is the stream offset of the next block's first byte.
	blocks   *prefetchReader
	own      []byte
	pend     []byte
	pendBase int64
	srcOff   int64
	// inPlace is set when buf is the whole stream, the caller's own
	// bytes: lines are cut from it where they are, never copied.
	inPlace bool
}

const windowSize = 256 << 10

func newLineReader(src io.Reader, maxLine int) *lineReader {
	return &lineReader{src: src, buf: make([]byte, windowSize), maxLine: maxLine, lineNo: 1}
}

// newInPlaceLineReader returns a lineReader of b, the whole stream.
func newInPlaceLineReader(b []byte, maxLine int) *lineReader {
	return &lineReader{buf: b, end: len(b), eof: true, inPlace: true, maxLine: maxLine, lineNo: 1}
}

// next returns the next line; its bytes are valid until the following call.
func (l *lineReader) next() (line, bool) {
	for {
		avail := l.buf[l.start:l.end]
		if len(avail) > l.maxLine {
			// A longer line comes out in pieces of maxLine, in place as
			// through a window that holds more of it: a header line of a
			// head is then the same header read either way.
			avail = avail[:l.maxLine]
		}
		if i := indexByte(avail[l.scanned:], '\n'); i >= 0 {
			return l.emit(l.scanned+i+1, true), true
		}
		l.scanned = len(avail)
		if l.eof {
			if len(avail) == 0 {
				return line{}, false
			}
			return l.emit(len(avail), false), true
		}
		if len(avail) >= l.maxLine {
			return l.emit(len(avail), false), true
		}
		l.fill()
	}
}

// block returns a run of whole lines, for a body without time prefixes
// where handing over line by line would cost more than the reading. It
// returns false where next must be used.
func (l *lineReader) block() (line, bool) {
	if l.midLine || !l.sniffed || l.prefixed {
		return line{}, false
	}
	switch {
	case l.blocks != nil:
		// A block's last line, cut by the block's end, is read with next.
		if l.start == l.end && !l.eof {
			l.fill()
		}
	case l.end-l.start < len(l.buf)/4 && !l.eof:
		l.fill()
	}
	avail := l.buf[l.start:l.end]
	// A window grown for one long line must not make blocks of thousands
	// of small events, all queued at once.
	if len(avail) > windowSize {
		avail = avail[:windowSize]
	}
	last := bytes.LastIndexByte(avail, '\n')
	if last < 0 {
		return line{}, false
	}
	b := avail[:last+1]
	ln := line{b: b, raw: l.base + int64(l.start), no: l.lineNo, arrival: l.arrival, start: true}
	ln.lineStart = ln.raw
	l.start += len(b)
	l.scanned = 0
	// lineNo is left for endBlock: the body scanner finds the line ends
	// anyway, and counting them here would be one more pass over every
	// byte, which under wasm (no assembly bytes.Count) costs more than all
	// the rest of the reading.
	return ln, true
}

// endBlock ends the last block, blk, of which the body scanner took the
// first n bytes, holding lines line ends; the rest is read again.
func (l *lineReader) endBlock(blk []byte, n, lines int) {
	l.start -= len(blk) - n
	l.lineNo += lines
}

func (l *lineReader) emit(n int, eol bool) line {
	b := l.buf[l.start : l.start+n]
	ln := line{raw: l.base + int64(l.start), no: l.lineNo, start: !l.midLine}
	if ln.start {
		l.lineBegin = ln.raw
		if !l.sniffed {
			l.sniffed = true
			if len(b) >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf {
				b = b[3:]
				ln.raw += 3
			}
			_, _, l.prefixed = l.clock.parse(b)
		}
		if l.prefixed {
			if t, k, ok := l.clock.parse(b); ok {
				l.arrival = t
				b = b[k:]
				ln.raw += int64(k)
			} else if k, ok := outOfRangePrefix(b); ok {
				// A time the clock cannot hold is no arrival: the line
				// keeps the one before, and the Reader says why.
				if len(l.badTimes) < maxBadTimes {
					l.badTimes = append(l.badTimes, badTime{raw: ln.raw, line: l.lineNo, prefix: string(b[:k-1])})
				}
				b = b[k:]
				ln.raw += int64(k)
			}
		}
	}
	ln.lineStart = l.lineBegin
	ln.b = b
	ln.arrival = l.arrival
	l.start += n
	l.scanned = 0
	l.midLine = !eol
	if eol {
		l.lineNo++
	}
	return ln
}

// fill reads more of the source, first making room by dropping consumed
// bytes and, for a line longer than the window, growing it up to maxLine.
func (l *lineReader) fill() {
	if l.blocks != nil {
		l.fillBlocks()
		return
	}
	if l.start > 0 {
		n := copy(l.buf, l.buf[l.start:l.end])
		l.base += int64(l.start)
		l.start, l.end = 0, n
	}
	if l.end == len(l.buf) {
		size := 2 * len(l.buf)
		if size > l.maxLine+4096 {
			size = l.maxLine + 4096
		}
		nb := make([]byte, size)
		copy(nb, l.buf[:l.end])
		l.buf = nb
	}
	for tries := 0; tries < 100; tries++ {
		n, err := l.src.Read(l.buf[l.end:])
		l.end += n
		if err != nil {
			l.eof = true
			if err != io.EOF {
				l.err = err
			}
			return
		}
		if n > 0 {
			return
		}
	}
	l.eof, l.err = true, io.ErrNoProgress
}

// fillBlocks is fill when reading blocks in place: it goes on to the next
// block, or, when a line goes on from one block to the next, gathers that
// line in own (up to maxLine bytes).
func (l *lineReader) fillBlocks() {
	l.scanned = 0
	if l.start == l.end {
		if l.pend != nil {
			l.buf, l.base, l.start, l.end = l.pend, l.pendBase, 0, len(l.pend)
			l.pend = nil
			return
		}
		base := l.srcOff
		if b := l.take(); b != nil {
			l.buf, l.base, l.start, l.end = b, base, 0, len(b)
		}
		return
	}
	// copy, not append: buf may be own.
	n := copy(l.own[:cap(l.own)], l.buf[l.start:l.end])
	if n < l.end-l.start {
		l.own = append(l.own[:n], l.buf[l.start+n:l.end]...)
	}
	own := l.own[:l.end-l.start]
	l.base += int64(l.start)
	for len(own) < l.maxLine {
		src, base := l.pend, l.pendBase
		if src == nil {
			base = l.srcOff
			if src = l.take(); src == nil {
				break
			}
		}
		k := bytes.IndexByte(src, '\n') + 1
		if k == 0 {
			k = len(src)
		}
		k = min(k, l.maxLine-len(own))
		own = append(own, src[:k]...)
		l.pend, l.pendBase = nil, 0
		if k < len(src) {
			l.pend, l.pendBase = src[k:], base+int64(k)
		}
		if own[len(own)-1] == '\n' {
			break
		}
	}
	l.own = own
	l.buf, l.start, l.end = own, 0, len(own)
}

// take returns the next block of blocks, or nil at the end, which it marks.
func (l *lineReader) take() []byte {
	b, err := l.blocks.nextBlock()
	if b == nil {
		l.eof = true
		if err != io.EOF {
			l.err = err
		}
		return nil
	}
	l.srcOff += int64(len(b))
	return b
}

// parseTimePrefix reads an arrival time (RFC 3339, with or without
// fraction, or Unix seconds with an optional fraction) and the one space or
// tab after it. It returns Unix ns and the prefix length. A time outside
// MinTime..MaxTime is no prefix: the line is read as it is.
func parseTimePrefix(b []byte) (int64, int, bool) {
	if len(b) >= 20 && b[4] == '-' && b[7] == '-' && (b[10] == 'T' || b[10] == 't') {
		return parseRFC3339Prefix(b)
	}
	return parseUnixPrefix(b)
}

func parseRFC3339Prefix(b []byte) (int64, int, bool) {
	t, end, ok := parseRFC3339Time(b)
	if !ok {
		return 0, 0, false
	}
	ns, ok := UnixNano(t)
	if !ok {
		return 0, 0, false
	}
	return ns, end + 1, true
}

// rfc3339Bounds finds the parts of an RFC 3339 prefix whose first 20 bytes
// have been checked to look like one: the fraction is b[19:frac], the zone
// b[frac:end], and b[end] is the space or tab after it. Whether the digits
// make a time is for time.Parse to say.
func rfc3339Bounds(b []byte) (frac, end int, ok bool) {
	end = 19
	if end < len(b) && b[end] == '.' {
		end++
		for end < len(b) && b[end] >= '0' && b[end] <= '9' {
			end++
		}
	}
	frac = end
	if end >= len(b) {
		return 0, 0, false
	}
	switch b[end] {
	case 'Z', 'z':
		end++
	case '+', '-':
		end += 6
	default:
		return 0, 0, false
	}
	if end >= len(b) || (b[end] != ' ' && b[end] != '\t') {
		return 0, 0, false
	}
	return frac, end, true
}

// parseRFC3339Time parses an RFC 3339 prefix and returns its time and the
// index of the space or tab after it.
func parseRFC3339Time(b []byte) (time.Time, int, bool) {
	_, end, ok := rfc3339Bounds(b)
	if !ok {
		return time.Time{}, 0, false
	}
	t, err := time.Parse(time.RFC3339Nano, string(b[:end]))
	if err != nil {
		return time.Time{}, 0, false
	}
	return t, end, true
}

// prefixClock parses the time prefixes of one capture. Their date, time to
// the second and zone change once a second at most, their fraction on
// every line; time.Parse on every line costs more than the rest of the
// prefix layer, so prefixClock keeps the last whole second time.Parse
// accepted and, while the next prefixes share it, adds their fraction to
// it. What time.Parse accepts or rejects in a prefix does not depend on
// the fraction's digits, so the answer is time.Parse's.
type prefixClock struct {
	ok   bool
	head [19]byte // "2006-01-02T15:04:05"
	zone [6]byte  // "Z" or "-07:00"
	zlen int
	base int64 // Unix ns of head and zone, fraction 0
}

// parse is parseTimePrefix.
func (c *prefixClock) parse(b []byte) (int64, int, bool) {
	if len(b) >= 20 && b[4] == '-' && b[7] == '-' && (b[10] == 'T' || b[10] == 't') {
		return c.rfc3339(b)
	}
	return parseUnixPrefix(b)
}

func (c *prefixClock) rfc3339(b []byte) (int64, int, bool) {
	frac, end, ok := rfc3339Bounds(b)
	if !ok {
		return 0, 0, false
	}
	// A '.' must have a digit after it, or time.Parse rejects it.
	fracOK := frac == 19 || frac > 20
	if c.ok && fracOK && string(b[:19]) == string(c.head[:]) && string(b[frac:end]) == string(c.zone[:c.zlen]) {
		return c.base + fracNanos(b[19:frac]), end + 1, true
	}
	t, end, ok := parseRFC3339Time(b)
	if !ok {
		return 0, 0, false
	}
	ns, ok := UnixNano(t)
	if !ok {
		return 0, 0, false
	}
	c.ok = false
	if fracOK && int64(t.Nanosecond()) == fracNanos(b[19:frac]) {
		c.ok = true
		copy(c.head[:], b[:19])
		c.zlen = copy(c.zone[:], b[frac:end])
		c.base = ns - int64(t.Nanosecond())
	}
	return ns, end + 1, true
}

// fracNanos returns the nanoseconds of a fraction "" or ".123": its first
// nine digits, as time.Parse reads them.
func fracNanos(f []byte) int64 {
	if len(f) < 2 {
		return 0
	}
	f = f[1:]
	var ns int64
	n := 0
	for ; n < len(f) && n < 9; n++ {
		ns = ns*10 + int64(f[n]-'0')
	}
	for ; n < 9; n++ {
		ns *= 10
	}
	return ns
}

func parseUnixPrefix(b []byte) (int64, int, bool) {
	var sec int64
	i := 0
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		if i >= 12 { // beyond year 33658: not a capture time
			return 0, 0, false
		}
		sec = sec*10 + int64(b[i]-'0')
	}
	// Fewer than 9 digits is before 1973: more likely data than a time.
	if i < 9 {
		return 0, 0, false
	}
	var frac int64
	if i < len(b) && b[i] == '.' {
		i++
		digits := 0
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			if digits < 9 {
				frac = frac*10 + int64(b[i]-'0')
				digits++
			}
		}
		for ; digits < 9; digits++ {
			frac *= 10
		}
	}
	if i >= len(b) || (b[i] != ' ' && b[i] != '\t') || sec > MaxTime.Unix()-1 {
		return 0, 0, false
	}
	return sec*1e9 + frac, i + 1, true
}
