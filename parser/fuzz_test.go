package parser

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"watchlens/internal/synth"
)

// checkLogDiagnostics fails t when a diagnostic of a log read from in
// lies outside it, and says whether in's offsets count bytes it does not
// hold: offsets count the bytes read after decompression or, for UTF-16
// text, after transcoding to UTF-8 (as its diagnostic says).
func checkLogDiagnostics(t *testing.T, in []byte, diags []Diagnostic) (decoded bool) {
	t.Helper()
	decoded = len(in) > 1 && (in[0] == 0x1f || in[0] == 0x28)
	for _, d := range diags {
		decoded = decoded || d.Kind == "utf-16" || d.Kind == "utf-32"
	}
	for _, d := range diags {
		if d.Offset < 0 || (!decoded && d.Offset > int64(len(in))) {
			t.Fatalf("diagnostic outside the input: %v", d)
		}
	}
	return decoded
}

// checkInvariants reads in and checks what must hold for any input: no
// panic, spans inside the input, sessions in order.
func checkInvariants(t *testing.T, in []byte) *Capture {
	rd := NewReader(bytes.NewReader(in), Options{MaxEventSize: 4 << 10})
	c := &Capture{}
	compressed := len(in) > 1 && (in[0] == 0x1f || in[0] == 0x28)
	for rd.Next() {
		e := rd.Event()
		if e.Seq != len(c.Events) || e.Session < 0 || e.Session >= len(rd.Sessions()) || e.Length <= 0 {
			t.Fatalf("event %+v", e)
		}
		if !compressed && !rd.lines.prefixed && e.Offset+e.Length > int64(len(in)) {
			t.Fatalf("event %d span [%d+%d] outside %d bytes", e.Seq, e.Offset, e.Length, len(in))
		}
		c.Events = append(c.Events, e)
	}
	if rd.Err() != nil {
		t.Fatalf("Err %v on in-memory input", rd.Err())
	}
	for i, s := range rd.Sessions() {
		if s.Index != i || s.End < s.Offset {
			t.Fatalf("session %+v", s)
		}
	}
	if rd.InputBytes() > int64(len(in)) {
		t.Fatalf("InputBytes %d > %d", rd.InputBytes(), len(in))
	}
	return c
}

