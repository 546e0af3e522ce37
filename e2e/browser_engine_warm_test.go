//go:build !wasm

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"testing"

	"watchlens/warmup"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestBrowserEngineWarmIncident: the engine worker's warm-up, given the
// page's warm samples and the incident the site serves under
// /web/warmup/ (package warmup), fetches them, opens the incident's
// files together and answers its fleet, and runs to its end: a file the
// site lacks, or an incident the engine cannot open or whose fleet it
// cannot draw, fails it.
func TestBrowserEngineWarmIncident(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	serveClientPage(t, s)
	names, err := fs.Glob(warmup.FS, "*")
	must(t, err)
	incident := make([]string, len(names))
	for i, name := range names {
		incident[i] = "/web/warmup/" + name
	}
	samples, err := json.Marshal([]string{"/web/samples/kubectl-pods-watch.jsonl", "/web/samples/w1-broad-configmaps-bookmarks.ts.http"})
	must(t, err)
	files, err := json.Marshal(incident)
	must(t, err)
	tab := s.newTab(t)
	navigate(t, tab, s.url+"/client/")
	waitClient(t, tab)
	if !askClient[bool](t, tab, `window.engineClient.warm(`+string(samples)+`, `+string(files)+`)`) {
		t.Error("the warm-up with the incident did not run to its end")
	}
}

// TestBrowserSpareWarmsBriefly: the page's first spare engine workers
// warm up in full, and the spares it starts once the user pauses on a
// capture, and the one after its warm-up's rehearsal, warm up briefly
// (client.Spare): their code is the one the
// first optimised, while a worker that runs it lives. After a second
// capture replaces the first, the worker whose full warm-up ran has
// ended, and the next spare is still brief: the shown capture's worker,
// started while that one lived, runs the same optimised code.
func TestBrowserSpareWarmsBriefly(t *testing.T) {
	t.Parallel()
	tab := warmTabWatching(t, `(() => {
		// Each worker's first warm-up: one the user's moving the view
		// ended is asked again (TestBrowserSpareWarmUpHeldWhileTheViewMoves).
		window.warmQuestions = [];
		const warmed = new WeakSet();
		const post = Worker.prototype.postMessage;
		Worker.prototype.postMessage = function (m, ...rest) {
			if (m && m.q === "warm" && !warmed.has(this)) {
				warmed.add(this);
				window.warmQuestions.push(!!m.brief);
			}
			return post.call(this, m, ...rest);
		};
	})()`)
	warms := func() []bool {
		got, err := chromedp.Run(tab, chromedp.Evaluate[[]bool](`window.warmQuestions`))
		must(t, err)
		return got
	}
	before := warms()
	// The visit's sample takes the first spare, the page's rehearsal of a
	// drop (app/warmup.go's rehearseShow) the second, once its full
	// warm-up has run, and its rehearsal of a fleet (rehearseFleet) the
	// third, brief while the second lives on with the capture shown: the
	// fourth, the one the first drop takes, is brief too.
	if shownReads(t, tab, "client-go-golden-watch.http") != 2 {
		t.Fatal("the page did not show its sample again as its warm-up ended")
	}
	if want := []bool{false, false, true, true}; !slices.Equal(before, want) {
		t.Fatalf("the page warmed up as %v (true: brief) before its first drop, want %v", before, want)
	}
	// next waits for the spare the page starts once the user pauses on
	// the capture just shown, and answers whether its warm-up is brief.
	next := func(after int) bool {
		_, err := chromedp.Run(tab, chromedp.Poll[bool](fmt.Sprintf(`window.warmQuestions.length > %d`, after), chromedp.WithPollingTimeout(pageWait)))
		must(t, err)
		got := warms()
		return got[len(got)-1]
	}
	upload(t, tab, "samples/w4-then-resume.http")
	waitFileOpen(t, tab, "w4-then-resume.http")
	if !next(len(before)) {
		t.Errorf("the spare started after the first drop warmed up in full (%v), want brief", warms())
	}
	n := len(warms())
	upload(t, tab, "samples/w3-then-resume.http")
	waitFileOpen(t, tab, "w3-then-resume.http")
	if !next(n) {
		t.Errorf("the spare started after the second drop warmed up in full (%v), want brief", warms())
	}
}

