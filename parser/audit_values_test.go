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
