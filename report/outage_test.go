package report

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"
	"watchlens/timeline"
)

// TestOutageTableTellsTheSummarysStory: on samples-outage, the report's
// outage table says when the fleet relisted in the summary's own words,
// counted from the same end: the last refused attempt, which lies within
// a second before the first answer, with the load balancer's own
// outage-end (lb-conns.tsv) between the two. The JSON holds that end
// and the delays after it beside those after the first answer.
func TestOutageTableTellsTheSummarysStory(t *testing.T) {
	r := New(loadRecording(t, "samples-outage", "*.ts.http").Analyze(timeline.DefaultParams()), nil)
	if len(r.Outages) != 1 {
		t.Fatalf("%d outages, want samples-outage's one", len(r.Outages))
	}
	o := r.Outages[0]
	parse := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	lbEnd := time.Time{}
	for _, ln := range strings.Split(string(testsample.Read(t, filepath.Join(testsample.Recording(t, "samples-outage"), "lb-conns.tsv"))), "\n") {
		if c := strings.Split(ln, "\t"); len(c) > 1 && c[1] == "outage-end" {
			lbEnd = parse(c[0])
		}
	}
	last, to := parse(o.LastAttempt), parse(o.To)
	if o.EndIs != "lastAttempt" || o.End != o.LastAttempt || lbEnd.Before(last) || lbEnd.After(to) || to.Sub(last) > time.Second {
		t.Errorf("end %s (%s), last refused attempt %s, first answer %s: want the last attempt, within 1 s of the first answer, the load balancer's end %s between them",
			o.End, o.EndIs, o.LastAttempt, o.To, lbEnd)
	}
	shift := to.Sub(last).Seconds()
	if math.Abs(o.FirstRelistAfterEnd-o.FirstRelist-shift) > 1e-6 || math.Abs(o.LastRelistAfterEnd-o.LastRelist-shift) > 1e-6 {
		t.Errorf("delays after the end %g..%g s, after the first answer %g..%g s: want those shifted by %g s",
			o.FirstRelistAfterEnd, o.LastRelistAfterEnd, o.FirstRelist, o.LastRelist, shift)
	}
	head, row := outageRow(t, r)
	when := strings.TrimSpace(row[strings.Index(head, "when they relisted"):])
	if want := fmt.Sprintf("between %.0f and %.0f s after the outage ended", o.FirstRelistAfterEnd, o.LastRelistAfterEnd); when != want {
		t.Errorf("the table says the relists came %q, want %q", when, want)
	}
	told := false
	for _, l := range r.Summary {
		told = told || strings.Contains(l.Text, " relisted "+when+" (")
	}
	if !told || !strings.Contains(row, r.instant(o.LastAttempt)) {
		t.Errorf("the summary %q does not tell the table's %q, or the table %q does not name the last refused attempt", r.Summary, when, row)
	}
}

// TestSilentOutageReport: from samples-outage's audit logs alone, the
// outage is a silence: the JSON says so, with no attempt and the last of
// its clients' requests to end, and the text table names no refused
// attempt and counts the relists' delays from the first request after it,
// as the summary does.
func TestSilentOutageReport(t *testing.T) {
	r := New(loadRecording(t, "samples-outage", "audit-*.log").Analyze(timeline.DefaultParams()), nil)
	if len(r.Outages) != 1 {
		t.Fatalf("%d outages, want samples-outage's one", len(r.Outages))
	}
	o := r.Outages[0]
	if !o.Silent || o.Attempts != 0 || o.LastAttempt != "" || o.LastEnded == "" || o.EndIs != "firstAnswer" || o.End != o.To || o.Clients != 99 {
		t.Errorf("outage %+v: want a silence of 99 clients, no attempt, its end the first request after it", o)
	}
	head, row := outageRow(t, r)
	at := strings.Index(head, "last refused attempt")
	if got := strings.Fields(row[at:])[0]; got != "-" {
		t.Errorf("the table names a refused attempt %q in a silence", got)
	}
	when := strings.TrimSpace(row[strings.Index(head, "when they relisted"):])
	told := false
	for _, l := range r.Summary {
		told = told || strings.Contains(l.Text, " relisted "+when+" (") && strings.Contains(l.Text, "the audit logs show no request of 99 clients")
	}
	if !strings.HasSuffix(when, "after the first answer after the outage") || !told {
		t.Errorf("the table says the relists came %q; the summary %q does not tell it and the silence", when, r.Summary)
	}
}

