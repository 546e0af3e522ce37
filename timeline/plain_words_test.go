package timeline

import (
	"strings"
	"testing"
	"time"
)

// TestAtRiskWordsSayWhichServer: on samples-lab (three API servers),
// c117-nobookmarks.ts.http's cursor without bookmarks (RV 1185) is at
// risk at 18:18 because one server's 410 refused it: the reconnect is
// refused only if it reaches that server. The words said "the server's
// own 410 had already said it no longer kept it", which tells a refusal
// beside "at risk". By the riskiest moment, every server's own evidence
// (a's 410, the restarts of b and c) refuses it, and the words say so.
func TestAtRiskWordsSayWhichServer(t *testing.T) {
	a := buildRecording(t, "samples-lab", "*.ts.http", "audit-*.log").Analyze(DefaultParams())
	var riskiest string
	for _, l := range a.Summary(nil) {
		if l.Topic == "riskiest" {
			riskiest = l.Text
		}
	}
	if !strings.Contains(riskiest, "c117-nobookmarks.ts.http") || !strings.Contains(riskiest, "refused (410 Gone): every API server would refuse it: each one's own evidence no longer holds it") {
		t.Errorf("the riskiest moment: %q, want it refused by every server", riskiest)
	}
	if strings.Contains(riskiest, "the server's own 410") {
		t.Errorf("the riskiest moment %q says one server refused it", riskiest)
	}
	at := time.Date(2026, 12, 1, 18, 18, 0, 0, time.UTC).UnixNano()
	for _, v := range a.ResumeAt(fileNamed(t, a.TL, "c117-nobookmarks.ts.http"), at) {
		if v.Kind != BookmarkIgnoring {
			continue
		}
		w := a.Words(v)
		if !strings.Contains(w, "at risk of a 410: an API server's own 410 had already said it no longer kept it, and a reconnect that reached that server would be refused") {
			t.Errorf("RV %d at 18:18: %q, want it at risk because of one server's 410", v.RV, w)
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
