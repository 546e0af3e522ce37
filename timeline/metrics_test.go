package timeline

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

// exportFiles lists a recording's Prometheus exports: every query_range
// answer, the raw scrapes and their headers files.
func exportFiles(t *testing.T, dir string) []string {
	t.Helper()
	qr, _ := filepath.Glob(filepath.Join(dir, "prometheus", "query_range", "*.json.gz"))
	raw, _ := filepath.Glob(filepath.Join(dir, "prometheus", "metrics-*"))
	if len(qr) < 10 || len(raw) != 6 {
		t.Fatalf("%s: %d query_range exports, %d raw scrape files", dir, len(qr), len(raw))
	}
	return append(qr, raw...)
}

// addFiles reads each file into b with AddReader.
func addFiles(t *testing.T, b *Builder, paths ...string) {
	t.Helper()
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		err = b.AddReader(filepath.Base(p), f, parser.Options{})
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
}

// indexPoints reads a recording's query_range/INDEX.tsv: points and
// series per exported metric.
func indexPoints(t *testing.T, dir string) map[string][2]int {
	t.Helper()
	out := map[string][2]int{}
	b := testsample.Read(t, filepath.Join(dir, "prometheus", "query_range", "INDEX.tsv"))
	for _, ln := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		c := strings.Split(ln, "\t")
		s, _ := strconv.Atoi(c[3])
		p, _ := strconv.Atoi(c[4])
		out[c[0]] = [2]int{s, p}
	}
	return out
}

// TestMetricsExportsAlone: the exports alone make no file to judge; each
// is read as metrics with INDEX.tsv's series and points; the raw scrapes
// take their headers' Date; the servers are the `server` label's, or
// the instances when asked.
func TestMetricsExportsAlone(t *testing.T) {
	for _, rec := range []string{"samples-lab", "samples-outage"} {
		dir := testsample.Recording(t, rec)
		b := NewBuilder()
		addFiles(t, b, exportFiles(t, dir)...)
		tl := b.Build()
		m := tl.Metrics
		if len(tl.Files) != 0 || m == nil {
			t.Fatalf("%s: %d files, metrics %v", rec, len(tl.Files), m != nil)
		}
		idx := indexPoints(t, dir)
		rng := strings.Fields(string(testsample.Read(t, filepath.Join(dir, "prometheus", "range.txt"))))
		from, _ := strconv.ParseInt(rng[0], 10, 64)
		to, _ := strconv.ParseInt(rng[1], 10, 64)
		dated := 0
		for _, f := range m.Files {
			name := strings.TrimSuffix(f.Name, ".json.gz")
			switch {
			case f.Format == parser.MetricsMatrix:
				if want := idx[name]; f.Series != want[0] || f.Points != want[1] || len(f.Diagnostics) != 0 {
					t.Errorf("%s %s: %d series, %d points, %v; INDEX.tsv %v", rec, f.Name, f.Series, f.Points, f.Diagnostics, want)
				}
			case f.Format == parser.MetricsText:
				hdr := testsample.Read(t, filepath.Join(dir, "prometheus", strings.TrimSuffix(f.Name, ".txt.gz")+".headers.txt"))
				_, date, _ := strings.Cut(string(hdr), "date: ")
				want, err := time.Parse(time.RFC1123, strings.TrimSpace(date))
				if err != nil || f.At != want.UnixNano() {
					t.Errorf("%s %s: at %d, its headers' date %q", rec, f.Name, f.At, date)
				}
				// Its server, told by its values, is the one its name says.
				if srv := strings.Split(f.Name, "-")[1]; f.Server != srv {
					t.Errorf("%s %s: the scrape of server %q", rec, f.Name, f.Server)
				}
				dated++
			}
		}
		if dated != 3 {
			t.Errorf("%s: %d scrapes dated", rec, dated)
		}
		if strings.Join(m.Servers, ",") != "a,b,c" || m.ServerLabel != "server" {
			t.Errorf("%s: servers %v by %q", rec, m.Servers, m.ServerLabel)
		}
		if m.From/1e9 < from || m.To/1e9 > to {
			t.Errorf("%s: points from %d to %d, outside the export's range %v", rec, m.From, m.To, rng)
		}
		b = NewBuilder()
		b.ServerLabel = "instance"
		addFiles(t, b, exportFiles(t, dir)...)
		if s := b.Build().Metrics.Servers; len(s) != 3 || !strings.HasPrefix(s[0], "127.0.0.1:") {
			t.Errorf("%s: by instance: %v", rec, s)
		}
	}
}

