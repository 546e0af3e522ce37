//go:build !wasm

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"watchlens/app/engine"
)

// BenchmarkBrowserWorkerLoad is the trial of issue #27's engine in a worker:
// in headless Chromium, the time from choosing a capture to the first
// paint of its timeline, and the longest main-thread task meanwhile, for
// the page as it is (the load on the page's thread, paused and paced by
// hand) and for the load in a worker (app/engine/worker, started by
// testdata/engine-worker.js), whose frame the trial page
// (testdata/worker-trial.html) only draws.
// The worker is timed warm (started and warmed up with the page, as a
// real design would) and cold (started when the file is chosen). The
// three alternate, round after round, in one browser; each round checks
// that the worker's first frame shows what the page's does.
func BenchmarkBrowserWorkerLoad(b *testing.B) {
	s := startSite(b)
	serveWorkerTrial(b, s)
	for _, c := range podsAndSmallEvents {
		b.Run(c.name, func(b *testing.B) {
			file := c.write(b)
			paths := []string{"page", "worker-warm", "worker-cold"}
			loads, longest := map[string][]float64{}, map[string]float64{}
			steps := map[string][]float64{}
			b.ResetTimer()
			for round := range b.N {
				ms, task, shown, w, h := pageLoad(b, s, file, round == 0)
				loads["page"] = append(loads["page"], ms)
				longest["page"] = max(longest["page"], task)
				for _, cold := range []bool{false, true} {
					path := "worker-warm"
					if cold {
						path = "worker-cold"
					}
					ms, task, reply := workerLoad(b, s, file, w, h, cold, round == 0)
					loads[path] = append(loads[path], ms)
					longest[path] = max(longest[path], task)
					b.Logf("%s: %.0f ms, longest task %.0f ms, in the worker %v", path, ms, task, reply["steps"])
					for _, k := range []string{"lanes", "zonesAware", "zonesIgnoring", "bookmarks"} {
						if got := strconv.Itoa(int(reply[k].(float64))); got != shown[k] {
							b.Errorf("%s: the worker's first frame shows %s %s, the page's %s", path, got, k, shown[k])
						}
					}
					if !cold {
						for name, ms := range reply["steps"].(map[string]any) {
							steps[name] = append(steps[name], ms.(float64))
						}
					}
				}
			}
			b.StopTimer()
			for _, p := range paths {
				b.ReportMetric(median(loads[p]), "ms/load-"+p)
				b.ReportMetric(longest[p], "ms/longest-task-"+p)
			}
			// Each round's loads ran back to back: the ratio within a round
			// is less noisy than the medians apart.
			var ratios []float64
			for i, ms := range loads["worker-warm"] {
				ratios = append(ratios, ms/loads["page"][i])
			}
			b.ReportMetric(median(ratios), "worker-warm/page")
			for name, ms := range steps {
				b.ReportMetric(median(ms), "ms/warm-step-"+name)
			}
		})
	}
}

// serveWorkerTrial serves the engine's worker (app/engine/worker,
// built once for every test) at the site's /web/engine-worker.wasm,
// and the trial page and its worker's script at /trial/.
func serveWorkerTrial(t testing.TB, s *servedSite) {
	engineWorkerWasm.once.Do(func() {
		if engineWorkerWasm.dir, engineWorkerWasm.err = os.MkdirTemp("", "watchlens-e2e-engine-"); engineWorkerWasm.err != nil {
			return
		}
		build := exec.Command("go", "build", "-o", filepath.Join(engineWorkerWasm.dir, "engine-worker.wasm"), "./app/engine/worker")
		build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if out, err := build.CombinedOutput(); err != nil {
			engineWorkerWasm.err = fmt.Errorf("building engine-worker.wasm: %v\n%s", err, out)
		}
	})
	must(t, engineWorkerWasm.err)
	s.mux.Handle("/web/engine-worker.wasm", http.StripPrefix("/web", http.FileServer(http.Dir(engineWorkerWasm.dir))))
	s.mux.Handle("/trial/", http.StripPrefix("/trial", http.FileServer(http.Dir("e2e/testdata"))))
}

// engineWorkerWasm is the engine's worker, built once for the tests
// that start it.
var engineWorkerWasm struct {
	once sync.Once
	dir  string // holds engine-worker.wasm, removed by TestMain
	err  error
}

