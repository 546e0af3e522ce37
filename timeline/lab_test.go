package timeline

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

// labResumesRight is how many of the lab's 425 recorded resumes the
// postmortem predicts as the server answered: 378 before the servers
// were told apart, 380 with each server's own 410s, 421 with each
// server's metrics, 422 with each server's ring located in the broad
// captures' changes; the issue asks for 415.
const labResumesRight = 422

// The postmortem of the lab's rolling restart of three servers: every
// capture whole, every audit log and Prometheus export, the compaction
// interval the servers ran with. Each recorded resume (probes.tsv) is predicted for the
// server that answered it, from the evidence before it: none is
// contradicted, as a 410 of one server applied to all of them did.
func TestLabPostmortem(t *testing.T) {
	b := NewBuilder()
	addLab(t, b, nil, "*.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz")
	tl := b.Build()
	p := DefaultParams()
	p.EtcdInterval = time.Minute
	a := tl.Analyze(p)
	type key struct {
		file  string
		start int64
	}
	resumes := map[key]Resume{}
	for _, r := range a.Resumes {
		s := &tl.Sessions[r.Session]
		resumes[key{tl.Files[s.File].Name, s.Start}] = r
	}
	outcome := map[string]Outcome{"ok": Accepted, "410": Refused}
	counts := map[string]int{}
	for _, pr := range labTable(t, "probes.tsv") {
		r, ok := resumes[key{pr["client"] + ".ts.http", instant(t, pr["probe_time"])}]
		if !ok {
			t.Errorf("%s's resume at %s (line %s) is not one of the analysis's", pr["client"], pr["probe_time"], pr["line"])
			continue
		}
		what := fmt.Sprintf("%s's resume from RV %s at %s", pr["client"], r.RV, pr["probe_time"])
		if got := serverOf(tl, r.Session); got != pr["incarnation"] {
			t.Errorf("%s: answered by %s, want %s", what, got, pr["incarnation"])
		}
		if want := outcome[pr["answer"]]; r.Observed != want {
			t.Errorf("%s: observed %v, the server answered %s", what, r.Observed, pr["answer"])
		}
		switch {
		case r.Contradicts():
			counts["wrong"]++
			t.Errorf("%s: predicted %v, the server answered %s: %s", what, r.Predicted.Outcome, pr["answer"], r.Predicted.Reason)
		case r.Predicted.Outcome == r.Observed:
			counts["right"]++
		default:
			counts[r.Predicted.Outcome.String()]++
			t.Logf("%s on %s, answered %s: %v, %s; %s", what, pr["incarnation"], pr["answer"], r.Predicted.Outcome, r.Predicted.Reason, a.ModelReason(r.Predicted, ModelServerCache))
		}
	}
	t.Logf("the lab's 425 resumes: %v", counts)
	if counts["right"] < labResumesRight {
		t.Errorf("%d resumes predicted right, want at least %d: %v", counts["right"], labResumesRight, counts)
	}
}

// From the lab's audit logs and its Prometheus exports alone, every
// client's relists equal TRUTH.tsv's, and every reconnect is judged: the
// exports show each server's head where no capture does.
func TestLabAuditLogsAndMetricsJudgeEveryReconnect(t *testing.T) {
	tl := buildRecording(t, "samples-lab", "audit-*.log", "prometheus/query_range/*.json.gz")
	truth := testsample.ReadTruth(t, testsample.Recording(t, "samples-lab"))
	fl := tl.Analyze(realServer()).Fleet()
	if len(fl.Clients) != len(truth) {
		t.Errorf("%d clients, TRUTH.tsv has %d", len(fl.Clients), len(truth))
	}
	for _, c := range fl.Clients {
		key, named := auditTruthKey(tl, c.File)
		if !named {
			t.Errorf("%s: no TRUTH.tsv client", c.Name)
			continue
		}
		if want := truth.Int(t, key, "relists"); len(c.Relists) != want {
			t.Errorf("%s: %d relists, TRUTH.tsv %d", key, len(c.Relists), want)
		}
	}
	if fl.UnknownWith+fl.UnknownWithout != 0 || fl.RelistsObserved != 81 {
		t.Errorf("%d relists; %d reconnects with bookmarks and %d without could not be judged", fl.RelistsObserved, fl.UnknownWith, fl.UnknownWithout)
	}
}

