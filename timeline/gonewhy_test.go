package timeline

import (
	"strings"
	"testing"
	"time"
)

// TestOutageSaysWhyGone: samples-outage's 74 clients got 410 Gone after
// the load balancer's outage because each cursor, at its reconnect, was
// older than the ConfigMap and Secret changes its server's cache kept
// (the recording's README names the oldest RVs each cache kept, and its
// metrics show when each cache reached them). The summary's first line says so in one sentence right
// after the count, before the records of the cut, with the histories'
// range, as each refused cursor was older than its own server's history
// while the youngest is younger than their median; each refusal's
// figures agree with it: the cursor older than what its server kept.
func TestOutageSaysWhyGone(t *testing.T) {
	a := buildRecording(t, "samples-outage", "*.ts.http", "audit-*.log", "apiserver-*.log", "fleet-klog.log", "prometheus/query_range/*.json.gz").Analyze(realServer())
	os := a.TL.OutageReturns()
	if len(os) != 1 {
		t.Fatalf("outages %+v, want the load balancer's one", os)
	}
	r := a.refusalAges(os[0].To, os[0].until)
	if r.refused != 74 || r.noBookmarks != 0 || !r.hasAge || !r.hasKept || strings.Join(r.kinds, " ") != "ConfigMap Secret" {
		t.Fatalf("the refusals after the outage: %+v, want the 74 of clients with bookmarks, of ConfigMaps and Secrets, aged and kept", r)
	}
	if r.age < int64(3*time.Minute) || r.age > int64(4*time.Minute) || r.kept < int64(2*time.Minute+20*time.Second) || r.kept > int64(3*time.Minute+20*time.Second) || r.kept >= r.age {
		t.Errorf("median cursor age %s, history kept %s: want about 3.5 and 3 minutes, the cursors the older", FormatDuration(r.age), FormatDuration(r.kept))
	}
	kept := 0
	for _, rs := range a.Resumes {
		if rs.Observed != Refused {
			continue
		}
		at, _ := a.TL.ServerReceived(rs.Session)
		d, ok := a.keptBefore(rs.Session, at)
		if !ok {
			continue
		}
		kept++
		if age := at - rs.Predicted.Since; d >= age {
			t.Errorf("%s's cursor was %s old at its 410, but its server kept %s of changes", a.TL.Files[a.TL.Sessions[rs.Session].File].Name, FormatDuration(age), FormatDuration(d))
		}
	}
	if kept < 37 {
		t.Errorf("%d refusals with the history kept, want most of the 74", kept)
	}
	lines := a.Summary(nil)
	if len(lines) == 0 {
		t.Fatal("no summary")
	}
	const why = "(from 2026-12-01 19:11:51.659 UTC to 2026-12-01 19:13:00.264 UTC). Cut off for 2m30s, they came back with cursors from 2m41s to 4m19s old (median about 3.5 minutes), but the API servers that refused them kept only the last 2m25s to 3m17s of ConfigMap and Secret changes, each, where its metrics show it, less than the age of the cursor it refused, so they no longer had the changes needed to resume from them. No request of the captured clients reached a server from"
	if !strings.HasPrefix(lines[0].Text, "74 clients got 410 Gone and relisted between 8 and 77 s after the outage ended ") || !strings.Contains(lines[0].Text, why) {
		t.Errorf("the summary's first line does not say why right after the count:\n%s\nwant in it:\n%s", lines[0].Text, why)
	}
}

// TestGoneWhySaysLessWithoutMetrics: from samples-outage's captures and
// audit logs, with no metrics, nothing shows when the servers' caches
// reached the oldest RVs their 410s name: the sentence says the cursors'
// age and that they were older than what the servers kept, with no
// figure of it. From the audit logs alone the cursors' ages are bounds
// (when the watch before began), and no sentence is told.
func TestGoneWhySaysLessWithoutMetrics(t *testing.T) {
	first := func(patterns ...string) string {
		lines := buildRecording(t, "samples-outage", patterns...).Analyze(realServer()).Summary(nil)
		if len(lines) == 0 {
			t.Fatalf("%v: no summary", patterns)
		}
		return lines[0].Text
	}
	l := first("*.ts.http", "audit-*.log")
	if !strings.Contains(l, ". Cut off for 2m30s, they came back with cursors from 2m41s to 4m19s old (median about 3.5 minutes), older than the oldest change the API servers still kept (each 410 names it). No request of") || strings.Contains(l, "kept only") {
		t.Errorf("without metrics the first line says %q", l)
	}
	l = first("audit-*.log")
	if strings.Contains(l, "Cut off") || !strings.Contains(l, "): the audit logs show no request of 99 clients") {
		t.Errorf("from the audit logs alone the first line says %q", l)
	}
}

