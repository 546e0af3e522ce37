//go:build !wasm

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// loadCPU is the CPU time the page's threads took while loading, from a
// Chromium trace: a long task's wall time grows with the machine's load
// (other processes take the cores), its CPU time does not, so these say
// whether a long task is the page's own work.
type loadCPU struct {
	// LongestTask is the most CPU one task of the page's main thread
	// took, and LongestTaskWall that task's wall time; LongestWall is
	// the most wall time one task took, and LongestWallCPU its CPU: a
	// task that waited (on another process, or for a core) took much
	// less CPU than wall time.
	LongestTask, LongestTaskWall float64
	LongestWall, LongestWallCPU  float64
	// Main is the CPU of every task of the page's main thread; Workers
	// that of its dedicated workers' threads (the engine's, the reading
	// worker's); all in ms.
	Main, Workers float64
	// Tasks counts the main thread's tasks.
	Tasks int
}

// add is the CPU of the loads so far (c) and of the next, which it
// logs: the longest task of them all, the threads' CPU summed.
func (c loadCPU) add(next loadCPU, b *testing.B) loadCPU {
	b.Logf("CPU of the page's threads: its longest task %.0f ms (%.0f ms of wall time) of %d tasks, the longest in wall time %.0f ms (%.0f ms of CPU); the main thread %.0f ms, the workers %.0f ms",
		next.LongestTask, next.LongestTaskWall, next.Tasks, next.LongestWall, next.LongestWallCPU, next.Main, next.Workers)
	if next.LongestTask > c.LongestTask {
		c.LongestTask, c.LongestTaskWall = next.LongestTask, next.LongestTaskWall
	}
	if next.LongestWall > c.LongestWall {
		c.LongestWall, c.LongestWallCPU = next.LongestWall, next.LongestWallCPU
	}
	c.Main, c.Workers, c.Tasks = c.Main+next.Main, c.Workers+next.Workers, c.Tasks+next.Tasks
	return c
}

// report reports the CPU of loads loads (add) as the benchmark's
// metrics: the longest task of them all, the threads' CPU per load.
func (c loadCPU) report(b *testing.B, loads int) {
	n := float64(loads)
	b.ReportMetric(c.LongestTask, "ms/longest-task-cpu")
	b.ReportMetric(c.Main/n, "ms/main-cpu")
	b.ReportMetric(c.Workers/n, "ms/workers-cpu")
}

// startCPUTrace starts a Chromium trace of the tasks of every thread
// (the category toplevel, whose tasks carry their thread's CPU time), and
// returns the func that ends it and sums the CPU of the page's threads.
// The page's renderer is the process whose main thread took the most
// CPU: the benchmarks load in one tab at a time. WATCHLENS_BENCH_TRACE,
// a folder, has each load's whole trace written there (traceDetail),
// to see where a load's time went.
func startCPUTrace(b *testing.B, tab context.Context) (stop func() loadCPU) {
	b.Helper()
	var mu sync.Mutex
	var raw [][]byte
	complete := make(chan struct{})
	listening, stopListening := context.WithCancel(tab)
	must(b, chromedp.Listen(listening, func(ev any) {
		switch ev := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			for _, v := range ev.Value {
				raw = append(raw, []byte(v))
			}
			mu.Unlock()
		case *tracing.EventTracingComplete:
			close(complete)
		}
	}))
	categories := []string{"toplevel", "__metadata"}
	keep := os.Getenv("WATCHLENS_BENCH_TRACE")
	if keep != "" {
		categories = append(categories, traceDetail...)
	}
	_, err := chromedp.Call(tab, tracing.Start, tracing.StartParams{
		TransferMode: "ReportEvents",
		TraceConfig:  &tracing.TraceConfig{IncludedCategories: categories},
	})
	must(b, err)
	return func() loadCPU {
		defer stopListening()
		_, err := chromedp.Call(tab, tracing.End, cdp.Empty{})
		must(b, err)
		select {
		case <-complete:
		case <-time.After(time.Minute):
			b.Fatal("the trace never completed")
		}
		mu.Lock()
		defer mu.Unlock()
		if keep != "" {
			writeTrace(b, keep, raw)
		}
		events := make([]traceEvent, 0, len(raw))
		for _, r := range raw {
			var e traceEvent
			if json.Unmarshal(r, &e) == nil {
				events = append(events, e)
			}
		}
		return cpuOfPage(events)
	}
}

