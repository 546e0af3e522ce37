//go:build !wasm

package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"watchlens/app"
)

// TestBrowserMenusClose: the header's menus close as menus do. A press
// on the timeline closes the open Export menu; opening Export closes
// Open; Escape closes More filters and gives the focus back to its
// button. Before, each stayed open until its own button was pressed
// again, and three could hang over the page at once.
func TestBrowserMenusClose(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	tab := s.openSample(t, app.DefaultSample)
	open := func() string {
		ids, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`[...document.querySelectorAll("details.menu[open]")].map(d => d.id)`))
		must(t, err)
		return strings.Join(ids, ",")
	}
	click := func(sel string) {
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)))
	}

	click("#exports summary")
	if got := open(); got != "exports" {
		t.Fatalf("Export clicked, the menus open are %q", got)
	}
	p, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector("#timeline .tl-stage").getBoundingClientRect(); return [r.left + r.width / 2, r.top + 20]; })()`))
	must(t, err)
	must(t, chromedp.Do(tab, chromedp.MouseClickXY(p[0], p[1])))
	if got := open(); got != "" {
		t.Errorf("a press on the timeline left %q open", got)
	}

	click("#open-menu summary")
	click("#exports summary")
	if got := open(); got != "exports" {
		t.Errorf("Open, then Export clicked: the menus open are %q", got)
	}

	click("#filter-more summary")
	if got := open(); got != "filter-more" {
		t.Errorf("More filters clicked: the menus open are %q", got)
	}
	must(t, chromedp.Do(tab, chromedp.Focus(chromedp.CSS("#filter-more select"), chromedp.NodeVisible), chromedp.KeyEvent(kb.Escape)))
	focus, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.activeElement.closest("details") ? document.activeElement.closest("details").id + " " + document.activeElement.tagName : document.activeElement.tagName`))
	must(t, err)
	if got := open(); got != "" || focus != "filter-more SUMMARY" {
		t.Errorf("Escape in More filters left %q open and the focus on %q", got, focus)
	}
}
