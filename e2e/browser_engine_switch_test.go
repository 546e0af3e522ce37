//go:build !wasm

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// countEngineWorkers has the page read in the engine's worker (as it
// does unless window.watchlensEngineWorker is false), and counts, from
// before the page's scripts run, the engine workers it starts
// (window.engineStarted) and ends (window.engineEnded).
const countEngineWorkers = `(() => {
	window.watchlensEngineWorker = true;
	window.engineStarted = 0;
	window.engineEnded = 0;
	const PageWorker = window.Worker;
	window.Worker = class extends PageWorker {
		constructor(url, opts) {
			super(url, opts);
			if (String(url).includes("engine-worker")) {
				window.engineStarted++;
				const end = this.terminate.bind(this);
				this.terminate = () => { window.engineEnded++; end(); };
			}
		}
	};
})()`

// TestBrowserEngineSwitch: the page reads its captures in the engine's
// Web Worker, and shows what the in-page engine did (the Files tab's
// counts against the parser's, natively); a capture that replaces
// another ends the other's worker, whose memory goes with it (#26). A
// site without the worker's wasm reads in the page, as before the
// engine had a worker.
func TestBrowserEngineSwitch(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	t.Run("the page reads in the engine's worker", func(t *testing.T) {
		tab := s.newTab(t)
		_, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: countEngineWorkers})
		must(t, err)
		navigate(t, tab, s.url+"/?sample=client-go-golden-watch.http")
		checkShown(t, tab, "client-go-golden-watch.http", "samples/client-go-golden-watch.http")
		if where := engineWhere(t, tab); where != "worker" {
			t.Fatalf("the capture is held in the %q, want the worker", where)
		}
		upload(t, tab, "samples/w4-then-resume.http")
		checkShown(t, tab, "w4-then-resume.http", "samples/w4-then-resume.http")
		if where := engineWhere(t, tab); where != "worker" {
			t.Errorf("the second capture is held in the %q, want the worker", where)
		}
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`window.engineEnded >= 1`, chromedp.WithPollingTimeout(pageWait))); err != nil {
			n, _ := chromedp.Run(tab, chromedp.Evaluate[[]int](`[window.engineStarted, window.engineEnded]`))
			t.Errorf("the first capture's worker was not ended once the second showed (started, ended: %v): %v", n, err)
		}
	})
	t.Run("without the worker's wasm the page reads in its own", func(t *testing.T) {
		// A site of its own, built without the worker's wasm: the first's
		// offline cache holds the wasm, and the built site is every test's.
		s := startSite(t)
		s.rebuildRoot(t, func(web string) { must(t, os.Remove(filepath.Join(web, "engine-worker.wasm"))) })
		tab := s.newTab(t)
		_, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: countEngineWorkers})
		must(t, err)
		navigate(t, tab, s.url+"/?sample=client-go-golden-watch.http")
		checkShown(t, tab, "client-go-golden-watch.http", "samples/client-go-golden-watch.http")
		if where := engineWhere(t, tab); where != "page" {
			t.Errorf("the capture is held in the %q, want the page", where)
		}
		summaryOf(t, tab)
	})
}

// engineWhere is where the page holds the capture shown (its data-engine).
func engineWhere(t testing.TB, tab context.Context) string {
	t.Helper()
	where, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector(".page").dataset.engine`))
	must(t, err)
	return where
}
