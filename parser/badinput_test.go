package parser

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http/httputil"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/klauspost/compress/gzip"

	"watchlens/internal/synth"
)

func kinds(c *Capture) []string {
	var k []string
	for _, d := range c.Diagnostics {
		k = append(k, string(d.Kind))
	}
	return k
}

func wantDiag(t *testing.T, c *Capture, kind string) Diagnostic {
	t.Helper()
	for _, d := range c.Diagnostics {
		if string(d.Kind) == kind {
			if d.Msg == "" {
				t.Errorf("diagnostic %s has no message", kind)
			}
			return d
		}
	}
	t.Fatalf("no %q diagnostic; got %v", kind, c.Diagnostics)
	return Diagnostic{}
}

func names(c *Capture) string {
	var s []string
	for _, e := range c.Events {
		s = append(s, e.Name)
	}
	return strings.Join(s, ",")
}

func ev(typ, name, rv string) string {
	return fmt.Sprintf(`{"type":%q,"object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":%q,"namespace":"ns","resourceVersion":%q},"data":{"k":"v{[\"]}"}}}`, typ, name, rv)
}

func TestGarbage(t *testing.T) {
	in := ev("ADDED", "a", "1") + "\n\x00\xff garbage {not json\n" + ev("MODIFIED", "b", "2") + "junk" + ev("DELETED", "c", "3") + "\n"
	c := mustRead(t, []byte(in))
	if names(c) != "a,b,c" {
		t.Fatalf("events %q, diagnostics %v", names(c), c.Diagnostics)
	}
	d := wantDiag(t, c, "bad-json")
	if d.Offset != int64(len(ev("ADDED", "a", "1"))+1) || d.Line != 2 {
		t.Errorf("diagnostic at %d line %d", d.Offset, d.Line)
	}
}

// TestGarbageQuotesItsLine: the message of a short line of garbage
// quotes that line, not the start of the event on the next, also where
// the Reader reads runs of whole lines at once (after the first few).
func TestGarbageQuotesItsLine(t *testing.T) {
	var in strings.Builder
	for i := range 100 {
		in.WriteString(ev("ADDED", fmt.Sprint("a", i), fmt.Sprint(i+1)) + "\n")
	}
	in.WriteString("garbage\n" + ev("ADDED", "b", "200") + "\n")
	c := mustRead(t, []byte(in.String()))
	if len(c.Events) != 101 {
		t.Fatalf("%d events, diagnostics %v", len(c.Events), c.Diagnostics)
	}
	if d := wantDiag(t, c, "bad-json"); !strings.HasPrefix(d.Msg, `found "garbage" where`) {
		t.Errorf("the message quotes more than its line: %s", d.Msg)
	}
}

func TestCutEvents(t *testing.T) {
	a, b := ev("ADDED", "a", "1"), ev("MODIFIED", "b", "2")
	t.Run("ndjson", func(t *testing.T) {
		c := mustRead(t, []byte(a[:50]+"\n"+b+"\n"+a[:70]))
		if names(c) != "b" {
			t.Fatalf("events %q", names(c))
		}
		if k := kinds(c); len(k) != 2 || k[0] != "cut-event" || k[1] != "cut-event" {
			t.Fatalf("diagnostics %v", c.Diagnostics)
		}
		if !c.Sessions[0].Truncated {
			t.Error("session not marked truncated")
		}
	})
	t.Run("inside a string", func(t *testing.T) {
		c := mustRead(t, []byte(a[:len(a)-12]+"\n"+b+"\n"))
		if names(c) != "b" {
			t.Fatalf("events %q %v", names(c), c.Diagnostics)
		}
		wantDiag(t, c, "cut-event")
	})
	t.Run("chunked, inside a chunk", func(t *testing.T) {
		body := chunk([]byte(a+"\n"+b+"\n"), "\r\n", 100)
		in := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + string(body[:len(body)-120])
		c := mustRead(t, []byte(in))
		if names(c) != "a" {
			t.Fatalf("events %q", names(c))
		}
		wantDiag(t, c, "truncated")
		wantDiag(t, c, "cut-event")
		if !c.Sessions[0].Truncated {
			t.Error("session not marked truncated")
		}
	})
	t.Run("chunked, then a new response", func(t *testing.T) {
		head := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
		first := chunk([]byte(a+"\n"+b+"\n"), "\r\n", 1000)
		in := head + string(first[:len(first)-10]) + "\r\n" + head + string(chunk([]byte(b+"\n"), "\r\n", 30))
		c := mustRead(t, []byte(in))
		if names(c) != "a,b,b" || len(c.Sessions) != 2 || c.Events[2].Session != 1 {
			t.Fatalf("events %q sessions %d diagnostics %v", names(c), len(c.Sessions), c.Diagnostics)
		}
	})
}

