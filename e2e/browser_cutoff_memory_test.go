//go:build !wasm

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"watchlens/app"
)

// TestBrowserCutOffMemoryGivenBack (#26): a load the page cut off at its
// event limit is shown with what it read, and the memory it grew is
// given back once another drop replaces it. In a Chromium of its own,
// with the limit lowered to 8 million events, a gzip of 10 million
// (gzipBomb) is read to the limit and shown with the page's message; the
// renderers' resident set grows with it, and at least two thirds of that
// growth is gone once a small capture has replaced it.
//
// Each figure is read with the page as it is between loads: the capture
// shown, held by its engine worker, and the next load's spare worker
// started and warmed (spareWarmed), so that the figures differ only by
// the capture's worker.
func TestBrowserCutOffMemoryGivenBack(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	bomb := gzipBomb(t, 160)

	// Reading 8 million events takes a minute and more beside the other
	// tests.
	tab := newTabWithin(t, newBrowser(t), 6*time.Minute)
	lowerLimits(t, tab, `{maxEvents: 8000000}`)
	noteSpareWarmups(t, tab)
	navigate(t, tab, s.url+"/?sample=client-go-golden-watch.http")
	checkShown(t, tab, "client-go-golden-watch.http", "samples/client-go-golden-watch.http")
	root := chromedp.FromContext(tab).Browser.Process().Pid
	spareWarmed(t, tab, 2) // the sample's and the spare
	before := rendererRSS(t, root)

	uploadRead(t, tab, bomb)
	sec := `section.result[data-file="bomb.log.gz"]`
	if msg := filesText(t, tab, sec+" .problem"); !strings.Contains(msg, "the page keeps at most 8000000 events") {
		t.Fatalf("the page does not say it cut the load off: %q", msg)
	}
	spareWarmed(t, tab, 3)
	loaded := grows(t, root, before, 100<<20)
	grown := loaded - before
	if grown < 100<<20 {
		t.Fatalf("the load proves little: it grew the renderers from %.0f MB by %.0f MB", float64(before)/1e6, float64(grown)/1e6)
	}

	uploadRead(t, tab, "samples/w3-then-resume.http")
	checkShown(t, tab, "w3-then-resume.http", "samples/w3-then-resume.http")
	spareWarmed(t, tab, 4)
	after := fallsBack(t, root, before, grown, loaded)
	t.Logf("the renderers' resident set: %.0f MB before, %.0f MB with the load cut off at 8 million events, %.0f MB once another drop replaced it: %.0f%% of the %.0f MB grown given back",
		float64(before)/1e6, float64(loaded)/1e6, float64(after)/1e6, 100*float64(loaded-after)/float64(grown), float64(grown)/1e6)
	if after-before >= grown/3 {
		t.Errorf("the replaced load gave back %.0f of the %.0f MB it grew", float64(loaded-after)/1e6, float64(grown)/1e6)
	}
}

