//go:build !wasm

package e2e

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// tabsState is the dock's tabs as assistive technology reads them: each
// tab's id, aria-selected and tabindex, the panel it controls and whether
// that panel is shown and labelled by it; and the element focused.
const tabsState = `(() => {
	const list = document.querySelector("#dock [role=tablist]");
	const tabs = [...list.querySelectorAll("[role=tab]")].map(t => {
		const p = document.getElementById(t.getAttribute("aria-controls"));
		return [t.id, t.getAttribute("aria-selected"), t.getAttribute("tabindex"),
			p && p.getAttribute("role") === "tabpanel" && p.getAttribute("aria-labelledby") === t.id ? (p.hidden ? "hidden" : "shown") : "no panel"].join(" ");
	});
	return {tabs: tabs.join("\n"), focus: document.activeElement.id};
})()`

func TestBrowserDockTabs(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	s := startSite(t)
	tab := s.openSample(t, w4)
	ids := []string{"tab-event", "tab-range", "tab-findings", "tab-files", "tab-settings", "tab-reconnect"}
	// want is the state with the tab i selected and focused: only it in
	// the Tab order, only its panel shown.
	want := func(i int) string {
		var lines []string
		for k, id := range ids {
			if k == i {
				lines = append(lines, id+" true 0 shown")
			} else {
				lines = append(lines, id+" false -1 hidden")
			}
		}
		return strings.Join(lines, "\n")
	}
	check := func(after string, i int) {
		t.Helper()
		got, err := chromedp.Run(tab, chromedp.Poll[map[string]string](`(() => { const s = `+tabsState+`; return s.focus === "`+ids[i]+`" ? s : null; })()`,
			chromedp.WithPollingTimeout(pageWait)))
		if err != nil {
			now, _ := chromedp.Run(tab, chromedp.Evaluate[map[string]string](tabsState))
			t.Fatalf("after %s, %s does not have the focus: %v", after, ids[i], now)
		}
		if got["tabs"] != want(i) {
			t.Errorf("after %s the tabs read\n%s\nwant\n%s", after, got["tabs"], want(i))
		}
	}
	// The user tabs into the tab list: it lands on the selected tab.
	must(t, chromedp.Do(tab, chromedp.Focus(chromedp.CSS("#dock-side")), chromedp.KeyEvent(kb.Tab+"", chromedp.KeyModifiers(8))))
	check("shift-tab from the dock's side button", 0)
	for _, step := range []struct {
		key, name string
		to        int
	}{
		{kb.ArrowRight, "Right", 1},
		{kb.ArrowRight, "Right", 2},
		{kb.End, "End", 5},
		{kb.ArrowRight, "Right at the last tab", 0},
		{kb.ArrowLeft, "Left at the first tab", 5},
		{kb.Home, "Home", 0},
		{kb.ArrowLeft, "Left", 5},
		{kb.ArrowLeft, "Left", 4},
	} {
		must(t, chromedp.Do(tab, chromedp.KeyEvent(step.key)))
		check(step.name, step.to)
	}
	// Tab leaves the list for the panel shown, not for the next tab.
	must(t, chromedp.Do(tab, chromedp.KeyEvent(kb.Tab)))
	if focus, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.activeElement.id || document.activeElement.closest("[role=tabpanel]")?.id || document.activeElement.tagName`)); focus == "tab-settings" || strings.HasPrefix(focus, "tab-") {
		t.Errorf("Tab from a tab went to %s, another tab", focus)
	}
}

// At 1280x720 the whole workspace fits the window: the dock is on screen
// under the timeline, the page does not scroll, and each tab's content,
// however long, scrolls inside the dock to its last line.
func TestBrowserDockFits(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	s := startSite(t)
	for _, sc := range []struct {
		name          string
		width, height int64
	}{{"1280x720", 1280, 720}, {"1440x900", 1440, 900}} {
		t.Run(sc.name, func(t *testing.T) {
			tab := s.newTab(t)
			must(t, chromedp.Do(tab, chromedp.EmulateViewport(sc.width, sc.height)))
			navigate(t, tab, s.url+"/?sample="+w4)
			checkShown(t, tab, w4, "samples/"+w4)
			fits, err := chromedp.Run(tab, chromedp.Evaluate[string](`(() => {
				const d = document.querySelector("#dock").getBoundingClientRect();
				const stage = document.querySelector(".tl-stage").getBoundingClientRect();
				if (document.documentElement.scrollHeight > innerHeight + 1) return "the page scrolls: " + document.documentElement.scrollHeight + " px in a window of " + innerHeight;
				if (d.bottom > innerHeight + 1 || d.height < 100) return "the dock spans " + d.top + ".." + d.bottom + " in a window of " + innerHeight;
				if (stage.height < 140) return "the timeline is " + stage.height + " px high";
				return "";
			})()`))
			must(t, err)
			if fits != "" {
				t.Errorf("at %s: %s", sc.name, fits)
			}
			screenshot(t, tab, "dock-fits-"+sc.name)
			for _, id := range []string{"findings", "files", "settings"} {
				must(t, chromedp.Do(tab, chromedp.Click(chromedp.ID("tab-"+id))))
				must(t, chromedp.Do(tab, chromedp.WaitVisible(chromedp.ID("dock-"+id))))
				// The panel's last element, once its box is scrolled to
				// the end, lies inside the dock's visible body. A panel
				// the engine answers for shows once its answer comes.
				reach, err := chromedp.Run(tab, chromedp.Poll[string](fmt.Sprintf(`(() => {
					const body = document.querySelector("#dock .dock-body"), panel = document.querySelector("#dock-%s");
					const all = panel.querySelectorAll("*");
					let last = null;
					for (const e of all) if (e.checkVisibility() && e.getBoundingClientRect().height > 0) last = e;
					if (!last) return null;
					body.scrollTop = body.scrollHeight;
					const b = body.getBoundingClientRect(), r = last.getBoundingClientRect();
					return r.bottom <= b.bottom + 1 && r.top >= b.top - r.height ? "fits" : "its last line ends at " + r.bottom + ", the dock's body at " + b.bottom;
				})()`, id), chromedp.WithPollingTimeout(pageWait)))
				if err != nil {
					reach = "the panel shows nothing"
				}
				if reach != "fits" {
					t.Errorf("%s tab at %s: %s", id, sc.name, reach)
				}
			}
			noSidewaysScroll(t, tab)
		})
	}
}
