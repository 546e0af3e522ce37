package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"watchlens/internal/testsample"
	"watchlens/timeline"
)

// TestAnalyzeFailOnUnreadable: a CI gate must not pass a file it could not
// read as a watch capture (empty, not a capture, cut before its first
// event): under --fail-on that is exit 3. A capture cut mid-stream (a
// recording stopped with Ctrl-C) keeps its verdict.
func TestAnalyzeFailOnUnreadable(t *testing.T) {
	dir := t.TempDir()
	w1, err := os.ReadFile("samples/w1-broad-configmaps-bookmarks.http")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(w1)
	zw.Close()
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(i*7919>>3) ^ byte(i>>5)
	}
	files := map[string][]byte{
		"empty":         nil,
		"random":        random,
		"cut-at-100.gz": gz.Bytes()[:100],
		"half.http":     w1[:len(w1)/2],
		"half.http.gz":  gz.Bytes()[:gz.Len()/2],
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		files []string
		want  int
	}{
		{[]string{"empty"}, 3},
		{[]string{"random"}, 3},
		{[]string{"cut-at-100.gz"}, 3},
		{[]string{"half.http"}, 0},
		{[]string{"half.http.gz"}, 0},
		{[]string{"half.http", "empty"}, 3},
	} {
		var args []string
		for _, f := range tc.files {
			args = append(args, filepath.Join(dir, f))
		}
		code, _, errOut := analyze(t, append([]string{"--fail-on", "410"}, args...)...)
		if code != tc.want {
			t.Errorf("analyze --fail-on 410 %v: exit %d, want %d (%s)", tc.files, code, tc.want, errOut)
		}
		if said := strings.Contains(errOut, ": nothing to judge: "); said != (tc.want == 3) {
			t.Errorf("analyze %v: stderr %q", tc.files, errOut)
		}
		checkNothingJudged(t, args, tc.want == 3 && len(tc.files) == 1)
	}
	// A response that is only a 410 Status has no event, and is a verdict;
	// the gate says why it failed, naming the file by its base name.
	if code, _, errOut := analyze(t, "--fail-on", "410", "samples/l410-list-exact-stale-rv.http"); code != 1 ||
		!strings.HasPrefix(errOut, "watchlens analyze: --fail-on 410: l410-list-exact-stale-rv.http got 410 Gone at 2026-11-30 ") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("the LIST answered 410: exit %d, stderr %q; want 1 and the reason in one line", code, errOut)
	}
}

// realCaptures lists every capture of the samples and of the recordings
// shared beside the checkout: the files at the top of each folder that a
// user would give analyze (watch captures, audit logs, API server logs).
func realCaptures(t *testing.T) []string {
	t.Helper()
	dirs := []string{testsample.Path(t, testsample.SamplesDir)}
	for _, name := range testsample.Recordings {
		if dir, ok := testsample.RecordingIfPresent(t, name); ok {
			dirs = append(dirs, dir)
		}
	}
	var out []string
	for _, d := range dirs {
		entries, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			n := e.Name()
			if !e.IsDir() && (strings.HasSuffix(n, ".http") || strings.HasSuffix(n, ".http.gz") || strings.HasSuffix(n, ".curl") ||
				strings.HasSuffix(n, ".jsonl") || strings.HasSuffix(n, ".log")) {
				out = append(out, filepath.Join(d, n))
			}
		}
	}
	return out
}