// pageLoad loads file in the page as it is, warmed up, in a tab of its
// own, and returns timeLoad's figures, what the timeline's summary says
// it shows, and the size of the stage its canvas is drawn in. With shoot
// it takes a screenshot to set beside the trial page's.
func pageLoad(b *testing.B, s *servedSite, file string, shoot bool) (ms, longest float64, shown map[string]string, w, h float64) {
	tab, closeTab := openTab(b, s.browser)
	defer closeTab()
	navigate(b, tab, s.url+"/?sample=client-go-golden-watch.http")
	waitFileOpen(b, tab, "client-go-golden-watch.http")
	waitWarm(b, tab)
	// Where the load's long tasks fall, for the log: ms from the drop,
	// and how long.
	must(b, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
		window.longTasks = [];
		new PerformanceObserver(list => {
			for (const e of list.getEntries()) window.longTasks.push([Math.round(e.startTime - window.loadStart), Math.round(e.duration)]);
		}).observe({type: "longtask"});
	})()`)))
	ms, longest = timeLoad(b, tab, file)
	tasks, err := chromedp.Run(tab, chromedp.Evaluate[[][2]float64](`window.longTasks`))
	must(b, err)
	b.Logf("page: %.0f ms, long tasks [ms from the drop, ms]: %v", ms, tasks)
	shown = summaryOf(b, tab)
	if shoot {
		screenshot(b, tab, "worker-trial-page-"+filepath.Base(file))
	}
	stage, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](`(() => {
		const s = document.querySelector("#timeline canvas").parentElement;
		return [s.clientWidth, s.clientHeight];
	})()`))
	must(b, err)
	return ms, longest, shown, stage[0], stage[1]
}

// workerLoad loads file through the worker on the trial page, with its
// stage w by h CSS px, and returns the time from choosing the file to
// the first paint of its frame, the longest main-thread task meanwhile,
// and the worker's reply (what the frame shows, and how long each step
// took in the worker). With cold the worker starts when the file is
// chosen; without, it starts with the page and the file is chosen once it
// has warmed up. With shoot it takes a screenshot.
func workerLoad(b *testing.B, s *servedSite, file string, w, h float64, cold, shoot bool) (ms, longest float64, reply map[string]any) {
	tab, closeTab := openTab(b, s.browser)
	defer closeTab()
	// The view of the whole capture on a stage of w by h, as the page
	// asks for it (TimelineView.measuredState, client.setView).
	view := engine.ViewState{Width: max(w, 320), PixelRatio: 1, Selected: -1}
	if h >= 100 {
		view.MaxHeight = h
	}
	viewBytes, err := view.AppendBinary(nil)
	must(b, err)
	url := fmt.Sprintf("%s/trial/worker-trial.html?w=%.0f&h=%.0f&view=%x", s.url, w, h, viewBytes)
	if cold {
		url += "&cold=1"
	}
	navigate(b, tab, url)
	if !cold {
		_, err := chromedp.Run(tab, chromedp.Poll[bool](`window.workerWarm === true || window.workerError !== undefined`,
			chromedp.WithPollingTimeout(time.Minute)))
		must(b, err)
	}
	ms, longest = timeWorkerLoad(b, tab, file)
	reply, err = chromedp.Run(tab, chromedp.Evaluate[map[string]any](`window.workerReply`))
	must(b, err)
	if shoot {
		screenshot(b, tab, "worker-trial-"+filepath.Base(file))
	}
	return ms, longest, reply
}

// timeWorkerLoad is timeLoad on the trial page: from the file input's
// change event to the first paint after the frame is drawn on the page's
// canvas (the warm-up draws on one that is not in the page).
func timeWorkerLoad(b *testing.B, tab context.Context, file string) (ms, longest float64) {
	b.Helper()
	startLoadTimer(b, tab, "true")
	must(b, chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.CSS("#file-input"), []string{file})))
	ms, err := chromedp.Run(tab, chromedp.Poll[float64](`window.loadTime ?? (window.workerError ? -1 : undefined)`,
		chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(5*time.Minute)))
	must(b, err)
	if ms < 0 {
		problem, _ := chromedp.Run(tab, chromedp.Evaluate[string](`window.workerError`))
		b.Fatalf("the worker failed: %s", problem)
	}
	longest, tasks := loadTasks(b, tab)
	drawAt, err := chromedp.Run(tab, chromedp.Evaluate[float64](`window.drawStart`))
	must(b, err)
	b.Logf("long tasks [ms from the drop, ms]: %v; the frame drawn from %.0f ms", tasks, drawAt)
	return ms, longest
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
