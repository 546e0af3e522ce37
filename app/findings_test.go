package app

import (
	"bytes"
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// findingsOn builds, natively, the findings panel for captures given by
// name and content, as the browser would after reading them.
func findingsOn(t *testing.T, files map[string][]byte, order ...string) *FindingsPanel {
	t.Helper()
	b := timeline.NewBuilder()
	for _, name := range order {
		if err := b.AddReader(name, bytes.NewReader(files[name]), parser.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	tl := b.Build()
	return &FindingsPanel{Timeline: tl, Analysis: tl.Analyze(timeline.DefaultParams())}
}

func TestFindingsFollowTheKindFilter(t *testing.T) {
	p := findingsOn(t, map[string][]byte{
		"w4-then-resume.ts.http":   testsample.SampleBytes(t, "w4-then-resume.ts.http"),
		"kubectl-pods-watch.jsonl": testsample.SampleBytes(t, "kubectl-pods-watch.jsonl"),
	}, "w4-then-resume.ts.http", "kubectl-pods-watch.jsonl")

	all := p.findings()
	if len(all.errors) != 1 || len(all.zones) == 0 || !strings.Contains(all.errors[0].text, "too old resource version: 389 (1411)") {
		t.Fatalf("unfiltered: %d errors, %d zones; want w4's 410 and its zones", len(all.errors), len(all.zones))
	}
	p.Filter.Kind = "Pod"
	if pods := p.findings(); len(pods.errors) != 0 || len(pods.zones) != 0 {
		t.Errorf("filtered to Pods, the ConfigMap watch's findings remain: %d errors, %d zones", len(pods.errors), len(pods.zones))
	}
	p.Filter.Kind = "ConfigMap"
	if cms := p.findings(); len(cms.errors) != 1 || len(cms.zones) != len(all.zones) {
		t.Errorf("filtered to ConfigMaps: %d errors, %d zones; want all of w4's", len(cms.errors), len(cms.zones))
	}
}

func TestFindingsAnomalyFollowsObjectFilters(t *testing.T) {
	// A real capture with one of its events recorded twice: the repeated
	// event is an anomaly about one object.
	lines := bytes.SplitAfter(testsample.SampleBytes(t, "kubectl-pods-watch.jsonl"), []byte("\n"))
	capture := bytes.Join(append(lines[:3:3], lines[2]), nil)
	p := findingsOn(t, map[string][]byte{"repeated.jsonl": capture}, "repeated.jsonl")

	all := p.findings()
	if len(all.anomalies) == 0 || all.anomalies[0].event < 0 {
		t.Fatalf("the repeated event gave no anomaly about an event: %+v", all.anomalies)
	}
	lane := p.Timeline.Lanes.At(p.Timeline.Event(all.anomalies[0].event).Lane)
	p.Filter.Text = lane.Name
	if got := p.findings(); len(got.anomalies) != len(all.anomalies) {
		t.Errorf("searching the object's own name hid its anomaly")
	}
	p.Filter.Text = "no-such-object"
	if got := p.findings(); len(got.anomalies) != 0 {
		t.Errorf("searching another name kept the anomaly: %+v", got.anomalies)
	}
}

func TestFindingsAreAtTheModelsInstants(t *testing.T) {
	names := []string{"w4-then-resume.ts.http", "w2-broad-pods-bookmarks.http.gz", "w3-then-resume.ts.http"}
	files := map[string][]byte{}
	for _, n := range names {
		files[n] = testsample.SampleBytes(t, n)
	}
	p := findingsOn(t, files, names...)
	an := p.Analysis
	f := p.findings()
	if len(f.zones) != len(an.Zones) || len(f.gaps) != len(an.Gaps) || len(f.zones) == 0 || len(f.gaps) < 2 {
		t.Fatalf("%d zones and %d gaps listed, the model has %d and %d; want some zones and at least two gaps", len(f.zones), len(f.gaps), len(an.Zones), len(an.Gaps))
	}
	for i, z := range an.Zones {
		if !f.zones[i].timed || f.zones[i].at != z.From {
			t.Errorf("zone %d listed at %d (timed %v), the model has it from %d", i, f.zones[i].at, f.zones[i].timed, z.From)
		}
	}
	starts := map[int64]bool{}
	for _, g := range an.Gaps {
		starts[g.From] = true
	}
	for i, g := range f.gaps {
		if !starts[g.at] || !g.timed {
			t.Errorf("gap %d listed at %d, when no gap of the model starts", i, g.at)
		}
		if i > 0 && f.gaps[i-1].text == g.text {
			t.Errorf("gap %d listed twice: %s", i, g.text)
		}
	}
	// The longest first.
	longest := slices.MaxFunc(an.Gaps, func(a, b timeline.Gap) int { return cmp.Compare(a.AgeTime, b.AgeTime) })
	if f.gaps[0].at != longest.From {
		t.Errorf("the first gap listed is %q, not the longest (%s)", f.gaps[0].text, timeline.FormatDuration(longest.AgeTime))
	}
}

// A long list shows its first findingsFolded findings and a button for
// the rest; unfolded, it shows them all up to maxFindingsShown. The
// fleet recording's lists of resumes, zones and gaps run past the fold.
func TestFindingsFoldLongLists(t *testing.T) {
	dir := testsample.Recording(t, "samples-fleet")
	paths, err := filepath.Glob(filepath.Join(dir, "*.ts.http"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	var names []string
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(p)] = b
		names = append(names, filepath.Base(p))
	}
	p := findingsOn(t, files, names...)
	p.Kept = &findingsKept{}
	f := p.findings()
	lists := map[string]int{"errors": len(f.errors), "zones": len(f.zones), "resumes": len(f.resumes), "gaps": len(f.gaps), "anomalies": len(f.anomalies)}
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
