//go:build !wasm

package e2e

import (
	"encoding/json"
	"io/fs"
	"testing"

	"watchlens/warmup"
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