func FuzzReader(f *testing.F) {
	for _, s := range []string{
		ev("ADDED", "a", "1") + "\n" + ev("BOOKMARK", "", "2"),
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n0\r\n\r\n",
		"GET /api/v1/pods?watch=1 HTTP/1.1\n\nHTTP/1.1 410 Gone\nContent-Length: 2\n\n{}",
		"2026-11-30T00:54:23.779301650Z {\"type\":\"ADDED\"}\n1764464063.5\t{}\n",
		"object:\n  kind: Pod\n  metadata:\n    - x\ntype: ADDED\n---\nkind: A\n",
		"\xef\xbb\xbf{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"message\":\"too old resource version: 1 (2)\"}}",
		"\xff\xfe{\x00}\x00",
		listBody("283", "tok", "a", "b") + "\n" + listBody("9", "", "c")[:120],
	} {
		f.Add([]byte(s))
	}
	// A list larger than checkInvariants' 4 KiB limit, in chunks: read
	// item by item.
	var many []string
	for i := 0; i < 120; i++ {
		many = append(many, fmt.Sprintf("item-%d", i))
	}
	f.Add(append([]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"), chunk([]byte(listBody("283", "", many...)), "\r\n", 700, 3)...))
	small := []byte(ev("ADDED", "a", "1") + "\n" + ev("DELETED", "a", "2") + "\n")
	var gz, zs bytes.Buffer
	gw := gzip.NewWriter(&gz)
	gw.Write(small)
	gw.Close()
	zw, _ := zstd.NewWriter(&zs)
	zw.Write(small)
	zw.Close()
	f.Add(gz.Bytes())
	f.Add(zs.Bytes())
	// Content-Encoding: gzip bodies, a member per chunk and one member cut
	// in chunks (more, from the real samples, in testdata).
	m1, m2 := gzipBytes(nil, small[:len(small)/2]), gzipBytes(nil, small[len(small)/2:])
	f.Add([]byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n", len(m1), m1, len(m2), m2)))
	f.Add([]byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\nHTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 10\r\n\r\n%s", 9, gz.Bytes()[:9], gz.Len()-9, gz.Bytes()[9:], gz.Bytes()[:10])))
	f.Fuzz(func(t *testing.T, in []byte) {
		c := checkInvariants(t, in)
		sameInPlace(t, in, Options{MaxEventSize: 4 << 10})
		for _, e := range c.Events {
			if int(e.Offset+e.Length) <= len(in) && e.Offset >= 0 {
				if e.Encoded {
					EncodedEventJSON(in[e.Offset:e.Offset+e.Length], e.BodyOffset)
				} else {
					EventJSON(in[e.Offset : e.Offset+e.Length])
				}
			}
		}
	})
}

// FuzzChunked frames a body as chunks of fuzzed sizes: the events must be
// those of the body read plainly. The fuzzed bytes are also read as a
// chunked body themselves, which must not panic.
func FuzzChunked(f *testing.F) {
	f.Add([]byte(ev("ADDED", "a", "1")+"\n"+ev("DELETED", "b", "2")+"\n"), []byte{1, 7, 200}, false)
	f.Add([]byte("5\r\nhello\r\n0\r\n\r\n"), []byte{3}, true)
	f.Add([]byte("ff;x=1\n{}\n0\nTrailer: x\n\n"), []byte{255}, true)
	f.Add([]byte(listBody("283", "", "a", "b", "c")+"\n"+ev("ADDED", "d", "300")+"\n"), []byte{40, 3}, false)
	f.Fuzz(func(t *testing.T, body, sizes []byte, lf bool) {
		head := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
		checkInvariants(t, append([]byte(head), body...))
		if len(sizes) == 0 || bytes.Contains(body, []byte("HTTP/")) {
			return
		}
		ints := make([]int, len(sizes))
		for i, s := range sizes {
			ints[i] = int(s) + 1
		}
		eol := "\r\n"
		if lf {
			eol = "\n"
		}
		if sizeLineAfterCRLF(body) {
			// A chunk size line after a CRLF inside a chunk's data is
			// taken for the framing of a chunk whose size was wrong; a
			// JSON body holds none (its line ends are '\n', and no event
			// is a bare number).
			return
		}
		if !validJSONStream(body) {
			// The fast path skips the rest of an object unread, so bytes
			// that break it there are read as the event when the whole
			// line is at hand, and cut when chunks split it: framing may
			// change what malformed JSON gives.
			return
		}
		plain, _ := ReadAll(bytes.NewReader(body), Options{})
		if len(plain.Events) == 0 {
			return
		}
		for _, d := range plain.Diagnostics {
			if d.Kind != "bad-rv" {
				return // resyncing after bad input may differ with framing in the way
			}
		}
		chunked, _ := ReadAll(bytes.NewReader(append([]byte(head), chunk(body, eol, ints...)...)), Options{})
		if len(chunked.Events) != len(plain.Events) {
			t.Fatalf("%d events chunked, %d plain; diagnostics %v", len(chunked.Events), len(plain.Events), chunked.Diagnostics)
		}
		for i, e := range chunked.Events {
			p := plain.Events[i]
			if e.Type != p.Type || e.Name != p.Name || e.RV != p.RV || e.Kind != p.Kind {
				t.Fatalf("event %d: %+v, plain %+v", i, e, p)
			}
		}
	})
}

// FuzzFastVsGJSON holds the fast extraction to the reference: wherever it
// does not decline, every field must be what gjson gives, repeated keys
// included, except where it stopped early before a repeated key.
func FuzzFastVsGJSON(f *testing.F) {
	for _, l := range podLines(f, 3) {
		f.Add(l)
	}
	f.Add([]byte(`{"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"5","creationTimestamp":null,"annotations":{"k8s.io/initial-events-end":"true"}}}}`))
	f.Add([]byte(`{"object":{"metadata":{"name":"a","name":"b","managedFields":[{"time":"2026-02-30T00:00:00Z"},{"time":"2026-01-30T00:00:60Z"}]},"kind":null},"type":"ADDED","type":"X"}`))
	f.Add([]byte(`{"type":"ADDED","type":"DELETED","object":{"kind":"A","kind":"B","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"1","name":"b","resourceVersion":"2","labels":{"x":"1"},"labels":null,"annotations":{"k8s.io/initial-events-end":"true"},"annotations":{},"managedFields":[{"time":"2026-11-30T00:54:22Z","time":"2025-11-30T00:54:22Z"}]}}}`))
	f.Add([]byte("{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"Pod\",\n    \"metadata\": {\"deletionTimestamp\": \"2026-11-30T00:54:22+01:00\"}\n}"))
	// Empty containers and colons are taken in one turn of skipContainer's
	// loop; its nesting limit must hold for them as for the others.
	for _, d := range []int{63, 64} {
		for _, empty := range []string{"{}", "[]", `{"k":{},"l":{}}`} {
			deep := strings.Repeat("[", d) + empty + strings.Repeat("]", d)
			f.Add([]byte(`{"type":"ADDED","object":{"kind":"Pod","metadata":{"x":` + deep + `,"y":[[],{ },{"a" :{}}],"name":"n"}}}`))
		}
	}
	// With managedFields, the fieldsV1 values remembered from a pod event
	// (a real one's, and then b's own) must skip exactly what the walk does.
	pod := podLines(f, 1)[0]
	f.Add([]byte(`{"type":"ADDED","object":{"metadata":{"managedFields":[{"fieldsV1":{"a":{}},"time":"2026-11-30T00:54:22Z"},{"fieldsV1":{"a":{}}}]}}}`))
	f.Add([]byte(`{"type":"ADDED","object":{"metadata":{"managedFields":[{"fieldsV1":{"a":{}}},{"fieldsV1":{"a":{}}"time":"2026-11-30T00:54:22Z"}]}}}`))
	// fieldsV1 has a loop of its own (fieldsV1End), for objects of objects
	// written compactly, at any depth, escapes in keys; what else it
	// meets is walked as before.
	deepFields := strings.Repeat(`{"f:a":`, 70) + "{}" + strings.Repeat("}", 70)
	for _, fv := range []string{`{"k:{\"a\":\"b\"}":{"f:x":{}},"f:y":{},".":{}}`, deepFields, `{"a":{} }`, `{"a":{},"b":1}`, `{"a":{}},`, `{"a":{},}`, `{"a\\":{}}`} {
		f.Add([]byte(`{"type":"ADDED","object":{"metadata":{"managedFields":[{"fieldsV1":` + fv + `,"time":"2026-11-30T00:54:22Z"},{"fieldsV1":` + fv + `}],"name":"a"}}}`))
	}
	// A small event's envelope, managedFields entry and identity are
	// remembered too: the fuzzed bytes are read after one of them.
	var cm bytes.Buffer
	synth.ConfigMap(&cm, 1)
	synth.ConfigMap(&cm, 2)
	cms := bytes.Split(bytes.TrimSpace(cm.Bytes()), []byte("\n"))
	for _, l := range cms {
		f.Add(l)
	}
	// Read by a ConfigMap's template: a deletion time, and an escape
	// where the template has a string of its own.
	f.Add(bytes.Replace(cms[0], []byte(`"creationTimestamp"`), []byte(`"deletionTimestamp":"2026-11-30T00:00:01Z","creationTimestamp"`), 1))
	f.Add(bytes.Replace(cms[0], []byte(`"name":"state-`), []byte(`"name":"st\u0061te-`), 1))
	// Leases name their holder in values the walk skips: the template
	// made from two of them cuts those strings out, and reads b if it
	// fits, escapes in them or not.
	var ls bytes.Buffer
	for i := range 3 {
		synth.Lease(&ls, i)
	}
	leases := bytes.Split(bytes.TrimSpace(ls.Bytes()), []byte("\n"))
	for _, l := range leases {
		f.Add(l)
	}
	f.Add(bytes.Replace(leases[2], []byte(`"name":"node-0002"}]`), []byte(`"name":"node-\"0002\\"}]`), 1))
	f.Add(bytes.Replace(leases[2], []byte(`{\"uid\"`), []byte(`{\"uid\",\"`), 1))
	// Realistic pods' fieldsV1 differ from the last event's: found by
	// how they begin (byShape), or walked from where they start to
	// differ (managerMemo.cps).
	var rp bytes.Buffer
	for i := range 4 {
		synth.RealisticPod(&rp, i*97)
		synth.RealisticPod(&rp, i*97+1)
	}
	rps := bytes.Split(bytes.TrimSpace(rp.Bytes()), []byte("\n"))
	for _, l := range rps[:3] {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		plain := newInternTable()
		var ref fields
		refDone := false
		var fromPod fastMemo
		extractFast(pod, new(fields), plain, &fromPod)
		// The second of two events after the same envelope makes the
		// metadata's template (metaTemplate), which b's is read by if it
		// fits: from a ConfigMap's, and from b's own.
		var fromCM fastMemo
		extractFast(cms[0], new(fields), plain, &fromCM)
		extractFast(cms[1], new(fields), plain, &fromCM)
		var fromLeases fastMemo
		for _, l := range leases {
			extractFast(l, new(fields), plain, &fromLeases)
		}
		var own fastMemo
		extractFast(b, new(fields), plain, &own)
		extractFast(b, new(fields), plain, &own)
		var fromRealistic fastMemo
		for _, l := range rps {
			extractFast(l, new(fields), plain, &fromRealistic)
		}
		memos := []*fastMemo{nil, &fromPod, &fromPod, &fromCM, &fromRealistic, &fromRealistic, &fromLeases, &own, new(fastMemo)}
		for i, memo := range memos {
			var fast fields
			end, early, ok := extractFast(b, &fast, plain, memo)
			if i == len(memos)-1 {
				// Once more with what b itself left in the memo.
				end2, early2, ok2 := extractFast(b, &fast, plain, memo)
				if end2 != end || early2 != early || ok2 != ok {
					t.Fatalf("with b's own memo: %d %v %v, walked %d %v %v", end2, early2, ok2, end, early, ok)
				}
			}
			if !ok || early && mayRepeatKey(b[end:]) {
				continue
			}
			if !early && len(bytes.TrimRight(b[end:], " \t\r\n")) > 0 {
				// Not one value but more: the callers decline it, and
				// gjson reads keys past the first value's end.
				continue
			}
			if !refDone {
				extractGJSON(b, &ref)
				refDone = true
			}
			if fast.rvParsed {
				// The value read on the way is strconv's.
				if n, err := strconv.ParseUint(fast.rv, 10, 64); err != nil || n != fast.rvNum {
					t.Fatalf("memo %d: resourceVersion %q read as %d", i, fast.rv, fast.rvNum)
				}
				fast.rvParsed, fast.rvNum = false, 0
			}
			checkLabelsID(t, plain, &fast)
			if fast != ref {
				t.Fatalf("memo %d: fast %+v\ngjson %+v", i, fast, ref)
			}
		}
	})
}

// mayRepeatKey says whether b, what the fast path left unread after
// stopping early, may repeat a key that it read, which it does not see
// (see fast.go): it holds one's name, or a \u escape that could spell
// one.
func mayRepeatKey(b []byte) bool {
	for _, k := range []string{`"type"`, `"object"`, `"kind"`, `"apiVersion"`, `"metadata"`, `\u`} {
		if bytes.Contains(b, []byte(k)) {
			return true
		}
	}
	return false
}

// FuzzParseTime holds the allocation-free time parser to time.Parse.
func FuzzParseTime(f *testing.F) {
	f.Add("2026-11-30T00:54:22Z")
	f.Add("2026-02-29T24:00:00Z")
	f.Add("2024-02-29T23:59:59Z")
	// The calendar arithmetic's edges: year 0 (before March, the year
	// before is -1), centuries, and UnixNano's wrap past 2262.
	for _, s := range []string{"0000-01-01T00:00:00Z", "0000-02-29T12:00:00Z", "0000-03-01T00:00:00Z", "1900-02-29T00:00:00Z",
		"2000-02-29T00:00:00Z", "1969-12-31T23:59:59Z", "2262-04-11T23:47:17Z", "9999-12-31T23:59:59Z", "2026-04-31T00:00:00Z",
		// Fractions, as a MicroTime writes them, up to nanoseconds and past.
		"2026-11-30T00:54:22.000150Z", "2026-11-30T00:54:22.5Z", "2026-11-30T00:54:22.123456789Z",
		"2026-11-30T00:54:22.1234567891Z", "2026-11-30T00:54:22.Z", "2026-11-30T00:54:22,5Z", "2262-04-11T23:47:16.854775807Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, aok := parseTimeBytes([]byte(s))
		b, bok := parseTime(s)
		if a != b || aok != bok {
			t.Fatalf("%q: fast %d %v, time.Parse %d %v", s, a, aok, b, bok)
		}
		// Read after a time of the same hour as the seeds', after s
		// itself, and after s's hour with other minutes, the hour
		// remembered gives what parseTimeBytes does.
		var h hourMemo
		other := []byte("2026-11-30T00:59:59.5Z")
		if len(s) >= 13 {
			copy(other, s[:13])
		}
		for _, x := range []string{"2026-11-30T00:00:00Z", s, s, string(other), s} {
			got, gotOK := h.parse([]byte(x))
			want, wantOK := parseTimeBytes([]byte(x))
			if got != want || gotOK != wantOK {
				t.Fatalf("%q after the hour %q: %d %v, parseTimeBytes %d %v", x, h.prefix, got, gotOK, want, wantOK)
			}
		}
	})
}

func FuzzHasObjectKey(f *testing.F) {
	f.Add([]byte(`{"a":"object","object":1}`))
	f.Add([]byte(`"object"`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if hasObjectKey(b) != bytes.Contains(b, []byte(`"object"`)) {
			t.Fatalf("hasObjectKey(%q) = %v", b, hasObjectKey(b))
		}
	})
}

// FuzzPrefixTransparent reads an input as it is and with a time before
// every line: the time layer must change nothing but arrivals and offsets.
// Without times, bodies are read in blocks of lines; with them, line by
// line, so this also holds the two ways to the same events.
func FuzzPrefixTransparent(f *testing.F) {
	f.Add([]byte(ev("ADDED", "a", "1") + "\ngarbage\n{\n  \"type\": \"ADDED\"\n}\nHTTP/1.1 200 OK\n\n" + ev("ADDED", "b", "x")))
	// A string that a line end breaks, inside an indented value.
	f.Add([]byte("X\n{\n  \"a\n \":1\n}\n"))
	f.Add([]byte("kind: Pod\nmetadata:\n  name: a\n---\nkind: Pod\n"))
	f.Add([]byte("{\n  \"kind\": \"PodList\",\n  \"items\": [\n    {\"metadata\": {\"name\": \"a\"}},\n    1,\n    {\"metadata\": {\"name\": \"b\"}}\n  ]\n}\n" + listBody("5", "", "c")[:90]))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > 0 && (in[0] == 0x1f || in[0] == 0x28 || in[0] == 0xff || in[0] == 0xfe || in[0] == 0xef) {
			return // compressed or not UTF-8: the prefix would go on the wrong layer
		}
		if len(in) > 1 && (in[0] == 0 || in[1] == 0) {
			return // sniffed as UTF-16
		}
		if _, _, ok := parseTimePrefix(in); ok {
			return // already timed
		}
		var timed bytes.Buffer
		tw := NewTimestampWriter(&timed, func() time.Time { return time.Unix(1e9, 0) })
		tw.Write(in)
		plain, _ := ReadAll(bytes.NewReader(in), Options{MaxEventSize: 1 << 20})
		withTimes, _ := ReadAll(bytes.NewReader(timed.Bytes()), Options{MaxEventSize: 1 << 20})
		if sniffedProtobuf(plain) || sniffedProtobuf(withTimes) {
			// A protobuf frame's fifth byte is its object's tag, a '\n':
			// a time before every line cuts each frame there, and is no
			// form a protobuf stream is recorded in.
			return
		}
		if len(plain.Events) != len(withTimes.Events) || len(plain.Sessions) != len(withTimes.Sessions) {
			t.Fatalf("%d events in %d sessions plain, %d in %d with times", len(plain.Events), len(plain.Sessions),
				len(withTimes.Events), len(withTimes.Sessions))
		}
		for i, e := range withTimes.Events {
			p := plain.Events[i]
			e.Arrival, e.Offset, e.Length, e.Identity = 0, p.Offset, p.Length, p.Identity
			if !reflect.DeepEqual(e, p) {
				t.Fatalf("event %d: %+v with times, %+v plain", i, e, p)
			}
		}
		if len(plain.Diagnostics) != len(withTimes.Diagnostics) {
			t.Fatalf("diagnostics plain %v\nwith times %v", plain.Diagnostics, withTimes.Diagnostics)
		}
		for i, d := range plain.Diagnostics {
			if w := withTimes.Diagnostics[i]; w.Kind != d.Kind || w.Line != d.Line {
				t.Fatalf("diagnostic %d: %v plain, %v with times", i, d, w)
			}
		}
	})
}

