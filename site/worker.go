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

// appWorker is go-app's service worker with ownFetchListener.
var appWorker = strings.Replace(goapp.DefaultAppWorkerJS, goFetchListener, ownFetchListener, 1)
