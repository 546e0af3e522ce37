//go:build !wasm

package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserFleetLinkKeepsTheView: a link copied from the fleet view
// says so (?view=fleet), and reopens on the fleet once its files are
// dropped, not on the timeline, where a few files open.
func TestBrowserFleetLinkKeepsTheView(t *testing.T) {
	t.Parallel()
	files := fleetCaptures(t)[:3]
	s := startSite(t)
	tab := s.openSample(t, "w3-then-resume.ts.http")
	uploadRead(t, tab, files...)
	waitText(t, tab, "#show-fleet")
	if pressed, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("#show-fleet").getAttribute("aria-pressed")`)); err != nil || pressed != "false" {
		t.Fatalf("three captures open on the fleet (%v, %v): the link's view is not exercised", pressed, err)
	}
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#show-fleet"))))
	link, err := chromedp.Run(tab, chromedp.Poll[string](`new URLSearchParams(location.search).get("view") === "fleet" ? location.href : null`,
		chromedp.WithPollingTimeout(pageWait)))
	if err != nil {
		u, _ := chromedp.Run(tab, chromedp.Evaluate[string](`location.search`))
		t.Fatalf("the fleet view shown, the URL is %s: it does not say the view (%v)", u, err)
	}
	// Back on the timeline, the URL says so too.
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#show-timeline"))))
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`!new URLSearchParams(location.search).has("view")`, chromedp.WithPollingTimeout(pageWait))); err != nil {
		t.Errorf("the timeline shown again, the URL still says the fleet view: %v", err)
	}

	tab = s.newTab(t)
	navigate(t, tab, link)
	waitText(t, tab, "#restore")
	uploadRead(t, tab, files...)
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.querySelector("#show-fleet")?.getAttribute("aria-pressed") === "true" && !!document.querySelector("#fleet canvas")?.dataset.plotX`,
		chromedp.WithPollingTimeout(pageWait))); err != nil {
		t.Errorf("the link %s reopens on the timeline, not the fleet: %v", link, err)
	}
	screenshot(t, tab, "fleet-link-view")
}
