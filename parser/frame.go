package parser

import (
	"bytes"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

type fstate uint8

const (
	fHead       fstate = iota // between responses: a request line, a status line or a bare body
	fReqHeaders               // request headers, up to the blank line
	fHeaders                  // response headers, up to the blank line
	fChunkSize                // a chunk-size line
	fChunkData                // inside a chunk's data
	fChunkEnd                 // the line end after a chunk's data
	fTrailers                 // after the zero chunk, up to the blank line
	fLength                   // inside a Content-Length body
	fBody                     // a body with no framing: up to the next HTTP head
	fRecover                  // chunked framing broke: take non-framing lines as data
)

// framer follows the HTTP layer line by line: it opens a session at each
// request or status line, keeps the head, and hands body bytes to the body
// scanner with the chunked framing removed.
type framer struct {
	r           *Reader
	st          fstate
	left        int64 // bytes left in the chunk or the Content-Length body
	chunked     bool
	length      int64 // Content-Length, -1 if absent
	awaitStatus bool  // a request line was read and its response may follow
	inSession   bool
	chunkStart  int64    // offset of the current chunk's size line
	chunkLine   int      // and its line number
	chunkSize   int64    // the size it gave
	sizeText    [15]byte // as written: sizeText[:sizeLen]
	sizeLen     int
	encoding    string       // the response's Content-Encoding, unless identity
	skipBody    bool         // the body is encoded in a way not decoded: its bytes are not read
	dec         *bodyDecoder // decodes the body, when it is encoded
	firstChunk  bool         // no chunk of this response read yet
	// crlf is a CRLF that ended a line of chunk data, held back until the
	// next line shows whether it was data or the line end that closes a
	// chunk whose size was wrong (see heldCRLF).
	crlf heldCRLF
}

// heldCRLF is where a held-back CRLF was in the stream.
type heldCRLF struct {
	held    bool
	raw     int64
	no      int
	arrival int64
}

func (f *framer) line(ln line) {
	for f.step(&ln) {
	}
	if f.inSession {
		s := &f.r.session[len(f.r.session)-1]
		s.End = ln.raw + int64(len(ln.b))
		s.EndArrival = ln.arrival
	}
}

// block hands a block of body lines to the body scanner and gives back to
// the line reader what it did not take.
func (f *framer) block(ln line) {
	r := f.r
	r.body.block = true
	n := r.body.feed(ln.b, ln.raw, ln.no, ln.arrival)
	r.body.block = false
	r.lines.endBlock(ln.b, n, r.body.linesIn(ln.b, n, ln.no))
	if n < len(ln.b) {
		r.lineOnce = n == 0
	}
	s := &r.session[len(r.session)-1]
	s.End = ln.raw + int64(n)
}

// step handles ln in the current state; it returns true to have the rest
// of ln handled again after a change of state.
func (f *framer) step(ln *line) bool {
	r := f.r
	b := ln.b
	switch f.st {
	case fHead:
		if ln.start && isRequestLine(b) {
			f.open(ln)
			f.r.curSession().Request = parseRequest(b)
			f.awaitStatus = true
			f.st = fReqHeaders
			return false
		}
		if ln.start && isStatusLine(b) {
			if !f.awaitStatus || !f.inSession {
				f.open(ln)
			}
			f.awaitStatus = false
			s := r.curSession()
			s.HTTPStatus, s.StatusText = parseStatusLine(b)
			f.chunked, f.length, f.encoding, f.skipBody = false, -1, "", false
			f.st = fHeaders
			return false
		}
		if isBlank(b) {
			return false
		}
		if f.awaitStatus && ln.start && bytes.HasPrefix(b, transportErrorNote) {
			r.curSession().TransportError = string(bytes.TrimSpace(b[len(transportErrorNote):]))
			f.awaitStatus = false
			return false
		}
		if !f.inSession || (!f.awaitStatus && r.curSession().HTTPStatus != 0) {
			f.open(ln)
		}
		f.awaitStatus = false
		if len(r.session) == 1 && r.session[0].HTTPStatus == 0 && ln.start && isChunkSizeLine(b) {
			// A chunked body saved without its head (curl --raw without -i).
			f.st = fChunkSize
			return true
		}
		f.st = fBody
		return true
	case fReqHeaders:
		if isBlank(b) {
			f.st = fHead
		} else if name, value, ok := strings.Cut(string(trimEOL(b)), ":"); ok && strings.EqualFold(strings.TrimSpace(name), "User-Agent") {
			r.curSession().Request.UserAgent = strings.TrimSpace(value)
		}
		return false
	case fHeaders:
		if isBlank(b) {
			f.startBody()
			return false
		}
		f.header(b)
		return false
	case fChunkSize:
		if isBlank(b) {
			return false // a stray line end between chunks does no harm
		}
		if ln.start && (isStatusLine(b) || isRequestLine(b)) {
			f.cut(ln.raw, "the HTTP response ends without its terminating zero chunk; a new one starts here")
			return true
		}
		if f.firstChunk && ln.start && startsJSON(b) {
			// `curl -i` without --raw: the headers say chunked, but the
			// body was de-chunked when captured.
			f.st = fBody
			return true
		}
		f.firstChunk = false
		n, ok := parseChunkSize(b)
		if !ok || !ln.start {
			r.addDiag(Diagnostic{Offset: ln.raw, Line: ln.no, Kind: DiagBadChunk,
				Msg: fmt.Sprintf("expected a hexadecimal chunk size, found %q; the data up to the next chunk size line is read as a chunk's", clip(b))})
			f.st = fRecover
			return true
		}
		f.chunkStart, f.chunkLine, f.chunkSize = ln.raw, ln.no, n
		f.sizeLen = copy(f.sizeText[:], chunkSizeDigits(b))
		if n == 0 {
			f.st = fTrailers
			return false
		}
		f.left, f.st = n, fChunkData
		return false
	case fChunkData:
		if f.crlf.held && ln.start && f.left > int64(len(b)) && isChunkSizeLine(b) {
			// Chunk data is JSON, whose line ends are '\n': a CRLF and
			// then a line of nothing but a size is the framing of the
			// next chunk, inside what this one's size claimed.
			f.badSize(fmt.Sprintf("a chunk size line follows %d bytes of its data, at offset %d", f.chunkSize-f.left-2, ln.raw))
			return true
		}
		f.releaseCRLF()
		k := min(int64(len(b)), f.left)
		f.feedData(b[:k], ln)
		f.left -= k
		if f.left > 0 {
			return false
		}
		rest := b[k:]
		if len(rest) == 0 {
			f.st = fChunkEnd
			return false
		}
		if isBlank(rest) {
			f.st = fChunkSize
			return false
		}
		f.badSize(fmt.Sprintf("its data ends at offset %d with no line end after it", ln.raw+k))
		ln.b, ln.raw, ln.start = rest, ln.raw+k, false
		f.st = fRecover
		return true
	case fChunkEnd:
		if isBlank(b) {
			f.releaseCRLF()
			f.st = fChunkSize
			return false
		}
		if f.crlf.held && ln.start && isChunkSizeLine(b) {
			// The size counted the CRLF that closes the chunk.
			f.badSize(fmt.Sprintf("it counts the line end after its data, and a chunk size line follows at offset %d", ln.raw))
			return true
		}
		f.releaseCRLF()
		f.badSize(fmt.Sprintf("its data ends at offset %d with no line end after it", ln.raw))
		f.st = fRecover
		return true
	case fTrailers:
		if isBlank(b) {
			f.endBody()
			return false
		}
		if ln.start && (isStatusLine(b) || isRequestLine(b)) {
			f.endBody()
			return true
		}
		return false
	case fLength:
		k := f.feedLeft(b, ln)
		if f.left > 0 {
			return false
		}
		f.endBody()
		// What follows a Content-Length body is a new message even when
		// the body had no line end.
		if rest := b[k:]; len(rest) > 0 {
			ln.b, ln.raw, ln.lineStart, ln.start = rest, ln.raw+k, ln.raw+k, true
			return true
		}
		return false
	case fBody:
		if ln.start && (isStatusLine(b) || isRequestLine(b)) {
			f.endBody()
			return true
		}
		f.feed(b, ln.raw, ln.no, ln.arrival)
		return false
	case fRecover:
		if ln.start && (isStatusLine(b) || isRequestLine(b)) {
			f.endBody()
			return true
		}
		if ln.start && isChunkSizeLine(b) {
			// The framing goes on from the next chunk; the held line end
			// was the one closing the chunk before it.
			f.crlf.held = false
			f.st = fChunkSize
			return true
		}
		if ln.start && isBlank(b) {
			return false
		}
		f.releaseCRLF()
		f.feedData(b, ln)
		return false
	}
	return false
}

// badSize reports the current chunk's size as wrong, with why, and has
// the framing read again from a chunk size line: the one at hand when
// the state is left at fChunkSize, else the next one (fRecover).
func (f *framer) badSize(why string) {
	f.r.addDiag(Diagnostic{Offset: f.chunkStart, Line: f.chunkLine, Kind: DiagBadChunk,
		Msg: fmt.Sprintf("the chunk size %q (%d bytes) is wrong: %s; the data up to the next chunk size line is read as this chunk's", f.sizeText[:f.sizeLen], f.chunkSize, why)})
	f.crlf.held = false
	f.st = fChunkSize
}

// feedData feeds a line of chunk data, or the part of it that is data,
// holding back a CRLF that ends it: a proxy that re-chunks a stream cuts
// events anywhere, so when a size is wrong, a chunk's closing CRLF lands
// in the middle of an event, and fed as data it would cut the event. An
// encoded or protobuf body's bytes may hold anything, so there it is fed
// at once.
func (f *framer) feedData(b []byte, ln *line) {
	if n := len(b); n >= 2 && b[n-1] == '\n' && b[n-2] == '\r' && f.dec == nil && !f.skipBody && f.r.body.mode != modeProto {
		f.feed(b[:n-2], ln.raw, ln.no, ln.arrival)
		f.crlf = heldCRLF{held: true, raw: ln.raw + int64(n-2), no: ln.no, arrival: ln.arrival}
		return
	}
	f.feed(b, ln.raw, ln.no, ln.arrival)
}

// releaseCRLF feeds a held CRLF as the data it turned out to be.
func (f *framer) releaseCRLF() {
	if c := f.crlf; c.held {
		f.crlf.held = false
		f.feed(crlfBytes, c.raw, c.no, c.arrival)
	}
}

var crlfBytes = []byte("\r\n")

// feedLeft feeds the body what of the line b belongs to the current chunk
// or Content-Length body (f.left bytes at most) and returns how much.
func (f *framer) feedLeft(b []byte, ln *line) int64 {
	k := min(int64(len(b)), f.left)
	f.feed(b[:k], ln.raw, ln.no, ln.arrival)
	f.left -= k
	return k
}

// feed hands body bytes on: to the decoder when the body is encoded, else
// to the body scanner, unless the body is skipped.
func (f *framer) feed(b []byte, raw int64, no int, arrival int64) {
	if f.dec != nil {
		f.decode(b, raw, no, arrival)
		return
	}
	if !f.skipBody {
		f.r.body.feed(b, raw, no, arrival)
	}
}

func (f *framer) open(ln *line) {
	f.finishDecode()
	if f.inSession {
		f.r.body.endSession()
		f.r.dropVoidSession()
	}
	f.r.newSession(ln.lineStart, ln.arrival)
	f.inSession = true
}

func (f *framer) header(b []byte) {
	s := f.r.curSession()
	name, value, ok := strings.Cut(string(trimEOL(b)), ":")
	if !ok {
		return
	}
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	switch {
	case strings.EqualFold(name, "Transfer-Encoding"):
		f.chunked = strings.Contains(strings.ToLower(value), "chunked")
	case strings.EqualFold(name, "Content-Encoding"):
		if v := strings.TrimSpace(value); v != "" && !strings.EqualFold(v, "identity") {
			f.encoding = v
		}
	case strings.EqualFold(name, "Content-Length"):
		if n, err := strconv.ParseInt(value, 10, 64); err == nil && n >= 0 {
			f.length = n
		}
	case strings.EqualFold(name, "Audit-Id"):
		s.AuditID = value
	}
	s.Headers = append(s.Headers, Header{Name: f.r.internString(name), Value: value})
}

func (f *framer) startBody() {
	if s := f.r.curSession(); f.encoding != "" && (s.HTTPStatus < 100 || s.HTTPStatus >= 200) {
		if codec := supportedEncoding(f.encoding); codec != "" {
			f.startDecode(codec, s.Offset)
		} else {
			f.r.addDiag(Diagnostic{Offset: s.Offset, Kind: DiagEncodedBody,
				Msg: fmt.Sprintf("this response's body is %s-encoded (Content-Encoding), which is not decoded here (gzip, deflate and zstd are), and is skipped; capture it decoded (curl --compressed, or without Accept-Encoding) to see its events", clipString(f.encoding))})
			f.skipBody = true
		}
	}
	if s := f.r.curSession(); s.HTTPStatus >= 100 && s.HTTPStatus < 200 {
		// "100 Continue" and the like: the real response follows.
		f.st, f.awaitStatus = fHead, true
		s.Headers, s.AuditID = nil, ""
		return
	}
	switch {
	case f.chunked:
		f.st, f.firstChunk = fChunkSize, true
	case f.length == 0:
		f.endBody()
	case f.length > 0:
		f.left, f.st = f.length, fLength
	default:
		f.st = fBody
	}
}

// endBody closes the current response's body; the session stays open so
// that blank lines after it still belong to it.
func (f *framer) endBody() {
	f.releaseCRLF()
	if f.dec != nil {
		f.finishDecode()
	} else {
		f.r.body.endSession()
	}
	f.st = fHead
	f.awaitStatus = false
}

// cut marks the current session as cut off and goes back to looking for a
// head.
func (f *framer) cut(off int64, msg string) {
	r := f.r
	s := r.curSession()
	s.Truncated = true
	r.addDiag(Diagnostic{Offset: off, Kind: DiagTruncated, Msg: msg})
	f.endBody()
}

func (f *framer) eof() {
	r := f.r
	end := r.lines.base + int64(r.lines.end)
	switch f.st {
	case fChunkSize, fChunkData, fChunkEnd, fRecover:
		f.cut(end, "the capture ends inside a chunked HTTP response, before its terminating zero chunk")
	case fLength:
		f.cut(end, fmt.Sprintf("the capture ends %d bytes before the end of the response body its Content-Length announced", f.left))
	case fHeaders, fReqHeaders:
		f.cut(end, "the capture ends inside an HTTP head")
	default:
		f.endBody()
	}
}

func isBlank(b []byte) bool {
	return len(b) == 0 || (len(b) == 1 && b[0] == '\n') || (len(b) == 2 && b[0] == '\r' && b[1] == '\n')
}

func trimEOL(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	return b
}

// clipLine is clip of b's first line: a message about a line quotes
// that line, not the start of the next.
func clipLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return clip(b)
}

