//go:build !wasm

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// BenchmarkBrowserLoad100MB measures, in headless Chromium, the time from
// choosing a 100 MB capture to the page showing it, next to the time the
// browser alone takes to read the same file, and the longest main-thread
// task while loading (the page must stay responsive). The capture is the
// real kubectl pod watch sample repeated, so its events are real ones.
func BenchmarkBrowserLoad100MB(b *testing.B) {
	real, err := os.ReadFile("samples/kubectl-pods-watch.jsonl")
	must(b, err)
	big := filepath.Join(b.TempDir(), "pods-100MB.jsonl")
	must(b, os.WriteFile(big, bytes.Repeat(real, (100<<20)/len(real)+1), 0o644))
	info, err := os.Stat(big)
	must(b, err)

	s := startSite(b)
	var load, jsRead, longest float64
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		tab := s.newTab(b)
		navigate(b, tab, s.url+"/?sample=client-go-golden-watch.http")
		waitText(b, tab, `section.result[data-file="client-go-golden-watch.http"]`)
		must(b, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
			window.longestTask = 0;
			new PerformanceObserver(list => {
				for (const e of list.getEntries()) window.longestTask = Math.max(window.longestTask, e.duration);
			}).observe({type: "longtask"});
			const input = document.createElement("input");
			input.type = "file";
			input.id = "bench-input";
			document.body.appendChild(input);
		})()`)))
		must(b, chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.CSS("#bench-input"), []string{big})))
		ms, err := chromedp.Run(tab, chromedp.Evaluate[float64](`(async () => {
			const f = document.querySelector("#bench-input").files[0];
			const t0 = performance.now();
			await f.arrayBuffer();
			return performance.now() - t0;
		})()`, chromedp.EvalAwaitPromise))
		must(b, err)
		jsRead += ms
		b.StartTimer()

		start := time.Now()
		must(b, chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.CSS("#file-input"), []string{big})))
		_, err = chromedp.Run(tab, chromedp.Poll[bool](`!!document.querySelector('section.result[data-file="pods-100MB.jsonl"]')`,
			chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(5*time.Minute)))
		must(b, err)
		load += float64(time.Since(start).Milliseconds())

		b.StopTimer()
		task, err := chromedp.Run(tab, chromedp.Evaluate[float64](`window.longestTask`))
		must(b, err)
		longest = max(longest, task)
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(load/n, "ms/load")
	b.ReportMetric(jsRead/n, "ms/browser-read")
	b.ReportMetric(load/jsRead, "load/read")
	b.ReportMetric(longest, "ms/longest-task")
	b.SetBytes(info.Size())
	fmt.Fprintf(os.Stderr, "loaded %s in Chromium\n", humanSize(info.Size()))
}

func humanSize(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
