package report

import (
	"bytes"
	"strings"
	"testing"

	"watchlens/timeline"
)

// TestHorizonSafeAgain: c104 dropped as API server c began its restart,
// and its reconnects were at risk from then, but from 18:16:27.987 until
// 18:16:30.945 servers a and b, the ones the load balancer could pick,
// held its cursor by their metrics: the horizon says so, in the JSON's
// safeAgainFrom and safeAgainUntil and in the Markdown's table.
func TestHorizonSafeAgain(t *testing.T) {
	tl := loadRecording(t, "samples-lab", "c104-nobookmarks.ts.http", "broad-a.ts.http", "audit-*.log", "prometheus/query_range/*.json.gz")
	r := New(tl.Analyze(timeline.DefaultParams()), nil)
	var found *HorizonReport
	for i, h := range r.Horizons {
		if h.File == "c104-nobookmarks.ts.http" && h.Cursor == timeline.BookmarkAware.String() && h.SafeAgainFrom != nil {
			found = &r.Horizons[i]
		}
	}
	if found == nil {
		t.Fatal("no horizon of c104's bookmark-aware cursor is safe again after its risk")
	}
	if !strings.Contains(*found.SafeAgainFrom, "18:16:27.987") || found.SafeAgainUntil == nil || !strings.Contains(*found.SafeAgainUntil, "18:16:30.945") {
		t.Errorf("c104's horizon of its drop at %s: safe again from %v until %v", found.Drop, *found.SafeAgainFrom, found.SafeAgainUntil)
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(line, "| c104-nobookmarks.ts.http |") && strings.Contains(line, "safe again from 2026-12-01 18:16:27.987 UTC until 2026-12-01 18:16:30.945 UTC") {
			return
		}
	}
	t.Errorf("no row of the Markdown's horizons says when c104's reconnect is safe again:\n%s", horizonRows(md.String()))
}

// horizonRows are the Markdown report's rows of c104 in its horizons
// table.
func horizonRows(md string) string {
	_, table, _ := strings.Cut(md, "## Horizons")
	var rows []string
	for _, line := range strings.Split(table, "\n") {
		if strings.HasPrefix(line, "| c104") {
			rows = append(rows, line)
		}
	}
	return strings.Join(rows, "\n")
}
