package app

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"watchlens/app/load"
)

func TestParseManifest(t *testing.T) {
	b, err := os.ReadFile("../samples/MANIFEST.tsv")
	if err != nil {
		t.Fatal(err)
	}
	samples := parseManifest(string(b))
	files, err := filepath.Glob("../samples/*")
	if err != nil {
		t.Fatal(err)
	}
	captures := 0
	for _, f := range files {
		if ext := filepath.Ext(f); ext != ".tsv" && ext != ".go" && ext != ".md" {
			captures++
		}
	}
	if len(samples) != captures {
		t.Errorf("the manifest lists %d samples, samples/ holds %d captures", len(samples), captures)
	}
	for _, sm := range samples {
		if _, err := os.Stat("../samples/" + sm.name); err != nil || sm.about == "" {
			t.Errorf("sample %q: %v, about %q", sm.name, err, sm.about)
		}
		if strings.HasPrefix(sm.about, "same") {
			t.Errorf("sample %q is described only relative to another: %q", sm.name, sm.about)
		}
	}
}

// A capture shown in place of another clears the notice of the last
// copy: the summary or link it shows, and keeps to copy by hand, is of
// the capture before.
func TestShowingACaptureClearsTheCopyNotice(t *testing.T) {
	p := &Page{copied: &copied{what: "the summary (Markdown)", text: "**watchlens** on `samples-lab/broad-a.ts.http`"}}
	p.view.files = []string{"samples-lab/broad-a.ts.http"}
	p.show(&capture{&load.Capture{}}, analysis{}, viewState{files: []string{"samples-lab/audit-a-1.log"}})
	if p.copied != nil {
		t.Errorf("after another capture shows, the copy notice still says %q", p.copied.text)
	}
	p.copied = &copied{what: "the link to this view", text: "http://localhost/?files=samples-lab%2Faudit-a-1.log"}
	p.show(&capture{&load.Capture{}}, analysis{}, viewState{files: []string{"samples-lab/audit-a-1.log"}})
	if p.copied != nil {
		t.Errorf("after the same files are read again, the copy notice still says %q", p.copied.text)
	}
}

// A link made on the fleet view reopens on it once its files are read;
// another capture keeps the view the user is on.
func TestLinkOpensOnItsView(t *testing.T) {
	files := []string{"outage/c000-bookmarks.ts.http", "outage/c001-bookmarks.ts.http"}
	p := &Page{view: parseViewState(url.Values{"file": files, "view": {"fleet"}})}
	p.show(&capture{&load.Capture{}}, analysis{fleet: true}, viewState{files: files})
	if !p.fleetShown() {
		t.Errorf("a link with view=fleet reopens on the timeline")
	}
	p = &Page{view: parseViewState(url.Values{"file": files})}
	p.show(&capture{&load.Capture{}}, analysis{fleet: true}, viewState{files: files})
	if p.fleetShown() {
		t.Errorf("a link without view=fleet reopens on the fleet")
	}
}
