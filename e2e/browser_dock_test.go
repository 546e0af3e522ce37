//go:build !wasm

package e2e

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// The dock renders only the panel of the tab shown: what a test reads of
// another panel it reads as a user does, with that tab opened first.

// tabText opens the dock's tab id ("files", "findings"…), as a user
// does, and waits for the text of sel in it. The page may still be
// reading what it will show: until sel shows, the tab is opened again,
// in the dock of the capture shown then.
func tabText(t testing.TB, tab context.Context, id, sel string) string {
	t.Helper()
	text, err := chromedp.Run(tab, chromedp.Poll[string](fmt.Sprintf(`(() => {
		const b = document.getElementById("tab-%s");
		if (b && b.getAttribute("aria-selected") !== "true") { b.click(); return ""; }
		const e = document.querySelector(%q);
		return e ? e.textContent : "";
	})()`, id, sel), chromedp.WithPollingTimeout(pageWait)))
	if err != nil {
		problem, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.innerText.slice(0, 2000)`))
		t.Fatalf("waiting for %s in the %s tab: %v\npage text:\n%s", sel, id, err, problem)
	}
	return text
}

// filesText opens the Files and sessions tab and waits for the text of
// sel in it.
func filesText(t testing.TB, tab context.Context, sel string) string {
	t.Helper()
	return tabText(t, tab, "files", sel)
}

// inFilesTab runs read with the Files and sessions tab open, once sel
// shows there, then shows again the tab that was shown, with its panel
// (and lowers the dock again if it was lowered), so a helper that reads
// the files read leaves the page as the test had it.
func inFilesTab(t testing.TB, tab context.Context, sel string, read func()) {
	t.Helper()
	_, err := chromedp.Run(tab, chromedp.Poll[bool](fmt.Sprintf(`(() => {
		const files = document.getElementById("tab-files");
		if (!files) return false;
		if (files.getAttribute("aria-selected") !== "true") {
			if (window.watchlensTabBefore === undefined) {
				window.watchlensTabBefore = document.querySelector('#dock [role=tab][aria-selected="true"]')?.id ?? "";
				window.watchlensLoweredBefore = !!document.querySelector("#dock.lowered");
			}
			files.click();
			return false;
		}
		const e = document.querySelector(%q);
		return !!e && e.textContent !== "";
	})()`, sel), chromedp.WithPollingTimeout(pageWait)))
	if err != nil {
		problem, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.innerText.slice(0, 2000)`))
		t.Fatalf("waiting for %s in the Files tab: %v\npage text:\n%s", sel, err, problem)
	}
	read()
	_, err = chromedp.Run(tab, chromedp.Poll[bool](`(() => {
		const before = window.watchlensTabBefore;
		if (!before || before === "tab-files") return true;
		const b = document.getElementById(before);
		if (!b) return true;
		if (b.getAttribute("aria-selected") !== "true") { b.click(); return false; }
		// go-app renders the tab's panel after it marks the tab selected.
		const panel = document.getElementById(b.getAttribute("aria-controls") ?? "");
		if (panel && (panel.hidden || panel.childElementCount === 0)) return false;
		const dock = document.getElementById("dock");
		if (window.watchlensLoweredBefore && !dock.classList.contains("lowered")) { document.getElementById("dock-raise").click(); return false; }
		return true;
	})()`, chromedp.WithPollingTimeout(pageWait)))
	if err != nil {
		t.Fatalf("showing again the tab shown before the Files tab was read, with its panel: %v", err)
	}
	_, err = chromedp.Run(tab, chromedp.Evaluate[bool](`delete window.watchlensTabBefore && delete window.watchlensLoweredBefore`))
	must(t, err)
}

// fileOpen is a JS expression: whether the page has the file called name
// open, as the header's list of the files open says. Unlike the Files
// tab's sections, it is there whichever tab is shown, in this build and
// in the builds before it, which the benchmarks compare.
func fileOpen(name string) string {
	return fmt.Sprintf(`(document.querySelector("#open-files")?.title ?? "").split("\n").includes(%q)`, name)
}

// waitFileOpen waits for the page to have the file called name open.
func waitFileOpen(t testing.TB, tab context.Context, name string) {
	t.Helper()
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](fileOpen(name), chromedp.WithPollingTimeout(pageWait))); err != nil {
		problem, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.innerText.slice(0, 2000)`))
		t.Fatalf("waiting for %s to be open: %v\npage text:\n%s", name, err, problem)
	}
}
