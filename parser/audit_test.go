package parser

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

const fleetDir = "../testdata/fleet"

func readFleetAudit(t testing.TB, name string) *AuditLog {
	t.Helper()
	f, err := os.Open(filepath.Join(fleetDir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head, r := SniffHead(f)
	ok := head.Audit()
	if !ok {
		t.Fatalf("%s not sniffed as an audit log", name)
	}
	l, err := ReadAudit(r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// The real audit logs of the fleet recording: every record read, each
// watch's two stages merged into one request, the loopback user's uid
// new at each start of a server.
func TestReadAuditFleet(t *testing.T) {
	a1 := readFleetAudit(t, "audit-a-1.log")
	if a1.Records != 141 || len(a1.Diagnostics) != 0 {
		t.Fatalf("audit-a-1: %d records, diagnostics %v", a1.Records, a1.Diagnostics)
	}
	verbs := map[string]int{}
	var c36 []AuditRequest
	for _, q := range a1.Requests {
		verbs[q.Verb]++
		if strings.HasPrefix(q.UserAgent, "fleet-c36-nobookmarks/") {
			c36 = append(c36, q)
		}
	}
	// 141 records: the 24 watches are logged twice (started, complete).
	if len(a1.Requests) != 117 || verbs["create"] != 35 || verbs["patch"] != 18 || verbs["get"] != 18 || verbs["list"] != 22 || verbs["watch"] != 24 {
		t.Errorf("audit-a-1: %d requests, by verb %v", len(a1.Requests), verbs)
	}
	if len(c36) != 2 || c36[0].Verb != "list" {
		t.Fatalf("c36 on a before its restart, a LIST and a watch: %+v", c36)
	}
	w := c36[1]
	if w.Request == nil || !w.Request.Watch || w.Request.ResourceVersion != "289" || w.Request.LabelSelector != "shard=s16" ||
		w.Request.AllowWatchBookmarks || w.Request.TimeoutSeconds == 0 || w.Started == 0 || w.Completed-w.Received < 300e9 || w.Code != 200 || w.User != "admin" || w.SourceIP != "127.0.0.1" || w.Resource != "configmaps" || w.Namespace != "fleet" {
		t.Errorf("c36's watch: %+v %+v", w, w.Request)
	}
	a2 := readFleetAudit(t, "audit-a-2.log")
	if a1.Process == "" || a2.Process == "" || a1.Process == a2.Process {
		t.Errorf("the loopback uid must tell the two processes of server a apart: %q, %q", a1.Process, a2.Process)
	}
	if a1.Last >= a2.First {
		t.Errorf("a-1 ends %d, a-2 starts %d", a1.Last, a2.First)
	}
}

// Bad lines are diagnosed with their offsets and lines, and the records
// around them are read; a watch the log ends before is kept unfinished.
func TestReadAuditBadInput(t *testing.T) {
	rec := func(id, stage, verb string) string {
		return `{"kind":"Event","apiVersion":"audit.k8s.io/v1","auditID":"` + id + `","stage":"` + stage + `","verb":"` + verb +
			`","requestURI":"/api/v1/pods?watch=true&resourceVersion=5","userAgent":"ua","user":{"username":"u"},"sourceIPs":["1.2.3.4"],` +
			`"responseStatus":{"code":200},"requestReceivedTimestamp":"2026-12-01T08:00:00.000001Z","stageTimestamp":"2026-12-01T08:00:01.5Z"}` + "\n"
	}
	lines := []string{
		rec("a", "ResponseStarted", "watch"),
		"garbage here\n",
		`{"kind":"Pod","apiVersion":"v1"}` + "\n",
		`{"kind":"Event","apiVersion":"audit.k8s.io/v1","auditID":"x","stageTimestamp":"yesterday"}` + "\n",
		`{"kind":"Event","apiVersion":"audit.k8s.io/v1",` + strings.Repeat(" ", 5000) + "}\n",
		rec("b", "ResponseComplete", "list"),
		rec("a", "ResponseComplete", "watch"),
		rec("c", "ResponseStarted", "watch"),
	}
	in := strings.Join(lines, "")
	l, err := ReadAudit(strings.NewReader(in), Options{MaxEventSize: 4096})
	if err != nil {
		t.Fatal(err)
	}
	wantKinds := []string{"bad-json", "not-audit", "bad-audit", "too-long"}
	if len(l.Diagnostics) != len(wantKinds) {
		t.Fatalf("diagnostics %v", l.Diagnostics)
	}
	off := int64(len(lines[0]))
	for k, d := range l.Diagnostics {
		if string(d.Kind) != wantKinds[k] || d.Offset != off || d.Line != k+2 {
			t.Errorf("diagnostic %d: %v, want %s at offset %d line %d", k, d, wantKinds[k], off, k+2)
		}
		off += int64(len(lines[k+1]))
	}
	if len(l.Requests) != 3 || l.Requests[0].Verb != "list" || l.Requests[1].AuditID != "a" || l.Requests[2].AuditID != "c" {
		t.Fatalf("requests %+v", l.Requests)
	}
	if q := l.Requests[1]; q.Started == 0 || q.Completed == 0 || q.Line != 7 || !q.Request.Watch || q.Request.ResourceVersion != "5" {
		t.Errorf("the watch's stages merged: %+v", q)
	}
	if q := l.Requests[2]; q.Completed != 0 || q.Started == 0 {
		t.Errorf("a watch the log ends before: %+v", q)
	}

	// Cut gzip: what came before is read, and the cut is a diagnostic.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(strings.Repeat(rec("d", "ResponseComplete", "get"), 200)))
	zw.Close()
	cut := gz.Bytes()[:gz.Len()*3/4]
	head, r := SniffHead(bytes.NewReader(cut))
	ok := head.Audit()
	if !ok {
		t.Fatal("a gzip audit log must be sniffed as one")
	}
	l, err = ReadAudit(r, Options{})
	if err != nil || len(l.Requests) == 0 || len(l.Diagnostics) != 2 || l.Diagnostics[0].Kind != "truncated" || l.Diagnostics[1].Kind != "bad-compression" {
		t.Fatalf("cut gzip: %v, %d requests, %v", err, len(l.Requests), l.Diagnostics)
	}
}

// Sniffing goes by the bytes: a watch capture is no audit log, and the
// bytes handed back are the file's, whole.
func TestSniffAudit(t *testing.T) {
	for _, n := range []string{"c31-nobookmarks.ts.http", "broad-a.ts.http"} {
		data, err := os.ReadFile(filepath.Join(fleetDir, n))
		if err != nil {
			t.Fatal(err)
		}
		head, r := SniffHead(bytes.NewReader(data))
		ok := head.Audit()
		var back bytes.Buffer
		back.ReadFrom(r)
		if ok || !bytes.Equal(back.Bytes(), data) {
			t.Errorf("%s: sniffed as audit %v, %d of %d bytes back", n, ok, back.Len(), len(data))
		}
	}
	for _, head := range []string{"", "{", `{"kind":"Event","apiVersion":"v1"}` + "\n", `{"type":"ADDED","object":{}}`} {
		if IsAuditLog([]byte(head)) {
			t.Errorf("%q sniffed as an audit log", head)
		}
	}
}

// A captured request's User-Agent names its client in a fleet.
func TestCaptureUserAgent(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fleetDir, "c31-nobookmarks.ts.http"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := ReadAll(bytes.NewReader(data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Sessions) != 8 {
		t.Fatalf("%d sessions", len(c.Sessions))
	}
	for _, s := range c.Sessions {
		if s.Request == nil || s.Request.UserAgent != "fleet-c31-nobookmarks/1.0" {
			t.Errorf("session %d: request %+v", s.Index, s.Request)
		}
	}
}

// FuzzAuditReader: any input reads without panic, with diagnostics and
// requests inside the input, and sniffing hands back every byte.
func FuzzAuditReader(f *testing.F) {
	data, err := os.ReadFile(filepath.Join(fleetDir, "audit-b-2.log"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data[:4096])
	f.Add([]byte("{\"kind\":\"Event\",\"apiVersion\":\"audit.k8s.io/v1\",\"auditID\":\"a\",\"stage\":\"ResponseStarted\",\"verb\":\"watch\",\"requestURI\":\"/x?watch=1\",\"stageTimestamp\":\"2026-12-01T08:00:01Z\"}\n{}\nnot json\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		head, r := SniffHead(bytes.NewReader(in))
		ok := head.Audit()
		var back bytes.Buffer
		back.ReadFrom(r)
		if !bytes.Equal(back.Bytes(), in) {
			t.Fatalf("sniffing lost bytes: %d of %d", back.Len(), len(in))
		}
		if ok != IsAuditLog(in[:min(len(in), auditSniffLen)]) && len(in) > 0 && in[0] != 0x1f && in[0] != 0x28 && in[0] != 0xff && in[0] != 0xfe && (len(in) < 2 || in[1] != 0) {
			t.Fatalf("the head's Audit %v disagrees with IsAuditLog on plain text", ok)
		}
		l, err := ReadAudit(bytes.NewReader(in), Options{MaxEventSize: 1 << 10})
		if err != nil {
			t.Fatalf("Err %v on in-memory input", err)
		}
		compressed := checkLogDiagnostics(t, in, l.Diagnostics)
		for _, q := range l.Requests {
			if q.AuditID == "" || q.Offset < 0 || (!compressed && q.Offset >= int64(len(in))) || (q.Completed == 0 && q.Started == 0 && q.Received == 0) {
				t.Fatalf("request %+v", q)
			}
		}
		if len(l.Requests) > l.Records {
			t.Fatalf("%d requests from %d records", len(l.Requests), l.Records)
		}
	})
}
