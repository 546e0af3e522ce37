package app

import (
	"path/filepath"
	"strings"
	"testing"

	"watchlens/app/engine/enginetest"
	"watchlens/internal/testsample"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TestSettingsSayWhatTheRecordsShow: with the watchlist recording's
// audit logs the analysis counts the three servers they name and
// applies each one's restarts; the settings said "1" server and offered
// to apply the restarts by hand.
func TestSettingsSayWhatTheRecordsShow(t *testing.T) {
	dir := testsample.Recording(t, "samples-watchlist")
	var paths []string
	for _, pattern := range []string{"c00*-bookmarks.ts.http", "audit-*.log"} {
		m, _ := filepath.Glob(filepath.Join(dir, pattern))
		paths = append(paths, m...)
	}
	e, o := enginetest.Open(t, timeline.DefaultParams(), testsample.BaseName, paths...)
	a := o.Analyzed
	if len(a.Restarts) == 0 || !timeline.AuditLogged(a.Restarts) || len(a.Servers) != 3 {
		t.Fatalf("%d restarts, audit-logged %v, servers %v: the test proves nothing", len(a.Restarts), timeline.AuditLogged(a.Restarts), a.Servers)
	}
	p := &SettingsPanel{Params: timeline.DefaultParams(), Detected: a.Restarts, Servers: a.Servers, Kept: &settingsKept{}}
	if got := p.serversHelp(); !strings.Contains(got, "The records name 3 (a, b, c)") {
		t.Errorf("the servers' help says %q", got)
	}
	if html := goapp.HTMLString(p.renderDetectedRestarts()); strings.Contains(html, "apply-restarts") || !strings.Contains(html, "each applied to its own server&#39;s verdicts") {
		t.Errorf("the settings offer the audit logs' restarts to apply by hand: %s", html)
	}
	if shown, counted := max(p.Params.Servers, 1, len(p.Servers)), e.Timeline().Analyze(p.Params).ServerCount(); shown != counted {
		t.Errorf("the field shows %d servers, the analysis counts %d", shown, counted)
	}
}

// TestAppliedRestartsCountAnotherServer: the fleet recording's captures
// suggest two restarts, each served again within milliseconds, by the
// other server. Applied with one server counted, c00-bookmarks'
// reconnect, which the capture shows accepted, read as refused; applied
// as the settings apply them, two servers are counted and no resume the
// captures show contradicts the models.
func TestAppliedRestartsCountAnotherServer(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(testsample.Recording(t, "samples-fleet"), "*.ts.http"))
	e, o := enginetest.Open(t, timeline.DefaultParams(), testsample.BaseName, paths...)
	detected := o.Analyzed.Restarts
	if len(detected) == 0 || !detected[0].AnotherServed() {
		t.Fatalf("%d restarts suggested, the first served again by another server %v: the test proves nothing", len(detected), len(detected) > 0 && detected[0].AnotherServed())
	}
	count := func(p timeline.Params) int {
		n := 0
		for _, r := range e.Timeline().Analyze(p).Resumes {
			if r.Contradicts() {
				n++
			}
		}
		return n
	}
	one := timeline.DefaultParams()
	for _, d := range detected {
		one.Restarts = append(one.Restarts, d.Window())
	}
	if count(one) == 0 {
		t.Fatalf("applied with one server, no resume contradicts the models: the test proves nothing")
	}
	p := withRestarts(timeline.DefaultParams(), detected)
	if p.Servers != 2 || len(p.Restarts) != len(detected) {
		t.Errorf("applied: %d servers, %d restarts", p.Servers, len(p.Restarts))
	}
	if n := count(p); n != 0 {
		t.Errorf("applied as the settings apply them, %d resumes contradict the models", n)
	}
}

// TestSettingsSayTheEtcdIntervalTheMetricsShow: samples-lab's Prometheus
// exports show etcd compacting every minute, which the summary suggests
// applying; the settings showed 300 s with no note of it (the UI review
// of the page).
func TestSettingsSayTheEtcdIntervalTheMetricsShow(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(testsample.Recording(t, "samples-lab"), "prometheus", "query_range", "*.json.gz"))
	paths = append(paths, filepath.Join(testsample.Recording(t, "samples-lab"), "c000-bookmarks.ts.http"))
	_, o := enginetest.Open(t, timeline.DefaultParams(), testsample.BaseName, paths...)
	a := o.Analyzed
	if a.EtcdCompactedEvery <= 0 {
		t.Fatalf("the exports show no etcd compaction: the test proves nothing")
	}
	p := &SettingsPanel{Params: timeline.DefaultParams(), EtcdCompactedEvery: a.EtcdCompactedEvery, Kept: &settingsKept{}}
	if got := p.etcdHelp(); !strings.Contains(got, "The metrics exports show etcd compacting every 1m0s: set 60 to model that.") {
		t.Errorf("the etcd interval's help says %q", got)
	}
	p.Params.EtcdInterval = a.EtcdCompactedEvery
	if got := p.etcdHelp(); strings.Contains(got, "metrics") {
		t.Errorf("set to what the metrics show, the help still says %q", got)
	}
}
