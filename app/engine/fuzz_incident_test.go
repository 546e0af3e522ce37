package engine

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"watchlens/app/canvas"
	"watchlens/internal/testsample"
	"watchlens/timeline"
)

// The files of an incident the fuzzer reads together, named as
// samples-lab names them: two clients' captures (one with bookmarks, one
// without), the audit logs of the two API server processes they reached,
// the informers' klog and a Prometheus export, each a file the page reads through its own reader.
const (
	fuzzWithout = "c116-nobookmarks.ts.http"
	fuzzWith    = "c014-bookmarks.ts.http"
	fuzzAuditB  = "audit-b-2.log"
	fuzzAuditC  = "audit-c-1.log"
	fuzzKlog    = "fleet-klog.log"
	fuzzMetrics = "etcd_debugging_mvcc_compact_revision.json"
)

// fuzzNames are the files' names in the order FuzzIncident takes them.
var fuzzNames = []string{fuzzWithout, fuzzWith, fuzzAuditB, fuzzAuditC, fuzzKlog, fuzzMetrics}

// maxIncidentSeed bounds each file of a seed, as FuzzCaptureToReport's
// maxSeed does: a cut file is hostile input of its own.
const maxIncidentSeed = 32 << 10

// FuzzIncident feeds the files of an incident of several API servers
// through everything the page asks of them once they are dropped
// together: the load (captures, audit log, client log and metrics
// export joined into one timeline and analysed under the fuzzed delay
// and window), the timeline's and the fleet's frames and hit tests, the
// findings, the Files tab, a search, a range's statistics, a reconnect
// at an instant, each event's detail and every report. None may panic,
// and the JSON report must parse. The seed is samples-lab's own files,
// so the joins of several servers' evidence run from the first input.
func FuzzIncident(f *testing.F) {
	lab := testsample.Recording(f, "samples-lab")
	read := func(name string) []byte {
		return testsample.Read(f, filepath.Join(lab, name))
	}
	// The logs' lines of the two clients: the whole logs would make
	// every run theirs.
	lines := func(name string) []byte { return linesOf(read(name), "c116", "c014") }
	gz, err := gzip.NewReader(bytes.NewReader(read(filepath.Join("prometheus", "query_range", fuzzMetrics+".gz"))))
	if err != nil {
		f.Fatal(err)
	}
	metrics, err := io.ReadAll(gz)
	if err != nil {
		f.Fatal(err)
	}
	cut := func(b []byte) []byte { return b[:min(len(b), maxIncidentSeed)] }
	seed := [][]byte{read(fuzzWithout), read(fuzzWith), lines(fuzzAuditB), lines(fuzzAuditC), lines(fuzzKlog), metrics}
	for i, b := range seed {
		if len(b) == 0 {
			f.Fatalf("seed file %d is empty", i)
		}
	}
	// The seed is an incident: the captures' refusals are judged by the
	// server each reached, the audit log's and the klog's lines join
	// their clients, and the export is read.
	var srcs []Source
	for i, name := range fuzzNames {
		srcs = append(srcs, Source{Name: name, Size: int64(len(seed[i])), Data: bytes.NewReader(seed[i])})
	}
	e, o, err := Open(srcs, Options{Params: timeline.DefaultParams()})
	if err != nil {
		f.Fatal(err)
	}
	if an := e.Analysis(); !o.Fleet || len(o.Exports) != 1 || len(o.Files) != 3 || an.ServerCount() < 2 || len(an.Zones) == 0 {
		f.Fatalf("the seed is no incident of several servers: fleet %v, exports %q, %d files, %d servers, %d zones", o.Fleet, o.Exports, len(o.Files), an.ServerCount(), len(an.Zones))
	}
	f.Add(cut(seed[0]), cut(seed[1]), cut(seed[2]), cut(seed[3]), cut(seed[4]), cut(seed[5]), uint32(0), uint32(75_000))
	f.Add(cut(seed[0]), cut(seed[1]), cut(seed[2]), cut(seed[3]), []byte{}, []byte{}, uint32(30_000), uint32(1))
	f.Fuzz(func(t *testing.T, without, with, auditB, auditC, klog, metrics []byte, delayMS, windowMS uint32) {
		params := timeline.DefaultParams()
		params.Delay = time.Duration(delayMS%3_600_000) * time.Millisecond
		params.CacheWindow = time.Duration(windowMS%3_600_000) * time.Millisecond
		var srcs []Source
		for i, data := range [][]byte{without, with, auditB, auditC, klog, metrics} {
			srcs = append(srcs, Source{Name: fuzzNames[i], Size: int64(len(data)), Data: bytes.NewReader(data)})
		}
		e, o, err := Open(srcs, Options{Params: params})
		if err != nil {
			return // said to the user, as the page says it
		}
		askEverything(t, e, o)
	})
}

