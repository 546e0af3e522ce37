//go:build !wasm

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"watchlens/app/canvas"
)

// The timeline's groups of tracks, one per file, fold and pin to the top
// from a click on a file's name band, for any number of files; a copied
// link carries both.

// fileBand is one band of the timeline's canvas, as its data-bands says.
type fileBand struct {
	file  int
	id    canvas.BandID
	y, h  float64
	label string
}

// timelineBands waits for the timeline's canvas to list its bands, with ok
// true of them, and returns them.
func timelineBands(t testing.TB, tab context.Context, ok func([]fileBand) bool) []fileBand {
	t.Helper()
	var bands []fileBand
	var err error
	if until(pageWait, func() bool {
		text, jsErr := chromedp.Run(tab, chromedp.Evaluate[string](`(() => { const c = document.querySelector("#timeline canvas"); return c && c.dataset.bands || ""; })()`))
		must(t, jsErr)
		if text == "" {
			err = nil
			return false
		}
		bands, err = parseBands(text)
		return err == nil && len(bands) > 0 && ok(bands)
	}) {
		return bands
	}
	t.Fatalf("the timeline's bands never became as expected: %d bands, %v... (%v)", len(bands), bands[:min(len(bands), 8)], err)
	return nil
}

// parseBands reads the canvas's data-bands: JSON of the layout's
// []canvas.Band.
func parseBands(text string) ([]fileBand, error) {
	var layout []canvas.Band
	if err := json.Unmarshal([]byte(text), &layout); err != nil {
		return nil, fmt.Errorf("the canvas's data-bands %.80q: %w", text, err)
	}
	bands := make([]fileBand, len(layout))
	for i, b := range layout {
		bands[i] = fileBand{file: b.File, id: b.ID, y: b.Y, h: b.Height, label: b.Label}
	}
	return bands, nil
}

// clickBand scrolls the page so that the band is in the window and clicks
// it at x, CSS px from the canvas's left (negative: from its right).
func clickBand(t testing.TB, tab context.Context, b fileBand, x float64) {
	t.Helper()
	p := scrollToLayout(t, tab, x, b.y+b.h/2)
	clickAt(t, tab, p[0], p[1], 0)
}

// scrollToLayout scrolls the timeline's panel so that y, CSS px down the
// timeline's layout, is in the middle of the window, waits until the
// canvas, drawn again for the rows scrolled to, covers it, and returns
// where (x, y) is in the window; x is CSS px from the canvas's left
// (negative: from its right). A user clicks what the panel shows; until
// the frame of those rows comes, it shows the stage under the canvas.
func scrollToLayout(t testing.TB, tab context.Context, x, y float64) []float64 {
	t.Helper()
	_, err := chromedp.Run(tab, chromedp.Evaluate[int](fmt.Sprintf(`(() => {
		const c = document.querySelector("#timeline canvas");
		let s = c.parentElement;
		while (s && !(s.scrollHeight > s.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(s).overflowY))) s = s.parentElement;
		(s || document.scrollingElement).scrollBy({top: c.parentElement.getBoundingClientRect().top + %f - innerHeight / 2, behavior: "instant"});
		return 0;
	})()`, y)))
	must(t, err)
	p, err := chromedp.Run(tab, chromedp.Poll[[]float64](fmt.Sprintf(`(() => {
		const c = document.querySelector("#timeline canvas"), r = c.parentElement.getBoundingClientRect(), cr = c.getBoundingClientRect();
		const x = %f, y = r.top + %f;
		return cr.top <= y && cr.bottom > y ? [x < 0 ? r.right + x : r.left + x, y] : null;
	})()`, x, y), chromedp.WithPollingTimeout(pageWait)))
	if err != nil {
		t.Fatalf("the canvas never covered the rows at %v px down the timeline: %v", y, err)
	}
	return p
}

// groupOf is the file's name band and whether a sessions band of its own
// follows it (it is unfolded).
func groupOf(bands []fileBand, file int) (head fileBand, at int, unfolded bool) {
	for i, b := range bands {
		if b.file == file && b.id == canvas.BandFile {
			return b, i, i+1 < len(bands) && bands[i+1].file == file && bands[i+1].id == canvas.BandSessions
		}
	}
	return fileBand{}, -1, false
}

