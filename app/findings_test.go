package app

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"watchlens/app/engine"
	"watchlens/app/engine/enginetest"
	"watchlens/internal/testsample"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A long list shows its first findingsFolded findings and a button for
// the rest; unfolded, it shows them all up to maxFindingsShown. The
// fleet recording's lists of resumes, zones and gaps run past the fold.
func TestFindingsFoldLongLists(t *testing.T) {
	dir := testsample.Recording(t, "samples-fleet")
	paths, err := filepath.Glob(filepath.Join(dir, "*.ts.http"))
	if err != nil {
		t.Fatal(err)
	}
	eng, _ := enginetest.Open(t, timeline.DefaultParams(), testsample.BaseName, paths...)
	p := findingsPanelOf(eng, timeline.Filter{})
	f := *p.Kept.answer
	lists := map[string]int{"errors": len(f.Errors), "zones": len(f.Zones), "resumes": len(f.Resumes), "gaps": len(f.Gaps), "anomalies": len(f.Anomalies)}
	folded := 0
	for id, n := range lists {
		items := listItems(t, goapp.HTMLString(p), id)
		if want := min(n, findingsFolded); items != want {
			t.Errorf("%s: %d findings, %d listed folded; want %d", id, n, items, want)
		}
		more := strings.Contains(goapp.HTMLString(p), `data-more="`+id+`"`)
		if more != (n > findingsFolded) {
			t.Errorf("%s: %d findings, a button for the rest: %v", id, n, more)
		}
		if n <= findingsFolded {
			continue
		}
		folded++
		p.Kept.unfolded = map[string]bool{id: true}
		if items, want := listItems(t, goapp.HTMLString(p), id), min(n, maxFindingsShown); items != want {
			t.Errorf("%s unfolded: %d of %d findings listed; want %d", id, items, n, want)
		}
		p.Kept.unfolded = nil
	}
	if folded == 0 {
		t.Fatalf("no list of the fleet's findings is longer than %d: %v", findingsFolded, lists)
	}
	// Another capture's answer is not shown: the panel waits for its own.
	p.Engine = &engine.Engine{}
	if html := goapp.HTMLString(p); strings.Contains(html, `data-findings=`) || strings.Contains(html, `id="findings"`) {
		t.Error("the panel of another capture shows the findings of the first")
	}
}

// findingsPanelOf is the Findings tab of the engine's latest analysis
// under filter, with the answer its question gets.
func findingsPanelOf(eng *engine.Engine, filter timeline.Filter) *FindingsPanel {
	gen := eng.Opened().Generation
	f := eng.Findings(filter)
	q := findingsAsk{eng, gen, filter}
	return &FindingsPanel{Engine: eng, Generation: gen, Filter: filter, Zone: time.UTC, Kept: &findingsKept{answer: &f, answered: q, asked: q}}
}

// listItems counts the items of the findings list id in the panel's
// HTML.
func listItems(t *testing.T, html, id string) int {
	t.Helper()
	at := strings.Index(html, `data-findings="`+id+`"`)
	if at < 0 {
		t.Fatalf("no list %q in the panel", id)
	}
	list := html[at:]
	if end := strings.Index(list, "</details>"); end >= 0 {
		list = list[:end]
	}
	return strings.Count(list, "<li")
}

// TestSavedByBookmarksFromClientLogs: from the lab's klog alone, whose
// clients' logs show no bookmarks, the Findings said "relists saved by
// the bookmarks received: 0 (0.0%)", which reads as bookmarks saving
// nothing; it is not known. From captures it is a count.
func TestSavedByBookmarksFromClientLogs(t *testing.T) {
	for _, c := range []struct {
		path, want string
	}{
		{filepath.Join(testsample.Recording(t, "samples-lab"), "fleet-klog.log"), "not known: the clients' logs show no bookmarks"},
		{"../samples/w4-then-resume.ts.http", "%)"},
	} {
		e, _ := enginetest.Open(t, timeline.DefaultParams(), testsample.BaseName, c.path)
		f := e.Findings(timeline.Filter{})
		if got := savedText(&f); !strings.Contains(got, c.want) {
			t.Errorf("%s: saved %q, want %q", filepath.Base(c.path), got, c.want)
		}
	}
}
