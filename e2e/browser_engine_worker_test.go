//go:build !wasm

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"watchlens/app/engine"
	"watchlens/app/engine/enginetest"
	"watchlens/e2e/clientcheck"
	"watchlens/internal/synth"
	"watchlens/internal/testsample"
	"watchlens/timeline"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/chromedp"
)

// clientPage is the page around app/engine/client (package
// e2e/clientcheck/page): it counts the engine workers it starts, and
// sets window.engineClient once it has painted and prepared its spare.
const clientPage = `<!doctype html>
<meta charset="utf-8">
<title>watchlens engine client</title>
<script>
window.engineWorkers = 0;
const PageWorker = window.Worker;
window.Worker = class extends PageWorker {
  constructor(url, opts) {
    super(url, opts);
    if (String(url).includes("engine-worker")) window.engineWorkers++;
  }
};
</script>
<script src="/wasm_exec.js"></script>
<script>
const go = new Go();
WebAssembly.instantiateStreaming(fetch("/client/page.wasm"), go.importObject).then((r) => go.run(r.instance));
</script>
<p>The engine's client.</p>
`

// serveClientPage builds the engine's worker (serveWorkerTrial) and the
// client's page, and serves the page at /client/.
func serveClientPage(t testing.TB, s *servedSite) {
	serveWorkerTrial(t, s)
	dir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "page.wasm"), "./e2e/clientcheck/page")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the client's page: %v\n%s", err, out)
	}
	s.mux.Handle("/client/page.wasm", http.StripPrefix("/client", http.FileServer(http.Dir(dir))))
	s.mux.HandleFunc("/client/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, clientPage)
	})
}

// anyFleetRow says whether one of hits is on a client's row.
func anyFleetRow(hits []engine.FleetHit) bool {
	for _, h := range hits {
		if h.Row >= 0 {
			return true
		}
	}
	return false
}

// clientFiles is the JS of the Files names, fetched from /files/: an
// await in askClient's expression.
func clientFiles(names []string) string {
	b, _ := json.Marshal(names)
	return `await Promise.all(` + string(b) + `.map(async (n) => new File([await (await fetch("/files/" + n)).blob()], n)))`
}

// askClient evaluates the JS expression js (which may await) in the
// client's page and returns its value; the test fails with the reason
// when it throws or its promise is rejected.
func askClient[T any](t testing.TB, tab context.Context, js string) T {
	t.Helper()
	type answer struct {
		OK  T
		Err *string
	}
	got, err := chromedp.Run(tab, chromedp.Evaluate[answer](`(async () => {
		try {
			return { OK: await (async () => `+js+`)() };
		} catch (e) {
			return { Err: String(e) };
		}
	})()`, chromedp.EvalAwaitPromise))
	must(t, err)
	if got.Err != nil {
		t.Fatalf("%.80s: %s", js, *got.Err)
	}
	return got.OK
}

