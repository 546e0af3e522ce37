package parser

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"
)

// A protobuf writer for the tests, field numbers as in protobuf.go.

func pbKey(b []byte, num, wire int) []byte { return binary.AppendUvarint(b, uint64(num<<3|wire)) }

func pbStr(b []byte, num int, s string) []byte {
	b = pbKey(b, num, pbBytes)
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func pbInt(b []byte, num int, v uint64) []byte {
	return binary.AppendUvarint(pbKey(b, num, pbVarint), v)
}

func pbTimeMsg(b []byte, num int, t string) []byte {
	v, err := time.Parse(time.RFC3339, t)
	if err != nil {
		panic(err)
	}
	return pbStr(b, num, string(pbInt(nil, 1, uint64(v.Unix()))))
}

// pbEnvelope is an object as the API server writes it: the magic and a
// runtime.Unknown around the object's own message.
func pbEnvelope(apiVersion, kind string, obj []byte) []byte {
	tm := pbStr(pbStr(nil, 1, apiVersion), 2, kind)
	return append([]byte("k8s\x00"), pbStr(pbStr(pbStr(pbStr(nil, 1, string(tm)), 2, string(obj)), 3, ""), 4, "")...)
}

// pbFrameBytes is a watch frame: the length and a WatchEvent.
func pbFrameBytes(typ string, obj []byte) []byte {
	ev := pbStr(nil, 1, typ)
	ev = pbStr(ev, 2, string(pbStr(nil, 1, string(obj))))
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(ev))), ev...)
}

// pbMeta is an ObjectMeta from "field=value" settings: name, namespace,
// uid, rv, created, deleted (RFC 3339), label and annotation (k=v, may
// repeat), managed (a managedFields entry's time, may repeat).
func pbMeta(settings ...string) []byte {
	var b []byte
	for _, s := range settings {
		k, v, _ := strings.Cut(s, "=")
		switch k {
		case "name":
			b = pbStr(b, 1, v)
		case "namespace":
			b = pbStr(b, 3, v)
		case "uid":
			b = pbStr(b, 5, v)
		case "rv":
			b = pbStr(b, 6, v)
		case "created":
			b = pbTimeMsg(b, 8, v)
		case "deleted":
			b = pbTimeMsg(b, 9, v)
		case "label", "annotation":
			mk, mv, _ := strings.Cut(v, "=")
			num := 11
			if k == "annotation" {
				num = 12
			}
			b = pbStr(b, num, string(pbStr(pbStr(nil, 1, mk), 2, mv)))
		case "managed":
			b = pbStr(b, 17, string(pbTimeMsg(pbStr(nil, 1, "kubectl"), 4, v)))
		default:
			panic(k)
		}
	}
	return b
}

func configMap(meta []byte) []byte {
	return pbEnvelope("v1", "ConfigMap", pbStr(pbStr(nil, 1, string(meta)), 2, string(pbStr(pbStr(nil, 1, "k"), 2, "v"))))
}

func pbStatus(code int, reason, msg string) []byte {
	st := pbStr(nil, 1, "")
	st = pbStr(st, 2, "Failure")
	st = pbStr(st, 3, msg)
	st = pbStr(st, 4, reason)
	st = pbInt(st, 6, uint64(code))
	return pbEnvelope("v1", "Status", st)
}

// chunkedProto is a protobuf watch response with body in chunks of the
// given sizes (the rest in one).
func chunkedProto(body []byte, sizes ...int) []byte {
	out := []byte("HTTP/1.1 200 OK\r\nContent-Type: application/vnd.kubernetes.protobuf;stream=watch\r\nTransfer-Encoding: chunked\r\n\r\n")
	for len(body) > 0 {
		n := len(body)
		if len(sizes) > 0 {
			n, sizes = min(sizes[0], n), sizes[1:]
		}
		out = fmt.Appendf(out, "%x\r\n%s\r\n", n, body[:n])
		body = body[n:]
	}
	return append(out, "0\r\n\r\n"...)
}

