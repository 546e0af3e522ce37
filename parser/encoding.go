package parser

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"runtime"
	"strings"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
)

// A response body with a Content-Encoding (gzip, what the API server sends
// to any client asking for it, as Go's HTTP client does by default) is
// decoded as it streams: the framer removes the chunked framing as for any
// body and pushes the encoded bytes, piece by piece, into a decompressor
// that runs as a coroutine (iter.Pull) and pulls them as they come; what it
// decodes goes on to the body scanner line by line, as a plain body would.
// Memory stays bounded by the decompressor's window and the events queued.
//
// Where an event of such a body lies in the capture is told differently,
// since its bytes are not in the capture as such: see Event.Encoded and
// EncodedEventJSON.

// bodyDecoder decodes one encoded response body.
type bodyDecoder struct {
	codec string
	next  func() ([]byte, bool)
	stop  func()
	in    []byte // encoded bytes pushed and not yet taken
	eof   bool   // the body has ended: no more bytes will be pushed
	err   error  // why decoding stopped early, if it did
	dead  bool   // the decompressor has returned
	// pending is set when decoding stopped, with input left, to let the
	// queued events be taken first.
	pending bool
	// The encoded piece being decoded: where it ends in the stream, its
	// first byte's offset, line and arrival time.
	pieceRaw, pieceEnd int64
	pieceNo            int
	arrival            int64
	total              int64 // decoded bytes so far: offset in the decoded body
	lineNo             int   // line in the decoded body
	sessOffset         int64 // the session's offset
	left               int64 // what the body may expand to
	// encIn and encOut count the encoded bytes pushed and handed to the
	// decompressor; pieces are the last pieces pushed, to tell where in
	// the capture an encoded byte was.
	encIn, encOut int64
	pieces        [64]encPiece
	npieces       int
	// damage lists the damaged gzip members not yet reported.
	damage []gzipDamage
}

// encPiece is a pushed piece: its first byte's offset in the encoded body,
// in the capture, and its line.
type encPiece struct {
	enc, raw int64
	no       int
}

// gzipDamage is a damaged gzip member: where in the encoded body decoding
// failed, why, and where it resumed (-1 until a next member is found).
type gzipDamage struct {
	at, resumed int64
	err         error
}

// decRef holds a Reader's decoder for the cleanup that stops it when the
// Reader is dropped in the middle of an encoded body: the decoder's
// coroutine would otherwise wait forever. It must not point to the Reader.
type decRef struct{ d *bodyDecoder }

func stopDecoder(h *decRef) {
	if h.d != nil {
		h.d.stop()
	}
}

// supportedEncoding returns the codec for a Content-Encoding value, or "".
func supportedEncoding(v string) string {
	v = strings.ToLower(strings.TrimSpace(v))
	switch v {
	case "gzip", "x-gzip":
		return "gzip"
	case "deflate", "zstd":
		return v
	}
	return ""
}

var errStopped = errors.New("decoding stopped")

func newBodyDecoder(codec string, sessOffset int64, left int64) *bodyDecoder {
	d := &bodyDecoder{codec: codec, sessOffset: sessOffset, lineNo: 1, left: left}
	d.next, d.stop = iter.Pull(func(yield func([]byte) bool) {
		src := &pushReader{d: d, yield: yield}
		var rd io.Reader
		switch codec {
		case "gzip":
			// Member by member: a multistream reader would hold a member's
			// last bytes until the next one's header came.
			rd = &gzipMembers{br: bufio.NewReaderSize(src, 4096), d: d}
		case "zstd":
			zr, err := zstd.NewReader(src, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(64<<20))
			if err != nil {
				d.setErr(err)
				return
			}
			defer zr.Close()
			rd = zr
		case "deflate":
			// HTTP's deflate is zlib; some servers send raw deflate.
			br := bufio.NewReaderSize(src, 512)
			h, err := br.Peek(2)
			if err != nil {
				d.setErr(err)
				return
			}
			if h[0]&0x0f == 8 && (int(h[0])<<8|int(h[1]))%31 == 0 {
				zr, err := zlib.NewReader(br)
				if err != nil {
					d.setErr(err)
					return
				}
				rd = zr
			} else {
				rd = flate.NewReader(br)
			}
		}
		buf := make([]byte, 32<<10)
		for {
			n, err := rd.Read(buf)
			if n > 0 {
				if d.left < int64(n) {
					d.err = errTooBig
					return
				}
				d.left -= int64(n)
				if !yield(buf[:n]) {
					return
				}
			}
			if err != nil {
				d.setErr(err)
				return
			}
		}
	})
	return d
}

