//go:build !wasm

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserRehearsalKeepsTheView: a page left alone after its visit
// shows its sample a second time as its warm-up ends (app/warmup.go's
// rehearseShow), and looks as it did: the link's selection is kept, the
// address is the link's, the verdict and the event's detail read the
// same.
func TestBrowserRehearsalKeepsTheView(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	const sample = "w1-broad-configmaps-bookmarks.http"
	i, rv, _ := modifiedWithPrevious(t, "samples/"+sample)
	tab := s.newTab(t)
	navigate(t, tab, fmt.Sprintf("%s/?sample=%s&sel=%d", s.url, sample, i))
	waitText(t, tab, "#detail-json")
	before := pageLooks(t, tab)
	waitWarm(t, tab)
	if n := shownReads(t, tab, sample); n != 2 {
		t.Fatalf("the page left alone showed %s %d times by the end of its warm-up, want 2 (the visit's and the rehearsal's)", sample, n)
	}
	after := pageLooks(t, tab)
	if after != before {
		t.Errorf("the rehearsal changed the page:\nbefore: %+v\nafter:  %+v", before, after)
	}
	if !strings.Contains(after.Detail, fmt.Sprintf(`"resourceVersion": %q`, rv)) {
		t.Errorf("the detail pane of the selected event %d does not show its resourceVersion %s after the rehearsal:\n%.400s", i, rv, after.Detail)
	}
}

// TestBrowserRehearsalLeavesATouchedPageAlone: a user who pressed a key
// on the page before its warm-up ended may be in the middle of
// something: the sample is not shown again.
func TestBrowserRehearsalLeavesATouchedPageAlone(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	const sample = "client-go-golden-watch.http"
	tab := s.newTab(t)
	navigate(t, tab, s.url+"/?sample="+sample)
	waitFileOpen(t, tab, sample)
	must(t, chromedp.Do(tab, chromedp.KeyEvent(kb.Shift)))
	waitWarm(t, tab)
	if n := shownReads(t, tab, sample); n != 1 {
		t.Errorf("the page touched before its warm-up ended showed %s %d times, want once", sample, n)
	}
}

// TestBrowserRehearsalShowsAFleetOutOfSight: the warm-up mounts the
// fleet view of its incident where the page never shows it
// (app/warmup.go's rehearseFleet), lets it draw its first frame, and
// takes it away again before the page is warm: no element of the page
// shown is a fleet's, at any moment, and the page looks as it did.
func TestBrowserRehearsalShowsAFleetOutOfSight(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	const sample = "client-go-golden-watch.http"
	tab := s.newTab(t)
	// From the document's start, each change of the page is watched: what
	// the rehearsal's slot held, and whether a fleet ever showed.
	_, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
		const seen = window.watchlensRehearsalSeen = {drawn: false, shown: false, fleetID: false};
		new MutationObserver(records => {
			// A frame drawn and the slot taken away in one task leave
			// only the records to show the frame.
			for (const r of records) {
				if (r.type === "attributes" && r.target.localName === "canvas" && r.target.dataset.plotW && r.target.closest(".rehearsal")) seen.drawn = true;
			}
			const cv = document.querySelector(".rehearsal canvas");
			if (cv && cv.dataset.plotW) seen.drawn = true;
			if (cv && cv.checkVisibility()) seen.shown = true;
			if (document.querySelector("#fleet, #fleet-summary, #show-fleet")) seen.fleetID = true;
		}).observe(document, {subtree: true, childList: true, attributes: true});
	})()`})
	must(t, err)
	navigate(t, tab, s.url+"/?sample="+sample)
	waitFileOpen(t, tab, sample)
	before := pageLooks(t, tab)
	waitWarm(t, tab)
	type seen struct {
		Drawn, Shown, FleetID, Left bool
		Outcome                     string
	}
	got, err := chromedp.Run(tab, chromedp.Evaluate[seen](`({...window.watchlensRehearsalSeen, left: !!document.querySelector(".rehearsal"), outcome: String(window.watchlensRehearsal)})`))
	must(t, err)
	if !got.Drawn || got.Outcome != "drawn" {
		t.Errorf("the warm-up's fleet view did not draw a frame in the rehearsal's slot (seen drawing: %v; the rehearsal: %s)", got.Drawn, got.Outcome)
	}
	if got.Shown || got.FleetID {
		t.Errorf("the rehearsal's fleet could be seen (%v), or the page had a fleet's element (%v)", got.Shown, got.FleetID)
	}
	if got.Left {
		t.Error("the rehearsal's slot is still in the page once it is warm")
	}
	if after := pageLooks(t, tab); after != before {
		t.Errorf("the rehearsal changed the page:\nbefore: %+v\nafter:  %+v", before, after)
	}
}

// pageView is what a user sees of the page that a rehearsal could
// change.
type pageView struct {
	Search, Verdict, Detail string
}

func pageLooks(t testing.TB, tab context.Context) pageView {
	t.Helper()
	v, err := chromedp.Run(tab, chromedp.Evaluate[pageView](`({
		Search: location.search,
		Verdict: document.querySelector("#verdict")?.innerText ?? "",
		Detail: document.querySelector("#detail-json")?.innerText ?? "",
	})`))
	must(t, err)
	return v
}

// shownReads counts the page's reads of name that ended shown
// (app/load/readsignal.go).
func shownReads(t testing.TB, tab context.Context, name string) int {
	t.Helper()
	n, err := chromedp.Run(tab, chromedp.Evaluate[int](fmt.Sprintf(
		`(window.watchlensReads ?? []).filter(r => r.name === %q && r.outcome === "shown").length`, name)))
	must(t, err)
	return n
}