func readBytes(t *testing.T, in []byte) *Capture {
	t.Helper()
	c, err := ReadAll(bytes.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The same events sent as JSON and as protobuf give the same records.
func TestProtobufMatchesJSON(t *testing.T) {
	cases := []struct {
		json  string
		proto []byte
	}{{
		`{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"ns","uid":"u-1","resourceVersion":"12","creationTimestamp":"2026-12-01T08:00:00Z","labels":{"z":"1","a-b":"2","a":"3","z":"4"},"managedFields":[{"manager":"kubectl","time":"2026-12-01T08:01:00Z"},{"manager":"kubectl","time":"2026-12-01T08:03:00Z"},{"manager":"kubectl","time":"2026-12-01T08:02:00Z"}]},"data":{"k":"v"}}}`,
		pbFrameBytes("ADDED", configMap(pbMeta("name=a", "namespace=ns", "uid=u-1", "rv=12", "created=2026-12-01T08:00:00Z",
			"label=z=1", "label=a-b=2", "label=a=3", "label=z=4", "managed=2026-12-01T08:01:00Z", "managed=2026-12-01T08:03:00Z", "managed=2026-12-01T08:02:00Z"))),
	}, {
		`{"type":"MODIFIED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"ns","uid":"u-1","resourceVersion":"13","creationTimestamp":"2026-12-01T08:00:00Z"}}}`,
		pbFrameBytes("MODIFIED", configMap(pbMeta("name=a", "namespace=ns", "uid=u-1", "rv=13", "created=2026-12-01T08:00:00Z"))),
	}, {
		`{"type":"DELETED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"ns","uid":"u-1","resourceVersion":"14","creationTimestamp":"2026-12-01T08:00:00Z","deletionTimestamp":"2026-12-01T08:05:00Z"}}}`,
		pbFrameBytes("DELETED", configMap(pbMeta("name=a", "namespace=ns", "uid=u-1", "rv=14", "created=2026-12-01T08:00:00Z", "deleted=2026-12-01T08:05:00Z"))),
	}, {
		`{"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"15","annotations":{"k8s.io/initial-events-end":"true"}}}}`,
		pbFrameBytes("BOOKMARK", configMap(pbMeta("rv=15", "annotation=k8s.io/initial-events-end=true"))),
	}, {
		`{"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"16","annotations":{"k8s.io/initial-events-end":"true","k8s.io/initial-events-end":"false"}}}}`,
		pbFrameBytes("BOOKMARK", configMap(pbMeta("rv=16", "annotation=k8s.io/initial-events-end=true", "annotation=k8s.io/initial-events-end=false"))),
	}, {
		`{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 12 (40)","reason":"Expired","code":410}}`,
		pbFrameBytes("ERROR", pbStatus(410, "Expired", "too old resource version: 12 (40)")),
	}, {
		`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","resourceVersion":"x1","labels":{"q":"a\"b\\c\u0001"}}}}`,
		pbFrameBytes("ADDED", pbEnvelope("v1", "Pod", pbStr(nil, 1, string(pbMeta("name=p", "rv=x1", "label=q=a\"b\\c\x01"))))),
	}}
	var js, pb []byte
	for _, c := range cases {
		js = append(append(js, c.json...), '\n')
		pb = append(pb, c.proto...)
	}
	want := readBytes(t, js)
	for name, in := range map[string][]byte{"raw body": pb, "chunked": chunkedProto(pb, 3, 50, 1, 7, 1000)} {
		got := readBytes(t, in)
		if len(got.Events) != len(cases) || len(want.Events) != len(cases) {
			t.Fatalf("%s: %d events, JSON %d, want %d (diagnostics %v)", name, len(got.Events), len(want.Events), len(cases), got.Diagnostics)
		}
		for i, e := range got.Events {
			if !sameEvent(e, want.Events[i]) {
				t.Errorf("%s event %d:\nprotobuf %+v\nJSON     %+v", name, i, e, want.Events[i])
			}
		}
		if len(got.Diagnostics) != len(want.Diagnostics) || got.Diagnostics[0].Kind != "bad-rv" {
			t.Errorf("%s: diagnostics %v, JSON %v", name, got.Diagnostics, want.Diagnostics)
		}
	}
}

// fleetTruth is what testdata/fleet/TRUTH.tsv counts of a client.
type fleetTruth struct{ lists, watches, errors410, relists int }

func readTruth(t *testing.T) map[string]fleetTruth {
	t.Helper()
	out := map[string]fleetTruth{}
	for _, c := range testsample.FleetTruth(t) {
		out[c.Client] = fleetTruth{c.Lists, c.Watches, c.Errors410, c.Relists}
	}
	return out
}

// exchange is one request and its response in a recording, read with
// net/http after the time prefixes are taken off.
type exchange struct {
	req    *http.Request
	status int
	ctype  string
	body   []byte
}

func exchanges(t *testing.T, path string) []exchange {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var plain []byte
	for _, ln := range bytes.SplitAfter(raw, []byte("\n")) {
		if len(ln) == 0 {
			continue
		}
		_, rest, ok := bytes.Cut(ln, []byte(" "))
		if !ok {
			t.Fatalf("%s: a line without a time prefix: %q", path, ln)
		}
		plain = append(plain, rest...)
	}
	br := bufio.NewReader(bytes.NewReader(plain))
	var out []exchange
	for {
		if _, err := br.Peek(1); err == io.EOF {
			return out
		}
		req, err := http.ReadRequest(br)
		if err != nil {
			t.Fatalf("%s: request %d: %v", path, len(out), err)
		}
		resp, err := http.ReadResponse(br, req)
		if err != nil {
			t.Fatalf("%s: response %d: %v", path, len(out), err)
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("%s: response %d body: %v", path, len(out), err)
		}
		out = append(out, exchange{req, resp.StatusCode, resp.Header.Get("Content-Type"), body})
	}
}

// frameTypes walks a watch body's frames by their lengths and returns
// each frame's event type, which the server writes first (field 1).
func frameTypes(t *testing.T, body []byte) []string {
	t.Helper()
	var types []string
	for len(body) > 0 {
		n := int(binary.BigEndian.Uint32(body))
		f := body[4 : 4+n]
		if f[0] != 0x0a {
			t.Fatalf("a frame that does not start with its type: % x", f[:8])
		}
		types = append(types, string(f[2:2+f[1]]))
		body = body[4+n:]
	}
	return types
}

// c40 and c41, the protobuf clients of the fleet recording: every frame
// of their watches and every LIST is an event, with no diagnostic; their
// lists, watches, 410s and relists are TRUTH.tsv's, and each 410 reads
// as the server wrote it.
func TestProtobufFleet(t *testing.T) {
	truth := readTruth(t)
	for _, name := range []string{"c40-proto-bookmarks", "c41-proto-nobookmarks"} {
		path := filepath.Join("../testdata/fleet", name+".ts.http")
		ex := exchanges(t, path)
		c := readSample(t, path)
		if len(c.Diagnostics) != 0 {
			t.Errorf("%s: diagnostics %v", name, c.Diagnostics)
		}
		if len(c.Sessions) != len(ex) {
			t.Fatalf("%s: %d sessions, %d exchanges", name, len(c.Sessions), len(ex))
		}
		var got fleetTruth
		var lastRV string // the cursor: the list's RV, then each event's
		k := 0
		for i, x := range ex {
			s := c.Sessions[i]
			if !strings.HasPrefix(x.ctype, "application/vnd.kubernetes.protobuf") || x.status != 200 {
				t.Fatalf("%s exchange %d: %d %s", name, i, x.status, x.ctype)
			}
			var want []string
			if x.req.URL.Query().Get("watch") == "true" {
				got.watches++
				if !strings.Contains(x.ctype, "stream=watch") {
					t.Fatalf("%s exchange %d: a watch answered %s", name, i, x.ctype)
				}
				if rv := x.req.URL.Query().Get("resourceVersion"); rv != lastRV {
					t.Errorf("%s exchange %d: the client resumed from %s, its cursor was %s", name, i, rv, lastRV)
				}
				want = frameTypes(t, x.body)
			} else {
				// A LIST's answer is read as a list: an item each, the
				// list's RV on the session.
				got.lists++
				if s.List == nil || s.List.Items != 1 || !s.List.Complete {
					t.Fatalf("%s exchange %d: a LIST read as %+v", name, i, s.List)
				}
				want = []string{"LISTED"}
			}
			if s.Events != len(want) {
				t.Errorf("%s session %d: %d events, the body has %d", name, i, s.Events, len(want))
				continue
			}
			for _, typ := range want {
				e := c.Events[k]
				k++
				if e.Session != i || e.Type.String() != typ || e.APIVersion != "v1" {
					t.Errorf("%s event %d: %+v, want a %s of session %d", name, e.Seq, e, typ, i)
				}
				switch e.Type {
				case Listed:
					listRV, err := strconv.ParseUint(s.List.RV, 10, 64)
					if e.Kind != "ConfigMap" || e.Name != "shard-s10" || !e.RVValid || err != nil || e.RVNum > listRV {
						t.Errorf("%s event %d: a LIST's item read as %+v", name, e.Seq, e)
					}
					lastRV = s.List.RV
					continue
				case Bookmark:
					if e.Kind != "ConfigMap" || !e.RVValid || e.RVNum <= 1 {
						t.Errorf("%s event %d: a bookmark read as %+v", name, e.Seq, e)
					}
				case Error:
					st := e.Status
					if st == nil || st.Code != 410 || st.Reason != "Expired" || !st.TooOld || strconv.FormatUint(st.X, 10) != lastRV || st.Y <= st.X ||
						st.Message != fmt.Sprintf("too old resource version: %d (%d)", st.X, st.Y) {
						t.Errorf("%s event %d: a 410 read as %+v, status %+v (cursor %s)", name, e.Seq, e, st, lastRV)
					}
					got.errors410++
					continue
				}
				lastRV = e.RV
			}
		}
		if k != len(c.Events) {
			t.Errorf("%s: %d events, the recording holds %d", name, len(c.Events), k)
		}
		got.relists = got.lists - 1
		if got != truth[name] {
			t.Errorf("%s: %+v, TRUTH.tsv says %+v", name, got, truth[name])
		}
		t.Logf("%s: %d events; %+v", name, len(c.Events), got)
	}
}

// c40 and c10 watched the same selector with bookmarks, c40 in protobuf,
// c10 in JSON: the server sent both the same bookmarks, at once. c40's
// capture stamps each bookmark's first piece as c10's came, and its last
// only with the next frame (Event.Began).
func TestProtobufBookmarksAsJSON(t *testing.T) {
	pb := readSample(t, "../testdata/fleet/c40-proto-bookmarks.ts.http")
	js := readSample(t, "../testdata/fleet/c10-bookmarks.ts.http")
	if len(pb.Events) != len(js.Events) || len(pb.Events) < 10 {
		t.Fatalf("%d events, JSON %d", len(pb.Events), len(js.Events))
	}
	late := 0
	for i, e := range pb.Events {
		if e.Type != Bookmark {
			continue
		}
		if !sameEvent(e, js.Events[i]) {
			t.Errorf("event %d:\nprotobuf %+v\nJSON     %+v", i, e, js.Events[i])
		}
		began := e.Arrival
		if e.Began != 0 {
			began = e.Began
		}
		if d := time.Duration(began - js.Events[i].Arrival).Abs(); d > time.Second {
			t.Errorf("bookmark %d at RV %s began arriving %s from the JSON client's", i, e.RV, d)
		}
		if e.Arrival-began > int64(10*time.Second) {
			late++
		}
	}
	if late == 0 {
		t.Error("no protobuf bookmark ended long after it began, where the capture's last pieces came with the next frame")
	}
}

// The detail pane shows an event by its span: a protobuf event's span
// gives JSON of what was read. c41's LIST shows its item as c30's JSON
// LIST of the same selector does.
func TestProtobufEventJSON(t *testing.T) {
	path := "../testdata/fleet/c41-proto-nobookmarks.ts.http"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := readSample(t, path)
	type meta struct {
		Name, Namespace, UID, ResourceVersion, CreationTimestamp string
		Labels                                                   map[string]string
	}
	type object struct {
		Type   string
		Object struct {
			Kind, APIVersion string
			Metadata         meta
			Items            []struct{ Metadata meta }
			Code             int
			Message          string
		}
		Kind, APIVersion string
		Metadata         meta
		Items            []struct{ Metadata meta }
	}
	var list *object
	for _, e := range c.Events {
		js, err := EventJSON(raw[e.Offset : e.Offset+e.Length])
		if err != nil {
			t.Fatalf("event %d: %v", e.Seq, err)
		}
		var o object
		if err := json.Unmarshal(js, &o); err != nil {
			t.Fatalf("event %d: %v in %s", e.Seq, err, js)
		}
		switch e.Type {
		case Error:
			if o.Type != "ERROR" || o.Object.Kind != "Status" || o.Object.Code != 410 || o.Object.Message != e.Status.Message {
				t.Errorf("event %d: %s", e.Seq, js)
			}
		case Listed:
			// An item of a protobuf LIST spans the whole answer.
			if o.Kind != e.Kind+"List" || o.Metadata.ResourceVersion != c.Sessions[e.Session].List.RV || len(o.Items) != 1 {
				t.Errorf("event %d: %s", e.Seq, js)
			}
			list = &o
		}
	}
	if list == nil {
		t.Fatal("no LIST")
	}
	jc := readSample(t, "../testdata/fleet/c30-nobookmarks.ts.http")
	jraw, _ := os.ReadFile("../testdata/fleet/c30-nobookmarks.ts.http")
	e := jc.Events[len(jc.Events)-1]
	js, err := EventJSON(jraw[e.Offset : e.Offset+e.Length])
	if err != nil {
		t.Fatal(err)
	}
	// c30's JSON LIST is read as a list: its last event is its one item.
	var want object
	if err := json.Unmarshal(js, &want); err != nil || e.Type != Listed {
		t.Fatalf("c30's LIST item: %v %v %s", e.Type, err, js)
	}
	got, w := list.Items[0].Metadata, want.Metadata
	if got.Name != "shard-s10" || fmt.Sprint(got) != fmt.Sprint(w) {
		t.Errorf("the item read from protobuf: %+v\nfrom JSON: %+v", got, w)
	}
}

// Bad input: each problem is reported where its frame starts, and the
// frames after it are read.
func TestProtobufBadInput(t *testing.T) {
	good := pbFrameBytes("BOOKMARK", configMap(pbMeta("rv=7")))
	frame := func(ev []byte) []byte { return append(binary.BigEndian.AppendUint32(nil, uint32(len(ev))), ev...) }
	badVarint := frame(append(pbStr(nil, 1, "ADDED"), 0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f))
	longField := frame(append(pbStr(nil, 1, "ADDED"), 0x12, 0x40, 1, 2))
	wrongMagic := pbFrameBytes("ADDED", []byte("k9s\x00\x0a\x00"))
	noType := frame(pbStr(nil, 2, string(pbStr(nil, 1, string(configMap(pbMeta("rv=1")))))))
	group := frame(append(pbStr(nil, 1, "ADDED"), 0x13))
	tooBig := binary.BigEndian.AppendUint32(nil, 5000)
	tooBig = append(tooBig, bytes.Repeat([]byte{0}, 5000)...)
	cases := []struct {
		name  string
		body  [][]byte
		kind  string
		at    int // the index of the part the diagnostic is at
		msg   string
		cut   bool
		after int // the good frames read
	}{
		{"bad varint", [][]byte{good, badVarint, good}, "bad-protobuf", 1, "at its byte 12: the value of field 2 is a varint longer than 10 bytes", false, 2},
		{"field past its message", [][]byte{good, longField, good}, "bad-protobuf", 1, "at its byte 11: field 2 announces 64 bytes, but its message has 2 left", false, 2},
		{"wrong magic", [][]byte{wrongMagic, good}, "bad-protobuf", 0, `not the magic "k8s\x00"`, false, 1},
		{"no type", [][]byte{good, noType, good}, "no-type", 1, "has no type", false, 2},
		{"group", [][]byte{group, good}, "bad-protobuf", 0, "wire type 3", false, 1},
		{"too big", [][]byte{good, tooBig, good}, "event-too-big", 1, "announces 5000 bytes", false, 2},
		{"length past the end", [][]byte{good, good[:len(good)-3]}, "cut-event", 1, fmt.Sprintf("announces %d bytes, but the response ends after %d", len(good)-4, len(good)-7), true, 1},
		{"cut in the length", [][]byte{good, good[:2]}, "cut-event", 1, "inside its 4-byte length, after 2 bytes", true, 1},
		{"list cut", [][]byte{pbEnvelope("v1", "ConfigMapList", pbStr(nil, 1, "\x12\x05"))}, "bad-protobuf", 0, "field 2 announces 5 bytes", false, 0},
	}
	for _, c := range cases {
		body := bytes.Join(c.body, nil)
		at := len(bytes.Join(c.body[:c.at], nil))
		for _, framing := range []string{"one chunk", "chunks", "ts-prefixed"} {
			in := chunkedProto(body)
			if framing != "one chunk" {
				in = chunkedProto(body, 5, 9, 2)
			}
			if framing == "ts-prefixed" {
				in = prefixLines(in)
			}
			cp, err := ReadAll(bytes.NewReader(in), Options{MaxEventSize: 4096})
			if err != nil {
				t.Fatal(err)
			}
			if len(cp.Diagnostics) != 1 || string(cp.Diagnostics[0].Kind) != c.kind || !strings.Contains(cp.Diagnostics[0].Msg, c.msg) {
				t.Errorf("%s, %s: diagnostics %v, want one %s saying %q", c.name, framing, cp.Diagnostics, c.kind, c.msg)
				continue
			}
			// In one chunk, the body starts after the head and the size line.
			if want := int64(bytes.Index(in, []byte("\r\n\r\n")) + 4 + len(fmt.Sprintf("%x\r\n", len(body))) + at); framing == "one chunk" && cp.Diagnostics[0].Offset != want {
				t.Errorf("%s: diagnostic at %d, the frame starts at %d", c.name, cp.Diagnostics[0].Offset, want)
			}
			if len(cp.Events) != c.after || cp.Sessions[0].Truncated != c.cut {
				t.Errorf("%s, %s: %d events, truncated %v; want %d, %v", c.name, framing, len(cp.Events), cp.Sessions[0].Truncated, c.after, c.cut)
			}
		}
	}
}

// prefixLines prefixes every line with an arrival time, as `ts` does.
func prefixLines(in []byte) []byte {
	var out []byte
	for _, ln := range bytes.SplitAfter(in, []byte("\n")) {
		if len(ln) > 0 {
			out = append(append(out, "2026-12-01T08:00:00.5Z "...), ln...)
		}
	}
	return out
}

// The same frames read alike in every form a body takes: bare, after a
// head with no framing, with a Content-Length (then another response),
// chunked, and gzip-encoded; data that looks like chunk framing after a
// CRLF is data. The detail pane's JSON comes back from each, except from
// chunks whose data looks like their framing: that gives a clear error.
func TestProtobufFramings(t *testing.T) {
	var body []byte
	for i, rv := range []string{"5", "6", "7"} {
		meta := pbMeta("name=x", "rv="+rv, "label=odd=\r\n1f\n", "created=2026-12-01T08:00:00Z")
		body = append(body, pbFrameBytes([]string{"ADDED", "MODIFIED", "DELETED"}[i], configMap(meta))...)
	}
	head := "HTTP/1.1 200 OK\r\nContent-Type: application/vnd.kubernetes.protobuf;stream=watch\r\n"
	next := "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + ev("ADDED", "j", "9") + "\n"
	gz := gzipBytes(t, body)
	forms := map[string][]byte{
		"bare":           body,
		"no framing":     []byte(head + "\r\n" + string(body)),
		"content-length": []byte(head + fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body)) + string(body) + next),
		"chunked":        chunkedProto(body, 40, 1, 1, 1, 3),
		"gzip": fmt.Appendf(nil, "%sContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n",
			head, 10, gz[:10], len(gz)-10, gz[10:]),
	}
	want := readBytes(t, body)
	if len(want.Events) != 3 || want.Events[0].Labels != "odd=\r\n1f\n" || want.Events[2].Estimated == 0 {
		t.Fatalf("bare: %+v %v", want.Events, want.Diagnostics)
	}
	for name, in := range forms {
		c := readBytes(t, in)
		if len(c.Diagnostics) != 0 || len(c.Events) < 3 {
			t.Errorf("%s: %d events, diagnostics %v", name, len(c.Events), c.Diagnostics)
			continue
		}
		for i, e := range c.Events[:3] {
			if !sameEvent(e, want.Events[i]) {
				t.Errorf("%s event %d:\n%+v\nwant %+v", name, i, e, want.Events[i])
			}
			js, err := EventJSON(in[e.Offset : e.Offset+e.Length])
			if e.Encoded {
				js, err = EncodedEventJSON(in[e.Offset:e.Offset+e.Length], e.BodyOffset)
			}
			if name == "chunked" && e.Length > want.Events[i].Length {
				if err == nil || !strings.Contains(err.Error(), "protobuf: ") || !strings.Contains(err.Error(), "no JSON to show") {
					t.Errorf("%s event %d: %v, %s", name, i, err, js)
				}
				continue
			}
			if err != nil || !json.Valid(js) || !bytes.Contains(js, []byte(`"resourceVersion":"`+e.RV+`"`)) {
				t.Errorf("%s event %d: %v, %s", name, i, err, js)
			}
		}
		if strings.Contains(string(in), next) && (len(c.Events) != 4 || c.Events[3].Name != "j" || c.Events[3].Session != 1) {
			t.Errorf("%s: the response after the protobuf one: %+v", name, c.Events[3:])
		}
	}
}

