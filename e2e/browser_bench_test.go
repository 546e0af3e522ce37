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

	"github.com/chromedp/chromedp"
)

// BenchmarkBrowserLoad measures, in headless Chromium, the time from
// choosing a capture to the page's first frame showing it, next to the time the browser
// alone takes to read the same file, and the longest main-thread task while
// loading (the page must stay responsive). The captures are synthetic pod
// watches of 7 KB objects whose managedFields repeat from one event to the
// next, 100 MB and 1 GB (which must open); 100 MB of realistic pods, whose
// managedFields never repeat, as a cluster's do, and 4 MB of them; and a
// million small ConfigMap events. WATCHLENS_BENCH_WASM serves another
// build's wasm (serveBenchWasm).
func BenchmarkBrowserLoad(b *testing.B) {
	s := startSite(b)
	s.serveBenchWasm(b)
	for _, size := range []int{100 << 20, 1 << 30} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			benchLoad(b, s, fmt.Sprintf("pods-%dMB.jsonl", size>>20), synth.Capture(size))
		})
	}
	realistic := synth.CaptureOf(100<<20, synth.RealisticPod)
	b.Run("100MB-realistic", func(b *testing.B) {
		benchLoad(b, s, "realistic-pods-100MB.jsonl", realistic)
	})
	// The second file a user opens in the same tab, seconds after the
	// first: it is read by the spare worker the page started once the
	// user paused on the first (app/page.go's spareWorkerAfter), not by
	// the one the page warmed up after its first paint.
	b.Run("100MB-realistic-again", func(b *testing.B) {
		benchLoadAgain(b, s, "realistic-pods-100MB.jsonl", realistic)
	})
	// A few megabytes, the size of most captures users open: the time
	// around the parse (the file's first bytes, the answer, the render
	// and the paint) is most of such a load.
	b.Run("4MB-realistic", func(b *testing.B) {
		benchLoad(b, s, "realistic-pods-4MB.jsonl", synth.CaptureOf(4<<20, synth.RealisticPod))
	})
	// A million small events: the model's work grows with the events, not
	// the bytes, and must not freeze the page either.
	b.Run("1M-events", func(b *testing.B) {
		benchLoad(b, s, "configmaps-1M.jsonl", synth.CaptureOf(440<<20, synth.ConfigMap))
	})
}

func benchLoad(b *testing.B, s *servedSite, name string, capture []byte) {
	benchLoads(b, s, name, capture, false)
}

// benchLoadAgain is benchLoad for a second file opened in the same tab
// as the first, againAfter after the first was shown.
func benchLoadAgain(b *testing.B, s *servedSite, name string, capture []byte) {
	benchLoads(b, s, name, capture, true)
}

// againAfter is how long a user explores the first file before opening
// the second (benchLoadAgain): long enough for the page to have started
// and warmed up the next load's spare worker.
const againAfter = 5 * time.Second

func benchLoads(b *testing.B, s *servedSite, name string, capture []byte, again bool) {
	big := filepath.Join(b.TempDir(), name)
	must(b, os.WriteFile(big, capture, 0o644))
	info, err := os.Stat(big)
	must(b, err)
	// The first file of benchLoadAgain has the same bytes under another
	// name, which the page shows apart from the second.
	first := filepath.Join(filepath.Dir(big), "first-"+name)
	if again {
		must(b, os.Link(big, first))
	}

	var load, jsRead, longest float64
	var cpu loadCPU
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		tab, closeTab := openTab(b, s.browser)
		navigate(b, tab, s.url+"/?sample=client-go-golden-watch.http")
		waitFileOpen(b, tab, "client-go-golden-watch.http")
		// A user drops a file seconds after opening the page, by when it
		// has warmed its parser up (app/warmup.go).
		waitWarm(b, tab)
		if again {
			timeLoad(b, tab, first)
			time.Sleep(againAfter)
		}
		stopProfile := startCPUProfile(b, tab)
		stopTrace := startCPUTrace(b, tab)
		b.StartTimer()
		ms, task := timeLoad(b, tab, big)
		b.StopTimer()
		cpu = cpu.add(stopTrace(), b)
		stopProfile()
		load += ms
		longest = max(longest, task)
		closeTab()
		jsRead += browserRead(b, s, big)
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(load/n, "ms/load")
	b.ReportMetric(jsRead/n, "ms/browser-read")
	b.ReportMetric(load/jsRead, "load/read")
	b.ReportMetric(longest, "ms/longest-task")
	cpu.report(b, b.N)
	b.SetBytes(info.Size())
}