// TestBrowserEngineClient: app/engine/client, asking the engine in its
// worker from the page's goroutines, answers every question the page
// asks (clientcheck.AskEvery: open, layout, frames and their floats,
// summaries, zones, a hit, steps, an analysis in another zone, and the
// panels' questions: files, events, finds, findings, a range, reconnects,
// the fleet's rows, frame, hits and ranges, the reports) as the
// in-process engine does natively, on four files of the lab recording;
// of two frame questions asked at once, the first answers ErrCancelled
// and the second its frame; and a worker ended answers ErrEnded.
func TestBrowserEngineClient(t *testing.T) {
	t.Parallel()
	dir := testsample.Recording(t, "samples-lab")
	names := []string{"audit-a-1.log", "broad-a.ts.http", "c000-bookmarks.ts.http", "c101-nobookmarks.ts.http"}
	s := startSite(t)
	serveClientPage(t, s)
	s.mux.Handle("/files/", http.StripPrefix("/files/", http.FileServer(http.Dir(dir))))
	const width, height = 1000, 600

	paths := make([]string, len(names))
	for i, name := range names {
		paths[i] = filepath.Join(dir, name)
	}
	eng, _ := enginetest.Open(t, timeline.DefaultParams(), testsample.BaseName, paths...)
	want, err := clientcheck.AskEvery(eng, width, height)
	must(t, err)

	tab := s.newTab(t)
	navigate(t, tab, s.url+"/client/")
	waitClient(t, tab)
	answers := askClient[string](t, tab, `window.engineClient.answers(`+clientFiles(names)+`, `+fmt.Sprint(width, ",", height)+`)`)
	var got clientcheck.Answers
	must(t, json.Unmarshal([]byte(answers), &got))

	same := func(what string, g, w any) {
		t.Helper()
		gb, err := json.Marshal(g)
		must(t, err)
		wb, err := json.Marshal(w)
		must(t, err)
		if !bytes.Equal(gb, wb) {
			t.Errorf("%s through the client differs from in-process:\nclient     %.600s\nin-process %.600s", what, gb, wb)
		}
	}
	same("the load's answer", got.Opened, want.Opened)
	same("the layouts", got.Layouts, want.Layouts)
	same("the summaries", got.Summaries, want.Summaries)
	same("the hits", got.Hits, want.Hits)
	same("the steps", got.Steps, want.Steps)
	same("the zones", got.Zones, want.Zones)
	same("the zones' counts", got.ZoneCount, want.ZoneCount)
	same("the analysis", got.Analyzed, want.Analyzed)
	same("the files", got.Files, want.Files)
	same("the events", got.Events, want.Events)
	same("the finds", got.Finds, want.Finds)
	same("the findings", got.Findings, want.Findings)
	same("the range's statistics", got.RangeStats, want.RangeStats)
	same("the reconnects", got.Reconnects, want.Reconnects)
	same("the fleet", got.Fleet, want.Fleet)
	same("whether there is a fleet", got.HasFleet, want.HasFleet)
	same("the fleet's layouts", got.FleetLayout, want.FleetLayout)
	same("the fleet's hits", got.FleetHits, want.FleetHits)
	same("the fleet's ranges", got.FleetRanges, want.FleetRanges)
	same("the fleet's frames", got.FleetFrames, want.FleetFrames)
	same("the reports", got.Reports, want.Reports)
	if len(got.Frames) != len(want.Frames) {
		t.Fatalf("the client answered %d frames, the engine %d", len(got.Frames), len(want.Frames))
	}
	for i := range want.Frames {
		g, w := got.Frames[i], want.Frames[i]
		same(fmt.Sprintf("frame %d's layout", i), g.Drawn, w.Drawn)
		if g.Spec != w.Spec || !bytes.Equal(g.Floats, w.Floats) {
			t.Errorf("frame %d through the client differs from in-process: spec %d bytes against %d, %d floats against %d",
				i, len(g.Spec), len(w.Spec), len(g.Floats)/4, len(w.Floats)/4)
		}
	}
	// What the answers must hold to prove anything: a capture of several
	// files and zones, a hit on an event, steps that move, an analysis
	// that changed the zones' words.
	if len(want.Opened.Files) < 4 || want.Opened.Events == 0 || len(want.Frames[0].Floats) == 0 || want.Summaries[0].Lanes == 0 ||
		want.ZoneCount[0] == 0 || want.Summaries[1].Selected == "none" || want.Steps[0].Event < 0 || want.Steps[1].Event < 0 ||
		want.Analyzed[0].Generation < 2 || fmt.Sprint(want.Zones[0]) == fmt.Sprint(want.Zones[1]) {
		t.Errorf("the sequence proves little: %d files, %d events, %d floats, %d lanes, %d zones, selected %q, steps %v, generation %d, zones the same after the analysis: %v",
			len(want.Opened.Files), want.Opened.Events, len(want.Frames[0].Floats)/4, want.Summaries[0].Lanes, want.ZoneCount[0],
			want.Summaries[1].Selected, want.Steps, want.Analyzed[0].Generation, fmt.Sprint(want.Zones[0]) == fmt.Sprint(want.Zones[1]))
	}
	// And the panels' questions: files found by name, an event with its
	// previous one, finds that match, findings, a range with events, a
	// fleet with rows and a hit on one, reports.
	if len(want.Files) < 2 || want.Files[1].Matched == 0 || want.Files[1].Matched == want.Files[0].Matched ||
		want.Events[0].Index < 0 || want.Events[0].Prev < 0 || len(want.Finds[0]) == 0 ||
		len(want.Findings[0].Zones) == 0 || want.RangeStats[0].Events == 0 || len(want.Reconnects[0].Files) == 0 ||
		!want.HasFleet || len(want.Fleet.Rows) == 0 || len(want.FleetFrames[0].Floats) == 0 || !anyFleetRow(want.FleetHits) ||
		len(want.Reports) != 4 {
		t.Errorf("the panels' questions prove little: files %d and %d, event %d after %d, %d finds, %d zones found, %d events in range, %d reconnect files, fleet %v of %d rows, hits %v, %d reports",
			want.Files[0].Matched, want.Files[1].Matched, want.Events[0].Index, want.Events[0].Prev, len(want.Finds[0]),
			len(want.Findings[0].Zones), want.RangeStats[0].Events, len(want.Reconnects[0].Files), want.HasFleet, len(want.Fleet.Rows), want.FleetHits, len(want.Reports))
	}
	t.Logf("%d files, %d events, %d lanes, %d zones; frames of %d and %d floats; %d hits; selected %q",
		len(want.Opened.Files), want.Opened.Events, want.Summaries[0].Lanes, want.ZoneCount[0],
		len(want.Frames[0].Floats)/4, len(want.Frames[1].Floats)/4, len(want.Hits), want.Summaries[1].Selected)

	// Two frame questions at once, as a pan asks them; each part in a
	// tab of its own, within its own time limit.
	tab = s.newTab(t)
	navigate(t, tab, s.url+"/client/")
	waitClient(t, tab)
	type frameAnswer struct {
		Err   string
		Drawn engine.Drawn
		Ops   int
	}
	supersede := askClient[string](t, tab, `window.engineClient.supersede(`+clientFiles(names)+`, `+fmt.Sprint(width, ",", height)+`)`)
	var frames map[string]frameAnswer
	must(t, json.Unmarshal([]byte(supersede), &frames))
	if frames["First"].Err != "cancelled" || frames["Second"].Err != "" || frames["Second"].Ops == 0 {
		t.Errorf("two frames asked at once: the first answered %q (want cancelled), the second %q with %d ops (want a frame)",
			frames["First"].Err, frames["Second"].Err, frames["Second"].Ops)
	}

	tab = s.newTab(t)
	navigate(t, tab, s.url+"/client/")
	waitClient(t, tab)
	askClient[int](t, tab, `window.engineClient.open(`+clientFiles(names[:1])+`)`)
	if !askClient[bool](t, tab, `window.engineClient.end()`) {
		t.Error("a question to a worker ended did not answer ErrEnded")
	}
}

