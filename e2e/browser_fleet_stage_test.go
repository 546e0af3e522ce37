//go:build !wasm

package e2e

import (
	"context"
	"testing"

	"watchlens/internal/testsample"

	"github.com/chromedp/chromedp"
)

// fleetFit is how the fleet's canvas sits in its stage, and where what
// follows the stage begins, in CSS px.
type fleetFit struct {
	Room                               string // the canvas's data-room
	StageBottom, CanvasBottom, NextTop float64
	StageMinHeight                     string // the stage's style's
}

// readFleetFit waits until the fleet shows clients rows, drawn for the
// room its stage gives it now, and says how the canvas sits there.
func readFleetFit(t testing.TB, tab context.Context, clients string) fleetFit {
	t.Helper()
	got, err := chromedp.Run(tab, chromedp.Poll[fleetFit](`(() => {
		const c = document.querySelector("#fleet canvas"), sum = document.querySelector("#fleet-summary");
		if (!c || !c.dataset.plotX || !sum || sum.dataset.clients !== `+"`"+clients+"`"+`) return null;
		const s = c.parentElement, room = s.clientWidth + "x" + s.clientHeight;
		if (c.dataset.room !== room) return null;
		return {Room: c.dataset.room, StageBottom: s.getBoundingClientRect().bottom, CanvasBottom: c.getBoundingClientRect().bottom,
			NextTop: s.nextElementSibling.getBoundingClientRect().top, StageMinHeight: s.style.minHeight};
	})()`, chromedp.WithPollingTimeout(loadWait(tab))))
	if err != nil {
		t.Fatalf("the fleet of %s clients was not drawn for its stage's room: %v (%s)", clients, err, pageState(tab))
	}
	return got
}

// TestBrowserFleetStageFitsTheNextFleet: the fleet view shown, another
// fleet opened in its place keeps its stage as high as its chart, and so
// after the verdict, unfolded, takes room from it: the rows are never
// drawn over the range's hint and the summary under the stage. The view
// stays across captures while its stage is made anew, with the
// stylesheet's least height, and a view that remembered the height it
// had given the last stage left the new one at that.
func TestBrowserFleetStageFitsTheNextFleet(t *testing.T) {
	t.Parallel()
	fleet := testsample.Recording(t, "samples-fleet")
	outage := testsample.Recording(t, "samples-outage")
	s := startSite(t)
	tab := s.openSample(t, "w3-then-resume.ts.http")
	must(t, chromedp.Do(tab, chromedp.EmulateViewport(1440, 757)))
	drop(t, tab, fleet)
	waitTextWithin(t, tab, "#show-fleet", loadWait(tab))
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.querySelector("#timeline-summary")?.dataset.files.split("\n").length > 40`,
		chromedp.WithPollingTimeout(loadWait(tab)))); err != nil {
		t.Fatalf("samples-fleet did not open: %v (%s)", err, pageState(tab))
	}
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#show-fleet"))))
	check := func(when string, f fleetFit) {
		t.Helper()
		if f.CanvasBottom > f.StageBottom+1 || f.CanvasBottom > f.NextTop+1 {
			t.Errorf("%s: the fleet's chart ends at %.0f px, its stage (%s, least height %q) at %.0f px and what follows it begins at %.0f px",
				when, f.CanvasBottom, f.Room, f.StageMinHeight, f.StageBottom, f.NextTop)
		}
	}
	check("samples-fleet", readFleetFit(t, tab, "44"))
	drop(t, tab, outage)
	check("samples-outage in its place", readFleetFit(t, tab, "99"))
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#verdict-fold"))))
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.querySelector("#verdict-fold").getAttribute("aria-expanded") === "true"`, chromedp.WithPollingTimeout(pageWait))); err != nil {
		t.Fatalf("the verdict did not unfold: %v", err)
	}
	f := readFleetFit(t, tab, "99")
	check("the verdict unfolded", f)
	screenshot(t, tab, "fleet-stage-next-fleet")
}
