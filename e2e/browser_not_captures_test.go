//go:build !wasm

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"watchlens/internal/testsample"

	"github.com/chromedp/chromedp"
)

// TestBrowserIncidentFilesSelected: a user who opens every file of an
// incident's folder (samples-outage: its records, and its README, notes
// and tables) sees, above the verdict's details, one sentence naming the
// files that are no capture, not a paragraph of parser problems for
// each: twelve of them filled the first screen, and each said
// "everything readable was read" of a file nothing was read from. The
// Files tab lists the records first.
func TestBrowserIncidentFilesSelected(t *testing.T) {
	t.Parallel()
	dir := testsample.Recording(t, "samples-outage")
	ents, err := os.ReadDir(dir)
	must(t, err)
	var files []string
	for _, e := range ents {
		if e.Type().IsRegular() {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	s := startSite(t)
	tab := s.openSample(t, "w3-then-resume.ts.http")
	must(t, chromedp.Do(tab, chromedp.EmulateViewport(1280, 800)))
	uploadRead(t, tab, files...)
	got, err := chromedp.Run(tab, chromedp.Evaluate[struct {
		Lines   []string
		Height  float64
		LineMax float64
		Titled  bool
	}](`(() => {
		const p = document.querySelector("#input-problems");
		const ps = p ? [...p.querySelectorAll("p")] : [];
		return {Lines: ps.map(e => e.textContent), Height: p ? p.getBoundingClientRect().height : 0,
			LineMax: Math.max(0, ...ps.map(e => e.getBoundingClientRect().height)), Titled: ps.every(e => e.title === e.textContent)};
	})()`))
	must(t, err)
	if len(got.Lines) != 1 {
		t.Fatalf("the problems above the verdict are %d lines, want the one on the files that are no capture:\n%s", len(got.Lines), strings.Join(got.Lines, "\n"))
	}
	line := got.Lines[0]
	for _, want := range []string{"12 files are not watch captures", "README.md is a Markdown document", "nothing in the other 11 reads as a watch event", "TRUTH.tsv", "loadavg.txt"} {
		if !strings.Contains(line, want) {
			t.Errorf("the line on the files that are no capture lacks %q:\n%s", want, line)
		}
	}
	if strings.Contains(line, "bad-json") || strings.Contains(line, "everything readable was read") {
		t.Errorf("the line still gives the parser's problems:\n%s", line)
	}
	if got.Height > 120 {
		t.Errorf("the problems take %.0f px above the verdict's details", got.Height)
	}
	// A line each, cut to the width, whole in its title: the line on 12
	// files wrapped to three.
	if got.LineMax > 30 || !got.Titled {
		t.Errorf("a problem's line is %.0f px high (titled whole: %v), more than a line", got.LineMax, got.Titled)
	}
	// The Files tab lists the records first, and counts them apart from
	// the files that are no capture.
	if first := filesText(t, tab, "section.result"); !strings.HasPrefix(strings.TrimSpace(first), "broad-a.ts.http") {
		t.Errorf("the Files tab begins with %.80q, not a record", first)
	}
	if count := filesText(t, tab, `label[for="files-find"]`); !strings.Contains(count, "108 open (each capture, and each client read from a log), and 12 files that are no capture, listed last") {
		t.Errorf("the Files tab counts %q", count)
	}
	screenshot(t, tab, "incident-files-selected")
}