// labExports is the lab's exports read once: the tests only read it.
var labExports struct {
	once sync.Once
	tl   *Timeline
}

// labMetrics reads the lab's exports.
func labMetrics(t *testing.T) (*Timeline, string) {
	t.Helper()
	dir := testsample.Recording(t, "samples-lab")
	labExports.once.Do(func() {
		b := NewBuilder()
		addFiles(t, b, exportFiles(t, dir)...)
		labExports.tl = b.Build()
	})
	if labExports.tl == nil {
		t.Fatal("the lab's exports could not be read")
	}
	return labExports.tl, dir
}

// TestMetricsHeadRVAtTouches: every write the lab's driver made
// (touches.tsv, with the RV the server returned) is above each server's
// cache RV scraped two seconds before, and at or below it three seconds
// after, on each server whose scrape then holds; the timeline's head
// from the metrics is at least that RV by then.
func TestMetricsHeadRVAtTouches(t *testing.T) {
	tl, dir := labMetrics(t)
	m := tl.Metrics
	checked := 0
	for _, ln := range strings.Split(strings.TrimSpace(string(testsample.Read(t, filepath.Join(dir, "touches.tsv")))), "\n") {
		c := strings.Split(ln, "\t")
		at, err := time.Parse(time.RFC3339Nano, c[0])
		rv, err2 := strconv.ParseUint(c[3], 10, 64)
		if err != nil || err2 != nil {
			t.Fatalf("touches.tsv line %q", ln)
		}
		resource := map[string]string{"touch-configmap": "configmaps", "touch-secret": "secrets"}[c[1]]
		if resource == "" {
			continue
		}
		w := at.UnixNano()
		for _, srv := range m.Servers {
			before, ok1 := m.HeadRV(srv, resource, w-2e9)
			after, ok2 := m.HeadRV(srv, resource, w+3e9)
			if ok1 && before >= rv {
				t.Errorf("%s %s: %s's cache at RV %d 2 s before the write got RV %d", c[0], c[2], srv, before, rv)
			}
			if ok2 && after < rv {
				t.Errorf("%s %s: %s's cache at RV %d 3 s after the write got RV %d", c[0], c[2], srv, after, rv)
			}
			if ok1 && ok2 {
				checked++
			}
		}
		if h, ok := tl.Head(w + 3e9); ok && h < rv {
			t.Errorf("%s: head %d (%v) 3 s after the write got RV %d", c[0], h, ok, rv)
		}
	}
	if checked < 1500 {
		t.Errorf("only %d server writes checked", checked)
	}
}