func clip(b []byte) []byte {
	b = trimEOL(b)
	if len(b) > 40 {
		return b[:40]
	}
	return b
}

// transportErrorNote begins the line a capture's recorder writes after a
// request that got no response (Session.TransportError).
var transportErrorNote = []byte("# transport error:")

// isStatusLine matches "HTTP/1.1 200 OK".
func isStatusLine(b []byte) bool {
	if !bytes.HasPrefix(b, []byte("HTTP/")) {
		return false
	}
	sp := bytes.IndexByte(b, ' ')
	if sp < 0 || len(b) < sp+4 {
		return false
	}
	for _, c := range b[sp+1 : sp+4] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) == sp+4 || b[sp+4] == ' ' || b[sp+4] == '\r' || b[sp+4] == '\n'
}

func parseStatusLine(b []byte) (int, string) {
	b = trimEOL(b)
	sp := bytes.IndexByte(b, ' ')
	code, _ := strconv.Atoi(string(b[sp+1 : sp+4]))
	return code, strings.TrimSpace(string(b[sp+4:]))
}

// isRequestLine matches "GET /api/v1/pods?watch=1 HTTP/1.1".
func isRequestLine(b []byte) bool {
	b = trimEOL(b)
	// The method ends within 8 bytes: looking further, through a whole
	// event's line, was a pass over every body line read line by line.
	sp := bytes.IndexByte(b[:min(len(b), 8)], ' ')
	if sp < 3 {
		return false
	}
	for _, c := range b[:sp] {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	rest := b[sp+1:]
	sp2 := bytes.IndexByte(rest, ' ')
	return sp2 > 0 && bytes.HasPrefix(rest[sp2+1:], []byte("HTTP/"))
}

func parseRequest(b []byte) *Request {
	parts := strings.Fields(string(trimEOL(b)))
	return parseRequestURI(parts[0], parts[1])
}

// parseRequestURI reads a request's target and the watch options of its
// query.
func parseRequestURI(method, uri string) *Request {
	req := &Request{Method: method, Path: uri}
	if i := strings.Index(req.Path, "://"); i >= 0 { // absolute form, as proxies see it
		if j := strings.IndexByte(req.Path[i+3:], '/'); j >= 0 {
			req.Path = req.Path[i+3+j:]
		}
	}
	req.Path, req.Query, _ = strings.Cut(req.Path, "?")
	q, _ := url.ParseQuery(req.Query)
	truth := func(k string) bool {
		v := q.Get(k)
		return v == "1" || strings.EqualFold(v, "true")
	}
	req.Watch = truth("watch")
	req.AllowWatchBookmarks = truth("allowWatchBookmarks")
	req.SendInitialEvents = truth("sendInitialEvents")
	req.ResourceVersion = q.Get("resourceVersion")
	req.ResourceVersionMatch = q.Get("resourceVersionMatch")
	req.LabelSelector = q.Get("labelSelector")
	req.FieldSelector = q.Get("fieldSelector")
	req.TimeoutSeconds, _ = strconv.Atoi(q.Get("timeoutSeconds"))
	req.Timeout = q.Get("timeout")
	return req
}

// startsJSON reports whether a line starts a JSON object, after any
// indentation.
func startsJSON(b []byte) bool {
	b = bytes.TrimLeft(b, " \t")
	return len(b) > 0 && b[0] == '{'
}

func isChunkSizeLine(b []byte) bool {
	_, ok := parseChunkSize(b)
	return ok
}

// chunkSizeDigits returns the size of a chunk size line, without its
// extensions and line end.
func chunkSizeDigits(b []byte) []byte {
	b = trimEOL(b)
	if i := bytes.IndexByte(b, ';'); i >= 0 {
		b = b[:i]
	}
	return bytes.TrimRight(b, " \t")
}

// parseChunkSize reads "1a2b[;ext]" followed by CRLF or LF.
func parseChunkSize(b []byte) (int64, bool) {
	if len(b) == 0 || b[len(b)-1] != '\n' {
		return 0, false
	}
	b = chunkSizeDigits(b)
	if len(b) == 0 || len(b) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			n = n<<4 | int64(c-'0')
		case c >= 'a' && c <= 'f':
			n = n<<4 | int64(c-'a'+10)
		case c >= 'A' && c <= 'F':
			n = n<<4 | int64(c-'A'+10)
		default:
			return 0, false
		}
	}
	return n, true
}
