//go:build !wasm

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// BenchmarkBrowserParser runs the parser's small-event benchmarks
// (BenchmarkReadConfigMaps, BenchmarkReadLeases, BenchmarkReadEvents) in
// headless Chromium: the parser's test binary, built for wasm, on the
// main thread of a page of its own (testdata/parser-bench.html), as the
// Makefile's bench target runs it under node, and reports its events per
// second of wall time and per second of the renderer processes' CPU time
// (all their threads, as node's process.cpuUsage counts node's), in
// millions. With WATCHLENS_BENCH_PARSER_WASM naming another build's test
// binary (GOOS=js GOARCH=wasm go test -c ./parser), each run of this
// build's is followed by one of that build's, and the other's figures
// are reported beside them with their ratio to this build's: the two
// compared under the same load. A relative path is from the module's
// root, where the e2e tests run.
func BenchmarkBrowserParser(b *testing.B) {
	dir := b.TempDir()
	this := filepath.Join(dir, "this.wasm")
	build := exec.Command("go", "test", "-c", "-o", this, "./parser")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building the parser's test binary: %v\n%s", err, out)
	}
	wasms := map[string]string{"this": this}
	other := os.Getenv("WATCHLENS_BENCH_PARSER_WASM")
	if other != "" {
		wasms["other"] = other
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	must(b, err)

	browser := newBrowser(b)
	pid := chromedp.FromContext(browser).Browser.Process().Pid
	mux := http.NewServeMux()
	mux.HandleFunc("/parser-bench.html", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, "e2e/testdata/parser-bench.html")
	})
	mux.HandleFunc("/wasm_exec.js", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	})
	for name, path := range wasms {
		mux.HandleFunc("/"+name+".wasm", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, path) })
	}
	// The handler runs on the server's goroutine, where the benchmark
	// cannot be failed: an error is the page's, whose process.cpuUsage
	// throws it into the test binary, and browserParserRun reports it.
	mux.HandleFunc("/cpu", func(w http.ResponseWriter, _ *http.Request) {
		ms, err := readRendererCPU(pid)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		fmt.Fprintf(w, "%.0f", ms*1000)
	})
	srv := httptest.NewServer(mux)
	b.Cleanup(srv.Close)

	for _, kind := range []string{"ConfigMaps", "Leases", "Events"} {
		b.Run(kind, func(b *testing.B) {
			var cpu, wall, otherCPU, otherWall float64
			for range b.N {
				c, w := browserParserRun(b, browser, srv.URL, "this", kind)
				cpu, wall = cpu+c, wall+w
				if other != "" {
					c, w := browserParserRun(b, browser, srv.URL, "other", kind)
					otherCPU, otherWall = otherCPU+c, otherWall+w
				}
			}
			n := float64(b.N)
			b.ReportMetric(cpu/n, "Mevents/cpu-s")
			b.ReportMetric(wall/n, "Mevents/s")
			if other != "" {
				b.ReportMetric(otherCPU/n, "other-Mevents/cpu-s")
				b.ReportMetric(otherWall/n, "other-Mevents/s")
				b.ReportMetric(otherCPU/cpu, "other/this-cpu")
			}
		})
	}
}

// browserParserRun runs BenchmarkRead<kind> of the test binary served
// at url/<wasm>.wasm in a new tab of browser, and returns the millions
// of events it read per second of CPU time and of wall time.
func browserParserRun(b *testing.B, browser context.Context, url, wasm, kind string) (cpu, wall float64) {
	b.Helper()
	tab, closeTab := openTab(b, browser)
	defer closeTab()
	navigate(b, tab, url+"/parser-bench.html")
	args := []string{"-test.run", "^$", "-test.bench", "^BenchmarkRead" + kind + "$", "-test.benchtime", "5x"}
	argsJSON, err := json.Marshal(args)
	must(b, err)
	out, err := chromedp.Run(tab, chromedp.Evaluate[string](
		fmt.Sprintf("window.runParserBench(%q, %s)", "/"+wasm+".wasm", argsJSON),
		chromedp.EvalAwaitPromise))
	must(b, err)
	for line := range strings.Lines(out) {
		fields := strings.Fields(line)
		if len(fields) == 0 || fields[0] != "BenchmarkRead"+kind {
			continue
		}
		metric := func(unit string) float64 {
			for i := 1; i < len(fields); i++ {
				if fields[i] == unit {
					v, err := strconv.ParseFloat(fields[i-1], 64)
					must(b, err)
					return v / 1e6
				}
			}
			b.Fatalf("no %s in %q", unit, line)
			return 0
		}
		return metric("events/cpu-s"), metric("events/s")
	}
	b.Fatalf("%s.wasm printed no BenchmarkRead%s line:\n%s", wasm, kind, out)
	return 0, 0
}