// TestBrowserOutOfMemory (#26): a load cut off because its engine
// worker ran out of memory says so, with what to do instead, gives that
// memory back, and the next drop is read; the notice's reload button
// opens the page afresh. In a Chromium whose wasm memories stop at 256 MiB, a
// gzip of 26 million events fills the worker's; the renderers' resident
// set, sampled while it grows, falls back by at least two thirds of its
// growth once the page says it ran out of memory (the browser frees an
// ended worker's memory seconds after), and a capture dropped next is
// shown.
func TestBrowserOutOfMemory(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	bomb := gzipBomb(t, 400)

	// Filling the memory takes several times as long beside the other
	// tests as alone, and on a loaded machine more than a tab's usual
	// limit (tabLimit).
	tab := newTabWithin(t, newBrowser(t, chromedp.Flag("js-flags", "--wasm-max-mem-pages=4096")), 6*time.Minute)
	noteSpareWarmups(t, tab)
	navigate(t, tab, s.url+"/?sample=client-go-golden-watch.http")
	checkShown(t, tab, "client-go-golden-watch.http", "samples/client-go-golden-watch.http")
	root := chromedp.FromContext(tab).Browser.Process().Pid
	spareWarmed(t, tab, 2)
	before := rendererRSS(t, root)

	upload(t, tab, bomb)
	peak := before
	for deadline := time.Now().Add(loadWait(tab)); ; time.Sleep(100 * time.Millisecond) {
		peak = max(peak, rendererRSS(t, root))
		said, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("#crash")?.textContent ?? ""`))
		must(t, err)
		if said != "" {
			if strings.Contains(said, "Nothing else works") {
				t.Fatalf("the page says %q", said)
			}
			for _, want := range []string{"ran out of memory", "watchlens analyze", "Reload the page"} {
				if !strings.Contains(said, want) {
					t.Errorf("the page says %q, which does not say %q", said, want)
				}
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page did not say it ran out of memory (%s)", pageState(tab))
		}
	}
	// The worker's Go heap grows by doubling: the request that fails may
	// come while little of the memory is touched, and then there is
	// little to give back. Most loads fill hundreds of MB first.
	if grown := peak - before; grown < 100<<20 {
		t.Logf("the worker ran out of memory with the renderers grown by only %.0f MB from %.0f MB: nothing to give back", float64(grown)/1e6, float64(before)/1e6)
	} else {
		after := fallsBack(t, root, before, grown, peak)
		t.Logf("the renderers' resident set: %.0f MB before, %.0f MB at most while the worker filled its memory, %.0f MB once the page said so: %.0f%% of the %.0f MB grown given back",
			float64(before)/1e6, float64(peak)/1e6, float64(after)/1e6, 100*float64(peak-after)/float64(grown), float64(grown)/1e6)
		if after-before >= grown/3 {
			t.Errorf("the worker out of memory gave back %.0f of the %.0f MB its load grew", float64(peak-after)/1e6, float64(grown)/1e6)
		}
	}
	noProgress(t, tab)
	screenshot(t, tab, "out-of-memory")
	uploadRead(t, tab, "samples/w3-then-resume.http")
	checkShown(t, tab, "w3-then-resume.http", "samples/w3-then-resume.http")
	_, err := chromedp.RunResponse(tab, chromedp.Click(chromedp.ID("crash-reload")))
	must(t, err)
	checkShown(t, tab, app.DefaultSample, "samples/"+app.DefaultSample)
}

// fallsBack waits, as long as a wait on the page, until the renderers'
// resident set under root is back within a third of grown above before,
// and returns it (from, when it never came down).
func fallsBack(t testing.TB, root int, before, grown, from int64) int64 {
	t.Helper()
	after := from
	for deadline := time.Now().Add(pageWait); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		if after = rendererRSS(t, root); after-before < grown/3 {
			break
		}
	}
	return after
}

// grows waits, up to pageWait, for the renderers' resident set to reach
// least above before, and answers the most it reached: the engine's
// worker goes on building the timeline of a load the page already shows
// cut off, and with the other tests running beside it the pages it
// touches may show later.
func grows(t testing.TB, root int, before, least int64) int64 {
	t.Helper()
	most := rendererRSS(t, root)
	for deadline := time.Now().Add(pageWait); most-before < least && time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		most = max(most, rendererRSS(t, root))
	}
	return most
}

// noteSpareWarmups has the page opened next in tab note each engine
// worker it starts (window.e2eEngineWorkers) and whether that worker has
// answered its warm-up, as a spare does (client.Spare).
func noteSpareWarmups(t testing.TB, tab context.Context) {
	t.Helper()
	_, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
		window.e2eEngineWorkers = [];
		const PageWorker = window.Worker;
		window.Worker = class extends PageWorker {
			constructor(url, opts) {
				super(url, opts);
				if (!String(url).includes("engine-worker")) return;
				const noted = {warmed: false};
				window.e2eEngineWorkers.push(noted);
				this.addEventListener("message", (e) => { if (e.data?.q === "warm" && !e.data.progress) noted.warmed = true; });
			}
		};
	})()`})
	must(t, err)
}

// spareWarmed waits until the page has started n engine workers and the
// last of them, the next load's spare, has answered its warm-up.
func spareWarmed(t testing.TB, tab context.Context, n int) {
	t.Helper()
	_, err := chromedp.Run(tab, chromedp.Poll[bool](fmt.Sprintf(`window.e2eEngineWorkers.length >= %d && window.e2eEngineWorkers.at(-1).warmed`, n),
		chromedp.WithPollingTimeout(pageWait)))
	if err != nil {
		got, _ := chromedp.Run(tab, chromedp.Evaluate[string](`JSON.stringify(window.e2eEngineWorkers)`))
		t.Fatalf("the page's engine workers %s: want %d, the last warmed: %v (%s)", got, n, err, pageState(tab))
	}
}