// FuzzPrefixClock holds the cached prefix parser to time.Parse: after any
// prefix a, prefix b must read as it does alone, whether or not b shares
// a's whole second.
func FuzzPrefixClock(f *testing.F) {
	f.Add("2026-11-30T00:54:07.510Z x", "2026-11-30T00:54:07.5109876543Z\tx")
	f.Add("2026-11-30T00:54:07Z x", "2026-11-30T00:54:07.Z x")
	f.Add("2026-11-30T00:54:07.1+01:00 x", "2026-11-30T00:54:07.2+01:00 x")
	f.Add("2026-11-30T00:54:07.1+01:00 x", "2026-11-30T00:54:07.2+25:00 x")
	f.Add("2026-02-29T00:54:07.1Z x", "2026-02-29T00:54:07.2Z x")
	f.Add("1700000000.5 x", "2026-11-30t00:54:07.2z x")
	f.Fuzz(func(t *testing.T, a, b string) {
		var c prefixClock
		c.parse([]byte(a))
		got, gk, gok := c.parse([]byte(b))
		want, wk, wok := parseTimePrefix([]byte(b))
		if got != want || gk != wk || gok != wok {
			t.Fatalf("after %q, %q: cached %d %d %v, time.Parse %d %d %v", a, b, got, gk, gok, want, wk, wok)
		}
	})
}