func (d *bodyDecoder) setErr(err error) {
	if err == io.EOF && !d.eof {
		err = io.ErrUnexpectedEOF
	}
	if err != io.EOF && err != errStopped {
		d.err = err
	}
}

// gzipMembers reads gzip members one after the other, giving each one's
// bytes out as soon as it ends. A damaged member is recorded in d.damage
// and reading resumes at the next member header (1f 8b 08) after the
// damage: a recorder that reconnects, or flushes a member per write, puts
// many members in one body, and one bad member need not cost the others.
type gzipMembers struct {
	br     *bufio.Reader
	zr     gzip.Reader
	in     bool // inside a member
	d      *bodyDecoder
	resync bool // looking for the next member after damage
}

var gzipMagic = []byte{0x1f, 0x8b, 0x08}

func (g *gzipMembers) Read(p []byte) (int, error) {
	for {
		if !g.in {
			if g.resync {
				if err := g.seek(); err != nil {
					return 0, err
				}
			}
			if _, err := g.br.Peek(1); err != nil {
				return 0, err
			}
			at := g.pos()
			if err := g.zr.Reset(g.br); err != nil {
				if !damaged(err) {
					return 0, err
				}
				g.damaged(at, err)
				continue
			}
			g.zr.Multistream(false)
			g.in = true
		}
		n, err := g.zr.Read(p)
		if err == io.EOF {
			g.in = false
			err = nil
		} else if err != nil && damaged(err) {
			g.damaged(g.pos(), err)
			err = nil
		}
		if n > 0 || err != nil {
			return n, err
		}
	}
}

// damaged tells damaged data from the end of the input (a body cut off,
// reported as such) and from the decoder being stopped.
func damaged(err error) bool {
	return err != io.EOF && err != io.ErrUnexpectedEOF && err != errStopped
}

// pos returns the offset in the encoded body of the next byte the gzip
// reader takes.
func (g *gzipMembers) pos() int64 { return g.d.encOut - int64(g.br.Buffered()) }

func (g *gzipMembers) damaged(at int64, err error) {
	g.d.damage = append(g.d.damage, gzipDamage{at: at, resumed: -1, err: err})
	g.in, g.resync = false, true
}

// seek skips to the next gzip member header; at the end of the body it
// returns io.EOF.
func (g *gzipMembers) seek() error {
	for {
		h, err := g.br.Peek(3)
		if bytes.Equal(h, gzipMagic) {
			g.resync = false
			g.d.damage[len(g.d.damage)-1].resumed = g.pos()
			return nil
		}
		if err != nil {
			return err
		}
		buf, _ := g.br.Peek(g.br.Buffered())
		if k := bytes.Index(buf[1:], gzipMagic); k >= 0 {
			g.br.Discard(1 + k)
		} else {
			g.br.Discard(max(1, len(buf)-2))
		}
	}
}

// pushReader hands the decompressor the bytes pushed, and gives control back
// (a nil yield) when it has none.
type pushReader struct {
	d     *bodyDecoder
	yield func([]byte) bool
}

func (p *pushReader) Read(b []byte) (int, error) {
	d := p.d
	for len(d.in) == 0 {
		if d.eof {
			return 0, io.EOF
		}
		if !p.yield(nil) {
			return 0, errStopped
		}
	}
	n := copy(b, d.in)
	d.in = d.in[n:]
	d.encOut += int64(n)
	return n, nil
}

