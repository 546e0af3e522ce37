package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/timeline"
)

func TestSamplesRenderings(t *testing.T) {
	w4 := New(loadSamples(t, "w4-then-resume.ts.http").Analyze(realServer()), nil)
	var text, md bytes.Buffer
	if err := w4.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := w4.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"too old resource version: 389 (1411)", "relists with the bookmarks received: 0, at risk 1", "clock", "arrival", "deadline", "error: too old"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q", want)
		}
	}
	for _, want := range []string{"# watchlens report", "## What if", "| file | clock |", "| w4-then-resume.ts.http | 1 |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown report lacks %q", want)
		}
	}
	if why := w4.Refused(); !strings.Contains(why, "w4-then-resume.ts.http") || !strings.Contains(why, "UTC") {
		t.Errorf("w4 hit 410: --fail-on 410 must fail, naming the file and the time; it says %q", why)
	}
	if why := New(loadSamples(t, "w3-then-resume.ts.http").Analyze(realServer()), nil).Refused(); why != "" {
		t.Errorf("w3 with bookmarks never needed a relist; --fail-on 410 says %q", why)
	}
}

// The text report opens with the summary.
func TestTextReportOpensWithSummary(t *testing.T) {
	r := New(loadSamples(t, "w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http").Analyze(realServer()), nil)
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if i := strings.Index(text.String(), r.Summary[0].Text); i < 0 || i > 200 {
		t.Errorf("the text report must open with the summary: at %d", i)
	}
}

// An empty timeline reports, and refuses nothing.
func TestEmptyTimelineReport(t *testing.T) {
	var buf strings.Builder
	r := New(timeline.NewBuilder().Build().Analyze(timeline.DefaultParams()), nil)
	if err := r.WriteText(&buf); err != nil || r.Refused() != "" {
		t.Fatal(err, r.Refused())
	}
}

// A capture of one event repeated: the report counts every anomaly,
// lists the first ones, and says how many more there were of a kind cut
// short and of no other.
func TestAnomaliesLeftOut(t *testing.T) {
	const n = 3000
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	c := &parser.Capture{Sessions: []parser.Session{{HTTPStatus: 200, StartArrival: t0, EndArrival: t0 + int64(time.Hour),
		Request: &parser.Request{Method: "GET", Path: "/api/v1/configmaps", Watch: true, ResourceVersion: "1"}}}}
	for i := 0; i <= n; i++ {
		rv := uint64(5)
		if i == n {
			rv = 4 // one rv-backwards
		}
		c.Events = append(c.Events, parser.Event{Seq: i, Type: parser.Modified, Kind: "ConfigMap", APIVersion: "v1", Namespace: "ns", Name: "a", UID: "uid-a",
			RVNum: rv, RVValid: true, Arrival: t0 + int64(i)*int64(time.Millisecond)})
	}
	b := timeline.NewBuilder()
	b.AddCapture("f0", c)
	rep := New(b.Build().Analyze(timeline.DefaultParams()), nil)
	listed := 0
	for _, a := range rep.Anomalies {
		if a.Kind == "repeated" {
			listed++
		}
	}
	got := rep.AnomalyCounts
	if got["repeated"] != n-1 || got["rv-backwards"] != 1 || len(got) != 2 || listed >= n-1 {
		t.Fatalf("anomalyCounts = %v with %d repeated listed, want repeated %d (not all listed), rv-backwards 1", got, listed, n-1)
	}
	var text, md, js bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	more := fmt.Sprintf("and %d more \"repeated\" anomalies (the first %d are listed)", n-1-listed, listed)
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
		if !strings.Contains(out, more) {
			t.Errorf("the %s report does not say %q", name, more)
		}
		if strings.Contains(out, "more \"rv-backwards\"") {
			t.Errorf("the %s report says more rv-backwards anomalies were left out", name)
		}
	}
	if !strings.Contains(js.String(), `"anomalyCounts": {`) {
		t.Errorf("the JSON report has no anomalyCounts")
	}
}

