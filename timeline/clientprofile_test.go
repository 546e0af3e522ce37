package timeline

import (
	"strings"
	"testing"
	"time"
)

// The JavaScript client names itself on its LISTs and its watches carry
// undici's default User-Agent; kube-rs sends none, and is told by its
// queries' leading "&"; what only looks alike is not taken for either.
func TestProfilesJavaScriptKubeRS(t *testing.T) {
	js := ProfileOf("kubernetes-client-javascript/2.0.0")
	if js.Library != LibraryJavaScript || js.Version != "2.0.0" || js.AsksBookmarks || js.RelistSource != SourceEtcd ||
		!strings.Contains(js.WatchTimeout, "30 s") || js.RecognisedBy != "" {
		t.Errorf("JavaScript 2.0.0: %+v", js)
	}
	if p := ProfileOf("kubernetes-client-javascript/1.4.0"); p.Backoff != "none" || strings.Contains(p.WatchTimeout, "30 s") {
		t.Errorf("JavaScript 1.4.0: %+v (no backoff, no 30 s abort before 2.0.0)", p)
	}
	if p := ProfileOf("undici"); p.Library != LibraryJavaScript || p.Version != "" || p.RecognisedBy == "" {
		t.Errorf("undici: %+v", p)
	}
	for _, ua := range []string{"node", "node-fetch", "undici/6.21.0", "kube-rs", "", "kubernetes-client-javascript"} {
		if p := ProfileOf(ua); p.Library != LibraryUnknown {
			t.Errorf("ProfileOf(%q) = %v", ua, p.Library)
		}
	}
	kubeRS := func(q string) *capture {
		r := narrow("5", true)
		r.Query = q
		return (&capture{}).watch(r, 0, time.Minute).add(0, 6, time.Second, "a")
	}
	withUA := kubeRS("&watch=true&timeoutSeconds=290&allowWatchBookmarks=true&resourceVersion=5")
	withUA.sess[0].Request.UserAgent = "fleet-c000/1.0"
	tl := build(kubeRS("&watch=true&timeoutSeconds=290&labelSelector=app%3Dx&allowWatchBookmarks=true&resourceVersion=5"),
		kubeRS("allowWatchBookmarks=true&labelSelector=app%3Dx&resourceVersion=5&watch=true"), withUA)
	if p := tl.FileProfile(0); p.Library != LibraryKubeRS || !p.AsksBookmarks || p.WatchTimeout != "290 s" || p.RecognisedBy == "" {
		t.Errorf("no User-Agent, a query starting with &: %+v", p)
	}
	for fi := 1; fi < 3; fi++ {
		if p := tl.FileProfile(fi); p.Library != LibraryUnknown {
			t.Errorf("file %d: %v", fi, p.Library)
		}
	}
	// A file read from a library's own log is that library's.
	for log, want := range map[string]Library{"kubers-watcher.log": LibraryKubeRS, "fabric8-informer.log": LibraryFabric8, "python-informer.log": LibraryPython} {
		tl, files := libLogClients(t, log)
		for _, fi := range files {
			if p := tl.FileProfile(fi); p.Library != want {
				t.Errorf("%s: %v", tl.Files[fi].Name, p.Library)
			}
		}
	}
}