// traceDetail are the trace's categories beyond the tasks' when
// WATCHLENS_BENCH_TRACE asks for the whole trace: the marks the page
// and its workers set (performance.mark), V8's CPU profiles of every
// thread (wasm functions by their Go names), its collections and its
// wasm compiles (each function's tier-up to TurboFan), the messages
// between threads, the page's style, layout and paint.
var traceDetail = []string{"blink.user_timing", "disabled-by-default-v8.cpu_profiler", "v8", "v8.wasm", "disabled-by-default-v8.wasm.detailed", "disabled-by-default-v8.wasm.turbofan", "disabled-by-default-v8.gc", "devtools.timeline", "disabled-by-default-devtools.timeline"}

// writeTrace writes the trace's raw events into the folder dir as a
// file Perfetto UI or chrome://tracing opens, one a load, numbered by
// when it was written.
func writeTrace(b *testing.B, dir string, raw [][]byte) {
	must(b, os.MkdirAll(dir, 0o755))
	name := filepath.Join(dir, fmt.Sprintf("%s-%d.json", strings.ReplaceAll(b.Name(), "/", "_"), time.Now().UnixMilli()))
	var out bytes.Buffer
	out.WriteString(`{"traceEvents":[`)
	out.Write(bytes.Join(raw, []byte(",\n")))
	out.WriteString("]}\n")
	must(b, os.WriteFile(name, out.Bytes(), 0o644))
	b.Logf("trace: %s", name)
}

// traceEvent is the part of a Chromium trace event the CPU is summed
// from: times in µs, tdur the thread's CPU time of a complete event.
type traceEvent struct {
	Name string  `json:"name"`
	Ph   string  `json:"ph"`
	Pid  int     `json:"pid"`
	Tid  int     `json:"tid"`
	Ts   float64 `json:"ts"`
	Dur  float64 `json:"dur"`
	TDur float64 `json:"tdur"`
	Args struct {
		Name string `json:"name"`
	} `json:"args"`
}

// cpuOfPage sums the CPU of the top-level tasks (those inside no other
// of their thread's) of the busiest renderer's main thread and of its
// dedicated workers' threads.
func cpuOfPage(events []traceEvent) loadCPU {
	type thread struct{ pid, tid int }
	names := map[thread]string{}
	tasks := map[thread][]traceEvent{}
	for _, e := range events {
		t := thread{e.Pid, e.Tid}
		switch {
		case e.Ph == "M" && e.Name == "thread_name":
			names[t] = e.Args.Name
		case e.Ph == "X" && e.Dur > 0:
			tasks[t] = append(tasks[t], e)
		}
	}
	type sums struct {
		cpu, longest, longestWall float64
		wall, wallCPU             float64
		n                         int
	}
	topLevel := func(ts []traceEvent) (s sums) {
		sort.Slice(ts, func(i, j int) bool { return ts[i].Ts < ts[j].Ts })
		end := 0.0
		for _, e := range ts {
			if e.Ts < end {
				continue // inside the task before
			}
			end = e.Ts + e.Dur
			s.cpu += e.TDur / 1000
			s.n++
			if e.TDur/1000 > s.longest {
				s.longest, s.longestWall = e.TDur/1000, e.Dur/1000
			}
			if e.Dur/1000 > s.wall {
				s.wall, s.wallCPU = e.Dur/1000, e.TDur/1000
			}
		}
		return s
	}
	var page thread
	var main sums
	for t, name := range names {
		if name != "CrRendererMain" {
			continue
		}
		if s := topLevel(tasks[t]); s.cpu > main.cpu {
			page, main = t, s
		}
	}
	c := loadCPU{LongestTask: main.longest, LongestTaskWall: main.longestWall, LongestWall: main.wall, LongestWallCPU: main.wallCPU,
		Main: main.cpu, Tasks: main.n}
	for t, name := range names {
		if t.pid == page.pid && name == "DedicatedWorker thread" {
			c.Workers += topLevel(tasks[t]).cpu
		}
	}
	return c
}
