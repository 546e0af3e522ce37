package parser

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"sync/atomic"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// countingReader counts the bytes taken from the caller's source and keeps
// its error apart, so that a failing source (an Err) can be told from a
// damaged compressed stream (a Diagnostic).
type countingReader struct {
	r io.Reader
	// n is atomic: with compressed input, the prefetching goroutine reads
	// while InputBytes is asked from the caller's.
	n   atomic.Int64
	err error
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	if err != nil && err != io.EOF {
		c.err = err
	}
	return n, err
}

var errTooBig = errors.New("decompressed size limit reached")

// capReader stops a decompressor at the configured limit: a few KB of gzip
// can expand to terabytes, and the caller asked for a bound.
type capReader struct {
	r    io.Reader
	left int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, errTooBig
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// peek reads up to len(buf) bytes and returns a reader that yields them again
// followed by the rest of r; sniffing must not lose the bytes it looked at.
func peek(r io.Reader, buf []byte) ([]byte, io.Reader, error) {
	n, err := io.ReadFull(r, buf)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	head := buf[:n]
	if err != nil {
		return head, nil, err
	}
	return head, io.MultiReader(&byteReader{b: head}, r), nil
}

// byteReader is bytes.Reader without the seek machinery; MultiReader drops it
// once drained.
type byteReader struct{ b []byte }

func (b *byteReader) Read(p []byte) (int, error) {
	if len(b.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, b.b)
	b.b = b.b[n:]
	return n, nil
}

// source is the decompressed, UTF-8 stream the line layer reads.
type source struct {
	r     io.Reader
	close func()
	codec string // "gzip", "zstd" or "" (for messages)
	// prefetch decompresses ahead, for compressed input only.
	prefetch *prefetchReader
	// wide is "UTF-16" or "UTF-32" for text transcoded to UTF-8, "" for
	// UTF-8.
	wide string
}

// openSource sniffs compression by magic bytes and UTF-16 or UTF-32 by
// its BOM or by NULs beside ASCII, never by file name: captures get
// renamed.
func openSource(cr *countingReader, maxDecompressed int64, prefetch bool) (source, *Diagnostic) {
	var s source
	head, r, err := peek(cr, make([]byte, 4))
	if err != nil {
		return source{r: eofReader{}}, nil
	}
	switch {
	case isGzip(head):
		zr, err := gzip.NewReader(r)
		if err != nil {
			return source{r: eofReader{}}, compressionDiag(cr, "gzip", err)
		}
		s.r, s.codec = &capReader{r: zr, left: maxDecompressed}, "gzip"
	case isZstd(head):
		zr, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxZstdWindow))
		if err != nil {
			return source{r: eofReader{}}, compressionDiag(cr, "zstd", err)
		}
		s.r, s.codec, s.close = &capReader{r: zr, left: maxDecompressed}, "zstd", zr.Close
	default:
		s.r = r
	}
	if prefetch && s.codec != "" {
		s.prefetch = newPrefetchReader(s.r)
		s.r = s.prefetch
	}
	if s.prefetch != nil {
		// Sniffed in place, so that the line reader can read the blocks
		// themselves (see lineReader.blocks).
		head = s.prefetch.peek(8)
	} else {
		head, r, err = peek(s.r, make([]byte, 8))
		if err != nil {
			// The error shows up again on the first read, where it is reported.
			return s, nil
		}
		s.r = r
	}
	if w, le := sniffWide(head); w > 0 {
		s.r, s.wide = &wideReader{r: r, width: w, le: le}, encodingName(w)
	}
	return s, nil
}

// isGzip and isZstd say whether head starts with the magic bytes of a
// gzip or a zstd stream.
func isGzip(head []byte) bool { return len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b }

func isZstd(head []byte) bool {
	return len(head) >= 4 && head[0] == 0x28 && head[1] == 0xb5 && head[2] == 0x2f && head[3] == 0xfd
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

func compressionDiag(cr *countingReader, codec string, err error) *Diagnostic {
	n := cr.n.Load()
	if errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded) {
		return &Diagnostic{Offset: n, Kind: DiagBadCompression,
			Msg: fmt.Sprintf("the zstd stream needs a window larger than %d bytes (what zstd --long=%d uses), which %s; what came before it was read", maxZstdWindow, bits.Len64(maxZstdWindow)-1, zstdWindowAdvice)}
	}
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return &Diagnostic{Offset: n, Kind: DiagBadCompression,
			Msg: fmt.Sprintf("the %s stream is cut short after %d input bytes; what came before it was read", codec, n)}
	}
	return &Diagnostic{Offset: n, Kind: DiagBadCompression,
		Msg: fmt.Sprintf("the %s stream is damaged after %d input bytes (%v); what came before it was read", codec, n, err)}
}

