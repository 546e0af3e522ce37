//go:build !wasm

package e2e

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"watchlens/internal/synth"

	"github.com/chromedp/chromedp"
)

// BenchmarkBrowserTabMemory measures, in headless Chromium, the most
// memory the tab's renderer process held while loading a capture (its
// peak resident set, VmHWM in /proc): a page's wasm memory grows and never
// shrinks, so that is what the capture costs the tab. The captures are
// 440 MB of small ConfigMaps, 760 MB of Leases (about a million events
// each), 1 GB of realistic pods, and 4 GB of each of realistic pods and
// ConfigMaps (internal/synth). Each load runs in a browser of its own, after the
// page has warmed up as a user's would have.
//
// WATCHLENS_BENCH_WASM serves another build's app.wasm (serveBenchWasm).
func BenchmarkBrowserTabMemory(b *testing.B) {
	s := startSite(b)
	s.serveBenchWasm(b)
	for _, c := range []benchCapture{
		{"configmaps-1M.jsonl", func() []byte { return synth.CaptureOf(440<<20, synth.ConfigMap) }},
		{"leases-1M.jsonl", func() []byte { return synth.CaptureOf(760<<20, synth.Lease) }},
		{"realistic-pods-1GB.jsonl", func() []byte { return synth.CaptureOf(1<<30, synth.RealisticPod) }},
		{"realistic-pods-4GB.jsonl", func() []byte { return synth.CaptureOf(4e9, synth.RealisticPod) }},
		{"configmaps-4GB.jsonl", func() []byte { return synth.CaptureOf(4e9, synth.ConfigMap) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			file := c.write(b)
			var peak int64
			for range b.N {
				peak = max(peak, loadPeak(b, s, file))
			}
			b.ReportMetric(float64(peak)/1e6, "MB-tab-peak")
		})
	}
}

// loadPeak loads file in a new browser's tab and returns the largest peak
// resident set of that browser's renderer processes.
func loadPeak(b *testing.B, s *servedSite, file string) int64 {
	tab, closeTab := openTab(b, newBrowser(b))
	defer closeTab()
	navigate(b, tab, s.url+"/?sample=client-go-golden-watch.http")
	waitFileOpen(b, tab, "client-go-golden-watch.http")
	waitWarm(b, tab)
	must(b, chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.CSS("#file-input"), []string{file})))
	_, err := chromedp.Run(tab, chromedp.Poll[bool](fileOpen(filepath.Base(file)),
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(10*time.Minute)))
	must(b, err)
	peak := int64(0)
	for _, hwm := range rendererPeaks(b, chromedp.FromContext(tab).Browser.Process().Pid) {
		peak = max(peak, hwm)
	}
	if peak == 0 {
		b.Fatal("no renderer process of the browser found in /proc")
	}
	return peak
}

// rendererPeaks returns the peak resident set (VmHWM) of each renderer
// process descending from the browser process root.
func rendererPeaks(b *testing.B, root int) map[int]int64 {
	out := map[int]int64{}
	for _, pid := range renderers(b, root) {
		if hwm, ok := statusKB(pid, "VmHWM:"); ok {
			out[pid] = hwm << 10
		}
	}
	return out
}

// renderers lists the renderer processes descending from the browser
// process root.
func renderers(t testing.TB, root int) []int {
	pids, err := listRenderers(root)
	must(t, err)
	return pids
}

// listRenderers is renderers for a caller that cannot end the test.
func listRenderers(root int) ([]int, error) {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var pids []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err == nil && strings.Contains(string(cmd), "--type=renderer") && descends(pid, root) {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}

// descends says whether process pid is root or one of its descendants.
func descends(pid, root int) bool {
	for pid > 1 {
		if pid == root {
			return true
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return false
		}
		// The fields after the command's closing parenthesis: state, ppid.
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) < 2 {
			return false
		}
		if pid, err = strconv.Atoi(fields[1]); err != nil {
			return false
		}
	}
	return false
}

// statusKB reads a field in kB of /proc/pid/status.
func statusKB(pid int, field string) (int64, bool) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb, err == nil
		}
	}
	return 0, false
}

// serveBenchWasm serves the app.wasm that WATCHLENS_BENCH_WASM names, if
// it names one, instead of this tree's, and the engine-worker.wasm beside
// it if there is one (the page and its worker ask and answer in the
// same build's words): two builds compared in one run, each benchmark
// run alternating between them.
func (s *servedSite) serveBenchWasm(b *testing.B) {
	other := os.Getenv("WATCHLENS_BENCH_WASM")
	if other == "" {
		return
	}
	wasm, err := os.ReadFile(other)
	must(b, err)
	worker, err := os.ReadFile(filepath.Join(filepath.Dir(other), "engine-worker.wasm"))
	if err != nil && !os.IsNotExist(err) {
		must(b, err)
	}
	s.rebuildRoot(b, func(web string) {
		must(b, os.WriteFile(filepath.Join(web, "app.wasm"), wasm, 0o644))
		if worker != nil {
			must(b, os.WriteFile(filepath.Join(web, "engine-worker.wasm"), worker, 0o644))
		}
	})
}