// timeLoad chooses file in tab's file input and returns the time from
// the input's change event to the first paint of the file's timeline, and
// the longest main-thread task meanwhile (a PerformanceObserver's
// longtask entries, which Chromium reports from 50 ms).
func timeLoad(b *testing.B, tab context.Context, file string) (load, longest float64) {
	b.Helper()
	startLoadTimer(b, tab, fileOpen(filepath.Base(file)))
	chooseFiles(b, tab, []string{file})
	load, err := chromedp.Run(tab, chromedp.Poll[float64](`window.loadTime`,
		chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(5*time.Minute)))
	must(b, err)
	longest, tasks := loadTasks(b, tab)
	b.Logf("%s: first paint at %.0f ms; long tasks [ms from the drop, ms] %v; %s", filepath.Base(file), load, tasks, loadSteps(b, tab))
	return load, longest
}

// chooseFiles chooses files in tab's file input (#file-input) as a
// user's file chooser does, its change event dispatched in a task of its
// own. DevTools' DOM.setFileInputFiles makes the files' File objects on
// the page's thread, in the task that then fires the change event: for
// samples-lab's 214 files a long task of the test's own making, which a
// user's chooser does not spend there. So DevTools sets them on an input of the test's own,
// and the page's input is handed that input's list.
func chooseFiles(b testing.TB, tab context.Context, files []string) {
	b.Helper()
	must(b, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
		if (document.querySelector("#bench-chosen")) return;
		const input = document.createElement("input");
		input.type = "file";
		input.multiple = true;
		input.id = "bench-chosen";
		input.hidden = true;
		document.body.appendChild(input);
	})()`)))
	must(b, chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.CSS("#bench-chosen"), files)))
	must(b, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
		const input = document.querySelector("#file-input");
		input.files = document.querySelector("#bench-chosen").files;
		input.dispatchEvent(new Event("change", {bubbles: true}));
	})()`)))
}

