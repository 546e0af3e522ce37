//go:build !wasm

package e2e

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
)

// BenchmarkBrowserColdLoad measures, in headless Chromium, a capture
// dropped as soon as the page shows its first capture, before its warm-up
// (app/warmup.go) has run, against the same capture dropped once the
// warm-up is over, alternately: the time from the file input's change
// event to the first paint of the capture's timeline, and the longest
// main-thread task meanwhile. Each load runs in a browser of its own with
// a new profile, as a first visit, so no load finds the wasm compiled by
// another. The warmed loads also measure what the warm-up costs every
// visitor: the main thread's task and script time (Performance.getMetrics)
// and the CPU time of the browser's renderer processes, all their threads
// (/proc), from the first capture shown to the warm-up's end.
func BenchmarkBrowserColdLoad(b *testing.B) {
	s := startSite(b)
	for _, c := range podsAndSmallEvents {
		b.Run(c.name, func(b *testing.B) {
			file := c.write(b)
			var cold, warm, coldTask, warmTask float64
			var cost warmUpCost
			for range b.N {
				ms, task := coldLoad(b, s, file)
				cold += ms
				coldTask = max(coldTask, task)
				ms, task, c := warmLoad(b, s, file)
				warm += ms
				warmTask = max(warmTask, task)
				cost.add(c)
			}
			n := float64(b.N)
			b.ReportMetric(cold/n, "ms/cold-load")
			b.ReportMetric(warm/n, "ms/warm-load")
			b.ReportMetric(cold/warm, "cold/warm")
			b.ReportMetric(coldTask, "ms/cold-longest-task")
			b.ReportMetric(warmTask, "ms/warm-longest-task")
			b.ReportMetric(cost.wall/n, "ms/warm-up-wall")
			b.ReportMetric(cost.task/n, "ms/warm-up-main-tasks")
			b.ReportMetric(cost.script/n, "ms/warm-up-main-script")
			b.ReportMetric(cost.cpu/n, "ms/warm-up-renderer-cpu")
		})
	}
}

// warmUpCost is what the warm-up took, in milliseconds: its wall time,
// the main thread's task and script time, and the renderer processes' CPU
// time.
type warmUpCost struct{ wall, task, script, cpu float64 }

func (c *warmUpCost) add(o warmUpCost) {
	c.wall += o.wall
	c.task += o.task
	c.script += o.script
	c.cpu += o.cpu
}

// firstVisit opens the page in a new browser, on the sample the other
// benchmarks open, with the Performance domain's metrics on, and waits
// until it shows the sample: the moment the page is interactive.
func firstVisit(b *testing.B, s *servedSite) context.Context {
	tab, closeTab := openTab(b, newBrowser(b))
	b.Cleanup(closeTab)
	_, err := chromedp.Call(tab, performance.Enable, performance.EnableParams{})
	must(b, err)
	navigate(b, tab, s.url+"/?sample=client-go-golden-watch.http")
	waitFileOpen(b, tab, "client-go-golden-watch.http")
	return tab
}

// coldLoad loads file as soon as the page is interactive.
func coldLoad(b *testing.B, s *servedSite, file string) (load, longest float64) {
	tab := firstVisit(b, s)
	warmed, err := chromedp.Run(tab, chromedp.Evaluate[bool](`document.querySelector(".page").dataset.warm === "true"`))
	must(b, err)
	if warmed {
		b.Fatal("the page had warmed up before the cold load")
	}
	return timeLoad(b, tab, file)
}

// warmLoad loads file once the page has warmed up, and returns what the
// warm-up cost.
func warmLoad(b *testing.B, s *servedSite, file string) (load, longest float64, cost warmUpCost) {
	tab := firstVisit(b, s)
	pid := chromedp.FromContext(tab).Browser.Process().Pid
	start, metrics0, cpu0 := time.Now(), mainThreadMetrics(b, tab), rendererCPU(b, pid)
	waitWarm(b, tab)
	wall, metrics1, cpu1 := time.Since(start), mainThreadMetrics(b, tab), rendererCPU(b, pid)
	cost = warmUpCost{
		wall:   float64(wall) / float64(time.Millisecond),
		task:   (metrics1["TaskDuration"] - metrics0["TaskDuration"]) * 1000,
		script: (metrics1["ScriptDuration"] - metrics0["ScriptDuration"]) * 1000,
		cpu:    cpu1 - cpu0,
	}
	load, longest = timeLoad(b, tab, file)
	return load, longest, cost
}

// mainThreadMetrics returns Chromium's Performance metrics of the tab's
// page (durations in seconds since the domain was enabled).
func mainThreadMetrics(b *testing.B, tab context.Context) map[string]float64 {
	got, err := chromedp.Call(tab, performance.GetMetrics, cdp.Empty{})
	must(b, err)
	out := map[string]float64{}
	for _, m := range got.Metrics {
		out[m.Name] = m.Value
	}
	return out
}

// rendererCPU returns the CPU time, in milliseconds, that the renderer
// processes descending from the browser process root have used, in user
// and system mode over all their threads.
func rendererCPU(b *testing.B, root int) float64 {
	ms, err := readRendererCPU(root)
	must(b, err)
	return ms
}

// readRendererCPU is rendererCPU for a caller off the benchmark's
// goroutine (an HTTP handler), which cannot end the benchmark.
func readRendererCPU(root int) (float64, error) {
	pids, err := listRenderers(root)
	if err != nil {
		return 0, err
	}
	var ticks int64
	for _, pid := range pids {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return 0, err
		}
		// The fields after the command's closing parenthesis start at
		// the state (field 3 of proc(5)); utime and stime are 14 and 15.
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		for _, f := range fields[11:13] {
			t, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
			}
			ticks += t
		}
	}
	// Linux counts them in USER_HZ, 100 a second.
	return float64(ticks) * 10, nil
}
