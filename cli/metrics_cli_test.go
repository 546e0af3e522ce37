package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"watchlens/internal/testsample"
)

// TestAnalyzeMetricsOnly: Prometheus exports alone are read as metrics,
// never as empty captures: the summary says what was read, the JSON
// report lists it, and --fail-on exits 3 (nothing judged). Beside a
// capture they change no exit status.
func TestAnalyzeMetricsOnly(t *testing.T) {
	dir := filepath.Join(testsample.Recording(t, "samples-outage"), "prometheus")
	qr, _ := filepath.Glob(filepath.Join(dir, "query_range", "*.json.gz"))
	raw, _ := filepath.Glob(filepath.Join(dir, "metrics-*"))
	files := append(qr, raw...)
	code, out, errOut := analyze(t, files...)
	if code != 0 || !strings.Contains(errOut, "only the API servers' metrics or logs were read") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "* Metrics only: ") || !strings.Contains(out, " of 3 servers (a, b, c) from ") ||
		strings.Contains(out, "No 410 was observed") {
		t.Errorf("summary:\n%s", out[:min(len(out), 600)])
	}
	code, _, errOut = analyze(t, append([]string{"--fail-on", "410"}, files...)...)
	if code != 3 || !strings.Contains(errOut, "only the API servers' metrics or logs were read") {
		t.Errorf("--fail-on 410: exit %d, stderr %q", code, errOut)
	}
	code, js, _ := analyze(t, append([]string{"--format", "json", "--server-label", "instance"}, files...)...)
	var rep struct {
		Files   []any `json:"files"`
		Metrics *struct {
			ServerLabel string `json:"serverLabel"`
			Servers     []struct{ Name string }
			Files       []struct {
				Name, Format, Server string
				Series, Points       int
			}
			Series []struct {
				Metric string
				Used   bool
				Series int
			}
		} `json:"metrics"`
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil || code != 0 {
		t.Fatalf("exit %d: %v", code, err)
	}
	m := rep.Metrics
	if m == nil || len(rep.Files) != 0 || m.ServerLabel != "instance" || len(m.Servers) != 3 || len(m.Files) != len(files) {
		t.Fatalf("metrics section %+v, files %v", m, rep.Files)
	}
	used := 0
	for _, s := range m.Series {
		if s.Used {
			used++
		}
	}
	if used < 6 {
		t.Errorf("%d metrics used", used)
	}
	for _, f := range m.Files {
		if f.Format == "text" && !strings.HasPrefix(f.Server, "127.0.0.1:") {
			t.Errorf("%s: the scrape of %q", f.Name, f.Server)
		}
	}
	// Beside a capture, the exports are evidence, not an unread file.
	code, out, errOut = analyze(t, "--fail-on", "410", "samples/w1-broad-configmaps-bookmarks.http", filepath.Join(dir, "query_range", "up.json.gz"))
	if code != 0 || errOut != "" || strings.Contains(out, "Metrics only") {
		t.Errorf("a capture and an export: exit %d, stderr %q", code, errOut)
	}
}