// firstGroup is the file whose group comes first.
func firstGroup(bands []fileBand) int {
	for _, b := range bands {
		if b.id == canvas.BandFile {
			return b.file
		}
	}
	return -1
}

// showTimeline waits for the page to show a capture and, if it opened on
// the fleet view, switches to the timeline; it says whether it did.
func showTimeline(t testing.TB, tab context.Context) (wasFleet bool) {
	t.Helper()
	shown, err := chromedp.Run(tab, chromedp.Poll[string](`document.querySelector("#fleet") ? "fleet" : document.querySelector("#timeline-summary") ? "timeline" : null`,
		chromedp.WithPollingTimeout(60*time.Second)))
	must(t, err)
	if shown == "fleet" {
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#show-timeline"))))
	}
	waitText(t, tab, "#timeline-summary")
	return shown == "fleet"
}

func TestBrowserFileGroups(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	s := startSite(t)
	// A broad watch split by object name: one virtual client per
	// ConfigMap, 405 of them, so the page opens on the fleet view and
	// stacks the groups of the first 64 files, the pinned ones first;
	// file 70 is pinned by the link opened.
	const sample, split, file = "w1-broad-configmaps-bookmarks.ts.http", "field=metadata.name", 70
	tab := s.newTab(t)
	must(t, chromedp.Do(tab, chromedp.EmulateViewport(1280, 720)))
	navigate(t, tab, s.url+"/?sample="+sample+"&split="+url.QueryEscape(split)+"&pin="+strconv.Itoa(file))
	if !showTimeline(t, tab) {
		t.Error("with 405 files the page did not open on the fleet view")
	}
	bands := timelineBands(t, tab, func(b []fileBand) bool { _, at, _ := groupOf(b, 62); return at >= 0 })
	head, _, unfolded := groupOf(bands, file)
	if firstGroup(bands) != file || unfolded {
		t.Fatalf("file %d's group: first %v, unfolded %v; want first and folded", file, firstGroup(bands) == file, unfolded)
	}
	if _, at, _ := groupOf(bands, 71); at >= 0 {
		t.Errorf("file 71's group is stacked: past the first 64 only pinned groups are")
	}
	waitText(t, tab, "#files-not-drawn")
	name := head.label

	// A click on its name unfolds it, and it alone.
	clickBand(t, tab, head, 20)
	bands = timelineBands(t, tab, func(b []fileBand) bool { _, _, u := groupOf(b, file); return u })
	if _, _, u := groupOf(bands, 0); u {
		t.Errorf("the first file unfolded with %s", name)
	}
	must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`)))
	screenshot(t, tab, "groups-pinned")

	// The link carries both, and a reopened link shows them so.
	link := copiedText(t, tab, "#copy-link")
	u, err := url.Parse(link)
	must(t, err)
	if q := u.Query(); q.Get("fold") != "0-69,71-404" || q.Get("pin") != "70" {
		t.Errorf("the link says fold=%q pin=%q, want fold=0-69,71-404 pin=70: %s", q.Get("fold"), q.Get("pin"), link)
	}
	again := s.newTab(t)
	must(t, chromedp.Do(again, chromedp.EmulateViewport(1280, 720)))
	navigate(t, again, link)
	showTimeline(t, again)
	bands = timelineBands(t, again, func(b []fileBand) bool { _, at, _ := groupOf(b, 62); return at >= 0 })
	if first, _, u := groupOf(bands, file); firstGroup(bands) != file || !u || first.label != name {
		t.Errorf("the reopened link shows %s first %v, unfolded %v", name, firstGroup(bands) == file, u)
	}
	if _, _, u := groupOf(bands, 0); u {
		t.Error("the reopened link unfolded the first file too")
	}

	// Folding it back, and unpinning it, leave the default, which a link
	// does not spell out.
	head, _, _ = groupOf(bands, file)
	clickBand(t, again, head, 20)
	timelineBands(t, again, func(b []fileBand) bool { _, _, u := groupOf(b, file); return !u })
	clickBand(t, again, head, -30)
	timelineBands(t, again, func(b []fileBand) bool { return firstGroup(b) == 0 })
	if q, _ := chromedp.Run(again, chromedp.Poll[string](`!location.search.includes("fold=") && !location.search.includes("pin=") ? location.search : null`,
		chromedp.WithPollingTimeout(pageWait))); q == "" {
		t.Error("folded and unpinned again, the address still names the groups")
	}
}
