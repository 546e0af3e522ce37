//go:build !wasm

package e2e

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"watchlens/internal/testsample"
)

// A dropped folder is read as the folder an incident left: every capture
// under it, in its subfolders too, on one timeline; its README and notes
// (and the two numbers of a Prometheus export's range) are left out and
// said to be, and its hidden files are not read. A PNG
// and an empty file dropped alone get no verdict: the page says what they
// are, and offers no summary to copy and no report to export.
func TestBrowserDropFolder(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	s := startSite(t)

	t.Run("a folder of captures and notes", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "incident")
		must(t, os.MkdirAll(filepath.Join(dir, "later"), 0o755))
		copyFile(t, "samples/w3-then-resume.ts.http", filepath.Join(dir, "w3-then-resume.ts.http"))
		copyFile(t, "samples/w4-then-resume.ts.http", filepath.Join(dir, "later", "w4-then-resume.ts.http"))
		copyFile(t, "samples/README.md", filepath.Join(dir, "README.md"))
		must(t, os.MkdirAll(filepath.Join(dir, "prometheus"), 0o755))
		copyFile(t, filepath.Join(testsample.Recording(t, "samples-lab"), "prometheus", "range.txt"), filepath.Join(dir, "prometheus", "range.txt"))
		// A hidden file is not read: were it, this capture's third file
		// would show.
		copyFile(t, "samples/w3-narrow-label-bookmarks.ts.http", filepath.Join(dir, ".w3-narrow-label-bookmarks.ts.http"))
		tab := s.openSample(t, "w1-broad-configmaps-bookmarks.ts.http")
		drop(t, tab, dir)
		waitRead(t, tab, "incident/README.md", "shown")
		// The timeline's summary comes with the engine's answer, after the
		// capture shows.
		files, err := chromedp.Run(tab, chromedp.Poll[string](`document.querySelector("#timeline-summary")?.dataset.files || null`, chromedp.WithPollingTimeout(pageWait)))
		must(t, err)
		if want := "incident/later/w4-then-resume.ts.http\nincident/w3-then-resume.ts.http"; sortedLines(files) != want {
			t.Errorf("the folder opened as files %q, want %q", files, want)
		}
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#tab-files"))))
		left := waitText(t, tab, "#files-left-out")
		if !strings.Contains(left, "holding no watch record: incident/README.md and incident/prometheus/range.txt.") {
			t.Errorf("the files panel does not say the README and range.txt were left out: %q", left)
		}
		screenshot(t, tab, "drop-folder")
	})

	t.Run("a PNG and an empty file", func(t *testing.T) {
		dir := t.TempDir()
		var img bytes.Buffer
		must(t, png.Encode(&img, image.NewGray(image.Rect(0, 0, 4, 4))))
		pic, empty := filepath.Join(dir, "timeline.png"), filepath.Join(dir, "empty.log")
		must(t, os.WriteFile(pic, img.Bytes(), 0o644))
		must(t, os.WriteFile(empty, nil, 0o644))
		tab := s.openSample(t, "w3-then-resume.ts.http")
		drop(t, tab, pic, empty)
		waitRead(t, tab, "timeline.png", "shown")
		verdict, err := chromedp.Run(tab, chromedp.Poll[string](`(() => {
			const p = document.querySelector("#verdict p");
			return p && p.dataset.topic === "unjudged" ? document.querySelector("#verdict").textContent : "";
		})()`, chromedp.WithPollingTimeout(pageWait)))
		if err != nil || !strings.Contains(verdict, "timeline.png: it is not a watch capture: it looks like a PNG image") ||
			!strings.Contains(verdict, "empty.log: it is not a watch capture: it is empty") || strings.Contains(verdict, "No 410") {
			t.Fatalf("the verdict over a PNG and an empty file is not that there is nothing to judge (%v): %q", err, verdict)
		}
		offered, err := chromedp.Run(tab, chromedp.Evaluate[bool](`!!document.querySelector("#copy-summary, #exports")`))
		must(t, err)
		if offered {
			t.Errorf("with nothing judged the page still offers Copy summary or Export")
		}
		screenshot(t, tab, "drop-not-a-capture")
	})
}

// sortedLines is s's lines in order.
func sortedLines(s string) string {
	lines := strings.Split(s, "\n")
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}
