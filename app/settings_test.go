package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TestSettingsSayWhatTheRecordsShow: with the watchlist recording's
// audit logs the analysis counts the three servers they name and
// applies each one's restarts; the settings said "1" server and offered
// to apply the restarts by hand.
func TestSettingsSayWhatTheRecordsShow(t *testing.T) {
	dir := testsample.Recording(t, "samples-watchlist")
	b := timeline.NewBuilder()
	for _, pattern := range []string{"c00*-bookmarks.ts.http", "audit-*.log"} {
		paths, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, path := range paths {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			err = b.AddReader(filepath.Base(path), f, parser.Options{})
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	a := b.Build().Analyze(timeline.DefaultParams())
	if len(a.Restarts) == 0 || !timeline.AuditLogged(a.Restarts) || len(a.TL.Servers) != 3 {
		t.Fatalf("%d restarts, audit-logged %v, %d servers: the test proves nothing", len(a.Restarts), timeline.AuditLogged(a.Restarts), len(a.TL.Servers))
	}
	var names []string
	for _, s := range a.TL.Servers {
		names = append(names, s.Name)
	}
	p := &SettingsPanel{Params: a.Params, Detected: a.Restarts, Servers: names, Kept: &settingsKept{}}
	if got := p.serversHelp(); !strings.Contains(got, "The records name 3 (a, b, c)") {
		t.Errorf("the servers' help says %q", got)
	}
	if html := goapp.HTMLString(p.renderDetectedRestarts()); strings.Contains(html, "apply-restarts") || !strings.Contains(html, "each applied to its own server&#39;s verdicts") {
		t.Errorf("the settings offer the audit logs' restarts to apply by hand: %s", html)
	}
	if max(p.Params.Servers, 1, len(p.Servers)) != a.ServerCount() {
		t.Errorf("the field shows %d servers, the analysis counts %d", max(p.Params.Servers, 1, len(p.Servers)), a.ServerCount())
	}
}