// FuzzProtobuf: any bytes as a protobuf response body, in chunks of any
// sizes, keep the reader's invariants, and read as the same events as the
// bare body when it is protobuf; no span or frame makes the JSON for the
// detail pane panic.
func FuzzProtobuf(f *testing.F) {
	bm := pbFrameBytes("BOOKMARK", configMap(pbMeta("rv=7", "annotation=k8s.io/initial-events-end=true")))
	add := pbFrameBytes("ADDED", configMap(pbMeta("name=a", "uid=u", "rv=5", "label=a=b", "managed=2026-12-01T08:01:00Z")))
	f.Add(append(add, bm...), []byte{3, 1, 200})
	f.Add(pbFrameBytes("ERROR", pbStatus(410, "Expired", "too old resource version: 1 (2)")), []byte{5})
	f.Add(pbEnvelope("v1", "ConfigMapList", pbStr(pbStr(nil, 1, string(pbStr(nil, 2, "9"))), 2, string(pbStr(nil, 1, string(pbMeta("name=a")))))), []byte{1, 2})
	f.Add(add[:len(add)-2], []byte{})
	f.Fuzz(func(t *testing.T, body, sizes []byte) {
		ints := make([]int, len(sizes))
		for i, s := range sizes {
			ints[i] = int(s) + 1
		}
		in := chunkedProto(body, ints...)
		c := checkInvariants(t, in)
		for _, e := range c.Events {
			EventJSON(in[e.Offset : e.Offset+e.Length])
		}
		protobufJSON(body)
		if !isProtobuf(body) || bytes.Contains(body, []byte("HTTP/")) || bytes.Contains(body, []byte(" /")) {
			return
		}
		bare := checkInvariants(t, body)
		if d, _ := ReadAll(bytes.NewReader(body), Options{MaxEventSize: 4 << 10}); len(d.Diagnostics) > 0 && d.Diagnostics[0].Offset == 0 &&
			(d.Diagnostics[0].Kind == "utf-16" || d.Diagnostics[0].Kind == "utf-32" || d.Diagnostics[0].Kind == "bad-json") {
			// Bare, a body starting with zeros may be sniffed as text
			// (UTF-16 or UTF-32 without a BOM starts with NULs): it is
			// then no protobuf to compare.
			return
		}
		if len(bare.Events) != len(c.Events) {
			t.Fatalf("%d events bare, %d chunked", len(bare.Events), len(c.Events))
		}
		for i, e := range c.Events {
			if !sameEvent(e, bare.Events[i]) {
				t.Fatalf("event %d chunked %+v, bare %+v", i, e, bare.Events[i])
			}
		}
	})
}