// startLoadTimer times the next load in the page, which leaves out the
// DevTools protocol's round trips: from the file input's change event
// (window.loadStart) to the paint of the first frame drawn on a canvas in
// the page once ready (a JS expression) holds (window.loadTime). A
// message posted from an animation frame's callback arrives once that
// frame is painted: a drawing made in a frame's callback (the page draws
// a load's first frame in one) posts it at once, and a drawing made
// outside any posts it from the next frame's callback, the frame that
// paints it. It also notes when that frame's
// drawing began (window.drawStart), every long task (loadTasks), and
// every long animation frame and the steps the page stamps
// (loadSteps). A second call times the tab's next load afresh.
func startLoadTimer(b *testing.B, tab context.Context, ready string) {
	must(b, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
		for (const o of window.loadObservers ?? []) o.disconnect();
		delete window.loadTime;
		delete window.drawStart;
		window.longTasks = [];
		const tasks = new PerformanceObserver(list => {
			for (const e of list.getEntries()) window.longTasks.push([Math.round(e.startTime - window.loadStart), Math.round(e.duration)]);
		});
		tasks.observe({type: "longtask"});
		window.longFrames = [];
		const frames = new PerformanceObserver(list => {
			for (const e of list.getEntries()) {
				const top = [...e.scripts].sort((a, b) => b.duration - a.duration)[0];
				window.longFrames.push([Math.round(e.startTime - window.loadStart), Math.round(e.duration), Math.round(e.blockingDuration),
					top ? top.invoker + " " + Math.round(top.duration) + " ms" : "no script"]);
			}
		});
		frames.observe({type: "long-animation-frame"});
		window.loadObservers = [tasks, frames];
		window.watchlensLoadStamps = [];
		document.querySelector("#file-input").addEventListener("change", () => { window.loadStart = performance.now(); }, {capture: true, once: true});
		// Whether an animation frame's callbacks are running: a frame
		// drawn in one is painted with that frame.
		if (!window.inFrameWrapped) {
			window.inFrameWrapped = true;
			const raf = window.requestAnimationFrame.bind(window);
			window.requestAnimationFrame = (cb) => raf((t) => {
				window.inFrame = true;
				try { return cb(t); } finally { window.inFrame = false; }
			});
		}
		const draw = window.watchlensDrawUntimed ??= window.watchlensDraw;
		let timing = false;
		window.watchlensDraw = function (canvas) {
			const start = performance.now();
			const out = draw.apply(this, arguments);
			if (!timing && canvas.isConnected && (`+ready+`)) {
				timing = true;
				window.drawStart = Math.round(start - window.loadStart);
				const afterPaint = () => {
					const ch = new MessageChannel();
					ch.port1.onmessage = () => { window.loadTime = performance.now() - window.loadStart; };
					ch.port2.postMessage(null);
				};
				if (window.inFrame) afterPaint();
				else requestAnimationFrame(afterPaint);
			}
			return out;
		};
	})()`)))
}

// loadTasks returns the longest main-thread task of the load that
// startLoadTimer timed, and every long task as [ms from the drop, ms].
func loadTasks(b *testing.B, tab context.Context) (longest float64, tasks [][2]float64) {
	tasks, err := chromedp.Run(tab, chromedp.Evaluate[[][2]float64](`window.longTasks`))
	must(b, err)
	for _, t := range tasks {
		longest = max(longest, t[1])
	}
	return longest, tasks
}

// loadSteps says, for the log, the steps of the load that
// startLoadTimer timed, as [step, ms from the drop] (the page's
// watchlensLoadStamps: load.Stamp), its long animation frames, as
// [ms from the drop, ms, ms blocking, the script that ran longest in it],
// and when the drawing of the frame timed began (draw, ms from the drop).
func loadSteps(b testing.TB, tab context.Context) string {
	b.Helper()
	steps, err := chromedp.Run(tab, chromedp.Evaluate[string](`JSON.stringify({
		steps: (window.watchlensLoadStamps || []).map(([step, at]) => [step, Math.round(at - window.loadStart)]),
		frames: window.longFrames, draw: window.drawStart})`))
	must(b, err)
	return steps
}

// browserRead is the time the browser alone takes to read the file: the
// median of three reads, which vary widely from one to the next. It
// reads after the load, in a tab of its own: read in the load's tab, the
// reads leave it their garbage to collect while loading (gigabytes of
// buffers for the million events); read just before it in another tab,
// they lengthen the load's longest tasks.
func browserRead(b *testing.B, s *servedSite, file string) float64 {
	tab, closeTab := openTab(b, s.browser)
	defer closeTab()
	must(b, chromedp.Do(tab, chromedp.Navigate("about:blank")))
	must(b, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
		const input = document.createElement("input");
		input.type = "file";
		input.id = "bench-input";
		document.body.appendChild(input);
	})()`)))
	must(b, chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.CSS("#bench-input"), []string{file})))
	ms, err := chromedp.Run(tab, chromedp.Evaluate[float64](`(async () => {
		const f = document.querySelector("#bench-input").files[0];
		const times = [];
		for (let i = 0; i < 3; i++) {
			const t0 = performance.now();
			await f.arrayBuffer();
			times.push(performance.now() - t0);
		}
		return times.sort((a, b) => a - b)[1];
	})()`, chromedp.EvalAwaitPromise))
	must(b, err)
	return ms
}