// recordingInputs lists, of each recording shared beside the checkout,
// the inputs realCaptures leaves out: the recording whole (its folder,
// as a user gives the folder an incident left) and each of its
// Prometheus exports alone.
func recordingInputs(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, name := range testsample.Recordings {
		dir, ok := testsample.RecordingIfPresent(t, name)
		if !ok {
			continue
		}
		out = append(out, dir)
		err := filepath.WalkDir(filepath.Join(dir, "prometheus"), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".json.gz") || strings.HasSuffix(p, ".txt.gz")) {
				out = append(out, p)
			}
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// chunk is one chunk of an HTTP/1.1 chunked body holding line.
func chunk(line string) string { return fmt.Sprintf("%x\r\n%s\r\n", len(line), line) }

// cutAt returns b up to the start of its n-th line (from 1) that begins
// with prefix, and from there on.
func cutAt(t *testing.T, b []byte, prefix string, n int) (before, after []byte) {
	t.Helper()
	at, seen := 0, 0
	for _, ln := range bytes.SplitAfter(b, []byte("\n")) {
		if bytes.HasPrefix(ln, []byte(prefix)) {
			if seen++; seen == n {
				return b[:at], b[at:]
			}
		}
		at += len(ln)
	}
	t.Fatalf("no line %d starting %q", n, prefix)
	return nil, nil
}

// observed410s writes, into dir, small inputs cut from real captures that
// each hold a 410 no cursor explains, and returns their paths.
func observed410s(t *testing.T, dir string) []string {
	t.Helper()
	w4 := testsample.SampleBytes(t, "w4-then-resume.http")
	w3 := testsample.SampleBytes(t, "w3-then-resume.http")
	l410 := testsample.SampleBytes(t, "l410-list-exact-stale-rv.http")
	_, resume := cutAt(t, w4, "GET ", 2)
	_, resp := cutAt(t, resume, "HTTP/1.1 ", 1)
	headers, _, _ := bytes.Cut(resp, []byte("\r\n\r\n"))
	_, errLine, _ := bytes.Cut(resp, []byte(`{"type":"ERROR"`))
	errLine, _, _ = bytes.Cut(errLine, []byte("\n"))
	fromRV1 := strings.Replace(`{"type":"ERROR"`+string(errLine), "389 (1411)", "1 (1411)", 1)
	if fromRV1 == `{"type":"ERROR"`+string(errLine) {
		t.Fatal("w4-then-resume.http no longer holds its ERROR 410 from RV 389")
	}
	statusHead, _, _ := bytes.Cut(l410, []byte("\r\n\r\n"))
	statusHead, _, _ = bytes.Cut(statusHead, []byte("Content-Length:"))
	tooOld := strings.Replace(string(l410[bytes.Index(l410, []byte("{")):]), "The resourceVersion for the provided list is too old.", "too old resource version: 1 (1411)", 1)
	firstOfW3, _ := cutAt(t, w3, "GET ", 2)
	auditClient := []byte{}
	for _, ln := range bytes.SplitAfter(testsample.Read(t, filepath.Join(testsample.Recording(t, "samples-lab"), "audit-b-1.log")), []byte("\n")) {
		if bytes.Contains(ln, []byte(`"userAgent":"fleet-c101-nobookmarks/1.0"`)) {
			auditClient = append(auditClient, ln...)
		}
	}
	files := map[string]string{
		// curl -i of a watch from RV 1: the server refuses it in the stream.
		"curl-from-rv-1.http": string(headers) + "\r\n\r\n" + chunk(fromRV1+"\n") + "0\r\n\r\n",
		// The same stream as curl prints it without -i.
		"curl-from-rv-1.jsonl": fromRV1 + "\n",
		// An HTTP 410 response whose Status says the RV is too old.
		"gone-too-old.http": fmt.Sprintf("%sContent-Length: %d\r\n\r\n%s", statusHead, len(tooOld), tooOld),
		// An HTTP 410 response with no body at all.
		"gone-no-body.http": string(statusHead) + "Content-Length: 0\r\n\r\n",
		// A client that ignores bookmarks resumes from its last event's
		// RV (389), not from the bookmarks' (1916): no cursor matches it.
		"bookmark-ignoring-resume.http": string(firstOfW3) + string(resume),
		// An audit log's client whose first watch ended at once and was
		// followed by a LIST: a 410 inferred, before any cursor.
		"audit-inferred.log": string(auditClient),
	}
	var out []string
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// refusedWithBookmarks reads how many reconnects the headline says would
// have been refused with the client's bookmarks, when none was observed.
var refusedWithBookmarks = regexp.MustCompile(`(\d+) would have been refused with the client's bookmarks`)

// headline runs analyze --fail-on 410 on one file and returns its exit
// code and its summary's "observed" line.
func headline(t *testing.T, path string) (code int, observed, stderr string) {
	t.Helper()
	code, out, errOut := analyze(t, "--format", "json", "--fail-on", "410", path)
	var rep struct {
		Summary []timeline.SummaryLine `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, l := range rep.Summary {
		if l.Topic == "observed" {
			return code, l.Text, errOut
		}
	}
	if code == 3 {
		return code, "", errOut // nothing to judge (an API server's own log): no headline on 410s
	}
	t.Fatalf("%s: no observed line in the summary %v", path, rep.Summary)
	return
}

// claims410 says whether a headline says that a 410 came, or that a
// reconnect of the client as it was would have got one: what --fail-on
// 410 fails on.
func claims410(observed string) bool {
	if !strings.HasPrefix(observed, "No 410 was observed") {
		return true
	}
	m := refusedWithBookmarks.FindStringSubmatch(observed)
	return m != nil && m[1] != "0"
}

// TestHeadlineAgreesWithExitCode: the summary's first word on 410s and
// `--fail-on 410` never disagree, on every real capture alone, on each
// shared recording whole and each of its Prometheus exports alone, and
// on small inputs each holding a 410 that no cursor explains (a watch
// from RV 1, a bare or too-old 410 response, a resume from the RV before
// the bookmarks, one an audit log implies): each of those is in the
// headline and fails the gate.
func TestHeadlineAgreesWithExitCode(t *testing.T) {
	for _, p := range observed410s(t, t.TempDir()) {
		code, observed, errOut := headline(t, p)
		if !strings.Contains(observed, "410 Gone") || strings.HasPrefix(observed, "No 410") || code != 1 {
			t.Errorf("%s holds a 410: exit %d (%s), headline %q", filepath.Base(p), code, errOut, observed)
		}
	}
	captures := realCaptures(t)
	if len(captures) < 50 {
		t.Fatalf("only %d captures found", len(captures))
	}
	recordings := recordingInputs(t)
	t.Logf("%d captures alone, %d recordings whole or exports alone", len(captures), len(recordings))
	for _, p := range append(captures, recordings...) {
		code, observed, errOut := headline(t, p)
		switch claims := claims410(observed); {
		case code == 3 && observed == "":
		case code == 3 && claims:
			t.Errorf("%s: nothing judged (exit 3, %s), yet the headline says %q", p, errOut, observed)
		case code != 3 && claims != (code == 1):
			t.Errorf("%s: exit %d under --fail-on 410, but the headline says %q", p, code, observed)
		}
	}
}

// TestAnalyzeFailOnNothingJudged: under --fail-on, an input that gave
// nothing to judge exits 3 and says why on stderr, whatever the reason:
// a watch the server refused with 403, a lone ERROR 500, an audit log of
// only get requests, an audit EventList object. Each is cut from real
// captures. Beside a 410 the gate still fails with 1; without --fail-on
// the report is all, exit 0.
func TestAnalyzeFailOnNothingJudged(t *testing.T) {
	dir := t.TempDir()
	w4 := testsample.SampleBytes(t, "w4-then-resume.http")
	l410 := testsample.SampleBytes(t, "l410-list-exact-stale-rv.http")
	request, _ := cutAt(t, w4, "HTTP/1.1 ", 1)
	statusHead, _, _ := bytes.Cut(l410, []byte("Content-Length:"))
	forbidden := `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps is forbidden: User \"dev\" cannot watch resource \"configmaps\" in API group \"\" in the namespace \"quiet\"","reason":"Forbidden","details":{"kind":"configmaps"},"code":403}`
	head403 := strings.Replace(string(statusHead), "410 Gone", "403 Forbidden", 1)
	_, errLine, _ := bytes.Cut(w4, []byte(`{"type":"ERROR"`))
	errLine, _, _ = bytes.Cut(errLine, []byte("\n"))
	e500 := strings.NewReplacer(`"too old resource version: 389 (1411)"`, `"etcdserver: request timed out"`, `"Expired"`, `"InternalError"`, `"code":410`, `"code":500`).Replace(`{"type":"ERROR"` + string(errLine))
	var gets, events []byte
	for _, ln := range bytes.SplitAfter(testsample.Read(t, filepath.Join(testsample.Recording(t, "samples-fleet"), "audit-a-1.log")), []byte("\n")) {
		if bytes.Contains(ln, []byte(`"verb":"get"`)) {
			gets = append(gets, ln...)
		}
		if len(events) < 4000 && bytes.HasPrefix(ln, []byte("{")) {
			if len(events) > 0 {
				events = append(events, ',')
			}
			events = append(events, bytes.TrimSpace(ln)...)
		}
	}
	files := map[string]string{
		"watch-403.http":  string(request) + fmt.Sprintf("%sContent-Length: %d\r\n\r\n%s", head403, len(forbidden), forbidden),
		"error-500.jsonl": e500 + "\n",
		"only-gets.log":   string(gets),
		"eventlist.json":  `{"kind":"EventList","apiVersion":"audit.k8s.io/v1","metadata":{},"items":[` + string(events) + "]}\n",
	}
	if !strings.Contains(e500, `"code":500`) || bytes.Count(gets, []byte("\n")) < 5 {
		t.Fatal("the real captures these inputs are cut from changed")
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		files []string
		want  int
		why   string // on stderr
	}{
		{[]string{"watch-403.http"}, 3, "watch-403.http: nothing to judge: the server answered HTTP 403 Forbidden"},
		{[]string{"error-500.jsonl"}, 3, "error-500.jsonl: nothing to judge: its only events are errors the server sent in the stream (ERROR 500: etcdserver: request timed out)"},
		{[]string{"only-gets.log"}, 3, "only-gets.log: nothing to judge: its audit log records no list or watch request, only "},
		{[]string{"eventlist.json"}, 3, "eventlist.json: nothing to judge: no audit event in it could be read"},
		{[]string{"watch-403.http", "../samples/w3-then-resume.http"}, 3, "watch-403.http: nothing to judge"},
		{[]string{"watch-403.http", "../samples/w4-then-resume.http"}, 1, "watch-403.http: nothing to judge"},
		{[]string{"../samples/w3-then-resume.http"}, 0, ""},
	} {
		var args []string
		for _, f := range tc.files {
			if strings.HasPrefix(f, "../") {
				args = append(args, f[3:])
			} else {
				args = append(args, filepath.Join(dir, f))
			}
		}
		for _, cond := range []string{"410", "risk"} {
			code, _, errOut := analyze(t, append([]string{"--fail-on", cond}, args...)...)
			if code != tc.want || !strings.Contains(errOut, tc.why) || (tc.why == "") != (errOut == "") {
				t.Errorf("analyze --fail-on %s %v: exit %d, stderr %q; want %d and %q", cond, tc.files, code, errOut, tc.want, tc.why)
			}
		}
		checkNothingJudged(t, args, tc.want == 3 && len(tc.files) == 1)
	}
}

// checkNothingJudged runs analyze on args without --fail-on: when none of
// them gives anything to judge, it exits 3 and its summary gives no
// verdict, only what each file is; otherwise it exits 0.
func checkNothingJudged(t *testing.T, args []string, nothing bool) {
	t.Helper()
	code, out, _ := analyze(t, args...)
	switch {
	case nothing && (code != 3 || !strings.Contains(out, "* Nothing to judge") || strings.Contains(out, "No 410 was observed")):
		t.Errorf("analyze %v without --fail-on: exit %d, want 3 and a summary of nothing judged; report:\n%.600s", args, code, out)
	case !nothing && code != 0:
		t.Errorf("analyze %v without --fail-on: exit %d, want 0 (the report says what was read)", args, code)
	}
}