// The lab's metrics name the servers as its audit logs do; renamed, the
// audit logs' servers are matched to the metrics' by their restarts, and
// with no audit log the servers are the metrics' own, each restarted
// once.
func TestLabMetricServersMatchAuditServers(t *testing.T) {
	for _, c := range []struct {
		what   string
		rename map[string]string
		audit  bool
		want   map[string]string
	}{
		{"by name", nil, true, map[string]string{"a": "a", "b": "b", "c": "c"}},
		{"by restarts", map[string]string{"audit-a-1.log": "audit-x-1.log", "audit-a-2.log": "audit-x-2.log", "audit-b-1.log": "audit-y-1.log",
			"audit-b-2.log": "audit-y-2.log", "audit-c-1.log": "audit-z-1.log", "audit-c-2.log": "audit-z-2.log"}, true, map[string]string{"x": "a", "y": "b", "z": "c"}},
		{"metrics alone", nil, false, map[string]string{"a": "a", "b": "b", "c": "c"}},
	} {
		b := NewBuilder()
		patterns := []string{"prometheus/query_range/*.json.gz"}
		if c.audit {
			patterns = append(patterns, "audit-*.log")
		}
		addLab(t, b, c.rename, patterns...)
		tl := b.Build()
		got := map[string]string{}
		for _, s := range tl.Servers {
			got[s.Name] = s.Metrics
			if len(s.Incarnations) != 2 {
				t.Errorf("%s: server %s has %d processes, want 2", c.what, s.Name, len(s.Incarnations))
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: servers %v, want %v", c.what, got, c.want)
		}
	}
}

// labWhatIfRight is how many of the lab's 425 resumes the per-server
// what-if answers as the server that answered them did: 406 from the
// scrapes' counts, 415 with the ring located in the broad capture's
// changes; the issue asks for 410.
const labWhatIfRight = 415

// labShared are the lab's records every what-if shares, read once: the
// Prometheus exports and the broad captures, parsed.
type labShared struct {
	exports []metricsExport
	broad   map[string]parsedCapture
}

type parsedCapture struct {
	events   []parser.Event
	sessions []parser.Session
	diags    []parser.Diagnostic
}

func readLabShared(t *testing.T) *labShared {
	dir := testsample.Recording(t, "samples-lab")
	sh := &labShared{broad: map[string]parsedCapture{}}
	paths, _ := filepath.Glob(filepath.Join(dir, "prometheus/query_range/*.json.gz"))
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		_, r := parser.SniffHead(f)
		m, err := parser.ReadMetrics(r, parser.Options{})
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		sh.exports = append(sh.exports, metricsExport{filepath.Base(path), m})
	}
	for _, name := range []string{"broad-a.ts.http", "broad-secrets.ts.http"} {
		rd := parser.NewReader(bytes.NewReader(testsample.Read(t, filepath.Join(dir, name))), parser.Options{})
		var pc parsedCapture
		for rd.Next() {
			pc.events = append(pc.events, rd.Event())
		}
		if rd.Err() != nil {
			t.Fatalf("%s: %v", name, rd.Err())
		}
		pc.sessions, pc.diags = rd.Sessions(), rd.Diagnostics()
		sh.broad[name] = pc
	}
	return sh
}

// The what-if asked after the incident, per server: each client's
// capture cut before its resume (probes.tsv), the broad capture of its
// resource and the exports whole, no audit log (they hold the client's
// later requests): a reconnect at the resume's instant, judged on each
// server. The verdict of the server that answered is its answer, or at
// risk; never the other.
func TestLabWhatIfPerServer(t *testing.T) {
	dir := testsample.Recording(t, "samples-lab")
	sh := readLabShared(t)
	probes := labTable(t, "probes.tsv")
	captures := map[string][]string{}
	for _, pr := range probes {
		name := pr["client"] + ".ts.http"
		if captures[name] == nil {
			captures[name] = strings.SplitAfter(string(testsample.Read(t, filepath.Join(dir, name))), "\n")
		}
	}
	// Each what-if is a timeline of its own; they are built side by
	// side.
	results := make([]string, len(probes))
	work := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range work {
				results[k] = labWhatIf(t, sh, captures, probes[k])
			}
		}()
	}
	for k := range probes {
		work <- k
	}
	close(work)
	wg.Wait()
	counts := map[string]int{}
	for _, r := range results {
		counts[r]++
	}
	t.Logf("the lab's 425 resumes, asked per server: %v", counts)
	if counts["right"] < labWhatIfRight || counts["wrong"] > 0 {
		t.Errorf("%d resumes answered right on their server, want at least %d, none wrong: %v", counts["right"], labWhatIfRight, counts)
	}
}

