package parser

import (
	"bufio"
	"bytes"
	"path/filepath"
	"testing"

	"github.com/tidwall/gjson"

	"watchlens/internal/testsample"
)

// sameValues says where auditValues' values of rec differ from gjson's
// GetMany of the same paths, -1 when nowhere.
func sameValues(rec string) int {
	want := gjson.GetMany(rec, auditFields[:]...)
	got := auditValues(rec)
	for i := range want {
		w, g := want[i], got[i]
		if w.Type != g.Type || w.Raw != g.Raw || w.Str != g.Str || w.Num != g.Num && w.Num == w.Num {
			return i
		}
	}
	return -1
}

// Every record of the recordings' audit logs reads the same in one walk
// as through gjson's paths.
func TestAuditValuesAreGJSONs(t *testing.T) {
	n := 0
	for _, rec := range []string{"samples-lab", "samples-watchlist", "samples-outage", "samples-fleet"} {
		paths, _ := filepath.Glob(filepath.Join(testsample.Recording(t, rec), "audit*.log*"))
		for _, path := range paths {
			sc := bufio.NewScanner(bytes.NewReader(testsample.Read(t, path)))
			sc.Buffer(nil, 16<<20)
			for sc.Scan() {
				ln := sc.Text()
				if !gjson.Valid(ln) {
					continue
				}
				if i := sameValues(ln); i >= 0 {
					t.Fatalf("%s: %s differs in %.200s", filepath.Base(path), auditFields[i], ln)
				}
				n++
			}
		}
	}
	if n < 1000 {
		t.Fatalf("%d records compared", n)
	}
}

// Any valid JSON reads the same in one walk as through gjson's paths:
// duplicate keys, a parent that lacks the field before one that holds
// it, a parent of another type, escaped keys.
func FuzzAuditValues(f *testing.F) {
	for _, s := range []string{
		`{"kind":"Event","apiVersion":"audit.k8s.io/v1","auditID":"a","stage":"ResponseComplete","verb":"watch","requestURI":"/api/v1/pods?watch=true","userAgent":"x","user":{"username":"u","uid":"1"},"sourceIPs":["10.0.0.1"],"objectRef":{"resource":"pods","namespace":"n"},"responseStatus":{"code":200},"requestReceivedTimestamp":"2026-12-01T18:13:29.926000Z","stageTimestamp":"2026-12-01T18:13:29.926000Z"}`,
		`{"user":{"uid":"1"},"user":{"username":"u"},"kind":1,"kind":"Event","sourceIPs":"x","sourceIPs":{"0":"y"}}`,
		`{"objectRef":"p","objectRef":{"name":"a\"b"},"responseStatus":null,"responseStatus":{"code":4.1e2,"message":"\u00e9"}}`,
		`{"us\u0065r":{"username":"e"},"stage\t":"x","auditID":null}`,
		`[{"kind":"Event"}]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rec string) {
		if !gjson.Valid(rec) {
			return
		}
		if i := sameValues(rec); i >= 0 {
			t.Fatalf("%s differs: GetMany %q, one walk %q", auditFields[i], gjson.Get(rec, auditFields[i]).Raw, auditValues(rec)[i].Raw)
		}
	})
}

// What a request keeps of its records outlives the line buffer they were
// read in: a log larger than the buffer (256 kB), read as a stream, gives
// each request the strings of its own last record, which the file's
// bytes at its offset say.
func TestAuditRequestsKeepTheirOwnStrings(t *testing.T) {
	path := filepath.Join(testsample.Recording(t, "samples-lab"), "audit-a-2.log")
	raw := testsample.Read(t, path)
	if len(raw) <= windowSize {
		t.Fatalf("%s is %d bytes, within one buffer", path, len(raw))
	}
	log, err := ReadAudit(bufio.NewReaderSize(bytes.NewReader(raw), 4096), Options{})
	if err != nil || len(log.Requests) < 1000 {
		t.Fatalf("%d requests, %v", len(log.Requests), err)
	}
	for _, q := range log.Requests {
		rec := raw[q.Offset:]
		rec = rec[:bytes.IndexByte(rec, '\n')]
		want := gjson.GetManyBytes(rec, "auditID", "verb", "userAgent", "user.username", "objectRef.resource", "objectRef.namespace", "objectRef.name", "sourceIPs.0")
		got := []string{q.AuditID, q.Verb, q.UserAgent, q.User, q.Resource, q.Namespace, q.Name, q.SourceIP}
		for i, w := range want {
			if got[i] != w.String() {
				t.Fatalf("the request at offset %d keeps %q where its record says %q", q.Offset, got[i], w.String())
			}
		}
	}
}
