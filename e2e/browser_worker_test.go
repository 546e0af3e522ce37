//go:build !wasm

package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"

	"watchlens/app/canvas"
	"watchlens/app/engine"
	"watchlens/app/engine/enginetest"
	"watchlens/internal/testsample"
	"watchlens/timeline"

	"github.com/chromedp/chromedp"
)

// workerAnswers is what the engine's worker answered, as the test's
// script hands it over: the plain answers as their JSON, and each
// frame's floats in base64.
type workerAnswers struct {
	Error          string
	Opened, Files  string
	Drawn, Summary string
	Spec, Floats   string
	Zoomed         struct{ Drawn, Spec, Floats string }
	Hit            string
	// Again is the zoomed frame asked again with a buffer given back
	// that holds it exactly, every byte of it set first; Reused says the
	// answer came in a buffer as long as that one.
	Again  struct{ Spec, Floats string }
	Reused bool
}

// TestBrowserEngineWorker: three files of the lab recording (an audit
// log and two captures), opened through the engine in its worker
// (app/engine/worker) in Chromium, answer what the same engine answers
// in-process natively: the load, the first frame (its spec and every
// float), its summary, a zoomed frame and a hit test on it; and the
// zoomed frame again, written in a buffer given back.
func TestBrowserEngineWorker(t *testing.T) {
	t.Parallel()
	dir := testsample.Recording(t, "samples-lab")
	names := []string{"audit-a-1.log", "broad-a.ts.http", "c000-bookmarks.ts.http"}
	s := startSite(t)
	serveWorkerTrial(t, s)
	s.mux.Handle("/recording/", http.StripPrefix("/recording/", http.FileServer(http.Dir(dir))))

	// In-process: the engine natively, on the same bytes.
	paths := make([]string, len(names))
	for i, name := range names {
		paths[i] = filepath.Join(dir, name)
	}
	eng, opened := enginetest.Open(t, timeline.DefaultParams(), testsample.BaseName, paths...)
	first := engine.ViewState{Width: 1000, MaxHeight: 600, PixelRatio: 1, Selected: -1}
	firstView := viewBytes(t, first)
	first.From, first.To = opened.Extent(false)
	var fr canvas.Frame
	drawn := eng.Frame(first, &fr)
	summary := eng.Summary(first)
	zoomed := first
	zoomed.From, zoomed.To = first.From+(first.To-first.From)/4, first.From+(first.To-first.From)/2
	var zfr canvas.Frame
	zdrawn := eng.Frame(zoomed, &zfr)
	hitX, hitY := zdrawn.Layout.PlotX+zdrawn.Layout.PlotW/2, zdrawn.Layout.LanesY+canvas.RowHeight/2
	hit := eng.Hit(zoomed, hitX, hitY)

	// Through the worker.
	tab := s.newTab(t)
	navigate(t, tab, s.url+"/trial/worker-trial.html?cold=1&w=1000&h=600")
	args, err := json.Marshal(map[string]any{"names": names, "first": firstView, "zoomed": viewBytes(t, zoomed), "x": hitX, "y": hitY})
	must(t, err)
	got, err := chromedp.Run(tab, chromedp.Evaluate[workerAnswers](`(async (a) => {
		const files = await Promise.all(a.names.map(async (n) => new File([await (await fetch("/recording/" + n)).blob()], n)));
		const w = new Worker("engine-worker.js");
		let id = 0;
		const ask = (q, transfer = []) => new Promise((ok) => {
			w.onmessage = (e) => ok(e.data);
			w.postMessage({ id: ++id, ...q }, transfer);
		});
		const base64 = (buf) => {
			const b = new Uint8Array(buf);
			let s = "";
			for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode.apply(null, b.subarray(i, i + 0x8000));
			return btoa(s);
		};
		const o = await ask({ q: "open", files, view: new Uint8Array(a.first) });
		if (o.error) return { Error: o.error };
		const z = await ask({ q: "frame", view: new Uint8Array(a.zoomed) });
		if (z.error) return { Error: z.error };
		const h = await ask({ q: "hit", view: new Uint8Array(a.zoomed), x: a.x, y: a.y });
		if (h.error) return { Error: h.error };
		// The page gives a frame's buffer back once it has drawn another
		// over it (client.Worker.GiveBack): the worker writes a later
		// frame in the smallest buffer it holds that fits, here this
		// one, as long as the frame, every byte of it set beforehand.
		const zFloats = base64(z.bytes);
		const spare = new ArrayBuffer(z.bytes.length);
		new Uint8Array(spare).fill(0xA5);
		const spareLength = spare.byteLength;
		const g = await ask({ q: "frame", view: new Uint8Array(a.zoomed), spare }, [spare]);
		if (g.error) return { Error: g.error };
		w.terminate();
		// The plain data crosses as JSON's UTF-8 bytes; what a frame
		// drew, in binary (engine.Drawn.AppendBinary).
		const text = (b) => new TextDecoder().decode(b);
		return { Opened: text(o.opened), Files: text(o.files), Drawn: base64(o.drawn), Summary: text(o.summary), Spec: o.spec, Floats: base64(o.bytes),
			Zoomed: { Drawn: base64(z.drawn), Spec: z.spec, Floats: zFloats }, Hit: text(h.hit),
			Again: { Spec: g.spec, Floats: base64(g.bytes) }, Reused: g.bytes.buffer.byteLength === spareLength && spareLength > 0 };
	})(`+string(args)+`)`, chromedp.EvalAwaitPromise))
	must(t, err)
	if got.Error != "" {
		t.Fatalf("the worker failed: %s", got.Error)
	}

	same := func(what, worker string, v any) {
		t.Helper()
		want, err := json.Marshal(v)
		must(t, err)
		if worker != string(want) {
			t.Errorf("%s through the worker differs from in-process:\nworker     %.400s\nin-process %.400s", what, worker, want)
		}
	}
	// The files cross apart from the rest of the load's answer.
	same("the load's files", got.Files, opened.Files)
	rest := opened
	rest.Files = nil
	same("the load's answer", got.Opened, rest)
	sameDrawn := func(what, worker string, d engine.Drawn) {
		t.Helper()
		want, err := d.AppendBinary(nil)
		must(t, err)
		if got, err := base64.StdEncoding.DecodeString(worker); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s through the worker differs from in-process: %d bytes against %d (%v)", what, len(got), len(want), err)
		}
	}
	sameDrawn("the first frame's layout", got.Drawn, drawn)
	same("the first frame's summary", got.Summary, summary)
	sameDrawn("the zoomed frame's layout", got.Zoomed.Drawn, zdrawn)
	same("the hit test", got.Hit, hit)
	sameFrame := func(what, spec, floats string, fr *canvas.Frame) {
		t.Helper()
		wantSpec, err := fr.Spec()
		must(t, err)
		wantFloats, n := fr.Floats(nil)
		gotFloats, err := base64.StdEncoding.DecodeString(floats)
		must(t, err)
		if spec != string(wantSpec) || !bytes.Equal(gotFloats, wantFloats) {
			t.Errorf("%s through the worker differs from in-process: spec %d bytes against %d, %d floats against %d",
				what, len(spec), len(wantSpec), len(gotFloats)/4, n)
		}
	}
	sameFrame("the first frame", got.Spec, got.Floats, &fr)
	sameFrame("the zoomed frame", got.Zoomed.Spec, got.Zoomed.Floats, &zfr)
	sameFrame("the zoomed frame written in a buffer given back", got.Again.Spec, got.Again.Floats, &zfr)
	if !got.Reused {
		t.Error("the zoomed frame asked again with a buffer given back came in another buffer")
	}
	if len(opened.Files) < 3 || opened.Events == 0 || summary.Lanes == 0 || len(fr.Ops) == 0 {
		t.Errorf("the load proves little: %d files, %d events, %d lanes, %d ops", len(opened.Files), opened.Events, summary.Lanes, len(fr.Ops))
	}
	t.Logf("%d files, %d events, %d lanes; a frame of %d ops; the hit: %q", len(opened.Files), opened.Events, summary.Lanes, len(fr.Ops), hit.Text)
}