// outageRow is the head and the first row of r's text outage table.
func outageRow(t *testing.T, r *Report) (head, row string) {
	t.Helper()
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(text.String(), outagesTitle+"\n")
	if !ok {
		t.Fatal("no outage table")
	}
	rows := strings.Split(table, "\n")
	if len(rows) < 3 {
		t.Fatalf("the outage table has no row: %q", table)
	}
	return rows[1], rows[2]
}

// TestFleetAgeUnknownFromAuditBookmarks: samples-outage's clients all
// asked for bookmarks, which an audit log places at the cluster's head,
// and nothing in its audit logs alone shows that head: the fleet table
// says each client's longest cursor age at a reconnect is unknown, where
// it said 0s beside the summary's "at most 4m7s". Its captures know it.
func TestFleetAgeUnknownFromAuditBookmarks(t *testing.T) {
	for _, c := range []struct {
		patterns []string
		known    bool
	}{
		{[]string{"audit-*.log"}, false},
		{[]string{"*.ts.http"}, true},
	} {
		r := New(loadRecording(t, "samples-outage", c.patterns...).Analyze(timeline.DefaultParams()), nil)
		if r.Fleet == nil {
			t.Fatalf("%v: no fleet", c.patterns)
		}
		known, reconnecting := 0, 0
		for _, row := range r.Fleet.Rows {
			if row.Reconnects > 0 {
				reconnecting++
			}
			if row.AgeKnown {
				known++
			}
		}
		if reconnecting < 70 || (known > 0) != c.known {
			t.Errorf("%v: %d clients reconnected, %d with a known cursor age: want it known %v", c.patterns, reconnecting, known, c.known)
		}
		var text bytes.Buffer
		if err := r.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		lines, found := strings.Split(text.String(), "\n"), false
		for k, l := range lines {
			col := strings.Index(l, "longest cursor age at a reconnect")
			if col < 0 || !strings.HasPrefix(l, "client ") || k+1 == len(lines) {
				continue
			}
			found = true
			age := strings.Fields(lines[k+1][col:])[0]
			if (age == "unknown") == c.known {
				t.Errorf("%v: the fleet table's first row reads age %q: want it known %v", c.patterns, age, c.known)
			}
		}
		if !found {
			t.Errorf("%v: no fleet table", c.patterns)
		}
	}
}

// TestOutageFromClientLogsSaysSo: samples-outage's outage told by the
// informers' klog has its first answer and its last client back at the
// lines that told those requests' ends, and the JSON says so; the
// captures' are sends.
func TestOutageFromClientLogsSaysSo(t *testing.T) {
	for _, c := range []struct {
		pattern string
		logged  bool
	}{{"fleet-klog.log", true}, {"*.ts.http", false}} {
		r := New(loadRecording(t, "samples-outage", c.pattern).Analyze(timeline.DefaultParams()), nil)
		if len(r.Outages) != 1 || r.Outages[0].LastBack == "" {
			t.Fatalf("%s: outages %+v, want samples-outage's one, its clients back", c.pattern, r.Outages)
		}
		if o := r.Outages[0]; o.ToLogged != c.logged || o.LastBackLogged != c.logged {
			t.Errorf("%s: toLogged %v, lastBackLogged %v, want %v", c.pattern, o.ToLogged, o.LastBackLogged, c.logged)
		}
	}
}