// labWhatIf asks the what-if of one resume of probes.tsv, and says how
// the verdict on the server that answered it compares with its answer:
// "right", "wrong", or the verdict's outcome.
func labWhatIf(t *testing.T, sh *labShared, captures map[string][]string, pr map[string]string) string {
	p := DefaultParams()
	p.EtcdInterval = time.Minute
	name := pr["client"] + ".ts.http"
	line, _ := strconv.Atoi(pr["line"])
	b := NewBuilder()
	if err := b.AddReader(name, strings.NewReader(strings.Join(captures[name][:line-1], "")), parser.Options{}); err != nil {
		t.Errorf("%s cut at line %d: %v", name, line, err)
		return "unread"
	}
	broad := "broad-a.ts.http"
	if pr["resource"] == "secrets" {
		broad = "broad-secrets.ts.http"
	}
	pc := sh.broad[broad]
	f := b.AddFile(broad)
	for _, ev := range pc.events {
		f.Add(ev)
	}
	f.Finish(pc.sessions, pc.diags)
	for _, e := range sh.exports {
		b.AddMetrics(e.name, e.m)
	}
	a := b.Build().Analyze(p)
	at := instant(t, pr["probe_time"])
	per, _ := a.ResumeAtServers(0, BookmarkAware, at)
	what := fmt.Sprintf("%s's resume from RV %s at %s on %s", pr["client"], pr["rv"], pr["probe_time"], pr["incarnation"])
	var v *ServerVerdict
	for k := range per {
		if a.TL.Servers[per[k].Server].Name == pr["server"] {
			v = &per[k]
		}
	}
	switch {
	case v == nil:
		t.Errorf("%s: no verdict for server %s", what, pr["server"])
		return "unjudged"
	case FormatRV(v.RV) != pr["rv"]:
		t.Errorf("%s: the cut capture's cursor is RV %d", what, v.RV)
	case fmt.Sprintf("%s%d", pr["server"], v.Incarnation+1) != pr["incarnation"]:
		t.Errorf("%s: judged for process %d of %s", what, v.Incarnation+1, pr["server"])
	}
	want := map[string]Outcome{"ok": Accepted, "410": Refused}[pr["answer"]]
	switch {
	case v.Outcome == want:
		return "right"
	case v.Outcome == Refused || v.Outcome == Accepted:
		t.Errorf("%s, answered %s: %v, %s", what, pr["answer"], v.Outcome, v.Reason)
		return "wrong"
	}
	t.Logf("%s, answered %s: %v, %s; %s", what, pr["answer"], v.Outcome, v.Reason, a.ModelReason(v.Verdict, ModelServerCache))
	return v.Outcome.String()
}

// A reconnect asked of one client of the lab, with the audit logs and
// exports: each server answers for its own process, and the server of
// the client's open connection is the one it would likely go to, unless
// that server was shutting down then (its scrapes failing from its
// SIGTERM): its connection took no new request, and the load balancer
// picks.
func TestLabResumeAtServers(t *testing.T) {
	b := NewBuilder()
	addLab(t, b, nil, "c101-nobookmarks.ts.http", "broad-a.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz")
	tl := b.Build()
	p := DefaultParams()
	p.EtcdInterval = time.Minute
	a := tl.Analyze(p)
	file := -1
	for fi, f := range tl.Files {
		if f.Name == "c101-nobookmarks.ts.http" {
			file = fi
		}
	}
	checked, closing := 0, 0
	for _, g := range tl.Files[file].Sessions {
		s := &tl.Sessions[g]
		if s.Server < 0 || s.End-s.Start < int64(10*time.Second) {
			continue
		}
		at := s.Start + (s.End-s.Start)/2
		per, likely := a.ResumeAtServers(file, BookmarkIgnoring, at)
		if len(per) != 3 {
			t.Fatalf("%d verdicts, want one per server", len(per))
		}
		words := a.ServerWords(per)
		name := tl.Servers[s.Server].Name
		switch {
		case tl.Servers[s.Server].Incarnations[s.Incarnation].closed(at):
			closing++
			if likely != -1 || !strings.Contains(words, name+" shutting down") {
				t.Errorf("at %s, server %s shutting down: likely server %d, %q", FormatInstant(at, time.UTC), name, likely, words)
			}
		case likely != s.Server:
			t.Errorf("at %s: likely server %d, the open connection's is %s", FormatInstant(at, time.UTC), likely, name)
		}
		for _, sv := range per {
			if !strings.Contains(words, tl.Servers[sv.Server].Name) || sv.Reason == "" {
				t.Errorf("at %s: %q leaves out server %s, or it has no reason", FormatInstant(at, time.UTC), words, tl.Servers[sv.Server].Name)
			}
		}
		checked++
	}
	if checked == 0 || closing == 0 || closing == checked {
		t.Fatalf("of %d watches of c101 asked, %d at an instant their server was shutting down; want some of each", checked, closing)
	}
	if got := joinWords([]string{"a", "b", "c"}); got != "a, b and c" {
		t.Errorf("andList: %q", got)
	}
}

// Had every client reconnected at 18:14:50, as server b shut down, the
// lab's audit logs show server a refusing clients that the models of
// the whole cluster only put at risk: the fleet's sentence must not say
// "none would have been refused" bare while naming a server that would
// refuse some, which reads as a contradiction.
func TestLabFleetReconnectWordsAgreeWithServers(t *testing.T) {
	tl := buildRecording(t, "samples-lab", "audit-*.log")
	a := tl.Analyze(realServer())
	q := ResumeQuery{At: instant(t, "2026-12-01T18:14:50Z")}
	var text string
	for _, l := range a.Summary([]ResumeQuery{q}) {
		if l.Topic == "resume-at" {
			text = l.Text
		}
	}
	fc, _ := a.FleetReconnect(q)
	if fc.Without.Refused != 0 {
		t.Fatalf("without bookmarks %d refused by every server: the check below needs none", fc.Without.Refused)
	}
	if !strings.Contains(text, "would refuse") || strings.Contains(text, "a would refuse none") {
		t.Fatalf("no server named as refusing clients: %q", text)
	}
	if !strings.Contains(text, "without bookmarks, none would have been refused by all 3 API servers") {
		t.Errorf("the sentence names a server that would refuse, and says none would be refused without saying by whom: %q", text)
	}
}
