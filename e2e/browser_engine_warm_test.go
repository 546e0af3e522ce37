//go:build !wasm

package e2e

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"testing"

	"watchlens/warmup"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestBrowserEngineWarmIncident: the engine worker's warm-up, given the
// page's warm samples and the incident the site serves under
// /web/warmup/ (package warmup), fetches them, opens the incident's
// files together and answers its fleet, and runs to its end: a file the
// site lacks, or an incident the engine cannot open or whose fleet it
// cannot draw, fails it.
func TestBrowserEngineWarmIncident(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	serveClientPage(t, s)
	names, err := fs.Glob(warmup.FS, "*")
	must(t, err)
	incident := make([]string, len(names))
	for i, name := range names {
		incident[i] = "/web/warmup/" + name
	}
	samples, err := json.Marshal([]string{"/web/samples/kubectl-pods-watch.jsonl", "/web/samples/w1-broad-configmaps-bookmarks.ts.http"})
	must(t, err)
	files, err := json.Marshal(incident)
	must(t, err)
	tab := s.newTab(t)
	navigate(t, tab, s.url+"/client/")
	waitClient(t, tab)
	if !askClient[bool](t, tab, `window.engineClient.warm(`+string(samples)+`, `+string(files)+`)`) {
		t.Error("the warm-up with the incident did not run to its end")
	}
}

// TestBrowserSpareWarmsBriefly: the page's first spare engine workers
// warm up in full, and the spares it starts once the user pauses on a
// capture, and the one after its warm-up's rehearsal, warm up briefly
// (client.Spare): their code is the one the
// first optimised, while a worker that runs it lives. After a second
// capture replaces the first, the worker whose full warm-up ran has
// ended, and the next spare is still brief: the shown capture's worker,
// started while that one lived, runs the same optimised code.
func TestBrowserSpareWarmsBriefly(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	tab := s.newTab(t)
	_, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
		window.warmQuestions = [];
		const post = Worker.prototype.postMessage;
		Worker.prototype.postMessage = function (m, ...rest) {
			if (m && m.q === "warm") window.warmQuestions.push(!!m.brief);
			return post.call(this, m, ...rest);
		};
	})()`})
	must(t, err)
	navigate(t, tab, s.url+"/?sample=client-go-golden-watch.http")
	waitFileOpen(t, tab, "client-go-golden-watch.http")
	waitWarm(t, tab)
	warms := func() []bool {
		got, err := chromedp.Run(tab, chromedp.Evaluate[[]bool](`window.warmQuestions`))
		must(t, err)
		return got
	}
	before := warms()
	// The visit's sample takes the first spare, the page's rehearsal of a
	// drop (app/warmup.go's rehearseShow) the second, once its full
	// warm-up has run: the third, the one the first drop takes, is brief.
	if shownReads(t, tab, "client-go-golden-watch.http") != 2 {
		t.Fatal("the page did not show its sample again as its warm-up ended")
	}
	if want := []bool{false, false, true}; !slices.Equal(before, want) {
		t.Fatalf("the page warmed up as %v (true: brief) before its first drop, want %v", before, want)
	}
	// next waits for the spare the page starts once the user pauses on
	// the capture just shown, and answers whether its warm-up is brief.
	next := func(after int) bool {
		_, err := chromedp.Run(tab, chromedp.Poll[bool](fmt.Sprintf(`window.warmQuestions.length > %d`, after), chromedp.WithPollingTimeout(pageWait)))
		must(t, err)
		got := warms()
		return got[len(got)-1]
	}
	upload(t, tab, "samples/w4-then-resume.http")
	waitFileOpen(t, tab, "w4-then-resume.http")
	if !next(len(before)) {
		t.Errorf("the spare started after the first drop warmed up in full (%v), want brief", warms())
	}
	n := len(warms())
	upload(t, tab, "samples/w3-then-resume.http")
	waitFileOpen(t, tab, "w3-then-resume.http")
	if !next(n) {
		t.Errorf("the spare started after the second drop warmed up in full (%v), want brief", warms())
	}
}
