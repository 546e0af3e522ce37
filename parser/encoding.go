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
			rd = &gzipMembers{br: bufio.NewReaderSize(src, 4096)}
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
// bytes out as soon as it ends.
type gzipMembers struct {
	br *bufio.Reader
	zr gzip.Reader
	in bool // inside a member
}

func (g *gzipMembers) Read(p []byte) (int, error) {
	for {
		if !g.in {
			if _, err := g.br.Peek(1); err != nil {
				return 0, err
			}
			if err := g.zr.Reset(g.br); err != nil {
				return 0, err
			}
			g.zr.Multistream(false)
			g.in = true
		}
		n, err := g.zr.Read(p)
		if err == io.EOF {
			g.in = false
			err = nil
		}
		if n > 0 || err != nil {
			return n, err
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
			f.decodeErr()
			return
		}
		if out == nil {
			return
		}
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
		r.addDiag(Diagnostic{Offset: d.pieceRaw, Line: d.pieceNo, Kind: "too-big",
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
	r.addDiag(Diagnostic{Offset: off, Line: no, Kind: "bad-encoding", Msg: msg})
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