// maxQueuedDecoded is how many events decoding queues before it pauses for
// them to be taken.
const maxQueuedDecoded = 512

// decode pushes the encoded bytes b, at stream offset raw, to the decoder.
func (f *framer) decode(b []byte, raw int64, no int, arrival int64) {
	d := f.dec
	if d.pending {
		f.pull(false)
	}
	if d.dead || len(b) == 0 {
		return
	}
	d.in, d.pieceRaw, d.pieceEnd, d.pieceNo, d.arrival = b, raw, raw+int64(len(b)), no, arrival
	d.pieces[d.npieces%len(d.pieces)] = encPiece{enc: d.encIn, raw: raw, no: no}
	d.npieces++
	d.encIn += int64(len(b))
	f.pull(true)
}

// pull runs the decoder until it needs more input or ends; with pause, it
// stops early once many events are queued (pending).
func (f *framer) pull(pause bool) {
	d := f.dec
	r := f.r
	d.pending = false
	for !d.dead {
		if pause && len(r.queue)-r.qhead >= maxQueuedDecoded {
			d.pending = true
			return
		}
		out, ok := d.next()
		if !ok {
			d.dead = true
			d.in = nil
			f.reportDamage(true)
			f.decodeErr()
			return
		}
		if out == nil {
			return
		}
		f.reportDamage(false)
		f.feedDecoded(out)
	}
}

// feedDecoded hands decoded bytes to the body scanner one line at a time.
// The queued events keep their bytes, which the decompressor will write
// over: those are copied.
func (f *framer) feedDecoded(out []byte) {
	r, d := f.r, f.dec
	q0 := len(r.queue)
	r.decoding = true
	for len(out) > 0 {
		ln := out
		if i := bytes.IndexByte(out, '\n'); i >= 0 {
			ln = out[:i+1]
		}
		r.body.feed(ln, d.total, d.lineNo, d.arrival)
		d.total += int64(len(ln))
		if ln[len(ln)-1] == '\n' {
			d.lineNo++
		}
		out = out[len(ln):]
	}
	r.decoding = false
	for i := q0; i < len(r.queue); i++ {
		r.queue[i].raw = bytes.Clone(r.queue[i].raw)
	}
}

// reportDamage reports the damaged gzip members whose decoding resumed, or
// all of them at the end. Reading resumes with a new member: the event the
// damage cut is given up.
func (f *framer) reportDamage(end bool) {
	r, d := f.r, f.dec
	for len(d.damage) > 0 && (end || d.damage[0].resumed >= 0) {
		dm := d.damage[0]
		d.damage = d.damage[1:]
		raw, no := f.encodedAt(dm.at)
		what := "no gzip member follows it in this body, so the rest of the body is skipped"
		if dm.resumed >= 0 {
			what = fmt.Sprintf("decoding resumed at the next gzip member, at encoded byte %d", dm.resumed)
		}
		r.addDiag(Diagnostic{Offset: raw, Line: no, Kind: DiagBadEncoding,
			Msg: fmt.Sprintf("the gzip-encoded body of the response at offset %d is damaged here, at its encoded byte %d (%v); %s; the events decoded before were read", d.sessOffset, dm.at, dm.err, what)})
		r.decoding = true
		r.body.breakOff(fmt.Sprintf("the event starting here breaks off where the gzip data is damaged (encoded byte %d of the body); it is skipped", dm.at))
		r.decoding = false
	}
}

// encodedAt returns the capture offset and line of the encoded body's byte
// enc, as near as the pieces remembered tell.
func (f *framer) encodedAt(enc int64) (int64, int) {
	d := f.dec
	for k := d.npieces - 1; k >= max(0, d.npieces-len(d.pieces)); k-- {
		p := d.pieces[k%len(d.pieces)]
		if p.enc <= enc || k == max(0, d.npieces-len(d.pieces)) {
			return p.raw + max(0, enc-p.enc), p.no
		}
	}
	return d.pieceRaw, d.pieceNo
}

