//go:build !wasm

package cli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"watchlens/internal/synth"
	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/timeline"
)

// TestAnalyzeMaxEvents: past --max-events the CLI stops reading, says so on
// stderr and in the report, and reports what it read.
func TestAnalyzeMaxEvents(t *testing.T) {
	code, out, errOut := analyze(t, "--max-events", "3", "--format", "json", "samples/w1-broad-configmaps-bookmarks.ts.http")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "stopped reading") || !strings.Contains(errOut, "--max-events") {
		t.Errorf("stderr %q does not say that reading stopped at --max-events", errOut)
	}
	var rep struct {
		Files []struct {
			Events int `json:"events"`
		} `json:"files"`
		Diagnostics []struct {
			Kind string `json:"kind"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 1 || rep.Files[0].Events != 3 {
		t.Errorf("files %+v, want one of 3 events", rep.Files)
	}
	if n := len(rep.Diagnostics); n == 0 || rep.Diagnostics[n-1].Kind != "too-many-events" {
		t.Errorf("diagnostics %+v do not end with too-many-events", rep.Diagnostics)
	}
	if _, _, errOut := analyze(t, "samples/w4-then-resume.http"); errOut != "" {
		t.Errorf("under the default cap: stderr %q", errOut)
	}
	for _, n := range []string{"0", "-1"} {
		if code, _, _ := analyze(t, "--max-events", n, "samples/w4-then-resume.http"); code != 2 {
			t.Errorf("--max-events %s: exit %d, want 2", n, code)
		}
	}
}

// TestAnalyzeMemoryBound: 3 M copies of one event (a few MB of gzip, the
// issue's hostile capture) stay under 1 GiB of the CLI's memory and give a
// report of a few MB. The CLI runs in a process of its own (this test
// binary again), whose peak resident set the kernel reports.
func TestAnalyzeMemoryBound(t *testing.T) {
	if file := os.Getenv("WATCHLENS_ANALYZE_CHILD"); file != "" {
		os.Exit(Main([]string{"analyze", "--format", "json", file}, os.Stdout, io.Discard))
	}
	const copies = 3_000_000
	file := filepath.Join(t.TempDir(), "repeated.jsonl.gz")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	line := []byte(`{"type":"MODIFIED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"same","namespace":"default","uid":"8d3c1f7e-2b4a-4c6d-9e8f-0a1b2c3d4e5f","resourceVersion":"12345"},"data":{"k":"v"}}}` + "\n")
	chunk := bytes.Repeat(line, 10_000)
	for range copies / 10_000 {
		if _, err := zw.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	if err := errors.Join(zw.Close(), f.Close()); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestAnalyzeMemoryBound$")
	cmd.Env = append(os.Environ(), "WATCHLENS_ANALYZE_CHILD="+file)
	var report bytes.Buffer
	cmd.Stdout = &report
	if err := cmd.Run(); err != nil {
		t.Fatalf("analyze: %v", err)
	}
	peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
	var rep struct {
		Files []struct {
			Events int `json:"events"`
		} `json:"files"`
	}
	if err := json.Unmarshal(report.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 1 || rep.Files[0].Events != copies {
		t.Fatalf("files %+v, want one of %d events", rep.Files, copies)
	}
	if peak > 1<<30 {
		t.Errorf("analyzing %d events took %d MB of memory at its peak, want under 1 GiB", copies, peak>>20)
	}
	if report.Len() > 5<<20 {
		t.Errorf("the JSON report of %d repeated events is %d KB, want a few MB at most", copies, report.Len()>>10)
	}
	t.Logf("%d events: peak %d MB, report %d KB", copies, peak>>20, report.Len()>>10)
}

// TestAnalyzeMaxEventSize: --max-event-size sets the largest event kept
// whole. Under it, the lab's real ConfigMapList (25 KB) is still read,
// item by item, as at the default; events larger than it are skipped,
// and stderr says so with the flag that raises the limit. A size it
// cannot take is a usage error.
func TestAnalyzeMaxEventSize(t *testing.T) {
	capture := filepath.Join(testsample.Recording(t, "samples-lab"), "broad-a.ts.http")
	counts := func(args ...string) (map[string]int, string) {
		t.Helper()
		code, out, errOut := analyze(t, append(args, "--format", "json", capture)...)
		var rep struct {
			Counts map[string]int `json:"counts"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
			t.Fatalf("analyze %v: exit %d (%s)", args, code, errOut)
		}
		return rep.Counts, errOut
	}
	whole, errOut := counts()
	if whole["LISTED"] < 50 || errOut != "" {
		t.Fatalf("at the default limit: %v, stderr %q", whole, errOut)
	}
	if c, errOut := counts("--max-event-size", "16KiB"); c["LISTED"] != whole["LISTED"] || c["MODIFIED"] != whole["MODIFIED"] || errOut != "" {
		t.Errorf("under 16KiB: %v, stderr %q; want %v", c, errOut, whole)
	}
	if c, errOut := counts("--max-event-size", "300"); c["MODIFIED"] >= whole["MODIFIED"] || c["LISTED"] != whole["LISTED"] ||
		!strings.Contains(errOut, "events or lists larger than 300 B were skipped (--max-event-size raises the limit)") {
		t.Errorf("under 300 bytes: %v, stderr %q", c, errOut)
	}
	for _, bad := range []string{"0", "5GiB", "12MB", "-1"} {
		if code, _, errOut := analyze(t, "--max-event-size", bad, capture); code != 2 || !strings.Contains(errOut, "want a size from 1 byte to 4GiB") {
			t.Errorf("--max-event-size %s: exit %d, stderr %q", bad, code, errOut)
		}
	}
}

// TestAnalyzeDistinctObjectsBound: 20 M distinct small objects (each
// event a new ConfigMap whose name, uid and managedFields differ; 50 MB
// of zstd), which went out of memory, stop at --max-objects' 10 M with a
// message on stderr and in the report, under 6 GiB of the CLI's memory;
// and the same bound, lowered, stops 200 000 of them at 50 000. The
// capture is generated into the CLI's standard input as it reads.
func TestAnalyzeDistinctObjectsBound(t *testing.T) {
	if os.Getenv("WATCHLENS_ANALYZE_STDIN") != "" {
		os.Exit(Main(append([]string{"analyze", "--format", "json"}, strings.Fields(os.Getenv("WATCHLENS_ANALYZE_STDIN"))...), os.Stdout, os.Stderr))
	}
	for _, c := range []struct {
		objects, limit int
		args           string
		maxRSS         int64
	}{
		{200_000, 50_000, "--max-objects 50000 -", 256 << 20},
		{20_000_000, timeline.DefaultMaxObjects, "-", 6 << 30},
	} {
		t.Run(fmt.Sprint(c.objects), func(t *testing.T) {
			report, errOut, peak := analyzeFed(t, "TestAnalyzeDistinctObjectsBound", "WATCHLENS_ANALYZE_STDIN="+c.args, c.objects, synth.DistinctObject)
			want := fmt.Sprintf("stopped reading at %d distinct objects (--max-objects raises the limit)", c.limit)
			if !strings.Contains(errOut.String(), want) {
				t.Errorf("stderr %q does not say %q", errOut.String(), want)
			}
			var rep struct {
				Files []struct {
					Events int `json:"events"`
				} `json:"files"`
				Diagnostics []struct {
					Kind string `json:"kind"`
				} `json:"diagnostics"`
			}
			if err := json.Unmarshal(report.Bytes(), &rep); err != nil {
				t.Fatal(err)
			}
			if len(rep.Files) != 1 || rep.Files[0].Events != c.limit {
				t.Errorf("files %+v, want one of %d events, one an object", rep.Files, c.limit)
			}
			if n := len(rep.Diagnostics); n == 0 || rep.Diagnostics[n-1].Kind != "too-many-objects" {
				t.Errorf("diagnostics %+v do not end with too-many-objects", rep.Diagnostics)
			}
			if peak > c.maxRSS {
				t.Errorf("%d distinct objects took %d MB of memory at the peak, want under %d MB", c.objects, peak>>20, c.maxRSS>>20)
			}
			t.Logf("%d distinct objects: stopped at %d, peak %d MB", c.objects, c.limit, peak>>20)
		})
	}
}

// TestMaxObjectsHelpStatesTheCost: what --max-objects' help says a
// distinct object keeps beside its events (timeline.ObjectBytes) is no
// less than it does keep while a capture is read (it said about 100
// bytes when each kept 320), nor less than a quarter of it. 100 000 new
// objects (internal/synth's DistinctObject) are read, and the same
// events again with every name and uid made one object's; the heap each
// read keeps, after a collection, differs by the objects' cost.
func TestMaxObjectsHelpStatesTheCost(t *testing.T) {
	var help bytes.Buffer
	Main([]string{"analyze", "-h"}, io.Discard, &help)
	if want := fmt.Sprintf("each keeps about %d bytes beside its events", timeline.ObjectBytes); !strings.Contains(help.String(), want) {
		t.Errorf("analyze -h does not say %q", want)
	}
	const n = 100_000
	var distinct bytes.Buffer
	for i := range n {
		synth.DistinctObject(&distinct, i)
	}
	oneObject := regexp.MustCompile(`"name":"[^"]*","namespace":"[^"]*","uid":"[^"]*"`).ReplaceAll(distinct.Bytes(),
		[]byte(`"name":"cfg-one","namespace":"team-0","uid":"00000000-0000-4ec7-b3fb-000000000000"`))
	kept := func(in []byte) (heap int64, objects int) {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		b := timeline.NewBuilder()
		if err := b.AddReader("objects.jsonl", bytes.NewReader(in), parser.Options{}); err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(in) // the input is not what the read keeps
		tl := b.Build()
		objects = tl.Lanes.Len()
		return int64(after.HeapAlloc) - int64(before.HeapAlloc), objects
	}
	heapDistinct, lanes := kept(distinct.Bytes())
	heapOne, one := kept(oneObject)
	if lanes != n || one != 1 {
		t.Fatalf("%d and %d objects read, want %d and 1", lanes, one, n)
	}
	perObject := (heapDistinct - heapOne) / n
	t.Logf("%d B an event with a new object each, %d B with one object: %d B an object (the help says about %d)",
		heapDistinct/n, heapOne/n, perObject, timeline.ObjectBytes)
	if perObject > timeline.ObjectBytes || perObject < timeline.ObjectBytes/4 {
		t.Errorf("a distinct object keeps %d bytes while read; --max-objects' help says about %d", perObject, timeline.ObjectBytes)
	}
}

// auditClient writes client i's list and watch as an audit log records
// them: samples-fleet's records of one informer, with the client's own
// user agent, selector, audit IDs and instants.
func auditClient(b *bytes.Buffer, i int) {
	ua := fmt.Sprintf("fleet-c%07d-bookmarks/1.0", i)
	at := time.Date(2026, 12, 1, 8, 35, 0, 0, time.UTC).Add(time.Duration(i) * time.Millisecond)
	ts := func(d time.Duration) string { return at.Add(d).Format("2006-01-02T15:04:05.000000Z") }
	for _, r := range []struct {
		id, stage, uri, verb string
		start, end           time.Duration
	}{
		{fmt.Sprintf("%08x-0000-4000-8000-000000000001", i), "ResponseComplete", fmt.Sprintf(`/api/v1/namespaces/fleet/configmaps?labelSelector=shard%%3Ds%d\u0026limit=500\u0026resourceVersion=0`, i), "list", 0, time.Millisecond},
		{fmt.Sprintf("%08x-0000-4000-8000-000000000002", i), "ResponseStarted", fmt.Sprintf(`/api/v1/namespaces/fleet/configmaps?allowWatchBookmarks=true\u0026labelSelector=shard%%3Ds%d\u0026resourceVersion=285\u0026timeout=7m50s\u0026timeoutSeconds=470\u0026watch=true`, i), "watch", 2 * time.Millisecond, 20 * time.Millisecond},
		{fmt.Sprintf("%08x-0000-4000-8000-000000000002", i), "ResponseComplete", fmt.Sprintf(`/api/v1/namespaces/fleet/configmaps?allowWatchBookmarks=true\u0026labelSelector=shard%%3Ds%d\u0026resourceVersion=285\u0026timeout=7m50s\u0026timeoutSeconds=470\u0026watch=true`, i), "watch", 2 * time.Millisecond, 6 * time.Minute},
	} {
		fmt.Fprintf(b, `{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":%q,"stage":%q,"requestURI":"%s","verb":%q,"user":{"username":"admin","uid":"admin","groups":["system:masters","system:authenticated"]},"sourceIPs":["127.0.0.1"],"userAgent":%q,"objectRef":{"resource":"configmaps","namespace":"fleet","apiVersion":"v1"},"responseStatus":{"metadata":{},"code":200},"requestReceivedTimestamp":%q,"stageTimestamp":%q,"annotations":{"authorization.k8s.io/decision":"allow","authorization.k8s.io/reason":""}}`+"\n",
			r.id, r.stage, r.uri, r.verb, ua, ts(r.start), ts(r.end))
	}
}

// TestAnalyzeAuditClientsBound: an audit log of a million clients, each
// with its list and its watch, stops with a message under the default
// limits, and the CLI stays under 2 GiB with the JSON report, the
// largest of its reports.
func TestAnalyzeAuditClientsBound(t *testing.T) {
	if os.Getenv("WATCHLENS_ANALYZE_AUDIT") != "" {
		os.Exit(Main([]string{"analyze", "--format", "json", "-"}, os.Stdout, os.Stderr))
	}
	report, errOut, peak := analyzeFed(t, "TestAnalyzeAuditClientsBound", "WATCHLENS_ANALYZE_AUDIT=1", 1_000_000, auditClient)
	if want := "stopped reading at"; !strings.Contains(errOut.String(), want) {
		t.Errorf("stderr %q does not say %q", errOut.String(), want)
	}
	var rep struct {
		Files []json.RawMessage `json:"files"`
	}
	if err := json.Unmarshal(report.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) < 1000 || len(rep.Files) >= 1_000_000 {
		t.Errorf("%d clients in the report: want those read before the limit", len(rep.Files))
	}
	if peak > 2<<30 {
		t.Errorf("analyze peaked at %d MiB with %d clients, over 2 GiB", peak>>20, len(rep.Files))
	}
	t.Logf("%d clients read, peak %d MiB, report %d MiB", len(rep.Files), peak>>20, report.Len()>>20)
}

// analyzeFed runs the test test again as the CLI's analyze (the test
// runs Main when env is set), writing n pieces of input made by write
// into its standard input as it reads; the CLI stops reading at its
// limits and the writes after fail. It returns what the CLI wrote and
// its peak resident set in bytes.
func analyzeFed(t *testing.T, test, env string, n int, write func(*bytes.Buffer, int)) (report, errOut bytes.Buffer, peak int64) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), env)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = &report, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer in.Close()
		w := bufio.NewWriterSize(in, 1<<20)
		var b bytes.Buffer
		for i := range n {
			write(&b, i)
			if b.Len() > 1<<16 {
				if _, err := w.Write(b.Bytes()); err != nil {
					return
				}
				b.Reset()
			}
		}
		w.Write(b.Bytes())
		w.Flush()
	}()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("analyze: %v; stderr %q", err, errOut.String())
	}
	return report, errOut, int64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) << 10
}
