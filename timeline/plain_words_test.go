package timeline

import (
	"strings"
	"testing"
	"time"
)

// TestAtRiskWordsSayWhichServer: on samples-lab (three API servers),
// c117-nobookmarks.ts.http's cursor without bookmarks (RV 1185) is
// refused by server a's own 410 from 18:21, while its connection is open
// to a: the words name a, not "the server's own 410", which leaves the
// reader asking which. At 18:18 only
// b and c refuse it, and its connection takes the reconnect to a: the
// verdict is a's, at risk, and its words tell no refusal.
func TestAtRiskWordsSayWhichServer(t *testing.T) {
	a := buildRecording(t, "samples-lab", "*.ts.http", "audit-*.log").Analyze(DefaultParams())
	var riskiest string
	for _, l := range a.Summary(nil) {
		if l.Topic == "riskiest" {
			riskiest = l.Text
		}
	}
	if !strings.Contains(riskiest, "c117-nobookmarks.ts.http") || !strings.Contains(riskiest, "refused (410 Gone): an earlier 410 from API server a had already said it no longer kept it") {
		t.Errorf("the riskiest moment: %q, want it refused by server a, named", riskiest)
	}
	if strings.Contains(riskiest, "the server's own 410") {
		t.Errorf("the riskiest moment %q does not say which server refused it", riskiest)
	}
	file := fileNamed(t, a.TL, "c117-nobookmarks.ts.http")
	at := time.Date(2026, 12, 1, 18, 18, 0, 0, time.UTC).UnixNano()
	per, likely := a.ResumeAtServers(file, BookmarkIgnoring, at)
	if likely < 0 || a.TL.Servers[likely].Name != "a" {
		t.Fatalf("at 18:18 the connection goes to server %d, want a", likely)
	}
	if w := a.ServerWords(per); w != "refused by b and c, at risk on a" {
		t.Fatalf("at 18:18 the servers say %q: the check below needs b and c refusing, a not", w)
	}
	for _, v := range a.ResumeAt(file, at) {
		if v.Kind != BookmarkIgnoring {
			continue
		}
		if w := a.Words(v); v.Outcome != AtRisk || strings.Contains(w, "refused") {
			t.Errorf("RV %d at 18:18: %s, %q; want server a's verdict, at risk, in words that tell no refusal", v.RV, v.Outcome, w)
		}
	}
}

// TestEveryModelInPlainWords: each model that can refuse or put a
// reconnect at risk has plain words; samples-watchlist's bookmarks line
// said "refused (410 Gone): server-cache-metrics", the model's name.
func TestEveryModelInPlainWords(t *testing.T) {
	a := buildRecording(t, "samples-watchlist", "*.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz").Analyze(DefaultParams())
	for m := ModelCacheTime; m < numModels; m++ {
		for _, o := range []Outcome{Refused, AtRisk} {
			if w := a.plain(m, Verdict{Outcome: o}); w == m.String() {
				t.Errorf("%s, %s: no plain words (%q)", m, o, w)
			}
		}
	}
	told := false
	for _, l := range a.Summary(nil) {
		if strings.Contains(l.Text, ModelServerCache.String()) {
			t.Errorf("the summary names a model: %q", l.Text)
		}
		told = told || strings.Contains(l.Text, "own metrics show its cache of ConfigMap changes no longer held it")
	}
	if !told {
		t.Errorf("no line tells the server's metrics: %+v", a.Summary(nil))
	}
}

// TestServerWordsNameTheRestarting: on samples-lab with its exports, a
// reconnect of c146-nobookmarks at 18:16:28.148 (the instant it did
// reconnect, to a's new process: accepted) is accepted by a and b as
// their metrics show, while c was restarting, which the phrase names as
// such rather than "not judged by c". The verdict's own reason, judged
// with no server's metrics, no longer adds that the server "is not
// known" where each server's answer says what it is.
func TestServerWordsNameTheRestarting(t *testing.T) {
	a := buildRecording(t, "samples-lab", "*.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz").Analyze(realServer())
	file := fileNamed(t, a.TL, "c146-nobookmarks.ts.http")
	at := time.Date(2026, 12, 1, 18, 16, 28, 148935574, time.UTC).UnixNano()
	per, _ := a.ResumeAtServers(file, BookmarkIgnoring, at)
	if w := a.ServerWords(per); w != "accepted by a and b, c restarting" {
		t.Errorf("at 18:16:28.148 the servers say %q", w)
	}
	for _, v := range a.ResumeAt(file, at) {
		if strings.Contains(v.Reason, "is not known") {
			t.Errorf("%s RV %d: %s, %q", v.Kind, v.RV, v.Outcome, v.Reason)
		}
	}
}

// TestResumeAtSaysOutcomesInWords: the answer to a reconnect asked for
// said the model's "at-risk" where the table beside it says "at risk of
// a 410".
func TestResumeAtSaysOutcomesInWords(t *testing.T) {
	a := loadSamples(t, "w3-then-resume.ts.http").Analyze(realServer())
	line := ""
	for _, l := range a.Summary([]ResumeQuery{{At: instant(t, "2026-11-30T01:06:00Z")}}) {
		if l.Topic == "resume-at" {
			line = l.Text
		}
	}
	if !strings.Contains(line, "ignoring bookmarks at risk of a 410") || strings.Contains(line, "at-risk") {
		t.Errorf("the reconnect asked for reads %q", line)
	}
}

// TestRiskiestCursorSaysWhereItsRVComesFrom: from samples-outage's audit
// logs, broad-b asked for bookmarks, so its cursor is where they would
// have put it (RV 1433), not the RV of its last request (779, audit-a-1.log),
// which the riskiest line said it was. A client that did not ask keeps the
// RV of its last request (samples-lab's audit logs).
func TestRiskiestCursorSaysWhereItsRVComesFrom(t *testing.T) {
	for _, tc := range []struct {
		recording, pattern, want string
	}{
		{"samples-outage", "audit-*.log", ", where the bookmarks it asked for would have put it) had gone unconfirmed"},
		{"samples-lab", "audit-*.log", " at its last request) had gone unconfirmed"},
	} {
		a := buildRecording(t, tc.recording, tc.pattern).Analyze(realServer())
		if line := summaryTopic(a, "riskiest"); !strings.Contains(line, tc.want) {
			t.Errorf("%s: the riskiest line %q, want %q", tc.recording, line, tc.want)
		}
	}
}

// TestClientLogCursorAgeIsAtMost: samples-outage's client log alone
// shows no bookmarks, so a refused cursor's age by the log is the most it
// can have been: s016's cursor "had not moved for 3m43s", where its
// capture has a bookmark confirming it a minute later (the review of the
// outage's outputs).
func TestClientLogCursorAgeIsAtMost(t *testing.T) {
	a := buildRecording(t, "samples-outage", "fleet-klog.log").Analyze(realServer())
	line := summaryTopic(a, "observed")
	if !strings.Contains(line, "the cursor had not moved for at most ") || !strings.Contains(line, " (its own log shows no bookmarks, which may have confirmed it since)") || strings.Contains(line, "the cursor had not moved for 3") {
		t.Errorf("the 410s' line: %q", line)
	}
}
