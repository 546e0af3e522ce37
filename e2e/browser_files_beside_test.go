//go:build !wasm

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"

	"github.com/chromedp/chromedp"
)

// splitWords is a JS expression: the words of the elements sel matches
// that the browser wraps across two lines ("sta|tus"), each as
// "word in <tag>". A word is a run of letters, digits and dots
// ("127.0.0.1"); a cell whose text is a request's URL (td.mono) breaks
// anywhere by design, and is left out.
func splitWords(sel string) string {
	return `(() => {
		const split = [];
		for (const el of document.querySelectorAll(` + "`" + sel + "`" + `)) {
			if (el.closest("td.mono")) continue;
			const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
			for (let n = walk.nextNode(); n; n = walk.nextNode()) {
				for (const m of n.data.matchAll(/[\p{L}\p{N}.]+/gu)) {
					const r = document.createRange();
					r.setStart(n, m.index);
					r.setEnd(n, m.index + m[0].length);
					const lines = new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top)));
					if (lines.size > 1) split.push(m[0] + " in <" + el.tagName.toLowerCase() + ">");
				}
			}
		}
		return split;
	})()`
}

// TestBrowserFilesBesideSplitsNoWord: samples-outage's audit logs open,
// the dock beside the timeline at 1440x900, the Files and sessions tab:
// a file's title and its sessions table's headers wrap between words.
// The cells broke anywhere, and the table, its request column taking the
// width, squeezed the other columns to a letter or two: "HT TP sta tus",
// "boo km ark s", and a title read "(admin from 1 27.0.0.1)". The tab
// says once the user and the address every client shares, which their
// names leave out.
func TestBrowserFilesBesideSplitsNoWord(t *testing.T) {
	t.Parallel()
	audits, err := filepath.Glob(filepath.Join(testsample.Recording(t, "samples-outage"), "audit-*.log"))
	must(t, err)
	s := startSite(t)
	tab := s.openSample(t, "w3-then-resume.ts.http")
	must(t, chromedp.Do(tab, chromedp.EmulateViewport(1440, 900)))
	drop(t, tab, audits...)
	waitTextWithin(t, tab, "#fleet-may-mix", loadWait(tab))
	// One click, then a wait for the page to lay the dock beside: a click
	// at each poll until then toggled it back when the page was slow to
	// re-render (the dock read 1395 px wide in a loaded make test).
	must(t, chromedp.Do(tab, chromedp.WaitVisible(chromedp.CSS("#dock-side")),
		chromedp.Evaluate[chromedp.Void](`document.querySelector(".page.dock-side") || document.getElementById("dock-side").click()`)))
	_, err = chromedp.Run(tab, chromedp.Poll[bool](`!!document.querySelector(".page.dock-side")`, chromedp.WithPollingTimeout(pageWait)))
	must(t, err)
	filesText(t, tab, "#dock-files table.sessions th")
	got, err := chromedp.Run(tab, chromedp.Evaluate[map[string]any](`(() => {
		const d = document.querySelector("#dock-files");
		return {dock: d.getBoundingClientRect().width, sessions: document.querySelectorAll("#dock-files table.sessions").length,
			heads: [...document.querySelectorAll("#dock-files table.sessions th")].map((h) => h.textContent).join("|")};
	})()`))
	must(t, err)
	if w, _ := got["dock"].(float64); w < 300 || w > 700 {
		t.Fatalf("the dock beside is %v px wide: the test tests nothing", w)
	}
	if !strings.Contains(got["heads"].(string), "HTTP status") || !strings.Contains(got["heads"].(string), "server") {
		t.Fatalf("the sessions tables' headers read %q, want HTTP status and server among them", got["heads"])
	}
	// The clients' names leave out the user and the address they all
	// share; the tab says them once.
	shared, err := chromedp.Run(tab, chromedp.Evaluate[string](`(document.querySelector("#dock-files #files-audit-shared") || {}).textContent || ""`))
	must(t, err)
	if !strings.Contains(shared, "user admin from 127.0.0.1") {
		t.Errorf("the Files tab says of what the audit logs' clients share: %q", shared)
	}
	// The panel lays out again as the dock settles beside the timeline:
	// once it has, no word is split.
	split := splitWords(`#dock-files h2, #dock-files table.sessions th, #dock-files table.sessions td`)
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](split+".length === 0", chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		words, err := chromedp.Run(tab, chromedp.Evaluate[[]string](split))
		must(t, err)
		t.Errorf("beside the timeline, the Files tab wraps %d words across lines: %q", len(words), words[:min(len(words), 12)])
	}
	// What does not fit the dock scrolls inside it, not the page.
	noSidewaysScroll(t, tab)
	screenshot(t, tab, "files-beside")
}