// realWatchBody is the frames of every protobuf watch of the fleet
// recording, one after the other, and the offset of each frame.
func realWatchBody(t *testing.T) (body []byte, frames []int) {
	t.Helper()
	for _, name := range []string{"c40-proto-bookmarks", "c41-proto-nobookmarks"} {
		for _, x := range exchanges(t, filepath.Join("../testdata/fleet", name+".ts.http")) {
			if x.req.URL.Query().Get("watch") == "true" {
				frameTypes(t, x.body) // each starts with its type
				body = append(body, x.body...)
			}
		}
	}
	for at := 0; at < len(body); at += 4 + int(binary.BigEndian.Uint32(body[at:])) {
		frames = append(frames, at)
	}
	if len(frames) < 8 {
		t.Fatalf("the fleet's protobuf watches have %d frames", len(frames))
	}
	return body, frames
}

// TestProtobufResync: one damaged frame length in a real protobuf watch
// response loses that frame only. Reading goes on at the next plausible
// frame, as the JSON reader goes on after a bad line, whether the length
// grew (swallowing the frames after it), shrank, is too big to keep or
// runs past the end of the response; the diagnostics quote the length
// bytes read at the offsets they name.
func TestProtobufResync(t *testing.T) {
	body, frames := realWatchBody(t)
	k := len(frames) / 2 // the damaged frame
	at := frames[k]
	size := binary.BigEndian.Uint32(body[at:])
	for _, tc := range []struct {
		name   string
		length uint32
		kinds  []string
	}{
		{"longer", size + uint32(frames[k+2]-frames[k+1]) + 7, []string{"bad-protobuf", "resync"}},
		{"shorter", size - 5, []string{"bad-protobuf", "resync"}},
		{"too big", 1 << 30, []string{"event-too-big", "resync"}},
		{"past the end", uint32(len(body)) * 3, []string{"cut-event", "resync"}},
	} {
		bad := bytes.Clone(body)
		binary.BigEndian.PutUint32(bad[at:], tc.length)
		for _, framing := range []string{"one chunk", "chunks", "ts-prefixed"} {
			in := chunkedProto(bad)
			if framing != "one chunk" {
				in = chunkedProto(bad, 7, 300, 2, 1, 1, 1, 5000, 3)
			}
			if framing == "ts-prefixed" {
				in = prefixLines(in)
			}
			c := readBytes(t, in)
			if len(c.Events) != len(frames)-1 {
				t.Errorf("%s, %s: %d events, want %d (all but the damaged frame); diagnostics %v", tc.name, framing, len(c.Events), len(frames)-1, c.Diagnostics)
			}
			var kinds []string
			for _, d := range c.Diagnostics {
				kinds = append(kinds, string(d.Kind))
			}
			if strings.Join(kinds, " ") != strings.Join(tc.kinds, " ") {
				t.Errorf("%s, %s: diagnostics %v, want kinds %v", tc.name, framing, c.Diagnostics, tc.kinds)
				continue
			}
			if c.Sessions[0].Truncated {
				t.Errorf("%s, %s: a response read to its end is not cut", tc.name, framing)
			}
			if framing != "one chunk" {
				continue
			}
			// Each diagnostic quotes the length bytes at its offset.
			for _, d := range c.Diagnostics {
				quote := fmt.Sprintf("(its length: % x", in[d.Offset:d.Offset+4])
				if !strings.Contains(d.Msg, quote) {
					t.Errorf("%s: %s at %d says %q, not %q", tc.name, d.Kind, d.Offset, d.Msg, quote)
				}
			}
			if want := int64(bytes.Index(in, []byte("\r\n\r\n")) + 4 + len(fmt.Sprintf("%x\r\n", len(bad))) + at); c.Diagnostics[0].Offset != want {
				t.Errorf("%s: the first diagnostic is at %d, the damaged frame at %d", tc.name, c.Diagnostics[0].Offset, want)
			}
		}
	}
}

