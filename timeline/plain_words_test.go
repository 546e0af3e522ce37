package timeline

import (
	"strings"
	"testing"
)

// TestAtRiskWordsSayWhichServer: on samples-lab (three API servers), the
// riskiest moment's reconnect is at risk because one server's 410 refused
// its cursor: the reconnect is refused only if it reaches that server.
// The words said "the server's own 410 had already said it no longer
// kept it", which tells a refusal beside "at risk".
func TestAtRiskWordsSayWhichServer(t *testing.T) {
	a := buildRecording(t, "samples-lab", "*.ts.http", "audit-*.log").Analyze(DefaultParams())
	var riskiest string
	for _, l := range a.Summary(nil) {
		if l.Topic == "riskiest" {
			riskiest = l.Text
		}
	}
	if !strings.Contains(riskiest, "at risk of a 410: an API server's own 410 had already said it no longer kept it, and a reconnect that reached that server would be refused") {
		t.Errorf("the riskiest moment: %q, want it at risk because of one server's 410", riskiest)
	}
	if strings.Contains(riskiest, "the server's own 410") {
		t.Errorf("the riskiest moment %q says the server refused it", riskiest)
	}
}

// TestEveryModelInPlainWords: each model that can refuse or put a
// reconnect at risk has plain words; samples-watchlist's bookmarks line
// said "refused (410 Gone): server-cache-metrics", the model's name.
func TestEveryModelInPlainWords(t *testing.T) {
	a := buildRecording(t, "samples-watchlist", "*.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz").Analyze(DefaultParams())
	for m := ModelCacheTime; m <= ModelServerCache; m++ {
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
