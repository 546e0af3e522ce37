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