// TestRestartsSayWhyGone: samples-lab's 81 410s came to clients that
// did not ask for bookmarks, their cursors minutes old (the last change
// of a quiet selection) when the restarts ended their watches, while the
// servers kept about 2.5 minutes of changes. samples-fleet has no
// metrics: its sentence says the age alone. Each says how many of the
// 410s at least came from a server's new process whose history never
// held the cursor, by the cursor's value against the head when the old
// process ended, or against the RV of its first list where its first
// 410 shows it (restartfloor.go). samples-lab: of a's new process's 39
// refusals, 28 name its first list's RV, 1183 (four of them of cursor
// 1182, made after the old process's log ended at head 1181: counted by
// the list), and 11 came minutes later, evictions ("2294 (2303)"); b's
// new process refused 10, naming 1670. samples-fleet: a's new process
// refused 4 cursors from before its restart, and 6 made as it started
// (1396-1439), which it held and evicted by 08:45:07 ("(1556)"): its
// 410s name RVs past the head 10 s after it started, so it had evicted
// what it started with, and any process would have refused these
// cursors: none is said to come from its restart.
func TestRestartsSayWhyGone(t *testing.T) {
	for _, c := range []struct {
		name     string
		patterns []string
		says     string
	}{
		{"samples-lab", []string{"*.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz"},
			"followed watches that ended otherwise). The 81 refused reconnects carried cursors from 1m29s to 8m1s old (median about 5.5 minutes; all from clients that did not ask for bookmarks), but the API servers that refused them kept only the last 57s to 5m46s of ConfigMap and Secret changes, each less than the age of the cursor it refused, so they no longer had the changes needed to resume from them. At least 38 of them came from an API server process started after newer changes than the cursor were made: its history began at its start and never held the cursor. Had every client"},
		{"samples-fleet", []string{"*.ts.http", "audit-*.log"},
			"followed watches that ended otherwise). The 18 refused reconnects carried cursors from 2m44s to 9m34s old (median about 6 minutes; all from clients that did not ask for bookmarks), older than the oldest change the API servers still kept (each 410 names it). Had every client"},
	} {
		t.Run(c.name, func(t *testing.T) {
			lines := buildRecording(t, c.name, c.patterns...).Analyze(realServer()).Summary(nil)
			if len(lines) == 0 || lines[0].Topic != "fleet" || !strings.Contains(lines[0].Text, c.says) {
				t.Errorf("the summary's first line: %+v\nwant in it: %s", lines, c.says)
			}
		})
	}
}

// TestRoughly: the figures an engineer says aloud.
func TestRoughly(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{200 * time.Millisecond, "1 second"}, {7400 * time.Millisecond, "7 seconds"}, {42 * time.Second, "40 seconds"}, {88 * time.Second, "90 seconds"}, {2*time.Minute + 24*time.Second, "2.5 minutes"},
		{2*time.Minute + 51*time.Second, "3 minutes"}, {3*time.Minute + 40*time.Second, "3.5 minutes"}, {11*time.Minute + 31*time.Second, "12 minutes"},
		{90 * time.Minute, "90 minutes"}, {150 * time.Minute, "3 hours"},
	} {
		if got := roughly(int64(c.d)); got != c.want {
			t.Errorf("roughly(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

// TestGoneWhySaysNoCauseItCannotShow: of one server's capture, the why
// says "the API server"; where the medians of the cursors' ages and of
// the history kept, taken over different refusals, do not set the cause
// apart (the history at least the age), it leaves the history out and
// says the 410s name the oldest change, only where each did.
func TestGoneWhySaysNoCauseItCannotShow(t *testing.T) {
	s := &summarizer{a: loadSamples(t, "w4-then-resume.ts.http").Analyze(realServer())}
	if n := s.a.ServerCount(); n != 1 {
		t.Fatalf("w4 shows %d servers", n)
	}
	r := refusalAges{refused: 4, named: 4, age: int64(90 * time.Second), hasAge: true, kept: int64(2 * time.Minute), hasKept: true, kinds: []string{"ConfigMap"}}
	want := "They carried cursors about 1.5 minutes old, older than the oldest change the API server still kept (each 410 names it)."
	if got := s.goneWhy("They carried", r); got != want {
		t.Errorf("history past the age:\n got %q\nwant %q", got, want)
	}
	r.named = 3
	if got := s.goneWhy("They carried", r); strings.Contains(got, "names it") {
		t.Errorf("a bare 410 among them, yet: %q", got)
	}
	r.kept = int64(time.Minute)
	if got := s.goneWhy("They carried", r); !strings.Contains(got, "but the API server kept only about the last 60 seconds of ConfigMap changes, so it no longer had") {
		t.Errorf("history short of the age: %q", got)
	}
	// Ages far apart: their range and median; one younger than its
	// server's history, which then explains the older ones only.
	r.youngest, r.oldest, r.withinKept = int64(40*time.Second), int64(5*time.Minute), 1
	if got, want := s.goneWhy("They carried", r), "They carried cursors from 40s to 5m0s old (median about 1.5 minutes), but the API server kept only about the last 60 seconds of ConfigMap changes, so it no longer had the changes needed to resume from the older of those cursors."; got != want {
		t.Errorf("ages far apart:\n got %q\nwant %q", got, want)
	}
}

// TestGoneWhyRangeOfOneServer: where each refused cursor was older than
// its server's history and the youngest younger than their median, the
// histories are told as their range, of one server as of several.
func TestGoneWhyRangeOfOneServer(t *testing.T) {
	a := loadSamples(t, "w4-then-resume.ts.http").Analyze(DefaultParams())
	if a.ServerCount() != 1 {
		t.Fatalf("%d servers, want one", a.ServerCount())
	}
	s := summarizer{a: a}
	m := int64(time.Minute)
	r := refusalAges{refused: 3, compared: 3, hasAge: true, age: 4 * m, youngest: 2 * m, oldest: 6 * m, hasKept: true, kept: 3 * m, keptLeast: m, keptMost: 5 * m, kinds: []string{"ConfigMap"}}
	want := "but at its refusals the API server kept only the last 1m0s to 5m0s of ConfigMap changes, each time less than the age of the cursor it refused, so it no longer had the changes needed to resume from them."
	if got := s.goneWhy("They came back with", r); !strings.Contains(got, want) {
		t.Errorf("%q, want in it %q", got, want)
	}
}
