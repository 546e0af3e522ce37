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

// TestClientGoToldWithoutItsUserAgent: the lab's informers are client-go
// with User-Agents of their own ("fleet-c091-nobookmarks/1.0"). Alone, a
// capture is told by its watches' timeout beside timeoutSeconds; with the
// informers' klog, by that log; the log alone is client-go's too. The
// raw watches of samples-real send timeoutSeconds without timeout, and
// stay no library's.
func TestClientGoToldWithoutItsUserAgent(t *testing.T) {
	byFile := func(tl *Timeline, name string) ClientProfile {
		t.Helper()
		for fi := range tl.Files {
			if tl.Files[fi].Name == name {
				return tl.FileProfile(fi)
			}
		}
		t.Fatalf("no file %s", name)
		return ClientProfile{}
	}
	const capture = "c091-nobookmarks.ts.http"
	p := byFile(buildRecording(t, "samples-lab", capture), capture)
	if p.Library != LibraryClientGo || p.Version != "" || p.WatchList != WatchListUnknown || !strings.Contains(p.RecognisedBy, "timeout=") {
		t.Errorf("%s alone: %+v", capture, p)
	}
	if d := buildRecording(t, "samples-lab", capture).ProfileDifferences(0, p); len(d) != 1 || !strings.Contains(d[0], "did not") {
		t.Errorf("%s asks for no bookmarks, where client-go does: differences %q", capture, d)
	}
	if p := byFile(buildRecording(t, "samples-lab", capture, "fleet-klog.log"), capture); p.Library != LibraryClientGo || p.RecognisedBy != "its own log, fleet-klog.log, shows the same requests" {
		t.Errorf("%s with the informers' log: %+v", capture, p)
	}
	tl := buildRecording(t, "samples-lab", "fleet-klog.log")
	for fi := range tl.Files {
		if p := tl.FileProfile(fi); p.Library != LibraryClientGo || p.RecognisedBy != "read from its own log, fleet-klog.log" {
			t.Errorf("%s: %+v", tl.Files[fi].Name, p)
		}
	}
	const raw = "w4-then-resume.ts.http"
	tl = buildRecording(t, "samples-real", raw)
	if q := tl.Sessions[tl.Files[0].Sessions[0]].Request; q == nil || !q.Watch || q.TimeoutSeconds == 0 {
		t.Fatalf("%s: its first session is no watch with timeoutSeconds", raw)
	}
	if p := tl.FileProfile(0); p.Library != LibraryUnknown {
		t.Errorf("%s: %+v, from watches that send timeoutSeconds only", raw, p)
	}
}