// askEverything asks e what the page asks of a load: each view's frame
// and hit tests, the panels' answers and every report.
func askEverything(t *testing.T, e *Engine, o Opened) {
	t.Helper()
	for _, axisRV := range []bool{false, true} {
		lo, hi := o.Extent(axisRV)
		st := ViewState{From: lo, To: hi, Width: 900, MaxHeight: 600, PixelRatio: 2, Selected: -1, AxisRV: axisRV}
		var fr canvas.Frame
		d := e.Frame(st, &fr)
		for _, p := range [][2]float64{{0, 0}, {d.Layout.PlotX + 1, d.Layout.LanesY + 1}, {450, 300}, {899, 599}} {
			if h := e.Hit(st, p[0], p[1]); h.Event >= 0 {
				st.Selected = h.Event
			}
		}
		// The selection, a reconnect's marker and a shift-drag drawn.
		st.Marker, st.Selecting, st.SelectFrom, st.SelectTo = lo+(hi-lo)/2, true, 100, 400
		e.Frame(st, &fr)
		// The rows a scrolled panel shows.
		st.SeenTop, st.SeenHeight = d.Layout.Height/3, 200
		e.Frame(st, &fr)
		e.Summary(st)
		e.Step(st, true)
		e.Rehearsals(st)
		e.RangeStats(axisRV, lo, lo+(hi-lo)/2)
	}
	if fl, ok := e.Fleet(); ok {
		st := FleetState{From: fl.From, To: fl.To, Width: 900, MaxHeight: 600, PixelRatio: 1}
		var fr canvas.Frame
		e.FleetFrame(st, &fr)
		for _, p := range [][2]float64{{10, 10}, {450, 100}, {800, 400}} {
			e.FleetHit(st, p[0], p[1])
		}
		e.FleetRange(fl.From, fl.From+(fl.To-fl.From)/3)
	}
	e.Findings(timeline.Filter{})
	e.Files("", 50)
	e.Find("c0", 20, "UTC")
	e.Zones(100)
	lo, hi := o.Extent(false)
	e.ReconnectAt(lo+(hi-lo)/2, nil)
	for i := range min(o.Events, 64) {
		e.Event(i)
	}
	for _, format := range []ReportFormat{ReportMarkdown, ReportPaste, ReportJSON, ReportPerfetto} {
		out, err := e.Report(format, "https://example.invalid/#v")
		if err != nil {
			t.Fatalf("the %s report: %v", format, err)
		}
		if format == ReportJSON || format == ReportPerfetto {
			var v map[string]any
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("the %s report does not parse: %v\n%s", format, err, strings.TrimSpace(out[:min(len(out), 2000)]))
			}
		}
	}
}

// linesOf is the lines of b that name one of the clients: a seed's log
// holds what it says of the seed's captures, not of the lab's 207.
func linesOf(b []byte, clients ...string) []byte {
	var out []byte
	for line := range bytes.Lines(b) {
		for _, c := range clients {
			if bytes.Contains(line, []byte(c)) {
				out = append(out, line...)
				break
			}
		}
	}
	return out
}
