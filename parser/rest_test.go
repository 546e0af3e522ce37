package parser

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"

	"watchlens/internal/synth"
)

// chunkRest is a Rest of chunks in memory, ending with err (io.EOF when
// nil).
type chunkRest struct {
	chunks [][]byte
	err    error
}

func (c *chunkRest) Next() ([]byte, error) {
	if len(c.chunks) == 0 {
		if c.err != nil {
			return nil, c.err
		}
		return nil, io.EOF
	}
	ch := c.chunks[0]
	c.chunks = c.chunks[1:]
	return ch, nil
}

// restOf is the rest of data from at, written in chunks from size bytes
// of events.
func restOf(t testing.TB, data []byte, at, size int, opts Options) *chunkRest {
	t.Helper()
	c := &chunkRest{}
	err := writeRest(NewReader(bytes.NewReader(data[at:]), opts), int64(at), size, func(ch []byte) error {
		c.chunks = append(c.chunks, ch)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// readThen reads data[:at] with rest after it.
func readThen(data []byte, at int, rest Rest, opts Options) (*Capture, error) {
	rd := NewReader(bytes.NewReader(data[:at]), opts)
	rd.Then(rest)
	c := &Capture{}
	for rd.Next() {
		if len(c.Events) >= 0 && rd.Raw() != nil && rd.Event().Offset >= int64(at) {
			panic("Raw of a rest event")
		}
		e := rd.Event()
		if e.Session >= len(rd.Sessions()) {
			panic(fmt.Sprintf("event %d of session %d, of %d", e.Seq, e.Session, len(rd.Sessions())))
		}
		c.Events = append(c.Events, e)
	}
	c.Sessions, c.Diagnostics = rd.Sessions(), rd.Diagnostics()
	return c, rd.Err()
}

// checkSplit holds data cut at at and read in two parts to what one
// Reader of the whole reads.
func checkSplit(t testing.TB, data []byte, at, size int, opts Options) {
	t.Helper()
	want, wantErr := ReadAll(bytes.NewReader(data), opts)
	got, err := readThen(data, at, restOf(t, data, at, size, opts), opts)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("cut at %d: Err %v, want %v", at, err, wantErr)
	}
	sameSplit(t, at, got, want)
}

func sameSplit(t testing.TB, at int, got, want *Capture) {
	t.Helper()
	if len(got.Events) != len(want.Events) {
		t.Fatalf("cut at %d: %d events, want %d\n%s", at, len(got.Events), len(want.Events), diffRender(got, want))
	}
	type object struct{ uid, name, namespace string }
	objectOf := map[uint32]object{}
	var maxA uint32
	for i := range got.Events {
		g, w := got.Events[i], want.Events[i]
		if (g.Identity == 0) != (w.Identity == 0) {
			t.Fatalf("cut at %d: event %d Identity %d, whole %d", at, i, g.Identity, w.Identity)
		}
		if g.Offset < int64(at) {
			if g.Identity != w.Identity {
				t.Fatalf("cut at %d: event %d of the first part Identity %d, whole %d", at, i, g.Identity, w.Identity)
			}
			maxA = max(maxA, g.Identity)
		} else if g.Identity != 0 && g.Identity <= maxA {
			t.Fatalf("cut at %d: event %d of the rest Identity %d, not above the first part's %d", at, i, g.Identity, maxA)
		}
		if g.Identity != 0 {
			o := object{g.UID, g.Name, g.Namespace}
			if p, ok := objectOf[g.Identity]; ok && p != o {
				t.Fatalf("cut at %d: event %d: Identity %d is %+v and %+v", at, i, g.Identity, p, o)
			}
			objectOf[g.Identity] = o
		}
		g.Identity, w.Identity = 0, 0
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("cut at %d: event %d\n%+v\nwhole\n%+v", at, i, g, w)
		}
	}
	if !reflect.DeepEqual(got.Sessions, want.Sessions) {
		t.Fatalf("cut at %d: sessions\n%+v\nwhole\n%+v", at, got.Sessions, want.Sessions)
	}
	if len(got.Diagnostics) != len(want.Diagnostics) {
		t.Fatalf("cut at %d: %d diagnostics, whole %d\n%s", at, len(got.Diagnostics), len(want.Diagnostics), diffRender(got, want))
	}
	for i, d := range got.Diagnostics {
		if d != want.Diagnostics[i] {
			t.Fatalf("cut at %d: diagnostic %d\n%v\nwhole\n%v", at, i, d, want.Diagnostics[i])
		}
	}
}

func diffRender(got, want *Capture) string {
	g, w := strings.Split(string(render(got)), "\n"), strings.Split(string(render(want)), "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("first difference, line %d:\n%s\nwhole:\n%s", i, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, whole %d", len(g), len(w))
}

// lineStarts returns the starts of data's lines after the first where
// the rest SplitsAtLines.
func lineStarts(data []byte) []int {
	var out []int
	for i := 0; i < len(data); {
		k := bytes.IndexByte(data[i:], '\n')
		if k < 0 {
			break
		}
		i += k + 1
		if i < len(data) && SplitsAtLines(data[i:]) {
			out = append(out, i)
		}
	}
	return out
}

// someCuts picks, of starts, the first, the last, the middle and a few
// between; all of them when they are few.
func someCuts(starts []int, n int) []int {
	if len(starts) <= n {
		return starts
	}
	out := []int{starts[0], starts[len(starts)-1], starts[len(starts)/2]}
	for k := 1; k < n-3; k++ {
		out = append(out, starts[k*len(starts)/(n-3)])
	}
	return out
}

// realNDJSON is the real captures as NDJSON: the one that is, and the
// events of the others, each its bytes as sent (Raw), one a line.
func realNDJSON(t *testing.T) map[string][]byte {
	out := map[string][]byte{}
	for _, path := range sampleFiles(t) {
		data := decompressed(t, path)
		name := filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
		if SplitsAtLines(data[:min(len(data), 64<<10)]) {
			out[name] = data
			continue
		}
		if strings.Contains(path, ".yaml") || strings.Contains(path, ".pb") {
			continue
		}
		rd := NewReader(bytes.NewReader(data), Options{})
		var b bytes.Buffer
		for rd.Next() {
			raw := rd.Raw()
			if len(raw) == 0 || raw[0] != '{' || bytes.IndexByte(raw, '\n') >= 0 || rd.Event().Type == Listed {
				continue
			}
			b.Write(raw)
			b.WriteByte('\n')
		}
		if b.Len() > 0 && SplitsAtLines(b.Bytes()) {
			out[name+" as NDJSON"] = b.Bytes()
		}
	}
	return out
}

func TestRestRealSamples(t *testing.T) {
	samples := realNDJSON(t)
	whole := 0
	for name, data := range samples {
		if !strings.HasSuffix(name, "as NDJSON") {
			whole++
		}
		starts := lineStarts(data)
		cuts := starts
		if len(starts) > 60 {
			cuts = someCuts(starts, 12)
		}
		t.Logf("%s: %d bytes, %d line starts, %d cuts", name, len(data), len(starts), len(cuts))
		for _, at := range cuts {
			checkSplit(t, data, at, 4<<10, Options{})
		}
		if len(cuts) > 0 {
			checkSplit(t, data, cuts[len(cuts)/2], restChunkSize, Options{})
		}
	}
	if whole == 0 || len(samples) < 4 {
		t.Fatalf("%d samples, %d of them NDJSON as captured", len(samples), whole)
	}
}

func TestRestSynth(t *testing.T) {
	for _, c := range []struct {
		name  string
		event func(*bytes.Buffer, int)
	}{{"configmaps", synth.ConfigMap}, {"realistic-pods", synth.RealisticPod}, {"pods", synth.Pod}} {
		data := synth.CaptureOf(3<<20, c.event)
		starts := lineStarts(data)
		for _, at := range someCuts(starts, 6) {
			checkSplit(t, data, at, restChunkSize, Options{})
		}
		checkSplit(t, data, starts[len(starts)/3], 64<<10, Options{})
	}
}

// TestRestBadLines cuts captures with bad lines on either side.
func TestRestBadLines(t *testing.T) {
	var b bytes.Buffer
	for i := range 40 {
		switch i % 10 {
		case 3:
			b.WriteString("\x00\xff garbage {not json\n")
		case 5:
			b.WriteString(ev("MODIFIED", fmt.Sprint("cut", i), "7")[:50] + "\n")
		case 7:
			b.WriteString(ev("ADDED", "odd", "0012") + "\n")
		case 8:
			b.WriteString(ev("BOOKMARK", "", "x1") + "\n[\n[\n")
		case 9:
			b.WriteString(`{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 389 (1411)","reason":"Expired","code":410}}` + "\n\n  \n")
		default:
			b.WriteString(ev("ADDED", fmt.Sprint("o", i%4), fmt.Sprint(100+i)) + "\n")
		}
	}
	data := b.Bytes()
	for _, tail := range []string{"", ev("DELETED", "last", "200")[:60], ev("DELETED", "last", "200") + "\n   ", "junk"} {
		in := append(bytes.Clone(data), tail...)
		for _, at := range lineStarts(in) {
			for _, size := range []int{1, 200, restChunkSize} {
				checkSplit(t, in, at, size, Options{})
			}
		}
	}
}

// TestRestTooManyDiagnostics has the bound on diagnostics hold across the
// cut.
func TestRestTooManyDiagnostics(t *testing.T) {
	var b bytes.Buffer
	for i := range 3000 {
		if i%2 == 0 {
			b.WriteString(ev("ADDED", fmt.Sprint("o", i), fmt.Sprint(100+i)) + "\n")
		} else {
			b.WriteString("garbage\n")
		}
	}
	data := b.Bytes()
	starts := lineStarts(data)
	for _, at := range []int{starts[0], starts[500], starts[999], starts[1000], starts[len(starts)-1]} {
		checkSplit(t, data, at, 8<<10, Options{})
	}
}

// TestRestSessions cuts a capture with HTTP responses after its start:
// the rest's later sessions are the whole capture's.
func TestRestSessions(t *testing.T) {
	data := []byte(ev("ADDED", "a", "1") + "\n" + ev("MODIFIED", "a", "2") + "\n" + ev("MODIFIED", "b", "3") + "\n" +
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + ev("ADDED", "c", "4") + "\n" +
		"HTTP/1.1 410 Gone\r\nContent-Length: 2\r\n\r\n{}")
	for _, at := range lineStarts(data) {
		checkSplit(t, data, at, 1, Options{})
	}
}

// TestRestMismatch cuts where one Reader of the whole is inside an HTTP
// response's framing: the Reader says so (Err).
func TestRestMismatch(t *testing.T) {
	data := []byte(ev("ADDED", "a", "1") + "\n" +
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + fmt.Sprintf("%x\r\n%s\n\r\n", len(ev("ADDED", "b", "2"))+1, ev("ADDED", "b", "2")) + "0\r\n\r\n")
	at := bytes.Index(data, []byte(`{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"b"`))
	if !SplitsAtLines(data[at:]) {
		t.Fatal("no cut")
	}
	_, err := readThen(data, at, restOf(t, data, at, 1, Options{}), Options{})
	if !errors.Is(err, ErrSplitMismatch) {
		t.Fatalf("Err %v, want ErrSplitMismatch", err)
	}
}

// TestRestEnds has a rest that gives no chunk leave the Reader as it is,
// one that ends early give the events of its chunks, and one that fails
// end the Reader with its error.
func TestRestEnds(t *testing.T) {
	data := synth.CaptureOf(200<<10, synth.ConfigMap)
	at := lineStarts(data)[100]
	alone, _ := ReadAll(bytes.NewReader(data[:at]), Options{})
	got, err := readThen(data, at, &chunkRest{}, Options{})
	if err != nil || !reflect.DeepEqual(got, alone) {
		t.Fatalf("a rest with no chunk: %v\n%s", err, diffRender(got, alone))
	}
	full := restOf(t, data, at, 4<<10, Options{})
	if len(full.chunks) < 4 {
		t.Fatalf("%d chunks", len(full.chunks))
	}
	whole, _ := ReadAll(bytes.NewReader(data), Options{})
	part := &chunkRest{chunks: full.chunks[:2]}
	got, err = readThen(data, at, part, Options{})
	if err != nil || len(got.Events) <= len(alone.Events) || len(got.Events) >= len(whole.Events) {
		t.Fatalf("a rest cut short: %v, %d events, %d alone, %d whole", err, len(got.Events), len(alone.Events), len(whole.Events))
	}
	boom := errors.New("boom")
	got, err = readThen(data, at, &chunkRest{chunks: full.chunks[:2], err: boom}, Options{})
	if err != boom || len(got.Events) >= len(whole.Events) {
		t.Fatalf("a failing rest: %v, %d events", err, len(got.Events))
	}
	got, err = readThen(data, at, &chunkRest{err: boom}, Options{})
	if err != boom || len(got.Events) != len(alone.Events) {
		t.Fatalf("a rest failing at once: %v, %d events", err, len(got.Events))
	}
	// The rest's Reader's error comes through its last chunk.
	c := &chunkRest{}
	rd := NewReader(io.MultiReader(bytes.NewReader(data[at:]), errReader{boom}), Options{})
	if err := WriteRest(rd, int64(at), func(ch []byte) error { c.chunks = append(c.chunks, ch); return nil }); err != nil {
		t.Fatal(err)
	}
	got, err = readThen(data, at, c, Options{})
	if err == nil || err.Error() != "boom" || len(got.Events) != len(whole.Events) {
		t.Fatalf("the rest's error: %v, %d events", err, len(got.Events))
	}
	// An error of emit stops WriteRest.
	if err := WriteRest(NewReader(bytes.NewReader(data[at:]), Options{}), int64(at), func([]byte) error { return boom }); err != boom {
		t.Fatalf("WriteRest: %v", err)
	}
}

// TestRestDamaged has chunks WriteRest did not write end the Reader with
// an error, never a panic.
func TestRestDamaged(t *testing.T) {
	data := []byte(ev("ADDED", "a", "1") + "\n" + ev("MODIFIED", "a", "2") + "\n" + ev("ERROR", "b", "3") + "\ngarbage\n" + ev("DELETED", "b", "4") + "\n")
	at := lineStarts(data)[0]
	full := restOf(t, data, at, 1, Options{})
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range 1500 {
		chunks := make([][]byte, len(full.chunks))
		for i, c := range full.chunks {
			chunks[i] = bytes.Clone(c)
		}
		c := chunks[rng.IntN(len(chunks))]
		switch k % 3 {
		case 0:
			c[rng.IntN(len(c))] = byte(rng.Uint32())
		case 1:
			c[rng.IntN(len(c))] ^= 1 << rng.IntN(8)
		default:
			i := rng.IntN(len(chunks))
			chunks[i] = chunks[i][:rng.IntN(len(chunks[i]))]
		}
		readThen(data, at, &chunkRest{chunks: chunks}, Options{})
	}
	_, err := readThen(data, at, &chunkRest{chunks: [][]byte{[]byte("junk")}}, Options{})
	if err != errRestDamaged {
		t.Fatalf("Err %v", err)
	}
}

// TestRestInputBytes has InputBytes rise through the rest to the whole.
func TestRestInputBytes(t *testing.T) {
	data := synth.CaptureOf(2<<20, synth.ConfigMap)
	at := lineStarts(data)[2000]
	rd := NewReader(bytes.NewReader(data[:at]), Options{})
	rd.Then(restOf(t, data, at, 64<<10, Options{}))
	last := int64(0)
	for rd.Next() {
		n := rd.InputBytes()
		if n < last || n > int64(len(data)) || rd.Event().Offset >= int64(at) && n < int64(at) {
			t.Fatalf("event %d: InputBytes %d after %d", rd.Event().Seq, n, last)
		}
		last = n
	}
	if last != int64(len(data)) {
		t.Fatalf("InputBytes %d at the end, want %d", last, len(data))
	}
}

func TestSplitsAtLines(t *testing.T) {
	line := ev("ADDED", "a", "1") + "\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(line + line))
	zw.Close()
	for _, c := range []struct {
		in   string
		want bool
	}{
		{line + line, true},
		{line, true},
		{strings.TrimSuffix(line, "\n") + " \r\n", true},
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p"}}` + "\n", true},
		{`{"type":"BOOKMARK","object":{"kind":"Pod","metadata":{"resourceVersion":"5"}}}` + "\n", true},
		{strings.TrimSuffix(line, "\n"), false},
		{line[:40], false},
		{"\xef\xbb\xbf" + line, false},
		{" " + line, false},
		{"{\n  \"type\": \"ADDED\",\n  \"object\": {}\n}\n", false},
		{gz.String(), false},
		{"HTTP/1.1 200 OK\r\n\r\n" + line, false},
		{"GET /api/v1/pods?watch=1 HTTP/1.1\r\n\r\n" + line, false},
		{"2026-11-30T00:54:23.779301650Z " + line, false},
		{"1764464063.5\t" + line, false},
		{`{"type":"ADDED","object":"x"}` + "\n", false},
		{`{"type":"SOMETHING","object":{}}` + "\n", false},
		{`{"type":"ADDED","object":{}} {"type":"ADDED","object":{}}` + "\n", false},
		{`{"kind":"PodList","metadata":{},"items":[]}` + "\n", false},
		{`{"kind":"Status","metadata":{}}` + "\n", false},
		{`{"a":"}\"{"}` + "\n", false},
		{`{"type":"ADDED","object":{"s":"}\"{"}}` + "\n", true},
		{`{"type":"ADDED","object":{"kind":"Pod"},}` + "\n", false},
		{"kind: Pod\n", false},
		{"", false},
	} {
		if got := SplitsAtLines([]byte(c.in)); got != c.want {
			t.Errorf("SplitsAtLines(%q) = %v", c.in, got)
		}
	}
	data := []byte("garbage\n" + ev("ADDED", "a", "1")[:30] + "\n" + line + line)
	if got, want := NextSplit(data), strings.Index(string(data), line); got != want {
		t.Errorf("NextSplit = %d, want %d", got, want)
	}
	if got := NextSplit([]byte(line)); got != -1 {
		t.Errorf("NextSplit of one line = %d", got)
	}
}

// FuzzRestSplit cuts a capture that SplitsAtLines at a line start the
// input chooses: read in two parts it must read as whole.
func FuzzRestSplit(f *testing.F) {
	f.Add([]byte(ev("ADDED", "a", "1")+"\n"+ev("MODIFIED", "a", "2")+"\n"+ev("DELETED", "b", "3")+"\n"), uint16(1), uint16(0))
	f.Add([]byte(ev("ADDED", "a", "1")+"\ngarbage\n"+ev("MODIFIED", "a", "2")[:30]+"\n"+ev("DELETED", "b", "3")+"\n[\n"+ev("DELETED", "b", "3")), uint16(2), uint16(100))
	f.Fuzz(func(t *testing.T, in []byte, cut, size uint16) {
		if !SplitsAtLines(in) {
			return
		}
		starts := lineStarts(in)
		if len(starts) == 0 {
			return
		}
		at := starts[int(cut)%len(starts)]
		opts := Options{MaxEventSize: 4 << 10}
		want, wantErr := ReadAll(bytes.NewReader(in), opts)
		got, err := readThen(in, at, restOf(t, in, at, int(size), opts), opts)
		if errors.Is(err, ErrSplitMismatch) {
			return
		}
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("cut at %d: Err %v, want %v", at, err, wantErr)
		}
		sameSplit(t, at, got, want)
	})
}
