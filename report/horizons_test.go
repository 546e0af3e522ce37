package report

import (
	"bytes"
	"strings"
	"testing"

	"watchlens/timeline"
)

// TestHorizonSafeAgain: c142 dropped at 18:14:58.394 with a cursor
// (1185) stale for longer than the cache's window, and a change had come
// since to push it out, so its reconnects were at risk from then; but
// from 18:14:59.043 until 18:15:01.229 every server the load balancer
// could pick held its cursor by their metrics: the horizon says so, in
// the JSON's safeAgainFrom and safeAgainUntil and in the Markdown's
// table.
func TestHorizonSafeAgain(t *testing.T) {
	tl := loadRecording(t, "samples-lab", "c142-nobookmarks.ts.http", "broad-a.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz")
	r := New(tl.Analyze(timeline.DefaultParams()), nil)
	var found *HorizonReport
	for i, h := range r.Horizons {
		if h.File == "c142-nobookmarks.ts.http" && h.Cursor == timeline.BookmarkAware.String() && h.SafeAgainFrom != nil {
			found = &r.Horizons[i]
		}
	}
	if found == nil {
		t.Fatal("no horizon of c142's bookmark-aware cursor is safe again after its risk")
	}
	if !strings.Contains(*found.SafeAgainFrom, "18:14:59.043") || found.SafeAgainUntil == nil || !strings.Contains(*found.SafeAgainUntil, "18:15:01.229") {
		t.Errorf("c142's horizon of its drop at %s: safe again from %v until %v", found.Drop, *found.SafeAgainFrom, found.SafeAgainUntil)
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(line, "| c142-nobookmarks.ts.http |") && strings.Contains(line, "safe again from 2026-12-01 18:14:59.043 UTC until 2026-12-01 18:15:01.229 UTC") {
			return
		}
	}
	t.Errorf("no row of the Markdown's horizons says when c142's reconnect is safe again:\n%s", horizonRows(md.String()))
}

// horizonRows are the Markdown report's rows of c142 in its horizons
// table.
func horizonRows(md string) string {
	_, table, _ := strings.Cut(md, "## Horizons")
	var rows []string
	for _, line := range strings.Split(table, "\n") {
		if strings.HasPrefix(line, "| c142") {
			rows = append(rows, line)
		}
	}
	return strings.Join(rows, "\n")
}
