//go:build !wasm

package e2e

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// writeShardedCapture writes a time-stamped NDJSON broad watch of n
// ConfigMap events over an hour, its objects labelled shard=s0000,
// s0001, ..., one object to each of shards: the first half of the shards change all
// hour, the second half never after their creation, so that split by the
// label their virtual clients' cursors go stale without bookmarks, as
// quiet narrow watchers' do. A bookmark a minute.
func writeShardedCapture(t testing.TB, path string, n, shards int) {
	writeHourOfEvents(t, path, n, 16_666, func(w io.Writer, i int, ts string, rv int) {
		typ, obj := "ADDED", i
		if i >= shards {
			typ, obj = "MODIFIED", i%(shards/2)
		}
		fmt.Fprintf(w, `%s {"type":"%s","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"obj-%d","namespace":"fleet","uid":"u-%d","resourceVersion":"%d","labels":{"shard":"s%04d"}}}}`+"\n",
			ts, typ, obj, obj, rv, obj)
	})
}

// BenchmarkBrowserFleetFrame measures in headless Chromium the time from
// a wheel or drag event on the fleet view's canvas to the engine worker's
// frame that answers it drawn, for 2 000 and 10 000 virtual clients: a
// broad capture of 1 M events split by a label (?split=label=shard, the
// CLI's --split-by). As in BenchmarkBrowserTimelineFrame, each event is
// dispatched from a frame callback and timed to the draw of the first
// frame asked of the worker after it (workerFrameTiming); a frame budget
// is 16 ms. The wheel zooms from the
// whole hour down to seconds and back, a drag pans the view zoomed in,
// and the wheel over the names scrolls the rows from the first client to
// the last; the times reported are over the frames of every round
// (frameTimes). While the page loads, a long-task observer records its
// longest main-thread task (startLoadTimer): how long the page may not
// answer the user.
// WATCHLENS_BENCH_WASM serves another build's app.wasm (serveBenchWasm).
func BenchmarkBrowserFleetFrame(b *testing.B) {
	s := startSite(b)
	s.serveBenchWasm(b)
	for _, clients := range []int{2_000, 10_000} {
		b.Run(fmt.Sprintf("%d-clients", clients), func(b *testing.B) { benchFleetFrames(b, s, clients) })
	}
}