// sniffWide reports whether head starts UTF-16 or UTF-32 text: the width
// of its code units in bytes (2 or 4; 0 when it is neither) and their byte
// order. Without a BOM, the first character must be ASCII text (a tab,
// newline or printable), as every format read here starts: binary that
// starts 00 01 is not UTF-16, and the three NULs of an ASCII character in
// UTF-32 tell it from UTF-16. A second UTF-32 character, if head holds
// one, has its top byte zero too: a protobuf frame's 4-byte length, 00
// 00 00 4c, is followed by its magic "k8s\x00", which is not UTF-32.
func sniffWide(head []byte) (width int, littleEndian bool) {
	h := func(i int) int {
		if i < len(head) {
			return int(head[i])
		}
		return -1
	}
	switch {
	case h(0) == 0xff && h(1) == 0xfe && h(2) == 0 && h(3) == 0:
		return 4, true
	case h(0) == 0 && h(1) == 0 && h(2) == 0xfe && h(3) == 0xff:
		return 4, false
	case h(0) == 0xff && h(1) == 0xfe:
		return 2, true
	case h(0) == 0xfe && h(1) == 0xff:
		return 2, false
	case asciiText(h(0)) && h(1) == 0 && h(2) == 0 && h(3) == 0 && h(7) <= 0:
		return 4, true
	case h(0) == 0 && h(1) == 0 && h(2) == 0 && asciiText(h(3)) && h(4) <= 0:
		return 4, false
	case asciiText(h(0)) && h(1) == 0:
		return 2, true
	case h(0) == 0 && asciiText(h(1)):
		return 2, false
	}
	return 0, false
}

// asciiText reports a byte that can start a text file: a tab, a line
// break or a printable ASCII character.
func asciiText(c int) bool {
	return c == '\t' || c == '\n' || c == '\r' || c >= 0x20 && c < 0x7f
}

// encodingName names a text encoding of width-byte code units.
func encodingName(width int) string {
	if width == 4 {
		return "UTF-32"
	}
	return "UTF-16"
}

// wideDiag says that what (the capture, the export...) is UTF-16 or
// UTF-32 text (wide, as encodingName names it).
func wideDiag(wide, what string) Diagnostic {
	kind := DiagUTF16
	if wide == "UTF-32" {
		kind = DiagUTF32
	}
	return Diagnostic{Kind: kind,
		Msg: what + " is " + wide + " text; it was read as UTF-8 and offsets count its UTF-8 bytes"}
}

// wideReader transcodes UTF-16 or UTF-32 to UTF-8 so every later layer
// sees UTF-8; offsets after it count UTF-8 bytes, which Reader states in a
// diagnostic.
type wideReader struct {
	r       io.Reader
	width   int // 2 for UTF-16, 4 for UTF-32
	le      bool
	in      [16 << 10]byte
	n       int // undecoded bytes in in[:n]
	out     []byte
	err     error
	started bool
}

func (u *wideReader) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		if u.err != nil {
			if u.n > 0 { // trailing bytes short of a code unit cannot be a character
				u.n = 0
				u.out = utf8.AppendRune(u.out[:0], utf8.RuneError)
				continue
			}
			return 0, u.err
		}
		m, err := u.r.Read(u.in[u.n:])
		u.n += m
		u.err = err
		u.decode()
	}
	k := copy(p, u.out)
	u.out = u.out[k:]
	return k, nil
}

func (u *wideReader) decode() {
	out := u.out[:0]
	w := u.width
	i := 0
	for ; i+w <= u.n; i += w {
		c := u.unit(i)
		if !u.started {
			u.started = true
			if c == 0xfeff { // the BOM is not text
				continue
			}
		}
		if w == 2 && utf16.IsSurrogate(rune(c)) {
			if i+3 >= u.n {
				if u.err == nil {
					break // wait for the pair's second half
				}
				out = utf8.AppendRune(out, utf8.RuneError)
				continue
			}
			r := utf16.DecodeRune(rune(c), rune(u.unit(i+2)))
			if r != utf8.RuneError {
				i += 2
			}
			out = utf8.AppendRune(out, r)
			continue
		}
		// A UTF-32 unit past U+10FFFF (a negative rune here) or a
		// surrogate is no character: AppendRune writes U+FFFD for it.
		out = utf8.AppendRune(out, rune(c))
	}
	u.n = copy(u.in[:], u.in[i:u.n])
	u.out = out
}

func (u *wideReader) unit(i int) uint32 {
	b := u.in[i : i+u.width]
	if u.width == 2 {
		if u.le {
			return uint32(binary.LittleEndian.Uint16(b))
		}
		return uint32(binary.BigEndian.Uint16(b))
	}
	if u.le {
		return binary.LittleEndian.Uint32(b)
	}
	return binary.BigEndian.Uint32(b)
}

// Decoded returns the stream that Event and Diagnostic offsets count: r
// decompressed if it is gzip or zstd, and transcoded to UTF-8 if it is
// UTF-16 or UTF-32, sniffed as the Reader does. Skipping Event.Offset bytes of it and
// reading Event.Length gives the span EventJSON takes. A damaged stream
// is a read error here.
func Decoded(r io.Reader) io.Reader {
	src, d := openSource(&countingReader{r: r}, defaultMaxDecompressed, false)
	if d != nil {
		return errReader{errors.New(d.Msg)}
	}
	return src.r
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
