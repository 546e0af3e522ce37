package site

import (
	"strings"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// goFetchListener is how go-app's service worker answers every request
// of the page: from its cache, else by fetching it itself. A request the
// worker fetches for the page is not aborted when the page aborts it
// before the answer's headers come: a capture's link left for a file
// stayed open until its server answered.
const goFetchListener = "self.addEventListener(\"fetch\", (event) => {\n  event.respondWith(fetchWithCache(event.request));\n});"

// ownFetchListener answers only the app's own files, which the worker
// caches; the browser fetches anything else itself (a capture's link, a
// sample), as the page asked, so that the page can abort it.
const ownFetchListener = `self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== self.location.origin || !resourcesToCache.includes(url.pathname)) {
    return;
  }
  event.respondWith(fetchWithCache(event.request));
});`

// goInstallListener and goActivateListener are how go-app's service
// worker installs and activates: their work runs past the handlers'
// return, which the browser takes for the events' end. Its worker is
// then installed before its cache is filled, and, idle to the browser
// while it fetches the site, may be stopped before it takes over: a
// page then never learns of the new version.
const (
	goInstallListener  = "self.addEventListener(\"install\", async (event) => {\n  try {"
	goActivateListener = "self.addEventListener(\"activate\", async (event) => {\n  try {"
)

// ownInstallListener and ownActivateListener do the same work inside
// the events (waitUntil): the worker is installed once the site is
// cached, and kept running until then.
const (
	ownInstallListener  = "self.addEventListener(\"install\", (event) => event.waitUntil((async () => {\n  try {"
	ownActivateListener = "self.addEventListener(\"activate\", (event) => event.waitUntil((async () => {\n  try {"
)

// goCacheSite is how go-app's install fills the new version's cache, and
// ownCacheSite how this site's does (cacheSite). go-app's asks for each
// file through the browser's HTTP cache, which may answer with the old
// version's file of the same URL (an app.css or app.wasm a host lets it
// keep for minutes): cacheSite asks the server ("reload"). And
// cache.addAll fails when one file fails to arrive (a reset connection),
// on which go-app's install logs the error and ends as installed,
// without skipWaiting: that worker waits with a part of the site cached,
// once it activates it deletes the old version's cache, which held all
// of it, and a page left open never learns of the new version. cacheSite
// tries again, a second apart, and fails the install if the site still
// cannot be cached: the old version keeps serving, and the browser
// installs the new one at its next look for it (the page asks 3 s after
// it opens, and at each visit).
const (
	goCacheSite  = "await installWorker();"
	ownCacheSite = "await cacheSite();"
	cacheSite    = `
async function cacheSite() {
  const cache = await caches.open(cacheName);
  for (let attempt = 1; ; attempt++) {
    try {
      return await cache.addAll(resourcesToCache.map((url) => new Request(url, {cache: "reload"})));
    } catch (error) {
      if (attempt === 3) throw error;
      console.error("caching the site failed, trying again:", error);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}
`
)

// versionListener tells a page which version of the site the worker
// serves (site.go's takeoverScript asks, through the port it sends), and
// has a worker that waits take over when a page asks it to. A worker's
// install ends with skipWaiting, but Chromium gives up an activation that
// a request of a page comes into (the outgoing worker is started again
// for it), and the new worker then waits until every tab of the site has
// closed; takeoverScript asks again.
const versionListener = `
self.addEventListener("message", (event) => {
  const msg = event.data;
  if (msg && msg.type === "watchlens:version" && event.ports[0]) {
    event.ports[0].postMessage("{{.Version}}");
  } else if (msg && msg.type === "watchlens:skip-waiting") {
    self.skipWaiting();
  }
});
`

// appWorker is go-app's service worker with ownFetchListener, the
// install and the activation inside their events, the install caching
// the site as cacheSite does, and versionListener.
var appWorker = ownWorker(goapp.DefaultAppWorkerJS)

// ownWorker makes go-app's worker template src into appWorker. It
// panics if src is not the template it knows, so that a go-app upgrade
// that changes it fails every test rather than ship go-app's worker.
// Compiled to wasm, go-app has no template (src is empty) and the site
// is never built: there is no worker to make.
func ownWorker(src string) string {
	if src == "" {
		return ""
	}
	w := src
	for _, r := range []struct{ from, to string }{
		{goFetchListener, ownFetchListener},
		{goInstallListener, ownInstallListener},
		{goActivateListener, ownActivateListener},
		{goCacheSite, ownCacheSite},
	} {
		if strings.Count(w, r.from) != 1 {
			panic("site: go-app's service worker has changed: " + r.from)
		}
		w = strings.Replace(w, r.from, r.to, 1)
	}
	// Each handler ends where its try ends: "  }\n});" closes the async
	// function, then the waitUntil and the listener. The install's error
	// fails the install (see goCacheSite).
	for _, ev := range []struct{ name, rethrow string }{{"installation", "    throw error;\n"}, {"activation", ""}} {
		end := "console.error(\"error during " + ev.name + ":\", error);\n  }\n});"
		if strings.Count(w, end) != 1 {
			panic("site: go-app's service worker has changed: " + end)
		}
		w = strings.Replace(w, end, "console.error(\"error during "+ev.name+":\", error);\n"+ev.rethrow+"  }\n})()));", 1)
	}
	return w + cacheSite + versionListener
}
