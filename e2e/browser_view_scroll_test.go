//go:build !wasm

package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestBrowserViewsKeepTheirScroll: the timeline and the fleet view share
// the timeline's panel, which scrolls. testdata/fleet's 44 clients at
// 1280x720, the fleet scrolled down to its summary with the wheel, as a
// user reads it: the timeline then opens at its top, its legend and its
// first tracks in view, and the fleet, shown again, is as the user left
// it. The timeline opened with the fleet's scroll, its first tracks
// under the axis and its legend out of sight.
func TestBrowserViewsKeepTheirScroll(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	tab := openFleet(t, s, fleetCaptures(t))
	must(t, chromedp.Do(tab, chromedp.EmulateViewport(1280, 720)))
	readFleetLayout(t, tab)
	const scrollTop = `document.querySelector("#timeline-panel").scrollTop`
	// The wheel over the fleet's key, above its canvas, scrolls the panel.
	at, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](`(() => {
		const p = document.querySelector("#timeline-panel"), r = document.querySelector("#fleet .tl-legend").getBoundingClientRect();
		return [r.left + 20, r.top + r.height / 2, p.scrollHeight - p.clientHeight];
	})()`))
	must(t, err)
	if at[2] < 100 {
		t.Fatalf("the fleet's panel scrolls %v px at 1280x720: the test tests nothing", at[2])
	}
	_, err = chromedp.Call(tab, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseWheel,
		X: at[0], Y: at[1], DeltaX: 0.001, DeltaY: 3000})
	must(t, err)
	fleetTop, err := chromedp.Run(tab, chromedp.Poll[float64](`(() => { const y = `+scrollTop+`; return y > 50 ? y : 0; })()`, chromedp.WithPollingTimeout(pageWait)))
	if err != nil {
		t.Fatalf("the wheel over the fleet's key did not scroll its panel: %v", err)
	}

	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#show-timeline"))))
	_, err = chromedp.Run(tab, chromedp.Poll[bool](`!!document.querySelector("#timeline canvas")?.dataset.plotX`, chromedp.WithPollingTimeout(pageWait)))
	must(t, err)
	got, err := chromedp.Run(tab, chromedp.Evaluate[map[string]float64](`(() => {
		const p = document.querySelector("#timeline-panel");
		return {scroll: p.scrollTop, panel: p.getBoundingClientRect().top, legend: document.querySelector("#timeline-panel .tl-legend").getBoundingClientRect().top};
	})()`))
	must(t, err)
	if got["scroll"] != 0 || got["legend"] < got["panel"] {
		t.Errorf("after the fleet scrolled %v px, the timeline opens scrolled %v px, its legend at y %v, the panel's top at %v", fleetTop, got["scroll"], got["legend"], got["panel"])
	}
	screenshot(t, tab, "timeline-after-fleet-scrolled")

	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#show-fleet"))))
	readFleetLayout(t, tab)
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](fmt.Sprintf(`Math.abs(%s - %v) <= 1`, scrollTop, fleetTop), chromedp.WithPollingTimeout(pageWait))); err != nil {
		back, _ := chromedp.Run(tab, chromedp.Evaluate[float64](scrollTop))
		t.Errorf("the fleet, shown again, is scrolled %v px, where the user left it at %v", back, fleetTop)
	}
}