// TestBrowserSpareWarmUpHeldWhileTheViewMoves: the spare the page starts
// once the user pauses on a capture warms up on the machine's other
// core, which on two cores made the frames of a pan beside it 40-60 ms
// (docs/performance.md, the pan row). A user who moves the view while it
// warms up ends the warm-up (a "hold" question to the spare), and it
// runs again, to its end, once they have left the view still.
func TestBrowserSpareWarmUpHeldWhileTheViewMoves(t *testing.T) {
	t.Parallel()
	tab := warmTabWatching(t, `(() => {
		// Each worker's questions and its warm-ups' answers, in order.
		window.spareLog = [];
		let workers = 0;
		const W = window.Worker;
		window.Worker = class extends W {
			constructor(...args) {
				super(...args);
				const id = ++workers;
				this.watchlensID = id;
				this.addEventListener("message", (e) => {
					if (e.data && e.data.q === "warm" && !e.data.progress) window.spareLog.push({worker: id, answer: "warm", warmed: !!e.data.warmed});
				});
			}
		};
		const post = W.prototype.postMessage;
		W.prototype.postMessage = function (m, ...rest) {
			if (m && (m.q === "warm" || m.q === "hold")) window.spareLog.push({worker: this.watchlensID, q: m.q});
			return post.call(this, m, ...rest);
		};
	})()`)
	upload(t, tab, "samples/w4-then-resume.http")
	waitFileOpen(t, tab, "w4-then-resume.http")
	type event struct {
		Worker int
		Q      string
		Answer string
		Warmed bool
	}
	// Zoomed in, so that a drag moves the view; then, as soon as the
	// next spare is asked to warm up, a drag of 90 moves, one an
	// animation frame.
	spare, err := chromedp.Run(tab, chromedp.Evaluate[int](`(async () => {
		const c = document.querySelector("#timeline canvas");
		const r = c.parentElement.getBoundingClientRect();
		const x = r.left + Number(c.dataset.plotX) + Number(c.dataset.plotW) / 2;
		const y = r.top + Number(c.dataset.lanesY) + 10;
		for (let i = 0; i < 3; i++) c.dispatchEvent(new WheelEvent("wheel", {deltaY: -240, clientX: x, clientY: y, bubbles: true, cancelable: true}));
		const n0 = window.spareLog.length;
		const warm = () => window.spareLog.slice(n0).find((e) => e.q === "warm");
		const until = performance.now() + 30000;
		while (!warm() && performance.now() < until) await new Promise((d) => setTimeout(d, 5));
		if (!warm()) return 0;
		const frame = () => new Promise((d) => requestAnimationFrame(d));
		const opts = (px, b) => ({pointerId: 1, button: 0, buttons: b, clientX: px, clientY: y, bubbles: true});
		c.dispatchEvent(new PointerEvent("pointerdown", opts(x, 1)));
		for (let i = 0; i < 90; i++) {
			await frame();
			c.dispatchEvent(new PointerEvent("pointermove", opts(x + 40 * Math.sin(i / 8), 1)));
		}
		c.dispatchEvent(new PointerEvent("pointerup", opts(x, 0)));
		return warm().worker;
	})()`, chromedp.EvalAwaitPromise))
	must(t, err)
	if spare == 0 {
		t.Fatal("the page asked no spare to warm up after the drop")
	}
	// Once the view is still, the spare warms up again, to its end.
	_, err = chromedp.Run(tab, chromedp.Poll[bool](fmt.Sprintf(`window.spareLog.some((e) => e.worker === %d && e.answer === "warm" && e.warmed)`, spare), chromedp.WithPollingTimeout(pageWait)))
	log, lerr := chromedp.Run(tab, chromedp.Evaluate[[]event](`window.spareLog`))
	must(t, lerr)
	var mine []event
	for _, e := range log {
		if e.Worker == spare {
			mine = append(mine, e)
		}
	}
	if err != nil {
		t.Fatalf("the spare's warm-up never ran to its end: its questions and answers %+v", mine)
	}
	// warm, hold, the warm-up's answer (not warmed), warm, warmed.
	held, again := slices.IndexFunc(mine, func(e event) bool { return e.Q == "hold" }), -1
	if held >= 0 {
		again = slices.IndexFunc(mine[held:], func(e event) bool { return e.Q == "warm" })
	}
	if held < 1 || again < 0 || mine[0].Q != "warm" {
		t.Errorf("moving the view did not hold the spare's warm-up and run it again: its questions and answers %+v", mine)
	}
	if cut := slices.IndexFunc(mine, func(e event) bool { return e.Answer == "warm" }); cut < 0 || mine[cut].Warmed {
		t.Errorf("the spare's first warm-up ran to its end though the view moved: %+v", mine)
	}
}

// warmTabWatching opens a site of its own in a tab that runs script
// before the page's own scripts, on the visit's sample, and waits until
// the page is warm (its spare's warm-up and its rehearsal).
func warmTabWatching(t *testing.T, script string) context.Context {
	t.Helper()
	s := startSite(t)
	tab := s.newTab(t)
	_, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script})
	must(t, err)
	navigate(t, tab, s.url+"/?sample=client-go-golden-watch.http")
	waitFileOpen(t, tab, "client-go-golden-watch.http")
	waitWarm(t, tab)
	return tab
}