func TestLyingChunkSizes(t *testing.T) {
	a, b, cc := ev("ADDED", "a", "1")+"\n", ev("MODIFIED", "b", "2")+"\n", ev("DELETED", "c", "3")+"\n"
	head := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
	for name, size := range map[string]int{"too small": len(b) - 20, "too large": len(b) + 9, "far too large": 1 << 20, "not hex": -1} {
		t.Run(name, func(t *testing.T) {
			sz := fmt.Sprintf("%x", size)
			if size < 0 {
				sz = "zz"
			}
			in := head + fmt.Sprintf("%x\r\n%s\r\n", len(a), a) + sz + "\r\n" + b + "\r\n" +
				fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(cc), cc)
			c := mustRead(t, []byte(in))
			if len(c.Diagnostics) == 0 {
				t.Fatal("no diagnostic")
			}
			if !strings.HasPrefix(names(c), "a") {
				t.Fatalf("events %q", names(c))
			}
			if size != 1<<20 && names(c) != "a,b,c" && names(c) != "a,c" {
				t.Fatalf("events %q, diagnostics %v", names(c), c.Diagnostics)
			}
		})
	}
}

// TestHugeLine reads a 100 MB line (10 MB under wasm, where memory is
// scarcer): it is skipped with a diagnostic and what follows is read.
func TestHugeLine(t *testing.T) {
	size := 100 << 20
	if runtime.GOARCH == "wasm" {
		size = 10 << 20
	}
	for _, shape := range []string{"garbage", "event"} {
		t.Run(shape, func(t *testing.T) {
			var src io.Reader
			var huge io.Reader = io.LimitReader(repeatReader('x'), int64(size))
			if shape == "event" {
				huge = io.MultiReader(strings.NewReader(`{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"big","resourceVersion":"5"},"data":{"k":"`),
					huge, strings.NewReader(`"}}}`))
			}
			src = io.MultiReader(strings.NewReader(ev("ADDED", "a", "1")+"\n"), huge, strings.NewReader("\n"+ev("ADDED", "b", "2")+"\n"))
			c, err := ReadAll(src, Options{MaxEventSize: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			if names(c) != "a,b" {
				t.Fatalf("events %q, diagnostics %v", names(c), c.Diagnostics)
			}
			if shape == "event" {
				wantDiag(t, c, "event-too-big")
			} else {
				wantDiag(t, c, "bad-json")
			}
		})
	}
}

type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

func TestNoTypeNoObject(t *testing.T) {
	in := `{"object":{"kind":"Pod","metadata":{"resourceVersion":"1"}}}` + "\n" +
		`{"type":"ADDED"}` + "\n" + `{"type":"WEIRD","object":{}}` + "\n" + `{"foo":1}` + "\n" + ev("ADDED", "ok", "9") + "\n"
	c := mustRead(t, []byte(in))
	if names(c) != "ok" {
		t.Fatalf("events %q", names(c))
	}
	if k := strings.Join(kinds(c), ","); k != "no-type,no-object,bad-type,not-event" {
		t.Fatalf("diagnostics %v", c.Diagnostics)
	}
}

// A resourceVersion is a string of decimal digits, an etcd revision: an
// int64. Anything else is kept as sent, without a number, and said.
func TestBadResourceVersion(t *testing.T) {
	withRV := func(typ, name, rv string) string {
		return `{"type":"` + typ + `","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"` + name + `","resourceVersion":` + rv + `}}}`
	}
	in := ev("ADDED", "a", "12x") + "\n" + ev("BOOKMARK", "b", "") + "\n" + ev("MODIFIED", "c", "18446744073709551616") + "\n" +
		`{"type":"ERROR","object":{"kind":"Status","code":500}}` + "\n" + ev("DELETED", "d", "18446744073709551615") + "\n" +
		ev("MODIFIED", "e", "9223372036854775808") + "\n" + withRV("MODIFIED", "f", "1.5e3") + "\n" + withRV("MODIFIED", "g", `"1.5e3"`) + "\n" +
		ev("DELETED", "h", "9223372036854775807") + "\n" + withRV("ADDED", "i", "42") + "\n"
	c := mustRead(t, []byte(in))
	if len(c.Events) != 10 {
		t.Fatalf("%d events", len(c.Events))
	}
	if k := strings.Join(kinds(c), ","); k != "bad-rv,bad-rv,bad-rv,bad-rv,bad-rv,bad-rv,bad-rv" {
		t.Fatalf("diagnostics %v", c.Diagnostics)
	}
	for i, e := range c.Events[:8] {
		if e.RVValid || e.RVNum != 0 {
			t.Errorf("event %d RV %q valid", i, e.RV)
		}
	}
	// The ERROR event, 3, has no resourceVersion to check.
	for ev, d := range map[int]int{2: 2, 4: 3, 5: 4} {
		if d := c.Diagnostics[d]; d.Offset != c.Events[ev].Offset || !strings.Contains(d.Msg, "out of range") {
			t.Errorf("event %d: %v", ev, d)
		}
	}
	if e := c.Events[8]; !e.RVValid || e.RVNum != 1<<63-1 {
		t.Errorf("the largest etcd revision: %+v", e)
	}
	if e := c.Events[9]; !e.RVValid || e.RVNum != 42 || e.RV != "42" {
		t.Errorf("a resourceVersion sent as a JSON number: %+v", e)
	}
	for i, want := range map[int]string{0: "12x", 4: "18446744073709551615", 6: "1.5e3", 7: "1.5e3"} {
		if c.Events[i].RV != want {
			t.Errorf("event %d: RV %q, sent as %q", i, c.Events[i].RV, want)
		}
	}
}

// An event whose object is null is no event: it is said so, and skipped.
func TestNullObject(t *testing.T) {
	c := mustRead(t, []byte(`{"type":"ADDED","object":null}`+"\n"+ev("ADDED", "a", "1")+"\n"))
	if names(c) != "a" || len(c.Diagnostics) != 1 {
		t.Fatalf("events %q, diagnostics %v", names(c), c.Diagnostics)
	}
	if d := c.Diagnostics[0]; d.Kind != "null-object" || d.Offset != 0 || !strings.Contains(d.Msg, "null") {
		t.Errorf("diagnostic %v", d)
	}
}

// An event whose object is a string, a number or an array is no event
// either: the diagnostic says what the object is, where the event starts
// (it said that the resourceVersion "" was not a number, and kept it).
func TestObjectNotAnObject(t *testing.T) {
	lead := ev("ADDED", "a", "1") + "\n"
	for object, want := range map[string]string{
		`"string"`:         `is a string, "string", not`,
		`42`:               "is a number, 42, not",
		`[{"kind":"Pod"}]`: "is an array",
		`true`:             "is a boolean",
	} {
		in := lead + `{"type":"MODIFIED","object":` + object + `}` + "\n" + ev("ADDED", "b", "2") + "\n"
		c := mustRead(t, []byte(in))
		if names(c) != "a,b" || len(c.Diagnostics) != 1 {
			t.Fatalf("object %s: events %q, diagnostics %v", object, names(c), c.Diagnostics)
		}
		if d := c.Diagnostics[0]; d.Kind != "not-object" || d.Offset != int64(len(lead)) || d.Line != 2 ||
			!strings.Contains(d.Msg, "MODIFIED event "+want) || strings.Contains(d.Msg, "resourceVersion") {
			t.Errorf("object %s: diagnostic %+v", object, d)
		}
	}
}

// A million '[' before an event are diagnosed once, at the first, and the
// event after them is read; a single array of events is no matter for a
// diagnostic.
func TestNestedArrays(t *testing.T) {
	lead := ev("ADDED", "a", "1") + "\n"
	in := lead + strings.Repeat("[", 1_000_000) + ev("ADDED", "b", "2") + "\n"
	c := mustRead(t, []byte(in))
	if names(c) != "a,b" || len(c.Diagnostics) != 1 {
		t.Fatalf("events %q, %d diagnostics", names(c), len(c.Diagnostics))
	}
	if d := c.Diagnostics[0]; d.Kind != "nested-arrays" || d.Offset != int64(len(lead)) || d.Line != 2 || !strings.Contains(d.Msg, "1000000 '['") {
		t.Errorf("diagnostic %+v", d)
	}
	c = mustRead(t, []byte("[\n"+ev("ADDED", "a", "1")+",\n"+ev("ADDED", "b", "2")+"\n]\n"))
	if names(c) != "a,b" || len(c.Diagnostics) != 0 {
		t.Errorf("a JSON array of events: events %q, diagnostics %v", names(c), c.Diagnostics)
	}
	c = mustRead(t, []byte("[[\n"+ev("ADDED", "a", "1")+"],\n[\n"+ev("ADDED", "b", "2")+"\n]]\n"))
	if names(c) != "a,b" || len(c.Diagnostics) != 1 || c.Diagnostics[0].Offset != 0 || !strings.Contains(c.Diagnostics[0].Msg, "2 '['") {
		t.Errorf("arrays of arrays of events: events %q, diagnostics %v", names(c), c.Diagnostics)
	}
}

func TestGzipCutShort(t *testing.T) {
	var plain bytes.Buffer
	for i := range 2000 {
		plain.WriteString(ev("ADDED", fmt.Sprint("n", i), fmt.Sprint(i+1)) + "\n")
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	zw.Write(plain.Bytes())
	zw.Close()
	c := mustRead(t, gz.Bytes()[:gz.Len()/2])
	d := wantDiag(t, c, "bad-compression")
	if !strings.Contains(d.Msg, "cut short") {
		t.Errorf("message %q", d.Msg)
	}
	if len(c.Events) < 100 || len(c.Events) >= 2000 {
		t.Fatalf("%d events read before the cut", len(c.Events))
	}
	for i, e := range c.Events {
		if e.Name != fmt.Sprint("n", i) {
			t.Fatalf("event %d is %s", i, e.Name)
		}
	}
}

func TestDecompressionBomb(t *testing.T) {
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write([]byte(ev("ADDED", "a", "1") + "\n"))
	zeros := make([]byte, 1<<20)
	for range 64 {
		zw.Write(zeros)
	}
	zw.Close()
	if gz.Len() > 200<<10 {
		t.Fatalf("bomb is %d bytes", gz.Len())
	}
	c, err := ReadAll(bytes.NewReader(gz.Bytes()), Options{MaxDecompressed: 8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	d := wantDiag(t, c, "too-big")
	if !strings.Contains(d.Msg, "decompression bomb") || !strings.Contains(d.Msg, "8388608") {
		t.Errorf("message %q", d.Msg)
	}
	if names(c) != "a" {
		t.Errorf("events %q", names(c))
	}
}

// An empty capture, or one of white space, is no error but says so, so
// that the page and the report can tell why nothing is shown.
func TestEmpty(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Close()
	for in, want := range map[string]string{
		"":           "the capture is empty",
		"\n\r\n  \n": "the capture holds no event, only white space",
		gz.String():  "the gzip stream decompresses to nothing",
	} {
		c := mustRead(t, []byte(in))
		if len(c.Events) != 0 || len(c.Diagnostics) != 1 || c.Diagnostics[0].Kind != "empty" || c.Diagnostics[0].Msg != want || c.Diagnostics[0].Offset != 0 {
			t.Errorf("%q: %+v, want one diagnostic %q", in, c, want)
		}
	}
	// The brackets and commas of a JSON array of events are passed over,
	// and a capture of nothing else says so.
	for _, in := range []string{"[[[[", "[]\n", " [ , ] "} {
		c := mustRead(t, []byte(in))
		if len(c.Events) != 0 || len(c.Diagnostics) != 1 || c.Diagnostics[0].Kind != "empty" ||
			c.Diagnostics[0].Msg != "the capture holds no event, only the brackets and commas of a JSON array, and white space" {
			t.Errorf("%q: %+v", in, c)
		}
	}
	// A response with no event is not empty: its head says what happened.
	c := mustRead(t, []byte("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))
	if len(c.Diagnostics) != 0 {
		t.Errorf("a bodiless response: %v", c.Diagnostics)
	}
}

func TestEncodings(t *testing.T) {
	text := ev("ADDED", "ä-ünï", "1") + "\n" + ev("ADDED", "😀", "2") + "\n"
	utf16le := func(s string, bom bool, big bool) []byte {
		var b []byte
		u := utf16.Encode([]rune(s))
		if bom {
			u = append([]uint16{0xfeff}, u...)
		}
		for _, c := range u {
			if big {
				b = append(b, byte(c>>8), byte(c))
			} else {
				b = append(b, byte(c), byte(c>>8))
			}
		}
		return b
	}
	utf32 := func(s string, bom bool, big bool) []byte {
		var b []byte
		r := []rune(s)
		if bom {
			r = append([]rune{0xfeff}, r...)
		}
		for _, c := range r {
			if big {
				b = binary.BigEndian.AppendUint32(b, uint32(c))
			} else {
				b = binary.LittleEndian.AppendUint32(b, uint32(c))
			}
		}
		return b
	}
	for name, in := range map[string][]byte{
		"utf-8 bom":  append([]byte("\xef\xbb\xbf"), text...),
		"utf-16le":   utf16le(text, true, false),
		"utf-16be":   utf16le(text, true, true),
		"utf-16le-0": utf16le(text, false, false),
		"utf-16be-0": utf16le(text, false, true),
		"utf-32le":   utf32(text, true, false),
		"utf-32be":   utf32(text, true, true),
		"utf-32le-0": utf32(text, false, false),
		"utf-32be-0": utf32(text, false, true),
	} {
		t.Run(name, func(t *testing.T) {
			c := mustRead(t, in)
			if names(c) != "ä-ünï,😀" {
				t.Fatalf("events %q, diagnostics %v", names(c), c.Diagnostics)
			}
			decoded, err := io.ReadAll(Decoded(bytes.NewReader(in)))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range c.Events {
				if js, err := EventJSON(decoded[e.Offset : e.Offset+e.Length]); err != nil || !bytes.Contains(js, []byte(e.Name)) {
					t.Errorf("event %d from Decoded: %s %v", e.Seq, js, err)
				}
			}
			if strings.HasPrefix(name, "utf-16") || strings.HasPrefix(name, "utf-32") {
				if d := wantDiag(t, c, name[:6]); !strings.Contains(d.Msg, strings.ToUpper(name[:6])+" text") || len(c.Diagnostics) != 1 {
					t.Errorf("diagnostics %v", c.Diagnostics)
				}
			} else {
				noDiags(t, c)
				if c.Events[0].Offset != 3 {
					t.Errorf("offset %d, want 3 (after the BOM)", c.Events[0].Offset)
				}
			}
		})
	}
}

// Binary that starts 00 01 is not UTF-16 (it was transcoded into Chinese
// characters): it is read as the bytes it is, and found to be no capture.
func TestBinaryIsNotUTF16(t *testing.T) {
	for _, in := range []string{"\x00\x01\x02\x03binary junk\n", "\x01\x00\x00\x01binary junk\n"} {
		c := mustRead(t, []byte(in))
		if len(c.Events) != 0 || len(c.Diagnostics) != 1 {
			t.Fatalf("%q: events %q, diagnostics %v", in, names(c), c.Diagnostics)
		}
		if d := c.Diagnostics[0]; d.Kind != "bad-json" || d.Offset != 0 || !strings.Contains(d.Msg, `"\x00\x01\x02\x03binary`) && !strings.Contains(d.Msg, `"\x01\x00\x00\x01binary`) {
			t.Errorf("%q: diagnostic %+v", in, d)
		}
	}
}

type failingReader struct {
	r   io.Reader
	err error
}

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, f.err
	}
	return n, err
}

func TestSourceErrorIsErr(t *testing.T) {
	boom := errors.New("disk on fire")
	in := ev("ADDED", "a", "1") + "\n"
	c, err := ReadAll(&failingReader{strings.NewReader(in), boom}, Options{})
	if !errors.Is(err, boom) || names(c) != "a" {
		t.Fatalf("err %v events %q", err, names(c))
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(in))
	zw.Close()
	c, err = ReadAll(&failingReader{bytes.NewReader(gz.Bytes()[:gz.Len()-3]), boom}, Options{})
	if !errors.Is(err, boom) {
		t.Fatalf("err %v diagnostics %v", err, c.Diagnostics)
	}
	if _, err := ReadAll(&failingReader{strings.NewReader(""), boom}, Options{}); !errors.Is(err, boom) {
		t.Fatalf("err %v on a source failing at once", err)
	}
}

func TestDiagnosticsAreBounded(t *testing.T) {
	in := strings.Repeat("garbage\n"+ev("ADDED", "a", "1")+"\n", 5000)
	c := mustRead(t, []byte(in))
	if len(c.Events) != 5000 || len(c.Diagnostics) != maxDiagnostics || c.Diagnostics[maxDiagnostics-1].Kind != "too-many" {
		t.Fatalf("%d events, %d diagnostics", len(c.Events), len(c.Diagnostics))
	}
}

// eventStream yields n generated events without holding them.
type eventStream struct {
	n, i int
	cur  []byte
}

func (s *eventStream) Read(p []byte) (int, error) {
	if len(s.cur) == 0 {
		if s.i == s.n {
			return 0, io.EOF
		}
		var b bytes.Buffer
		synth.Pod(&b, s.i)
		s.cur = b.Bytes()
		s.i++
	}
	k := copy(p, s.cur)
	s.cur = s.cur[k:]
	return k, nil
}

// TestMemoryBounded reads 100 MB (10 MB under wasm) of events from a
// stream and checks the heap stays far below that.
func TestMemoryBounded(t *testing.T) {
	n := 16000
	if runtime.GOARCH == "wasm" {
		n = 1600
	}
	rd := NewReader(&eventStream{n: n}, Options{})
	var ms runtime.MemStats
	peak, count := uint64(0), 0
	for rd.Next() {
		if count++; count%2000 == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	}
	if count != n || len(rd.Diagnostics()) > 0 {
		t.Fatalf("%d events, %v", count, rd.Diagnostics())
	}
	t.Logf("peak heap %d KB", peak>>10)
	if peak > 16<<20 {
		t.Errorf("heap reached %d MB while reading", peak>>20)
	}
}

// Text before a capture, such as the shell command that made it, is not a
// watch connection: it is a diagnostic at its offset, and the capture
// after it is read as if it were alone (a session of its own would start
// the timeline at 1970 and count a reconnect that never happened).
func TestStrayTextIsNoSession(t *testing.T) {
	sample, err := os.ReadFile("../samples/curl1-narrow-bookmarks-raw.curl")
	if err != nil {
		t.Fatal(err)
	}
	alone := mustRead(t, sample)
	stray := "$ curl -N -i --raw 'https://127.0.0.1:6443/api/v1/configmaps?watch=1&allowWatchBookmarks=true'\n"
	for name, in := range map[string]string{
		"before a response": stray + string(sample),
		"a bare body":       stray + "{\"foo\":1}\n{\"type\":\"ADDED\"\n",
	} {
		t.Run(name, func(t *testing.T) {
			c := mustRead(t, []byte(in))
			d := wantDiag(t, c, "bad-json")
			if d.Offset != 0 || d.Line != 1 || !strings.Contains(d.Msg, "$ curl") {
				t.Errorf("diagnostic %v", d)
			}
			if name == "a bare body" {
				if len(c.Sessions) != 0 || len(c.Events) != 0 {
					t.Fatalf("sessions %+v, events %d", c.Sessions, len(c.Events))
				}
				return
			}
			if len(c.Sessions) != 1 || c.Sessions[0].HTTPStatus != 200 || c.Sessions[0].Offset != int64(len(stray)) {
				t.Fatalf("sessions %+v, diagnostics %v", c.Sessions, c.Diagnostics)
			}
			if len(c.Events) != len(alone.Events) {
				t.Fatalf("%d events, %d without the stray line", len(c.Events), len(alone.Events))
			}
			for i, e := range c.Events {
				if e.Session != 0 || e.RV != alone.Events[i].RV || e.Offset != alone.Events[i].Offset+int64(len(stray)) {
					t.Fatalf("event %d: %+v, alone %+v", i, e, alone.Events[i])
				}
			}
		})
	}
}

// TestOneBadChunkSize re-chunks a real response's body into 40-byte chunks,
// as a proxy may, so that every event spans several chunks, and gets one
// chunk's size wrong. The data is all there: every event must be read,
// with one diagnostic that names the bad size and the offset of its line.
func TestOneBadChunkSize(t *testing.T) {
	raw, err := os.ReadFile("../samples/w3-narrow-label-bookmarks.http")
	if err != nil {
		t.Fatal(err)
	}
	head, chunked, ok := bytes.Cut(raw, []byte("\r\n\r\n"))
	if !ok {
		t.Fatal("no end of head in the sample")
	}
	body, err := io.ReadAll(httputil.NewChunkedReader(bytes.NewReader(chunked)))
	if err != nil {
		t.Fatal(err)
	}
	want := mustRead(t, raw)
	if len(want.Events) != 13 {
		t.Fatalf("the sample has %d events", len(want.Events))
	}
	const size, bad = 40, 17 // the chunk whose size is wrong
	for _, wrong := range []string{"FFFFFFFFFFFF", "30", "2a", "27", "1"} {
		t.Run(wrong, func(t *testing.T) {
			var in bytes.Buffer
			in.Write(head)
			in.WriteString("\r\n\r\n")
			var badAt int
			for i, rest := 0, body; len(rest) > 0; i++ {
				n := min(size, len(rest))
				if i == bad {
					badAt = in.Len()
					in.WriteString(wrong + "\r\n")
				} else {
					fmt.Fprintf(&in, "%x\r\n", n)
				}
				in.Write(rest[:n])
				in.WriteString("\r\n")
				rest = rest[n:]
			}
			in.WriteString("0\r\n\r\n")
			c := mustRead(t, in.Bytes())
			if len(c.Diagnostics) != 1 {
				t.Fatalf("%d of %d events; diagnostics %v", len(c.Events), len(want.Events), c.Diagnostics)
			}
			d := c.Diagnostics[0]
			if d.Kind != "bad-chunk" || d.Offset != int64(badAt) || !strings.Contains(d.Msg, `"`+wrong+`"`) {
				t.Errorf("diagnostic %v, want a bad-chunk at offset %d naming %q", d, badAt, wrong)
			}
			if len(c.Events) != len(want.Events) || len(c.Sessions) != 1 || c.Sessions[0].Truncated {
				t.Fatalf("%d of %d events, sessions %+v", len(c.Events), len(want.Events), c.Sessions)
			}
			for i, e := range c.Events {
				w := want.Events[i]
				if e.Type != w.Type || e.RV != w.RV || e.Name != w.Name || e.Estimated != w.Estimated {
					t.Fatalf("event %d: %+v, want %+v", i, e, w)
				}
				if got, err := EventJSON(in.Bytes()[e.Offset : e.Offset+e.Length]); err != nil || !json.Valid(got) {
					t.Errorf("event %d: EventJSON %v", i, err)
				}
			}
		})
	}
}

// A key that repeats in an object has its last value, as Go's
// encoding/json and the API server decode it, whichever way the parser
// reads the event: a compact line (the fast path), pretty-printed, or cut
// across chunks (the value gathered, then read whole).
func TestDuplicateKeysLastWins(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		check    func(e Event) bool
	}{
		{"type", `{"type":"ADDED","type":"DELETED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"5"}}}`,
			func(e Event) bool { return e.Type == Deleted }},
		{"type after the object", `{"object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"5"}},"type":"ADDED","type":"DELETED"}`,
			func(e Event) bool { return e.Type == Deleted }},
		{"object", `{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"5"}},"object":{"kind":"Secret","apiVersion":"v1","metadata":{"name":"b","resourceVersion":"6"}}}`,
			func(e Event) bool { return e.Kind == "Secret" && e.Name == "b" && e.RV == "6" }},
		{"kind and apiVersion", `{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","kind":"Secret","apiVersion":"v2","metadata":{"name":"a","resourceVersion":"5"}}}`,
			func(e Event) bool { return e.Kind == "Secret" && e.APIVersion == "v2" }},
		{"metadata fields", `{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"x","uid":"u1","resourceVersion":"1","name":"b","resourceVersion":"2","namespace":"y","uid":"u2","creationTimestamp":"2026-01-01T00:00:00Z","creationTimestamp":"2025-01-01T00:00:00Z"}}}`,
			func(e Event) bool {
				return e.Name == "b" && e.Namespace == "y" && e.UID == "u2" && e.RV == "2" && e.RVNum == 2 &&
					e.Estimated == time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
			}},
		{"labels", `{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"5","labels":{"app":"a","tier":"db","app":"b"}}}}`,
			func(e Event) bool { return e.Labels == "app=b,tier=db" }},
		{"managedFields time", `{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"5","managedFields":[{"manager":"m","time":"2026-01-01T00:00:00Z","time":"2025-01-01T00:00:00Z"}]}}}`,
			func(e Event) bool { return e.Estimated == time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano() }},
		{"initial-events-end", `{"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"5","annotations":{"k8s.io/initial-events-end":"true","k8s.io/initial-events-end":"false"}}}}`,
			func(e Event) bool { return !e.InitialEventsEnd }},
	} {
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, []byte(tc.in), "", "    "); err != nil {
			t.Fatal(err)
		}
		head := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
		for form, in := range map[string]string{
			"compact": tc.in + "\n",
			"pretty":  pretty.String() + "\n",
			"chunked": head + string(chunk([]byte(tc.in+"\n"), "\r\n", 7)),
		} {
			c := mustRead(t, []byte(in))
			if len(c.Events) != 1 || !tc.check(c.Events[0]) {
				t.Errorf("%s, %s: events %+v, diagnostics %v", tc.name, form, c.Events, c.Diagnostics)
			}
		}
	}
}
