package parser

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// podLines returns the first n events of the kubectl sample, one per line.
func podLines(t testing.TB, n int) [][]byte {
	t.Helper()
	b, err := os.ReadFile("../samples/kubectl-pods-watch.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitN(b, []byte("\n"), n+1)
	return lines[:n]
}

func mustRead(t *testing.T, b []byte) *Capture {
	t.Helper()
	c, err := ReadAll(bytes.NewReader(b), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sameEvents compares what matters of two event lists, not where they sit.
func sameEvents(t *testing.T, got, want []Event) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		// Identity numbers the objects of one reading, not of the capture.
		g.Offset, g.Length, g.Arrival, g.Began, g.Session, g.Identity = w.Offset, w.Length, w.Arrival, w.Began, w.Session, w.Identity
		if g.Type == Observed {
			g.Type = w.Type
		}
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("event %d:\n%+v\nwant\n%+v", i, g, w)
		}
	}
}

func noDiags(t *testing.T, c *Capture) {
	t.Helper()
	for _, d := range c.Diagnostics {
		t.Errorf("diagnostic: %v", d)
	}
}

func TestBodyForms(t *testing.T) {
	lines := podLines(t, 20)
	ndjson := append(bytes.Join(lines, []byte("\n")), '\n')
	want := mustRead(t, ndjson)
	noDiags(t, want)
	if len(want.Events) != 20 {
		t.Fatalf("%d events", len(want.Events))
	}
	var pretty, concat, crlf bytes.Buffer
	for _, l := range lines {
		var v any
		if err := json.Unmarshal(l, &v); err != nil {
			t.Fatal(err)
		}
		p, _ := json.MarshalIndent(v, "", "  ")
		pretty.Write(p)
		pretty.WriteString("\n")
		concat.Write(l)
		crlf.Write(l)
		crlf.WriteString("\r\n")
	}
	for name, in := range map[string][]byte{"pretty": pretty.Bytes(), "concatenated": concat.Bytes(), "crlf": crlf.Bytes()} {
		t.Run(name, func(t *testing.T) {
			c := mustRead(t, in)
			noDiags(t, c)
			sameEvents(t, c.Events, want.Events)
			for _, e := range c.Events {
				if _, err := EventJSON(in[e.Offset : e.Offset+e.Length]); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestKubectlBareObjects reads `kubectl get -w -o json`: 4-space
// pretty-printed objects, no event type.
func TestKubectlBareObjects(t *testing.T) {
	lines := podLines(t, 5)
	want := mustRead(t, bytes.Join(lines, []byte("\n")))
	var in bytes.Buffer
	for _, l := range lines {
		var ev struct{ Object json.RawMessage }
		json.Unmarshal(l, &ev)
		var v any
		json.Unmarshal(ev.Object, &v)
		p, _ := json.MarshalIndent(v, "", "    ")
		in.Write(p)
		in.WriteString("\n")
	}
	c := mustRead(t, in.Bytes())
	noDiags(t, c)
	for _, e := range c.Events {
		if e.Type != Observed {
			t.Fatalf("type %v, want OBSERVED", e.Type)
		}
	}
	sameEvents(t, c.Events, want.Events)
}

// TestPrettyStringBrokenByLineEnd: a pretty-printed event whose string a
// line end breaks is cut, as it is when each line carries a time; the fast
// path for indented values must not read past the break.
func TestPrettyStringBrokenByLineEnd(t *testing.T) {
	in := "HTTP/1.1 200 OK\n\n{\n  \"type\": \"ADDED\",\n  \"object\": {\"kind\": \"Pod\", \"metadata\": {\"name\": \"a\", \"resourceVersion\": \"1\"}, \"x\": \"a\n  b\"}\n}\n" +
		ev("ADDED", "b", "2") + "\n"
	for name, b := range map[string][]byte{"plain": []byte(in), "timed": timed(in, time.Unix(1e9, 0))} {
		c, _ := ReadAll(bytes.NewReader(b), Options{})
		if len(c.Events) != 1 || c.Events[0].Name != "b" {
			t.Errorf("%s: %d events, want only b's", name, len(c.Events))
		}
		if len(c.Diagnostics) == 0 || c.Diagnostics[0].Kind != "cut-event" || c.Diagnostics[0].Line != 3 {
			t.Errorf("%s: diagnostics %v, want a cut event on line 3", name, c.Diagnostics)
		}
	}
}

func TestYAML(t *testing.T) {
	in := `object:
  apiVersion: v1
  kind: ConfigMap
  data:
    script: |
      name: not-this
      kind: NotThis
  metadata:
    annotations:
      k8s.io/initial-events-end: "true"
      other: x
    creationTimestamp: "2026-11-30T00:54:22Z"
    managedFields:
    - apiVersion: v1
      manager: a
      time: "2026-11-30T00:54:40Z"
    - apiVersion: v1
      fieldsV1:
        f:data: {}
      time: "2026-11-30T00:54:44Z"
    name: cm-1
    namespace: 'it''s'
    resourceVersion: "389"
    uid: 3bd60412
type: MODIFIED
---
apiVersion: v1
kind: Pod
metadata:
  name: p # a comment
  resourceVersion: "12"
---
object:
  apiVersion: v1
  code: 410
  kind: Status
  message: 'too old resource version: 389 (1411)'
  reason: Expired
type: ERROR
`
	c := mustRead(t, []byte(in))
	noDiags(t, c)
	if len(c.Events) != 3 {
		t.Fatalf("%d events: %+v", len(c.Events), c.Events)
	}
	rd := NewReader(strings.NewReader(in), Options{})
	for rd.Next() {
		e := rd.Event()
		if want := strings.TrimSpace(in[e.Offset : e.Offset+e.Length]); strings.TrimSpace(string(rd.Raw())) != want {
			t.Errorf("event %d: Raw %q, want %q", e.Seq, rd.Raw(), want)
		}
	}
	e := c.Events[0]
	if e.Type != Modified || e.Kind != "ConfigMap" || e.Name != "cm-1" || e.Namespace != "it's" || e.RVNum != 389 ||
		e.UID != "3bd60412" || !e.InitialEventsEnd || e.Estimated != mustTime(t, "2026-11-30T00:54:44Z") {
		t.Errorf("event 0: %+v", e)
	}
	if !strings.HasPrefix(in[e.Offset:], "object:") || !strings.HasSuffix(in[:e.Offset+e.Length], "type: MODIFIED") {
		t.Errorf("event 0 span %q", in[e.Offset:e.Offset+e.Length])
	}
	if e := c.Events[1]; e.Type != Observed || e.Kind != "Pod" || e.Name != "p" || e.RV != "12" {
		t.Errorf("event 1: %+v", e)
	}
	if e := c.Events[2]; e.Type != Error || e.Status == nil || e.Status.Code != 410 || !e.Status.TooOld || e.Status.Y != 1411 {
		t.Errorf("event 2: %+v %+v", e, e.Status)
	}
}

func mustTime(t *testing.T, s string) int64 {
	ns, ok := parseTime(s)
	if !ok {
		t.Fatalf("bad time %q", s)
	}
	return ns
}

// chunk frames body as HTTP/1.1 chunks of the given sizes (cycled).
func chunk(body []byte, eol string, sizes ...int) []byte {
	var b bytes.Buffer
	for i := 0; len(body) > 0; i++ {
		n := min(sizes[i%len(sizes)], len(body))
		fmt.Fprintf(&b, "%x%s", n, eol)
		if i%3 == 1 {
			b.Truncate(b.Len() - len(eol))
			fmt.Fprintf(&b, ";ext=%d%s", i, eol)
		}
		b.Write(body[:n])
		b.WriteString(eol)
		body = body[n:]
	}
	b.WriteString("0" + eol + "X-Trailer: 1" + eol + eol)
	return b.Bytes()
}

func TestChunkedShapes(t *testing.T) {
	lines := podLines(t, 12)
	body := append(bytes.Join(lines, []byte("\n")), '\n')
	want := mustRead(t, body)
	for _, eol := range []string{"\r\n", "\n"} {
		for _, sizes := range [][]int{{1}, {7, 300, 5000}, {1 << 20}, {len(lines[0]) + 1}} {
			head := "HTTP/1.1 200 OK" + eol + "Transfer-Encoding: chunked" + eol + eol
			in := append([]byte(head), chunk(body, eol, sizes...)...)
			c := mustRead(t, in)
			noDiags(t, c)
			sameEvents(t, c.Events, want.Events)
			if len(c.Sessions) != 1 || c.Sessions[0].Truncated || c.Sessions[0].HTTPStatus != 200 {
				t.Errorf("sessions %+v", c.Sessions)
			}
			rd := NewReader(bytes.NewReader(in), Options{})
			for rd.Next() {
				e := rd.Event()
				got, err := EventJSON(in[e.Offset : e.Offset+e.Length])
				if err != nil || !bytes.Equal(got, rd.Raw()) {
					t.Fatalf("sizes %v event %d: EventJSON %v", sizes, e.Seq, err)
				}
			}
		}
	}
}

func TestPrefixedAndCompressed(t *testing.T) {
	raw, err := os.ReadFile("../samples/w4-then-resume.http")
	if err != nil {
		t.Fatal(err)
	}
	want := mustRead(t, raw)
	var unix bytes.Buffer
	for i, l := range bytes.SplitAfter(raw, []byte("\n")) {
		if len(l) > 0 {
			fmt.Fprintf(&unix, "%d.%06d\t%s", 1764464063+i, i, l)
		}
	}
	var gz bytes.Buffer
	for _, part := range [][]byte{unix.Bytes()[:1000], unix.Bytes()[1000:]} { // two gzip members
		zw := gzip.NewWriter(&gz)
		zw.Write(part)
		zw.Close()
	}
	var zs bytes.Buffer
	zw, _ := zstd.NewWriter(&zs)
	zw.Write(unix.Bytes())
	zw.Close()
	for name, in := range map[string][]byte{"unix": unix.Bytes(), "gzip": gz.Bytes(), "zstd": zs.Bytes()} {
		t.Run(name, func(t *testing.T) {
			c := mustRead(t, in)
			noDiags(t, c)
			sameEvents(t, c.Events, want.Events)
			if len(c.Sessions) != 2 {
				t.Fatalf("%d sessions", len(c.Sessions))
			}
			for i, e := range c.Events {
				if e.Arrival < 1764464063e9 || e.Arrival%1e9 == 0 && i > 0 {
					t.Errorf("event %d arrival %d", i, e.Arrival)
				}
			}
			if got := mustRead(t, in).Events[0].Offset; got != c.Events[0].Offset {
				t.Errorf("offset %d", got)
			}
		})
	}
}

func TestRequestQuery(t *testing.T) {
	in := "GET https://k:6443/apis/apps/v1/deployments?watch=1&allowWatchBookmarks=true&sendInitialEvents=true" +
		"&resourceVersionMatch=NotOlderThan&resourceVersion=&fieldSelector=metadata.name%3Dx&labelSelector=a+in+(b)&timeoutSeconds=301 HTTP/1.1\n" +
		"Host: k\n\nHTTP/1.1 200 OK\nContent-Type: application/json\n\n" +
		`{"type":"BOOKMARK","object":{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"resourceVersion":"5","annotations":{"k8s.io/initial-events-end":"true"}}}}` + "\n"
	c := mustRead(t, []byte(in))
	noDiags(t, c)
	want := &Request{Method: "GET", Path: "/apis/apps/v1/deployments",
		Query: "watch=1&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=&fieldSelector=metadata.name%3Dx&labelSelector=a+in+(b)&timeoutSeconds=301",
		Watch: true, AllowWatchBookmarks: true, SendInitialEvents: true, ResourceVersionMatch: "NotOlderThan",
		FieldSelector: "metadata.name=x", LabelSelector: "a in (b)", TimeoutSeconds: 301}
	if len(c.Sessions) != 1 || !reflect.DeepEqual(c.Sessions[0].Request, want) {
		t.Fatalf("sessions %+v", c.Sessions)
	}
	if len(c.Events) != 1 || !c.Events[0].InitialEventsEnd {
		t.Fatalf("events %+v", c.Events)
	}
}

func TestStatusBodies(t *testing.T) {
	st504 := `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Timeout: Too large resource version: 900, current: 800","reason":"Timeout","code":504}`
	in := fmt.Sprintf("HTTP/1.1 504 Gateway Timeout\r\nContent-Length: %d\r\n\r\n", len(st504)) + st504 +
		"HTTP/1.1 200 OK\r\n\r\n" + `{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"The resourceVersion for the provided watch is too old.","reason":"Expired","code":410}}`
	c := mustRead(t, []byte(in))
	noDiags(t, c)
	if len(c.Sessions) != 2 {
		t.Fatalf("%d sessions", len(c.Sessions))
	}
	st := c.Sessions[0].Status
	if st == nil || !st.TooLarge || st.X != 900 || st.Y != 800 || st.Code != 504 || c.Sessions[0].HTTPStatus != 504 {
		t.Errorf("status %+v", st)
	}
	if len(c.Events) != 1 || c.Events[0].Status == nil || c.Events[0].Status.TooOld || c.Events[0].Status.Code != 410 || c.Events[0].Session != 1 {
		t.Errorf("events %+v", c.Events)
	}
}

// TestUnframedBodiesBackToBack checks that heads are found between bodies
// with no framing, in every body form, even after a cut value.
func TestUnframedBodiesBackToBack(t *testing.T) {
	lines := podLines(t, 4)
	var pretty bytes.Buffer
	for _, l := range lines {
		json.Indent(&pretty, l, "", "    ")
		pretty.WriteByte('\n')
	}
	nd := string(bytes.Join(lines, []byte("\n"))) + "\n"
	for name, body := range map[string]string{"ndjson": nd, "pretty": pretty.String()} {
		in := body + "HTTP/1.1 200 OK\r\n\r\n" + body + body[:len(body)-300] + "\n" +
			"GET /api/v1/pods?watch=1 HTTP/1.1\r\n\r\nHTTP/1.1 200 OK\r\n\r\n" + body + "garbage\nHTTP/1.1 200 OK\r\n\r\n" + body
		c := mustRead(t, []byte(in))
		if len(c.Sessions) != 4 {
			t.Fatalf("%s: %d sessions", name, len(c.Sessions))
		}
		per := make([]int, 4)
		for _, e := range c.Events {
			per[e.Session]++
		}
		if fmt.Sprint(per) != "[4 7 4 4]" || c.Sessions[2].Request == nil {
			t.Errorf("%s: events per session %v; diagnostics %v", name, per, c.Diagnostics)
		}
		if k := strings.Join(kinds(c), ","); k != "cut-event,bad-json" {
			t.Errorf("%s: diagnostics %v", name, c.Diagnostics)
		}
	}
}

// TestDechunkedByCurl reads `curl -i` without --raw: chunked in the headers,
// plain in the body.
func TestDechunkedByCurl(t *testing.T) {
	in := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + ev("ADDED", "a", "1") + "\n" + ev("ADDED", "b", "2") + "\n"
	c := mustRead(t, []byte(in))
	noDiags(t, c)
	if names(c) != "a,b" {
		t.Fatalf("events %q", names(c))
	}
}

// TestGluedValues reads values glued on one line, which the line-end fast
// way must not take for one.
func TestGluedValues(t *testing.T) {
	obj := `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"%s","resourceVersion":"1"},"status":{}}`
	in := fmt.Sprintf(obj+obj+"\n", "a", "b") + ev("ADDED", "c", "2") + ev("ADDED", "d", "3") + "\n"
	c := mustRead(t, []byte(in))
	noDiags(t, c)
	if names(c) != "a,b,c,d" {
		t.Fatalf("events %q", names(c))
	}
}

func TestInterimResponse(t *testing.T) {
	in := "HTTP/1.1 100 Continue\r\nX: 1\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + ev("ADDED", "a", "1") + "\n"
	c := mustRead(t, []byte(in))
	noDiags(t, c)
	if len(c.Sessions) != 1 || c.Sessions[0].HTTPStatus != 200 || len(c.Sessions[0].Headers) != 1 || names(c) != "a" {
		t.Fatalf("sessions %+v events %q", c.Sessions, names(c))
	}
}

func TestJSONArrayOfEvents(t *testing.T) {
	in := "[\n  " + ev("ADDED", "a", "1") + ",\n  " + ev("ADDED", "b", "2") + "\n]\n"
	c := mustRead(t, []byte(in))
	noDiags(t, c)
	if names(c) != "a,b" {
		t.Fatalf("events %q", names(c))
	}
}

func TestEncodedBody(t *testing.T) {
	in := "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n\x1f\x8b\x08\x00{\r\n0\r\n\r\n" +
		"HTTP/1.1 200 OK\r\n\r\n" + ev("ADDED", "a", "1") + "\n"
	c := mustRead(t, []byte(in))
	if k := strings.Join(kinds(c), ","); k != "bad-encoding" || names(c) != "a" || len(c.Sessions) != 2 {
		t.Fatalf("diagnostics %v events %q sessions %d", c.Diagnostics, names(c), len(c.Sessions))
	}
}