// TestMetricsRestarts: each server restarted once; the instant the
// metrics give is the new process's start its raw scrape's headers say
// (process-start-time-unix, whole seconds), to the microsecond.
func TestMetricsRestarts(t *testing.T) {
	tl, dir := labMetrics(t)
	for _, srv := range tl.Metrics.Servers {
		hdr := testsample.Read(t, filepath.Join(dir, "prometheus", "metrics-"+srv+"-end.headers.txt"))
		_, v, _ := strings.Cut(string(hdr), "process-start-time-unix: ")
		start, err := strconv.ParseInt(strings.TrimSpace(strings.SplitN(v, "\n", 2)[0]), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		got := tl.Metrics.Restarts(srv)
		if len(got) != 1 || math.Abs(float64(got[0]-start*1e9)) > 1e9 {
			t.Errorf("%s: restarts %v, the new process started at %d", srv, got, start)
		}
		// process_start_time_seconds is a float64 of Unix seconds: its
		// instant has no nanoseconds to give (b's is 18:14:58.650).
		if len(got) == 1 && got[0]%1000 != 0 {
			t.Errorf("%s: restart at %s, finer than a float64 of seconds tells", srv, FormatTime(got[0], ClockArrival))
		}
		// Each resource's cache was initialised by the new process.
		inits := tl.Metrics.Initializations(srv, "configmaps")
		if len(inits) != 1 || inits[0] < got[0] || inits[0]-got[0] > 30e9 {
			t.Errorf("%s: configmaps initialised at %v, restart at %v", srv, inits, got)
		}
		if c, ok := tl.Metrics.Capacity(srv, "configmaps", tl.Metrics.To); !ok || c < 100 {
			t.Errorf("%s: capacity %d (%v)", srv, c, ok)
		}
	}
}

// TestMetricsRequestsEqualAudit: the LISTs of ConfigMaps the servers
// counted (apiserver_request_total) equal those their audit logs hold,
// per server, over the export's span.
func TestMetricsRequestsEqualAudit(t *testing.T) {
	tl, dir := labMetrics(t)
	m := tl.Metrics
	all := 0
	for _, srv := range m.Servers {
		counted, ok := m.Requests(srv, "configmaps", "LIST", m.From, m.To)
		logged := 0
		logs, _ := filepath.Glob(filepath.Join(dir, "audit-"+srv+"-*.log"))
		for _, p := range logs {
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			l, err := parser.ReadAudit(f, parser.Options{})
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range l.Requests {
				if q.Verb == "list" && q.Resource == "configmaps" && q.Completed > m.From && q.Completed <= m.To {
					logged++
				}
			}
		}
		if !ok || int(counted) != logged {
			t.Errorf("%s: %v LISTs of configmaps counted (%v), %d in the audit logs", srv, counted, ok, logged)
		}
		all += logged
	}
	if all < 50 {
		t.Errorf("only %d LISTs compared", all)
	}
}

// TestMetricsJudgeAuditReconnects: from the lab's audit logs alone no
// model knows the head when a client that did not ask for bookmarks
// would have got one; with the exports, every reconnect with a cursor is
// judged.
func TestMetricsJudgeAuditReconnects(t *testing.T) {
	dir := testsample.Recording(t, "samples-lab")
	logs, _ := filepath.Glob(filepath.Join(dir, "audit-*.log"))
	b := NewBuilder()
	addFiles(t, b, append(logs, exportFiles(t, dir)...)...)
	a := b.Build().Analyze(DefaultParams())
	judged := 0
	for _, p := range a.WhatIf.Points {
		for _, v := range []Verdict{p.With, p.Without, p.Had} {
			if v.Outcome == Unknown && v.HasCursor {
				t.Fatalf("%s at %s: %s", a.TL.Files[v.File].Name, FormatTime(v.At, ClockArrival), v.Reason)
			}
		}
		if p.Had.Outcome != Unknown {
			judged++
		}
	}
	fl := a.Fleet()
	if judged < 400 || fl == nil || fl.UnknownWith != 0 {
		t.Errorf("%d reconnects judged had they asked for bookmarks; fleet %+v", judged, fl)
	}
}

// TestMetricsTextHeaderPairing: a scrape takes the Date of the headers
// file of its own name, and only that one.
func TestMetricsTextHeaderPairing(t *testing.T) {
	b := NewBuilder()
	add := func(name, body string) {
		if err := b.AddReader(name, bytes.NewReader([]byte(body)), parser.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	add("x/metrics-a.txt", "apiserver_watch_cache_resource_version{resource=\"pods\",instance=\"a\"} 5\n")
	add("x/metrics-b.txt", "apiserver_watch_cache_resource_version{resource=\"pods\",instance=\"b\"} 7\n")
	add("x/metrics-b.headers.txt", "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\nDate: Tue, 01 Dec 2026 18:22:33 GMT\r\n\r\n")
	tl := b.Build()
	want := time.Date(2026, 12, 1, 18, 22, 33, 0, time.UTC).UnixNano()
	if rv, ok := tl.Metrics.HeadRV("b", "pods", want); !ok || rv != 7 {
		t.Errorf("b: %d %v", rv, ok)
	}
	if _, ok := tl.Metrics.HeadRV("a", "pods", want); ok {
		t.Errorf("a has no instant, yet answers")
	}
	if h, ok := tl.Head(want); !ok || h != 7 {
		t.Errorf("head %d %v", h, ok)
	}
}

// TestMetricsRVModulo: 1.36+ exports the RV modulo 1e15; the captures'
// RVs say which 1e15 it is in.
func TestMetricsRVModulo(t *testing.T) {
	const big = 3_000_000_000_000_123
	c := &capture{}
	c.watch(&parser.Request{Method: "GET", Path: "/api/v1/pods", Watch: true}, 0, 10*time.Second).
		ev(parser.Added, big, time.Second, "p1")
	b := NewBuilder()
	b.AddCapture("pods", &parser.Capture{Events: c.evs, Sessions: c.sess})
	body := "apiserver_watch_cache_resource_version{resource=\"pods\",instance=\"a\"} 1.25e+02 " + strconv.FormatInt(at(5*time.Second)/1e6, 10) + "\n"
	if err := b.AddReader("m.txt", strings.NewReader(body), parser.Options{}); err != nil {
		t.Fatal(err)
	}
	tl := b.Build()
	if rv, ok := tl.Metrics.HeadRV("a", "pods", at(5*time.Second)); !ok || rv != big+2 {
		t.Errorf("head RV %d, want %d", rv, uint64(big+2))
	}
	if h, _ := tl.Head(at(6 * time.Second)); h != big+2 {
		t.Errorf("timeline head %d", h)
	}
}

// TestMetricsGrafanaLikeQueryRange: a Grafana panel's CSV (here its
// Excel form) and DataFrame JSON of the lab's RVs answer as the
// query_range export they were made of.
func TestMetricsGrafanaLikeQueryRange(t *testing.T) {
	ref, _ := labMetrics(t)
	for _, name := range []string{"lab-rv-excel.csv", "lab-rv-frames.json"} {
		b := NewBuilder()
		addFiles(t, b, testsample.Path(t, "parser", "testdata", "grafana", name))
		m := b.Build().Metrics
		if strings.Join(m.Servers, ",") != "a,b,c" {
			t.Fatalf("%s: servers %v", name, m.Servers)
		}
		compared := 0
		for ts := m.From; ts <= m.To; ts += 7e9 {
			for _, srv := range m.Servers {
				for _, r := range []string{"configmaps", "secrets"} {
					got, ok := m.HeadRV(srv, r, ts)
					want, wok := ref.Metrics.HeadRV(srv, r, ts)
					if ok != wok || got != want {
						t.Fatalf("%s: %s %s at %d: %d (%v), query_range %d (%v)", name, srv, r, ts, got, ok, want, wok)
					}
					if ok {
						compared++
					}
				}
			}
		}
		if compared < 500 {
			t.Errorf("%s: %d compared", name, compared)
		}
	}
}

// TestMetricsSplitReadsMetrics: AddReaderSplit reads an export as
// metrics too, never as a capture to split.
func TestMetricsSplitReadsMetrics(t *testing.T) {
	b := NewBuilder()
	in := "apiserver_watch_cache_resource_version{resource=\"pods\",instance=\"a\"} 5 1764612000000\n"
	if err := b.AddReaderSplit("m.txt", strings.NewReader(in), parser.Options{}, Split{Kind: SplitNamespace}); err != nil {
		t.Fatal(err)
	}
	tl := b.Build()
	if len(tl.Files) != 0 || tl.Metrics == nil || len(tl.Metrics.Series) != 1 {
		t.Fatalf("%d files, metrics %+v", len(tl.Files), tl.Metrics)
	}
	if s := tl.Analyze(DefaultParams()).Summary(nil); len(s) != 1 || s[0].Topic != "metrics" || !strings.Contains(s[0].Text, "1 series of 1 server (a)") {
		t.Errorf("summary %v", s)
	}
}

// TestMetricsEtcdCompaction: the lab's servers compacted etcd every 60 s
// (--etcd-compaction-interval) to the revision etcd had when the winning
// compactor last looked, one interval (two across a failover) earlier
// (evidence.md §3.4): each revision etcd compacted to was its head in
// the two intervals before, and never above its head then.
func TestMetricsEtcdCompaction(t *testing.T) {
	tl, _ := labMetrics(t)
	m := tl.Metrics
	steps, last := 0, uint64(0)
	for ts := m.From; ts <= m.To; ts += 1e9 {
		rev, ok := m.CompactRevision(ts)
		head, hok := m.EtcdHead(ts)
		if !ok || !hok {
			continue
		}
		if rev > head || rev < last {
			t.Fatalf("at %d: compacted to %d, head %d, before %d", ts, rev, head, last)
		}
		if rev != last && last != 0 {
			steps++
			seen := false
			for back := ts - 125e9; back <= ts; back += 1e9 {
				lo, ok1 := m.EtcdHead(back - 1e9)
				hi, ok2 := m.EtcdHead(back)
				seen = seen || ok1 && ok2 && lo <= rev && rev <= hi
			}
			if !seen {
				t.Errorf("at %d: compacted to %d, not etcd's head in the 125 s before", ts, rev)
			}
		}
		last = rev
	}
	if steps < 8 {
		t.Errorf("%d compactions seen in 13 minutes at a 60 s interval", steps)
	}
}

// TestMetricsEventsReceivedMatchWrites: between two of a server's
// scrapes, its ConfigMaps cache received one event per ConfigMap write
// whose RV lies between its cache RVs then (the lab's drivers logged
// every write, touches.tsv and driver-churn-ops.tsv, with its RV), and
// one per delete, whose RV the log does not say: at most those logged
// from 2 s before to 2 s after.
func TestMetricsEventsReceivedMatchWrites(t *testing.T) {
	tl, dir := labMetrics(t)
	m := tl.Metrics
	var rvs []uint64
	var deletes []int64
	for _, f := range []string{"touches.tsv", "driver-churn-ops.tsv"} {
		for _, ln := range strings.Split(strings.TrimSpace(string(testsample.Read(t, filepath.Join(dir, f)))), "\n") {
			c := strings.Split(ln, "\t")
			if len(c) < 4 || !strings.HasSuffix(c[1], "-configmap") {
				continue
			}
			if rv, err := strconv.ParseUint(c[3], 10, 64); err == nil {
				rvs = append(rvs, rv)
			} else if at, err := time.Parse(time.RFC3339Nano, c[0]); err == nil && c[1] == "delete-configmap" {
				deletes = append(deletes, at.UnixNano())
			} else {
				t.Fatalf("%s: %q", f, ln)
			}
		}
	}
	if len(rvs) < 1000 {
		t.Fatalf("%d ConfigMap writes", len(rvs))
	}
	compared := 0
	for _, srv := range m.Servers {
		// Each incarnation's first and last point, 30 s inside, read
		// every 20 s.
		restart := m.Restarts(srv)[0]
		for _, span := range [][2]int64{{m.From + 30e9, restart - 120e9}, {restart + 60e9, m.To - 30e9}} {
			for t1 := span[0]; t1+20e9 <= span[1]; t1 += 20e9 {
				t2 := t1 + 20e9
				n1, ok1 := m.EventsReceived(srv, "configmaps", t1)
				n2, ok2 := m.EventsReceived(srv, "configmaps", t2)
				rv1, ok3 := m.HeadRV(srv, "configmaps", t1)
				rv2, ok4 := m.HeadRV(srv, "configmaps", t2)
				if !ok1 || !ok2 || !ok3 || !ok4 {
					continue
				}
				writes := 0
				for _, rv := range rvs {
					if rv > rv1 && rv <= rv2 {
						writes++
					}
				}
				deleted := 0
				for _, d := range deletes {
					if d > t1-2e9 && d <= t2+2e9 {
						deleted++
					}
				}
				compared++
				if got := int(n2 - n1); got < writes || got > writes+deleted {
					t.Errorf("%s from %s to %s (RV %d to %d): %d events received, %d writes and up to %d deletes", srv, FormatTime(t1, ClockArrival), FormatTime(t2, ClockArrival), rv1, rv2, got, writes, deleted)
				}
			}
		}
	}
	if compared < 50 {
		t.Errorf("only %d windows compared", compared)
	}
}

// TestScrapeDatedByItsHeadersSaysNoMore: samples-lab's raw scrapes
// carry no Date; each headers file beside it dates it, and then the
// parser's "the scrape says no instant" is not among its problems. A
// scrape given without its headers keeps it.
func TestScrapeDatedByItsHeadersSaysNoMore(t *testing.T) {
	noDate := func(mf MetricsFile) int {
		n := 0
		for _, d := range mf.Diagnostics {
			if d.Kind == parser.DiagNoDate {
				n++
			}
		}
		return n
	}
	tl, dir := labMetrics(t)
	scrapes := 0
	for _, mf := range tl.Metrics.Files {
		if mf.Format != parser.MetricsText {
			continue
		}
		scrapes++
		if mf.At == 0 || noDate(mf) != 0 {
			t.Errorf("%s: dated %v, %d no-date problems", mf.Name, mf.At != 0, noDate(mf))
		}
	}
	if scrapes != 3 {
		t.Errorf("%d raw scrapes, want samples-lab's 3", scrapes)
	}
	b := NewBuilder()
	addFiles(t, b, filepath.Join(dir, "prometheus", "metrics-a-end.txt.gz"))
	if fs := b.Build().Metrics.Files; len(fs) != 1 || fs[0].At != 0 || noDate(fs[0]) != 1 {
		t.Errorf("the scrape alone: %+v", fs)
	}
}