// The report lists each relist the timeline found with its cause, in
// JSON, text and Markdown, and the summary's first line counts them: a
// client of the fleet that relisted twice after a 410.
func TestRelistReport(t *testing.T) {
	const client = "c31-nobookmarks"
	f, err := os.Open(filepath.Join("..", "testdata", "fleet", client+".ts.http"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := timeline.NewBuilder()
	if err := b.AddReader(client, f, parser.Options{}); err != nil {
		t.Fatal(err)
	}
	tl := b.Build()
	r := New(tl.Analyze(realServer()), nil)
	if len(r.Relists) != 2 || len(tl.Relists) != 2 {
		t.Fatalf("relists %+v, the timeline's %+v", r.Relists, tl.Relists)
	}
	for k, rl := range r.Relists {
		m := tl.Relists[k]
		if rl.File != client || rl.Time != timeline.FormatTime(m.T, timeline.ClockArrival) || rl.Cause != "410" ||
			rl.CauseTime != timeline.FormatTime(m.CauseT, timeline.ClockArrival) || rl.RV == "" || !strings.HasPrefix(rl.CauseMessage, "too old resource version") {
			t.Errorf("relist %d: %+v, the timeline's %+v", k, rl, m)
		}
	}
	var js, text, md bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"causeTime": "`+r.Relists[0].CauseTime+`"`) {
		t.Errorf("JSON without the relist's cause time")
	}
	for name, out := range map[string]string{"text": text.String(), "Markdown": md.String()} {
		if !strings.Contains(out, "Relists (LISTs and WatchLists after a client's first sync") || !strings.Contains(out, timeline.FormatInstant(tl.Relists[1].T, time.UTC)) || !strings.Contains(out, "watch cache") {
			t.Errorf("%s report without the relists", name)
		}
	}
	if first := r.Summary[0]; first.Topic != "observed" || !strings.Contains(first.Text, "(relists) 2 times, after a 410.") || len(r.Summary) > 6 {
		t.Errorf("summary %+v", r.Summary)
	}
}

// TestMarkdownTablesStandApart: in the Markdown report of a fleet (the
// lab's audit logs, whose fleet section opens with a paragraph; the
// fleet's captures, whose client table is followed by a paragraph on
// its library column) and of the samples, every table has a blank line
// before it and after it: without one, CommonMark renderers read the
// table's lines as the paragraph's, and GitHub's reads the paragraph
// after it as the table's last row.
func TestMarkdownTablesStandApart(t *testing.T) {
	after := 0 // tables followed by a line of text
	for name, tl := range map[string]*timeline.Timeline{
		"samples-lab audit logs": loadRecording(t, "samples-lab", "audit-*.log"),
		"samples-fleet captures": loadRecording(t, "samples-fleet", "*.ts.http"),
		"samples":                loadSamples(t, sampleNames(t)...),
	} {
		var md bytes.Buffer
		if err := New(tl.Analyze(timeline.DefaultParams()), nil).WriteMarkdown(&md); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(md.String(), "\n")
		tables := 0
		for k := 1; k+1 < len(lines); k++ {
			if !strings.HasPrefix(lines[k+1], "| --- |") {
				continue
			}
			tables++
			if lines[k-1] != "" {
				t.Errorf("%s: the table %.60q follows %.80q with no blank line", name, lines[k], lines[k-1])
			}
			end := k + 2
			for end < len(lines) && strings.HasPrefix(lines[end], "| ") {
				end++
			}
			if end < len(lines) && lines[end] != "" {
				t.Errorf("%s: the table %.60q is followed by %.80q with no blank line", name, lines[k], lines[end])
			}
			if end+1 < len(lines) && lines[end] == "" && lines[end+1] != "" && !strings.HasPrefix(lines[end+1], "#") {
				after++
			}
		}
		if tables < 5 {
			t.Errorf("%s: %d tables, want the report's sections", name, tables)
		}
	}
	if after == 0 {
		t.Error("no table is followed by a paragraph: the test checks nothing after them")
	}
}

// TestRestartsFromAuditLogsApplied: with samples-lab's audit logs the
// restarts they show are applied, each to the reconnects of its own
// server, and the report's restarts section and Models line say so; from
// the captures alone the restarts are probable, and not applied.
func TestRestartsFromAuditLogsApplied(t *testing.T) {
	for _, c := range []struct {
		patterns      []string
		heading, used string
	}{
		{[]string{"*.ts.http", "audit-*.log"}, "\nAPI server restarts (from the audit logs: each reconnect is judged by the restarts of the server it reached)\n", "; restarts those of the audit logs, each server's own;"},
		{[]string{"*.ts.http"}, "\nProbable restarts (not applied unless given with -restart)\n", "; restarts -;"},
	} {
		r := New(loadRecording(t, "samples-lab", c.patterns...).Analyze(realServer()), nil)
		var b bytes.Buffer
		if err := r.write(&b, false); err != nil {
			t.Fatal(err)
		}
		if len(r.Restarts) != 3 || !strings.Contains(b.String(), c.heading) || !strings.Contains(b.String(), c.used) {
			t.Errorf("%v: %d restarts; want the heading %q and %q in the Models line", c.patterns, len(r.Restarts), c.heading, c.used)
		}
		// Each restart's relists, as timeline.DetectedRestart counts them.
		if caused := fmt.Sprintf("%d of the %d relists followed a 410 Gone at the reconnect after a watch one of these restarts ended.", r.Restarts[0].Relists+r.Restarts[1].Relists+r.Restarts[2].Relists, len(r.Relists)); !strings.Contains(b.String(), caused) || r.Restarts[0].Relists == 0 {
			t.Errorf("%v: the restarts' relists %+v, not said as %q", c.patterns, r.Restarts, caused)
		}
	}
	if r := New(loadRecording(t, "samples-lab", "audit-*.log").Analyze(realServer()), nil); r.Restarts[0].Restarted != "a" || r.Restarts[0].Relists != 9 || r.Restarts[0].Clients != 9 {
		t.Errorf("the audit logs' first restart: %+v, want a's, which caused 9 relists of 9 clients", r.Restarts[0])
	}
}

// A relist an audit log shows is a request, not what it read: the
// Relists table has "-" for its objects, not 0, and the JSON says
// unread; a captured relist keeps its count.
func TestUnreadRelistObjects(t *testing.T) {
	dir := testsample.Recording(t, "samples-lab")
	b := timeline.NewBuilder()
	for _, name := range []string{"audit-c-1.log", "c091-nobookmarks.ts.http"} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		err = b.AddReader(name, f, parser.Options{})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	r := New(b.Build().Analyze(realServer()), nil)
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	_, relists, _ := strings.Cut(md.String(), "## Relists (")
	relists, _, _ = strings.Cut(relists, "\n## ")
	unread, read := 0, 0
	for _, rl := range r.Relists {
		want := fmt.Sprint(rl.Objects)
		if rl.Unread {
			unread++
			want = "-"
		} else {
			read++
		}
		// The row's sixth cell: | file | session | time | kind | served from | objects |
		prefix := fmt.Sprintf("| %s | %d | ", rl.File, rl.Session)
		found := false
		for _, ln := range strings.Split(relists, "\n") {
			if cells := strings.Split(ln, " | "); strings.HasPrefix(ln, prefix) && len(cells) > 5 {
				found = true
				if cells[5] != want {
					t.Errorf("%s: objects %q, want %q", ln, cells[5], want)
				}
			}
		}
		if !found {
			t.Errorf("no row of %s's relist in session %d", rl.File, rl.Session)
		}
	}
	if unread == 0 || read == 0 {
		t.Errorf("%d relists from the audit log and %d from the capture: the test misses one", unread, read)
	}
}

// The Models line says how often the exports show etcd compacting where
// that is not the etcd model's interval, and the flag that models it.
func TestModelsLineSaysTheCompactionTheExportsShow(t *testing.T) {
	tl := loadRecording(t, "samples-outage", "broad-a.ts.http", "prometheus/query_range/*.json.gz")
	for _, c := range []struct {
		interval time.Duration
		want     bool
	}{{5 * time.Minute, true}, {30 * time.Second, false}} {
		p := realServer()
		p.EtcdInterval = c.interval
		r := New(tl.Analyze(p), nil)
		var b bytes.Buffer
		if err := r.write(&b, false); err != nil {
			t.Fatal(err)
		}
		said := strings.Contains(b.String(), "; etcd compaction "+timeline.FormatSeconds(c.interval.Seconds())+" (the exports show etcd compacting every 30s: -etcd-interval 30s models that);")
		if said != c.want || r.Params.EtcdCompactedEverySeconds != 30 {
			t.Errorf("-etcd-interval %v: compacting every %vs, said %v, want %v", c.interval, r.Params.EtcdCompactedEverySeconds, said, c.want)
		}
	}
}

// TestCountsSaidOnce: w1's events are all ConfigMaps, and its counts
// table gave each count twice, under "*" and under ConfigMap; w4's
// ERROR is a Status, so its totals over the kinds say something.
func TestCountsSaidOnce(t *testing.T) {
	counts := func(name string) string {
		var text bytes.Buffer
		if err := New(loadSamples(t, name).Analyze(realServer()), nil).WriteText(&text); err != nil {
			t.Fatal(err)
		}
		s := text.String()
		from := strings.Index(s, "\nCounts\n")
		to := strings.Index(s[from+1:], "\n\n")
		if from < 0 || to < 0 {
			t.Fatalf("%s: no counts table:\n%s", name, s)
		}
		return s[from : from+1+to]
	}
	if c := counts("w1-broad-configmaps-bookmarks.ts.http"); strings.Contains(c, "all kinds") || !strings.Contains(c, "ConfigMap  BOOKMARK  17") {
		t.Errorf("w1, all ConfigMaps, counts:\n%s", c)
	}
	if c := counts("w4-then-resume.ts.http"); !strings.Contains(c, "all kinds  ERROR     1") || !strings.Contains(c, "Status     ERROR     1") {
		t.Errorf("w4, a ConfigMap and a Status, counts:\n%s", c)
	}
}