// sniffedProtobuf says whether a read took any of its input for
// protobuf.
func sniffedProtobuf(c *Capture) bool {
	for _, e := range c.Events {
		if e.Encoded {
			return true
		}
	}
	for _, d := range c.Diagnostics {
		if strings.Contains(d.Msg, "protobuf") {
			return true
		}
	}
	return false
}

// sizeLineAfterCRLF says whether a line of b that follows one ending in a
// CRLF reads as a chunk size line.
func sizeLineAfterCRLF(b []byte) bool {
	for {
		i := bytes.Index(b, []byte("\r\n"))
		if i < 0 {
			return false
		}
		b = b[i+2:]
		ln := b
		if j := bytes.IndexByte(b, '\n'); j >= 0 {
			ln = b[:j+1]
		}
		if isChunkSizeLine(ln) {
			return true
		}
	}
}

// validJSONStream says whether b is JSON values one after another, with
// white space between them and nothing else.
func validJSONStream(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	for {
		var v json.RawMessage
		if err := dec.Decode(&v); err == io.EOF {
			return true
		} else if err != nil {
			return false
		}
	}
}

// FuzzLineEndInString holds lineEndInString to a byte-by-byte walk.
func FuzzLineEndInString(f *testing.F) {
	f.Add([]byte("{\n  \"a\": \"b\\\"#\n\"\n}"))
	f.Add([]byte("\"#\"\n\"abcdefgh\\\n\""))
	f.Fuzz(func(t *testing.T, b []byte) {
		want, inStr := false, false
		for i := 0; i < len(b) && !want; i++ {
			switch c := b[i]; {
			case c == '"':
				inStr = !inStr
			case inStr && c == '\\':
				i++
				want = i < len(b) && b[i] == '\n'
			case inStr && c == '\n':
				want = true
			}
		}
		if got := lineEndInString(b); got != want {
			t.Fatalf("lineEndInString(%q) = %v", b, got)
		}
	})
}