// finishDecode ends the body: the decoder gets its last bytes, and what it
// still holds goes to the body scanner.
func (f *framer) finishDecode() {
	d := f.dec
	if d == nil {
		return
	}
	if d.pending {
		f.pull(false)
	}
	d.eof = true
	d.in = nil
	f.pull(false)
	r := f.r
	r.decoding = true
	r.body.endSession()
	r.decoding = false
	r.encLeft = d.left
	d.stop()
	f.dec = nil
	r.decHold.d = nil
}

// startDecode makes the decoder of an encoded body.
func (f *framer) startDecode(codec string, sessOffset int64) {
	r := f.r
	if r.decHold == nil {
		r.decHold = &decRef{}
		runtime.AddCleanup(r, stopDecoder, r.decHold)
	}
	f.dec = newBodyDecoder(codec, sessOffset, r.encLeft)
	r.decHold.d = f.dec
}

func (f *framer) decodeErr() {
	d := f.dec
	if d.err == nil {
		return
	}
	r := f.r
	if d.err == errTooBig {
		r.addDiag(Diagnostic{Offset: d.pieceRaw, Line: d.pieceNo, Kind: DiagTooBig,
			Msg: fmt.Sprintf("the %s-encoded response body at offset %d expands beyond what Options.MaxDecompressed allows, which looks like a decompression bomb; the rest of this body is skipped", d.codec, d.sessOffset)})
		return
	}
	var msg string
	if d.eof && d.err == io.ErrUnexpectedEOF {
		msg = fmt.Sprintf("the %s-encoded body of the response at offset %d ends before its compressed data does (cut off); the events decoded before were read", d.codec, d.sessOffset)
	} else {
		msg = fmt.Sprintf("the %s-encoded body of the response at offset %d is damaged near here (%v); the rest of this body is skipped, the events decoded before were read", d.codec, d.sessOffset, d.err)
	}
	off, no := d.pieceRaw, d.pieceNo
	if d.eof {
		off, no = d.pieceEnd, 0
	}
	r.addDiag(Diagnostic{Offset: off, Line: no, Kind: DiagBadEncoding, Msg: msg})
}

// decodedDiag moves a diagnostic about decoded bytes to the encoded piece
// that produced them.
func (r *Reader) decodedDiag(d *Diagnostic) {
	dec := r.frame.dec
	d.Msg = fmt.Sprintf("%s (in the %s-decoded body of the response at offset %d, at its byte %d, line %d; offsets in this message count decoded bytes)",
		d.Msg, dec.codec, dec.sessOffset, d.Offset, d.Line)
	d.Offset, d.Line = dec.pieceRaw, dec.pieceNo
}

// EncodedEventJSON returns the JSON of an event read from a body with a
// Content-Encoding (Event.Encoded): span is the decoded stream's bytes
// [Offset, Offset+Length), as for EventJSON, and bodyOffset the event's
// Event.BodyOffset. It decodes the response again up to the event.
func EncodedEventJSON(span []byte, bodyOffset int64) ([]byte, error) {
	rd := NewReader(bytes.NewReader(span), Options{})
	defer func() {
		if rd.decHold != nil {
			stopDecoder(rd.decHold)
		}
	}()
	for rd.Next() {
		ev := rd.Event()
		if ev.Session != 0 || !ev.Encoded || ev.BodyOffset != bodyOffset {
			continue
		}
		raw := rd.Raw()
		if isProtobuf(raw) {
			return protobufJSON(raw)
		}
		if len(raw) == 0 || raw[0] != '{' {
			return nil, errors.New("the event is not JSON")
		}
		return bytes.Clone(raw), nil
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("no event at byte %d of the decoded body in this span: wrong span or offset", bodyOffset)
}