func benchFleetFrames(b *testing.B, s *servedSite, clients int) {
	const name = "sharded-1M.log"
	big := filepath.Join(b.TempDir(), name)
	writeShardedCapture(b, big, 1_000_000, clients)
	// A tab of its own, not newTab's: splitting and analysing 10 000
	// clients as wasm takes longer than newTab's time limit.
	tab := newTabWithin(b, s.browser, 20*time.Minute)
	exposeWasmMemory(b, tab)
	watchWorkerFrames(b, tab)
	navigate(b, tab, s.url+"/?split=label%3Dshard&sample=client-go-golden-watch.http")
	waitText(b, tab, "#timeline-summary")
	// A user drops the capture once the page has warmed up (app/warmup.go),
	// as BenchmarkBrowserLoad's do: the warm-up's own tasks are not the
	// load's.
	waitWarm(b, tab)
	startLoadTimer(b, tab, `canvas.closest("#fleet")`)
	stopProfile := startCPUProfile(b, tab)
	stopTrace := startCPUTrace(b, tab)
	start := time.Now()
	chooseFiles(b, tab, []string{big})
	// The progress bar says how far the split is, once the capture is read.
	_, err := chromedp.Run(tab, chromedp.Poll[bool](`/Splitting .?sharded-1M\.log.? into virtual clients: \d+ of `+strconv.Itoa(clients)+` made/.test(document.querySelector("#progress label")?.textContent ?? "")`,
		chromedp.WithPollingTimeout(10*time.Minute), chromedp.WithPollingMutation()))
	must(b, err)
	// With more clients than the timeline draws, the page opens on the fleet.
	_, err = chromedp.Run(tab, chromedp.Poll[bool](`!!document.querySelector("#fleet canvas")`, chromedp.WithPollingTimeout(15*time.Minute)))
	must(b, err)
	load := time.Since(start)
	time.Sleep(time.Second)
	cpu := loadCPU{}.add(stopTrace(), b)
	stopProfile()
	mem, err := chromedp.Run(tab, chromedp.Evaluate[float64](`window.wasmMemory.buffer.byteLength`))
	must(b, err)
	fmt.Fprintf(os.Stderr, "1 M events split into %d virtual clients and shown in %v; wasm memory %.0f MB\n", clients, load.Round(time.Millisecond), mem/(1<<20))
	longest, tasks := loadTasks(b, tab)
	fmt.Fprintf(os.Stderr, "long tasks [ms from the drop, ms] %v; %s\n", tasks, loadSteps(b, tab))
	if pressed := waitText(b, tab, `#show-fleet[aria-pressed="true"]`); pressed != "Fleet" {
		b.Fatalf("the fleet view's button reads %q", pressed)
	}
	// The virtual clients and the broad capture they are split from.
	if got := waitText(b, tab, "#fleet-summary dd"); got != strconv.Itoa(clients+1) {
		b.Fatalf("the fleet has %s clients, want %d", got, clients+1)
	}
	must(b, chromedp.Do(tab, chromedp.ScrollIntoView(chromedp.CSS("#fleet canvas"))))
	type frames struct {
		WheelTimes, PanTimes, ScrollTimes []float64
		Scrolled                          bool
		Unanswered                        int
	}
	var wheels, pans, scrolls frameTimes
	b.ResetTimer()
	for range b.N {
		got, err := chromedp.Run(tab, chromedp.Evaluate[frames](`(async () => {
			const c = document.querySelector("#fleet canvas");
			const r = c.getBoundingClientRect();
			const x = r.left + Number(c.dataset.plotX) + Number(c.dataset.plotW) / 2;
			const y = r.top + Number(c.dataset.rowsY) + 40;
`+workerFrameTiming+`			const wheel = (px, dy) => new WheelEvent("wheel", {deltaY: dy, clientX: px, clientY: y, bubbles: true, cancelable: true});
			c.dispatchEvent(new MouseEvent("dblclick", {clientX: x, clientY: y, bubbles: true, cancelable: true}));
			await new Promise(done => setTimeout(done, 300));
			const [, , , whNone, wheelTimes] = await timed(40, i => c.dispatchEvent(wheel(x, i < 20 ? -240 : 240)));
			for (let i = 0; i < 3; i++) await timed(1, () => c.dispatchEvent(wheel(x, -240)));
			const opts = (px, b) => ({pointerId: 1, button: 0, buttons: b, clientX: px, clientY: y, bubbles: true});
			c.dispatchEvent(new PointerEvent("pointerdown", opts(x, 1)));
			const [, , , panNone, panTimes] = await timed(40, i => c.dispatchEvent(new PointerEvent("pointermove", opts(x - 10 * (i + 1), 1))));
			c.dispatchEvent(new PointerEvent("pointerup", opts(x - 400, 0)));
			// Over the names the wheel scrolls the rows: 40 notches, from
			// the first client down to the last.
			const names = r.left + 40;
			const [, , , scNone, scrollTimes] = await timed(40, i => c.dispatchEvent(wheel(names, `+strconv.Itoa(clients/40)+` * Number(c.dataset.rowH))));
			const scrolled = Number(c.dataset.scrollY) >= Math.min(9000, `+strconv.Itoa(clients)+` - 100) * Number(c.dataset.rowH);
			return {WheelTimes: wheelTimes, PanTimes: panTimes, ScrollTimes: scrollTimes, Scrolled: scrolled, Unanswered: whNone + panNone + scNone};
		})()`, chromedp.EvalAwaitPromise))
		must(b, err)
		if !got.Scrolled {
			b.Fatal("the wheel over the names did not scroll the rows to the last clients")
		}
		if got.Unanswered > 0 {
			b.Logf("%d events asked no frame: left out of the times", got.Unanswered)
		}
		wheels = append(wheels, got.WheelTimes...)
		pans = append(pans, got.PanTimes...)
		scrolls = append(scrolls, got.ScrollTimes...)
		// The next round scrolls from the top again.
		b.StopTimer()
		must(b, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
			const c = document.querySelector("#fleet canvas");
			c.dispatchEvent(new WheelEvent("wheel", {deltaY: -1e9, clientX: c.getBoundingClientRect().left + 40, clientY: c.getBoundingClientRect().top + Number(c.dataset.rowsY) + 40, bubbles: true, cancelable: true}));
		})()`)))
		b.StartTimer()
	}
	b.ReportMetric(load.Seconds(), "s/load")
	b.ReportMetric(longest, "ms/load-longest-task")
	cpu.report(b, 1)
	b.ReportMetric(mem/(1<<20), "MB-wasm-memory")
	wheels.report(b, "wheel")
	pans.report(b, "pan")
	scrolls.report(b, "scroll")
	screenshot(b, tab, fmt.Sprintf("fleet-%d", clients))
}

// exposeWasmMemory has the pages tab opens put their wasm instance's
// memory in window.wasmMemory: it grows and never shrinks, so its size
// is the most the page held at once.
func exposeWasmMemory(t testing.TB, tab context.Context) {
	t.Helper()
	_, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
		const instantiate = WebAssembly.instantiateStreaming;
		WebAssembly.instantiateStreaming = async (...args) => {
			const r = await instantiate(...args);
			window.wasmMemory = r.instance.exports.mem;
			return r;
		};
	})()`})
	must(t, err)
}