// FuzzProtobufResync: whatever value one frame's length takes, in chunks
// of any sizes, the reader keeps its invariants and reads every other
// frame of the response.
func FuzzProtobufResync(f *testing.F) {
	var body []byte
	var frames []int
	for i, typ := range []string{"ADDED", "MODIFIED", "BOOKMARK", "DELETED", "MODIFIED", "ERROR", "ADDED"} {
		frames = append(frames, len(body))
		obj := configMap(pbMeta("name=c"+strconv.Itoa(i), "rv="+strconv.Itoa(100+i), "label=app=x", "managed=2026-12-01T08:01:00Z"))
		if typ == "ERROR" {
			obj = pbStatus(500, "InternalError", "etcdserver: request timed out, rv "+strconv.Itoa(100+i))
		}
		body = append(body, pbFrameBytes(typ, obj)...)
	}
	f.Add(uint8(2), uint32(1000), []byte{7, 1, 200})
	f.Add(uint8(3), uint32(3), []byte{})
	f.Add(uint8(0), uint32(1<<31), []byte{1, 1, 1, 1})
	f.Add(uint8(6), uint32(9), []byte{50})
	f.Fuzz(func(t *testing.T, k uint8, length uint32, sizes []byte) {
		k %= uint8(len(frames))
		bad := bytes.Clone(body)
		binary.BigEndian.PutUint32(bad[frames[k]:], length)
		ints := make([]int, len(sizes))
		for i, s := range sizes {
			ints[i] = int(s) + 1
		}
		c := checkInvariants(t, chunkedProto(bad, ints...))
		read := map[string]bool{}
		for _, e := range c.Events {
			read[e.RV] = true
		}
		for i := range frames {
			if rv := strconv.Itoa(100 + i); i != int(k) && i != 5 && !read[rv] {
				t.Fatalf("frame %d length %d: frame %d (RV %s) lost; events %+v", k, length, i, rv, c.Events)
			}
		}
	})
}
