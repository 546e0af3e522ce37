//go:build !wasm

package e2e

import (
	"fmt"
	"os"
	"testing"

	"github.com/chromedp/chromedp"
)

// The filters sit in one compact row over the timeline at 1280x720, the
// rarer ones in a menu; on a phone the row wraps. Every filter stays
// reachable by a click, inside the window, on both.
func TestBrowserFilterRow(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	s := startSite(t)
	// The row's controls, then the menu's, which the menu, open, covers.
	row := []string{"#filter-added", "#filter-modified", "#filter-deleted", "#filter-observed", "#filter-listed", "#filter-bookmark", "#filter-error",
		"#search", "#axis-switch", "#filter-more summary"}
	menu := []string{"#filter-kind", "#filter-ns", "#filter-label", "#filter-inview"}
	for _, sc := range []struct {
		name          string
		width, height int64
		oneLine       bool
	}{{"1280x720", 1280, 720, true}, {"390x844", 390, 844, false}} {
		// One page a screen in both themes: where a control lies and
		// what covers it are the themes', which only the screenshots
		// show apart.
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			tab := s.newTab(t)
			must(t, chromedp.Do(tab, chromedp.EmulateViewport(sc.width, sc.height)))
			navigate(t, tab, s.url+"/?sample="+w4)
			checkShown(t, tab, w4, "samples/"+w4)
			if !sc.oneLine {
				// A phone folds the filters behind the header's
				// Filters button.
				must(t, chromedp.Do(tab, chromedp.Click(chromedp.ID("filters-toggle"))))
				if _, err := chromedp.Run(tab, chromedp.Poll[bool](`!!document.querySelector("#filters")?.checkVisibility()`, chromedp.WithPollingTimeout(pageWait))); err != nil {
					t.Fatalf("the Filters button did not show the filters: %v", err)
				}
			}
			rows, err := chromedp.Run(tab, chromedp.Evaluate[float64](`(() => {
				const f = document.querySelector("#filters"), r = f.getBoundingClientRect();
				return r.height / parseFloat(getComputedStyle(document.querySelector("#axis-switch")).height);
			})()`))
			must(t, err)
			if sc.oneLine && rows > 1.5 {
				t.Errorf("the filter row is %.1f controls high at %s, want one line", rows, sc.name)
			}
			for k, sel := range append(row, menu...) {
				if k == len(row) {
					must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#filter-more summary"))))
					for _, theme := range []string{"light", "dark"} {
						switchTheme(t, tab, theme)
						screenshot(t, tab, "filters-"+sc.name+"-"+theme)
					}
				}
				// Where a click lands: on the control itself, inside
				// the window, once scrolled to.
				ok, err := chromedp.Run(tab, chromedp.Evaluate[string](fmt.Sprintf(`(() => {
					const e = document.querySelector(%q);
					e.scrollIntoView({block: "center", inline: "nearest"});
					const r = e.getBoundingClientRect();
					if (!e.checkVisibility() || r.width === 0) return "hidden";
					if (r.left < 0 || r.right > innerWidth + 1) return "outside the window, " + r.left + ".." + r.right;
					const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
					return at && (at === e || e.contains(at) || at.closest("label") === e.closest("label")) ? "" : "covered by " + (at ? at.outerHTML.slice(0, 80) : "nothing");
				})()`, sel)))
				must(t, err)
				if ok != "" {
					t.Errorf("%s at %s: %s", sel, sc.name, ok)
				}
			}
			noSidewaysScroll(t, tab)
		})
	}
}
