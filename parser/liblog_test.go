package parser

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"watchlens/internal/testsample"
)

// No recording of kube-rs, fabric8 or the Python client exists. The
// logs in testdata are written line for line from those libraries' own
// log statements, with the requests, times and resourceVersions of
// samples-lab's c097-nobookmarks (shard s17: 410s "too old resource
// version: 997 (1183)" at 18:14:59.366 and "2294 (2303)" at 18:20:04.788,
// a relist after each) and c080-nobookmarks (shard s00, no 410):
//
//   - kubers-watcher.log: tracing-subscriber's default fmt layout of
//     kube-rs 4.2.0's `kube-client/src/client/builder.rs` l.257–291 (the
//     HTTP span with http.url and otel.name, "requesting", "stream
//     closed") and `kube-runtime/src/watcher.rs` l.686–700 ("error
//     watchevent error: {err:?}", a Status's Debug form,
//     `kube-core/src/response.rs` l.26), with kube-rs's own URLs
//     (`kube-core/src/params.rs` l.94–121, l.377–395: "?&", limit=500,
//     timeoutSeconds=290, allowWatchBookmarks=true);
//   - kubers-watcher.jsonl: the same events in tracing-subscriber's JSON
//     layout (`fmt().json()`: "timestamp", "level", "fields" with the
//     message, "target", the current "span" and the "spans");
//   - fabric8-informer.log: logback's "%d [%thread] %-5level %logger{36} -
//     %msg" layout of fabric8 7.8.0's `Reflector.java` l.181 ("Listing
//     items (N) for PATH at vRV"), l.212, l.267, l.383, l.394, l.258 and
//     `AbstractWatchManager.java` l.342 ("Watching URL..."), its URL's
//     query sorted as `BaseOperation.appendListOptionParams` writes it
//     (l.1205–1217); a secrets informer beside it, whose watch fails
//     once (with a Java stack after the WARN line);
//   - python-informer.log: logging's "%(asctime)s %(levelname)s
//     %(name)s: %(message)s" layout of `kubernetes/informer/informer.py`
//     l.301–309 (v36) and urllib3's request line ('%s://%s:%s "%s %s %s"
//     %s %s', `connectionpool.py` `_make_request`), the Watch retrying the
//     refused RV once before it raises (evidence.md §2).

