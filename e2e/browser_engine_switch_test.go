//go:build !wasm

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"watchlens/internal/synth"

	"github.com/chromedp/cdproto/input"
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

// TestBrowserEngineSpareAfterTheRead: the page starts the next load's
// spare engine worker a second after a read ends, unless another read
// has begun meanwhile, whose cores a spare's start and warm-up would
// take (a million events read while a spare warmed up beside them). A
// capture opened within that second after the one before showed is
// read by a worker of its own (the one before took the spare), and no
// other engine worker starts while it reads.
func TestBrowserEngineSpareAfterTheRead(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	// Read for longer than the page waits before it starts a spare,
	// with room to spare on a fast machine: 200 MB read in 0.75 s.
	big := filepath.Join(t.TempDir(), "configmaps-500MB.jsonl")
	must(t, os.WriteFile(big, synth.CaptureOf(500<<20, synth.ConfigMap), 0o644))
	tab := engineStartsTab(t, s)
	must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`window.watchlensLoadStamps = []`)))
	upload(t, tab, "samples/w4-then-resume.http")
	first := paintedAt(t, tab, 1)
	second, err := chromedp.Run(tab, chromedp.Evaluate[float64](`performance.now()`))
	must(t, err)
	upload(t, tab, big)
	shown := paintedAt(t, tab, 2)
	waitFileOpen(t, tab, filepath.Base(big))
	// The page starts a spare a second (spareWorkerAfter) after a
	// capture shows: the second read must have begun before, and gone on
	// past it, for this to tell anything.
	if second-first >= 1000 || shown-first <= 1000 {
		t.Fatalf("the second capture was read from %.0f to %.0f ms after the first showed: not across the second after it", second-first, shown-first)
	}
	starts, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](fmt.Sprintf(`window.engineStarts.filter(at => at >= %f && at <= %f).map(at => Math.round(at - %f))`, second, shown, first)))
	must(t, err)
	if len(starts) > 1 {
		t.Errorf("%d engine workers started while the second capture was read (at %v ms after the first showed), want its own alone", len(starts), starts)
	}
}

// TestBrowserEngineSpareWhileStill: a user who moves over the timeline
// right after a capture shows asks its worker a question at each move,
// and the page starts no spare engine worker meanwhile (its compiling
// and warm-up would take the core the answers need); once the user is
// still, the spare starts.
func TestBrowserEngineSpareWhileStill(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	// The test's own moves can pause for a second under load (each is a
	// round trip to the browser); the page is then right to start the
	// spare, and the run tells nothing: it runs again.
	for attempt := 1; ; attempt++ {
		paused := spareWhileStill(t, s)
		if paused == 0 {
			return
		}
		if attempt == 3 {
			t.Fatalf("the pointer's moves paused for %.0f ms in each of %d runs: the page could not be kept moving", paused, attempt)
		}
		t.Logf("run %d: the pointer's moves paused for %.0f ms before a spare started; running again", attempt, paused)
	}
}

// spareWhileStill is one run of TestBrowserEngineSpareWhileStill. It
// returns how long the pointer's moves had paused before a spare that
// started while they went on, or 0 when none did.
func spareWhileStill(t *testing.T, s *servedSite) float64 {
	t.Helper()
	tab := engineStartsTab(t, s)
	must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`window.watchlensLoadStamps = []`)))
	upload(t, tab, "samples/w4-then-resume.http")
	first := paintedAt(t, tab, 1)
	box, err := chromedp.Run(tab, chromedp.Evaluate[map[string]float64](`(() => {
		const r = document.querySelector("#timeline .tl-stage").getBoundingClientRect();
		return {x: r.left, y: r.top, w: r.width, h: r.height};
	})()`))
	must(t, err)
	// The pointer goes to and fro over the plot for three times the
	// stillness the page waits for.
	for i := 0; ; i++ {
		now, err := chromedp.Run(tab, chromedp.Evaluate[float64](`performance.now()`))
		must(t, err)
		if now-first > 3000 {
			break
		}
		x := box["x"] + box["w"]*(0.3+0.4*float64(i%10)/10)
		must(t, chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, box["y"]+box["h"]/2)))
		time.Sleep(100 * time.Millisecond)
	}
	stopped, err := chromedp.Run(tab, chromedp.Evaluate[float64](`performance.now()`))
	must(t, err)
	// Each start while the pointer moved, with how long before it the
	// page had last seen the pointer move.
	during, err := chromedp.Run(tab, chromedp.Evaluate[[][2]float64](fmt.Sprintf(`window.engineStarts.filter(at => at >= %[1]f && at <= %[2]f).map(at => {
		const moved = window.pointerMoves.filter(m => m <= at);
		return [Math.round(at - %[3]f), Math.round(at - (moved.length ? moved[moved.length-1] : %[3]f))];
	})`, first, stopped, first)))
	must(t, err)
	if len(during) > 0 {
		// The page waits spareWorkerAfter (a second) since its last
		// question, or since the capture showed; a start after a shorter
		// pause breaks its rule.
		start := during[0]
		if start[1] < 900 {
			t.Fatalf("an engine worker started %.0f ms after the capture showed, %.0f ms after the pointer last moved (it moved until %.0f ms)", start[0], start[1], stopped-first)
		}
		return start[1]
	}
	after, err := chromedp.Run(tab, chromedp.Poll[float64](fmt.Sprintf(`(() => { const a = window.engineStarts.filter(at => at > %f); return a.length ? a[0] : null; })()`, stopped),
		chromedp.WithPollingTimeout(pageWait)))
	if err != nil {
		t.Fatalf("no spare engine worker started once the pointer was still: %v", err)
	}
	// A second of stillness (spareWorkerAfter), and time for the page's
	// timer and the start: not the 10 s the page waits at the latest.
	if after-stopped > 2500 {
		t.Errorf("the spare engine worker started %.0f ms after the pointer stopped, want about a second", after-stopped)
	}
	t.Logf("the pointer moved until %.0f ms after the capture showed; the spare started %.0f ms after it stopped", stopped-first, after-stopped)
	return 0
}

// engineStartsTab opens the page on a sample in a tab that notes in
// window.engineStarts when each engine worker starts, once the page has
// warmed up.
func engineStartsTab(t *testing.T, s *servedSite) context.Context {
	t.Helper()
	tab := s.newTab(t)
	_, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
		window.engineStarts = [];
		window.pointerMoves = [];
		addEventListener("pointermove", () => window.pointerMoves.push(performance.now()), {capture: true});
		const PageWorker = window.Worker;
		window.Worker = class extends PageWorker {
			constructor(url, opts) {
				super(url, opts);
				if (String(url).includes("engine-worker")) window.engineStarts.push(performance.now());
			}
		};
	})()`})
	must(t, err)
	navigate(t, tab, s.url+"/?sample=client-go-golden-watch.http")
	waitFileOpen(t, tab, "client-go-golden-watch.http")
	waitWarm(t, tab)
	return tab
}

// paintedAt is when the page painted the nth capture read since
// window.watchlensLoadStamps was emptied.
func paintedAt(t *testing.T, tab context.Context, n int) float64 {
	t.Helper()
	at, err := chromedp.Run(tab, chromedp.Poll[float64](fmt.Sprintf(`(() => {
		const p = (window.watchlensLoadStamps ?? []).filter(([step]) => step === "painted");
		return p.length >= %d ? p[%d][1] : null;
	})()`, n, n-1), chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(pageWait)))
	must(t, err)
	return at
}
