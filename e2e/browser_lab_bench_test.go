//go:build !wasm

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"watchlens/internal/testsample"
)

// labVerdict reads the lines of the page's verdict.
const labVerdict = `[...document.querySelectorAll("#verdict p")].map(p => p.textContent).join("\n")`

// BenchmarkBrowserLabLoad measures, in headless Chromium, the time from
// choosing the whole of samples-lab (its 207 client captures, six audit
// logs and Prometheus exports) to the first paint of its fleet with the
// verdict shown: issue 22 asks for it within 3 s. With 207 clients the
// page opens on the fleet, so its canvas is the one timed. As in
// BenchmarkBrowserLoad, the page has warmed its parser up first and the
// longest main-thread task is reported too.
func BenchmarkBrowserLabLoad(b *testing.B) {
	dir := testsample.Recording(b, "samples-lab")
	var files []string
	for _, pattern := range []string{"*.ts.http", "audit-*.log", filepath.Join("prometheus", "query_range", "*.json.gz")} {
		m, err := filepath.Glob(filepath.Join(dir, pattern))
		must(b, err)
		files = append(files, m...)
	}
	if captures, _ := filepath.Glob(filepath.Join(dir, "*.ts.http")); len(captures) != 207 {
		b.Fatalf("samples-lab has %d captures, want 207", len(captures))
	}
	s := startSite(b)
	s.serveBenchWasm(b)
	// The fleet's rows are the lab's 207 clients: its canvas drawn with
	// them is the lab's, not the sample's opened before.
	const ready = `canvas.closest("#fleet") && document.querySelector("#verdict p") &&
		(document.querySelector("#fleet-summary")?.dataset.servers ?? "").split("\n").length === 207`
	var load, drawStart, longest float64
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		tab, closeTab := chromedp.NewContext(s.browser)
		navigate(b, tab, s.url+"/?sample=client-go-golden-watch.http")
		waitText(b, tab, `section.result[data-file="client-go-golden-watch.http"]`)
		waitWarm(b, tab)
		before, err := chromedp.Run(tab, chromedp.Evaluate[string](labVerdict))
		must(b, err)
		b.StartTimer()
		startLoadTimer(b, tab, ready)
		must(b, chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.CSS("#file-input"), files)))
		ms, err := chromedp.Run(tab, chromedp.Poll[float64](`window.loadTime`,
			chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(5*time.Minute)))
		b.StopTimer()
		must(b, err)
		after, err := chromedp.Run(tab, chromedp.Evaluate[string](labVerdict))
		must(b, err)
		if after == "" || after == before {
			b.Fatalf("at the lab's first paint the verdict reads %q, the sample's was %q", after, before)
		}
		start, err := chromedp.Run(tab, chromedp.Evaluate[float64](`window.drawStart`))
		must(b, err)
		task, tasks := loadTasks(b, tab)
		b.Logf("lab: first paint at %.0f ms (drawing began at %.0f ms); verdict %q; long tasks [ms from the drop, ms] %v",
			ms, start, strings.SplitN(after, "\n", 2)[0], tasks)
		load += ms
		drawStart += start
		longest = max(longest, task)
		closeTab()
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(load/n/1000, "s/load")
	b.ReportMetric(drawStart/n, "ms/draw-start")
	b.ReportMetric(longest, "ms/longest-task")
}