// readLibFile sniffs and reads a library's log as the timeline does.
func readLibFile(t *testing.T, path string) *LibLog {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head, r := SniffHead(f)
	lib := head.LibLog()
	if lib == 0 {
		t.Fatalf("%s is not sniffed as a client library's log", path)
	}
	l, err := ReadLibLog(r, Options{}, lib, LibLogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestReadLibLogs(t *testing.T) {
	const s17 = "/api/v1/namespaces/lab/configmaps labelSelector=shard=s17"
	for _, c := range []struct {
		file  string
		lib   LibLogLibrary
		kinds map[LibKind]int
		// gone are the 410s' refused and oldest RVs, when the log says.
		gone []string
	}{
		{"kubers-watcher.log", LibKubeRS, map[LibKind]int{LibRequest: 13, LibStreamEnd: 9, LibGone: 2}, []string{"997 1183", "2294 2303"}},
		{"kubers-watcher.jsonl", LibKubeRS, map[LibKind]int{LibRequest: 13, LibStreamEnd: 9, LibGone: 2}, []string{"997 1183", "2294 2303"}},
		{"fabric8-informer.log", LibFabric8, map[LibKind]int{LibListed: 5, LibWatchStart: 5, LibRequest: 8, LibGone: 2, LibError: 1, LibStop: 1}, []string{" ", " "}},
		{"python-informer.log", LibPython, map[LibKind]int{LibRequest: 15, LibGone: 2, LibError: 1}, []string{" ", " "}},
	} {
		t.Run(c.file, func(t *testing.T) {
			l := readLibFile(t, filepath.Join("testdata", c.file))
			if l.Library != c.lib {
				t.Fatalf("library %v, want %v", l.Library, c.lib)
			}
			// Python's asctime and logback's date name no zone: said once.
			zoneless := c.lib != LibKubeRS
			if zoneless && (len(l.Diagnostics) != 1 || l.Diagnostics[0].Kind != "no-zone") || !zoneless && len(l.Diagnostics) != 0 {
				t.Errorf("diagnostics: %v", l.Diagnostics)
			}
			kinds := map[LibKind]int{}
			var gone []string
			for _, ln := range l.Lines {
				kinds[ln.Kind]++
				if ln.Kind == LibGone {
					gone = append(gone, ln.RV+" "+ln.OldestRV)
				}
				if ln.Kind == LibRequest && (ln.Request == nil || !strings.HasPrefix(ln.Request.Path, "/api/v1/namespaces/lab/")) {
					t.Errorf("line %d: request %+v", ln.Line, ln.Request)
				}
				if ln.Time < l.First || ln.Time > l.Last || ln.Time == 0 {
					t.Errorf("line %d at %d outside %d..%d", ln.Line, ln.Time, l.First, l.Last)
				}
			}
			for k, n := range c.kinds {
				if kinds[k] != n {
					t.Errorf("%d %v lines, want %d (all: %v)", kinds[k], k, n, kinds)
				}
			}
			if strings.Join(gone, ",") != strings.Join(c.gone, ",") {
				t.Errorf("410s %q, want %q", gone, c.gone)
			}
			// The relist after each 410 is the s17 informer's, with no
			// resourceVersion: kube-rs lists the most recent state, in pages
			// of 500; the Python informer lists from scratch.
			relists := 0
			for k, ln := range l.Lines {
				if ln.Kind != LibGone {
					continue
				}
				for _, next := range l.Lines[k+1:] {
					if next.Kind == LibRequest && !next.Request.Watch || next.Kind == LibListed {
						relists++
						if next.Client != s17 && next.Client != "/api/v1/namespaces/lab/configmaps" {
							t.Errorf("the list after the 410 at line %d is %q's", ln.Line, next.Client)
						}
						if next.Request != nil && next.Request.ResourceVersion != "" {
							t.Errorf("the list after the 410 at line %d asks for RV %q", ln.Line, next.Request.ResourceVersion)
						}
						if c.lib == LibKubeRS && !strings.Contains(next.Request.Query, "limit=500") {
							t.Errorf("kube-rs's relist %q is not paged by 500", next.Request.Query)
						}
						break
					}
				}
			}
			if relists != 2 {
				t.Errorf("%d relists after the 410s, want 2", relists)
			}
		})
	}
}

// The compact layout of tracing-subscriber puts the span's fields after
// the message; a fabric8 line in Spring Boot's layout has its level
// after the time and a process id.
func TestLibLogLayouts(t *testing.T) {
	in := "2026-12-01T18:09:29.133082Z DEBUG HTTP: kube_client::client::builder: requesting http.method=GET http.url=https://127.0.0.1:17400/api/v1/namespaces/lab/configmaps?&labelSelector=shard%3Ds17&limit=500 otel.name=\"list\" otel.kind=\"client\"\n"
	l, err := ReadLibLog(strings.NewReader(in), Options{}, LibKubeRS, LibLogOptions{})
	if err != nil || len(l.Lines) != 1 || l.Lines[0].Request == nil || l.Lines[0].Request.LabelSelector != "shard=s17" || l.Lines[0].Request.Watch {
		t.Fatalf("compact layout: %v %+v", err, l.Lines)
	}
	in = "2026-12-01T18:14:59.366+00:00 DEBUG 4711 --- [fleet] [OkHttp https://127.0.0.1:17400/...] i.f.k.c.i.impl.cache.Reflector   : Watch restarting due to http gone for apps/v1/namespaces/lab/deployments\n"
	l, err = ReadLibLog(strings.NewReader(in), Options{}, LibFabric8, LibLogOptions{})
	if err != nil || len(l.Lines) != 1 || l.Lines[0].Kind != LibGone || l.Lines[0].Client != "/apis/apps/v1/namespaces/lab/deployments" || l.Lines[0].Severity != 'D' {
		t.Fatalf("Spring Boot layout: %v %+v", err, l.Lines)
	}
	in = "Watch expired (410 Gone); will re-list from scratch\n2026-12-01 18:14:59,372 WARNING kubernetes.informer.informer: Watch expired (410 Gone); will re-list from scratch\n2026-12-01 18:14"
	l, err = ReadLibLog(strings.NewReader(in), Options{}, LibPython, LibLogOptions{})
	if err != nil || len(l.Lines) != 1 || len(l.Diagnostics) != 3 || l.Diagnostics[0].Kind != "no-time" || l.Diagnostics[1].Kind != "no-zone" || l.Diagnostics[2].Kind != "truncated" {
		t.Fatalf("a line with no time, then no zone, then cut: %v %+v %v", err, l.Lines, l.Diagnostics)
	}
	if l.Diagnostics[1].Offset != 52 || l.Lines[0].Time != 1796148899372000000 {
		t.Errorf("offset %d, time %d", l.Diagnostics[1].Offset, l.Lines[0].Time)
	}
}

// Sniffing goes by the bytes: no capture, audit log, client-go log or
// Prometheus export of the recordings is taken for a library's log, no
// library's log for one of them, and the bytes handed back are the
// file's, whole.
func TestSniffLibLog(t *testing.T) {
	lab := testsample.Recording(t, "samples-lab")
	watchlist := testsample.Recording(t, "samples-watchlist")
	others := []string{
		filepath.Join(lab, "c097-nobookmarks.ts.http"), filepath.Join(lab, "p02-proto-nobookmarks.ts.http"),
		filepath.Join(lab, "audit-a-1.log"), filepath.Join(lab, "fleet-klog.log"), filepath.Join(watchlist, "apiserver-a-1.log"),
		filepath.Join(lab, "prometheus", "metrics-a-end.txt.gz"), filepath.Join(lab, "prometheus", "metrics-a-end.headers.txt"),
		filepath.Join(lab, "prometheus", "query_range", "apiserver_request_total.json.gz"),
		filepath.Join("testdata", "klog-controller-runtime.jsonl"), filepath.Join("testdata", "klog-legacy.log"),
		"../samples/kubectl-pods-watch.jsonl",
	}
	for _, p := range others {
		data := testsample.Read(t, p)
		head, r := SniffHead(bytes.NewReader(data))
		lib := head.LibLog()
		var back bytes.Buffer
		back.ReadFrom(r)
		if lib != 0 || !bytes.Equal(back.Bytes(), data) {
			t.Errorf("%s: sniffed as %v, %d of %d bytes back", p, lib, back.Len(), len(data))
		}
	}
	for _, n := range []string{"kubers-watcher.log", "kubers-watcher.jsonl", "fabric8-informer.log", "python-informer.log"} {
		data := testsample.Read(t, filepath.Join("testdata", n))
		if head, _ := SniffHead(bytes.NewReader(data)); head.Klog() {
			t.Errorf("%s sniffed as a client-go log", n)
		}
		if head, _ := SniffHead(bytes.NewReader(data)); head.Audit() {
			t.Errorf("%s sniffed as an audit log", n)
		}
		if head, _ := SniffHead(bytes.NewReader(data)); head.Metrics() != 0 {
			t.Errorf("%s sniffed as metrics %v", n, head.Metrics())
		}
	}
}

// FuzzLibLogReader: any input reads without panic as each library's
// log, with diagnostics and lines inside the input, and sniffing hands
// back every byte.
func FuzzLibLogReader(f *testing.F) {
	for _, name := range []string{"kubers-watcher.log", "kubers-watcher.jsonl", "fabric8-informer.log", "python-informer.log"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("2026-12-01 18:14:59,372 WARNING kubernetes.informer.informer: Watch expired\n\tat x\n2026-13-01 25:00:00 DEBUG kube_runtime::watcher: error watchevent error: Status { code: 410, message: \"too old resource version: 9 (\n"))
	// The layouts without a date: logback's default pattern (a time of
	// day, across midnight) and Python's BASIC_FORMAT (no time).
	f.Add([]byte("23:59:59.900 [main] DEBUG i.f.k.c.i.impl.cache.Reflector - Listing items (1) for v1/namespaces/lab/configmaps at v3\n00:00:00,1 [main] DEBUG i.f.k.c.i.impl.cache.Reflector - Watch restarting due to http gone for v1/namespaces/lab/configmaps\n24:00:00.5 x\n"))
	f.Add([]byte("WARNING:kubernetes.informer.informer:Watch expired (410 Gone); will re-list from scratch\nDEBUG:urllib3.connectionpool:https://h:1 \"GET /api/v1/pods?watch=True HTTP/1.1\" 200 None\nERROR::\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		_, r := SniffHead(bytes.NewReader(in))
		var back bytes.Buffer
		back.ReadFrom(r)
		if !bytes.Equal(back.Bytes(), in) {
			t.Fatalf("sniffing lost bytes: %d of %d", back.Len(), len(in))
		}
		for _, lib := range []LibLogLibrary{LibKubeRS, LibFabric8, LibPython} {
			l, err := ReadLibLog(bytes.NewReader(in), Options{MaxEventSize: 1 << 10}, lib, LibLogOptions{})
			if err != nil {
				t.Fatalf("Err %v on in-memory input", err)
			}
			compressed := checkLogDiagnostics(t, in, l.Diagnostics)
			for _, ln := range l.Lines {
				if ln.Offset < 0 || (!compressed && ln.Offset >= int64(len(in))) || ln.Time < l.First || ln.Time > l.Last {
					t.Fatalf("line %+v (log %d..%d)", ln, l.First, l.Last)
				}
				if ln.Kind == LibRequest && ln.Request == nil {
					t.Fatalf("a request line without its request: %+v", ln)
				}
			}
			if l.DateFrom != "" && l.Date.IsZero() || l.Untimed > 0 && !slices.ContainsFunc(l.Diagnostics, func(d Diagnostic) bool { return d.Kind == DiagNoTime }) {
				t.Fatalf("date %s from %q, %d untimed events: %+v", l.Date, l.DateFrom, l.Untimed, l.Diagnostics)
			}
			if len(l.Lines) > l.Records {
				t.Fatalf("%d lines from %d records", len(l.Lines), l.Records)
			}
		}
	})
}