// waitClient waits until the client's page has started.
func waitClient(t testing.TB, tab context.Context) {
	t.Helper()
	_, err := chromedp.Run(tab, chromedp.Poll[bool](`window.engineClient !== undefined`, chromedp.WithPollingTimeout(2*time.Minute)))
	must(t, err)
}

// TestBrowserEngineClientSpare: the page's first drop is read by the
// spare engine worker it started and warmed after its first paint (no
// engine worker starts between the drop and the first frame), and so
// reaches its first frame sooner than a drop read by a worker started
// then, which compiles the wasm and runs it unoptimised. Three rounds,
// each in a new tab, alternate the two; the ratio of the medians is
// logged and must be under 1.
func TestBrowserEngineClientSpare(t *testing.T) {
	t.Parallel()
	dir := testsample.Recording(t, "samples-lab")
	names := []string{"audit-a-1.log", "broad-a.ts.http", "c000-bookmarks.ts.http", "c101-nobookmarks.ts.http"}
	s := startSite(t)
	serveClientPage(t, s)
	s.mux.Handle("/files/", http.StripPrefix("/files/", http.FileServer(http.Dir(dir))))
	type firstFrame struct {
		Ms, OpenMs      float64
		Before, AtFrame int
		Events, Ops     int
	}
	var spare, cold []float64
	for round := range 3 {
		tab := s.newTab(t)
		navigate(t, tab, s.url+"/client/")
		waitClient(t, tab)
		for _, useSpare := range []bool{true, false} {
			got := askClient[string](t, tab, fmt.Sprintf(`window.engineClient.firstFrame(%s, 1000, 600, %v)`, clientFiles(names), useSpare))
			var f firstFrame
			must(t, json.Unmarshal([]byte(got), &f))
			if f.Events == 0 || f.Ops == 0 {
				t.Fatalf("the first frame shows nothing: %+v", f)
			}
			if useSpare {
				if f.Before != 1 || f.AtFrame != 1 {
					t.Errorf("round %d: %d engine workers started before the drop and %d by its first frame; want the spare alone, 1 and 1", round, f.Before, f.AtFrame)
				}
				spare = append(spare, f.Ms)
			} else {
				cold = append(cold, f.Ms)
			}
			t.Logf("round %d, spare %v: %.0f ms from the drop to the first frame (the open's answer at %.0f ms)", round, useSpare, f.Ms, f.OpenMs)
		}
	}
	ratio := median(spare) / median(cold)
	t.Logf("drop to first frame, median of 3: %.0f ms with the spare, %.0f ms with a worker started at the drop: %.2fx", median(spare), median(cold), ratio)
	if ratio >= 1 {
		t.Errorf("the spare does not bring the first frame sooner: %.2fx", ratio)
	}
}

