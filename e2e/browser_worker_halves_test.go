//go:build !wasm

package e2e

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"watchlens/app/engine"
	"watchlens/internal/synth"
	"watchlens/internal/testsample"
	"watchlens/timeline"

	"github.com/chromedp/chromedp"
)

// TestBrowserEngineWorkerHalves: a large capture, which the engine's
// worker reads in two halves at once (its helper worker reads the later
// one: app/engine/worker/halves.go), answers what the engine answers
// in-process natively, reading it whole: the load, its files, and the
// Markdown and JSON reports. The capture is pods as a real cluster's
// are, with a line of garbage in its later half, whose problem the load
// must place as the whole read does. A warm-up comes first, which starts
// the helper and reads its captures in halves with it (the helper then
// answers the load's question after the warm-up's).
func TestBrowserEngineWorkerHalves(t *testing.T) {
	t.Parallel()
	data := synth.CaptureOf(40<<20, synth.RealisticPod)
	at := len(data) * 3 / 4
	at += bytes.IndexByte(data[at:], '\n') + 1
	data = append(data[:at:at], append([]byte("{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"name\": garbage\n"), data[at:]...)...)
	dir := t.TempDir()
	const name = "realistic-pods-40MB.jsonl"
	must(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	const warmName = "kubectl-pods-watch.jsonl"
	must(t, os.WriteFile(filepath.Join(dir, warmName), testsample.SampleBytes(t, warmName), 0o644))
	s := startSite(t)
	serveWorkerTrial(t, s)
	s.mux.Handle("/recording/", http.StripPrefix("/recording/", http.FileServer(http.Dir(dir))))

	e, opened, err := engine.Open([]engine.Source{{Name: name, Size: int64(len(data)), Data: bytes.NewReader(data)}}, engine.Options{Params: timeline.DefaultParams()})
	must(t, err)
	want := map[string]string{}
	for _, f := range []engine.ReportFormat{engine.ReportMarkdown, engine.ReportJSON} {
		r, err := e.Report(f, "")
		must(t, err)
		want[string(f)] = r
	}
	if opened.Files[0].Problems == 0 {
		t.Fatal("the garbage line gave the whole read no problem to place")
	}

	tab := s.newTab(t)
	navigate(t, tab, s.url+"/trial/worker-trial.html?cold=1&w=1000&h=600")
	type answers struct {
		Error         string
		Halves        bool
		Opened, Files string
		Reports       map[string]string
	}
	view, err := json.Marshal(engine.ViewState{Width: 1000, MaxHeight: 600, PixelRatio: 1, Selected: -1})
	must(t, err)
	args, err := json.Marshal(map[string]any{"formats": []engine.ReportFormat{engine.ReportMarkdown, engine.ReportJSON}, "view": string(view)})
	must(t, err)
	got, err := chromedp.Run(tab, chromedp.Evaluate[answers](`(async (a) => {
		const files = [new File([await (await fetch("/recording/`+name+`")).blob()], "`+name+`")];
		const w = new Worker("engine-worker.js");
		let id = 0;
		const ask = (q) => new Promise((ok) => {
			w.onmessage = (e) => ok(e.data);
			w.postMessage({ id: ++id, ...q });
		});
		// This machine may have two cores, on which the worker reads
		// a capture whole unless asked. The warm-up starts the helper
		// and reads its captures in halves with it, as on a machine of more cores,
		// and the load's halves are then read by the same helper.
		const warm = await ask({ q: "warm", urls: ["/recording/`+warmName+`"], view: a.view, halves: true });
		if (warm.error) return { Error: "the warm-up: " + warm.error };
		if (!warm.warmed) return { Error: "the warm-up did not end" };
		const o = await ask({ q: "open", files, halves: true });
		if (o.error) return { Error: o.error };
		const reports = {};
		for (const f of a.formats) {
			const r = await ask({ q: "report", args: JSON.stringify([f, ""]) });
			if (r.error) return { Error: r.error };
			reports[f] = JSON.parse(r.answer);
		}
		w.terminate();
		return { Halves: !!o.halves, Opened: o.opened, Files: o.files, Reports: reports };
	})(`+string(args)+`)`, chromedp.EvalAwaitPromise))
	must(t, err)
	if got.Error != "" {
		t.Fatalf("the worker failed: %s", got.Error)
	}
	if !got.Halves {
		t.Error("the worker read the capture whole, not in halves")
	}
	sameLoad(t, got.Opened, got.Files, opened)
	for f, w := range want {
		if got.Reports[f] != w {
			t.Errorf("the %s report through the worker differs from in-process:\nworker     %.600s\nin-process %.600s", f, got.Reports[f], w)
		}
	}
	t.Logf("%d events, %d problems", opened.Events, opened.Files[0].Problems)
}