// TestBrowserEngineWorkerMemory (#26): a load's memory is given back
// once its worker ends. A page's wasm heap never shrinks, so a load that
// grew it keeps it for the tab's life; in a worker ended
// (client.Worker.Terminate, as a load superseded, cut off or replaced
// ends its worker) the browser frees it. In a Chromium of its own, 440
// MB of ConfigMaps (a million events) opened in a worker grow its renderer's resident set,
// and at least three quarters of that growth is gone once the worker
// has ended (within 45 s: the browser frees it when it gets to it).
func TestBrowserEngineWorkerMemory(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	serveClientPage(t, s)
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "configmaps.jsonl"), synth.CaptureOf(440<<20, synth.ConfigMap), 0o644))
	s.mux.Handle("/files/", http.StripPrefix("/files/", http.FileServer(http.Dir(dir))))

	browser := newBrowser(t)
	tab, closeTab := openTab(t, browser)
	defer closeTab()
	navigate(t, tab, s.url+"/client/")
	waitClient(t, tab)
	askClient[bool](t, tab, `(window.files = `+clientFiles([]string{"configmaps.jsonl"})+`, window.engineClient.warmed())`)
	root := chromedp.FromContext(tab).Browser.Process().Pid
	before := rendererRSS(t, root)
	events := askClient[int](t, tab, `window.engineClient.open(window.files)`)
	loaded := rendererRSS(t, root)
	if !askClient[bool](t, tab, `window.engineClient.end()`) {
		t.Error("a question to the worker ended did not answer ErrEnded")
	}
	grown := loaded - before
	after := loaded
	// The browser frees an ended worker's memory when it gets to it: on a
	// busy machine that has taken longer than 20 s, so past 10 s the page
	// is asked to collect its garbage, as a browser does in time.
	start, collected := time.Now(), false
	for deadline := start.Add(45 * time.Second); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		if after = rendererRSS(t, root); after-before < grown/4 {
			break
		}
		if !collected && time.Since(start) > 10*time.Second {
			_, err := chromedp.Call(tab, heapprofiler.CollectGarbage, cdp.Empty{})
			must(t, err)
			collected = true
		}
	}
	t.Logf("%d events: the renderers' resident set %.0f MB before the load, %.0f MB loaded, %.0f MB %.1f s after its worker ended (the page's garbage collected: %v): %.0f%% of the %.0f MB grown given back",
		events, float64(before)/1e6, float64(loaded)/1e6, float64(after)/1e6, time.Since(start).Seconds(), collected, 100*float64(loaded-after)/float64(grown), float64(grown)/1e6)
	if events == 0 || grown < 50<<20 {
		t.Fatalf("the load proves little: %d events grew the renderers by %.0f MB", events, float64(grown)/1e6)
	}
	if after-before >= grown/4 {
		t.Errorf("the worker ended gave back %.0f of the %.0f MB its load grew", float64(loaded-after)/1e6, float64(grown)/1e6)
	}
}

// rendererRSS is the resident set (VmRSS) of the renderer processes
// descending from the browser process root, summed: a page's dedicated
// workers run in its renderer's process.
func rendererRSS(t testing.TB, root int) int64 {
	t.Helper()
	var sum int64
	for _, pid := range renderers(t, root) {
		if kb, ok := statusKB(pid, "VmRSS:"); ok {
			sum += kb << 10
		}
	}
	return sum
}
