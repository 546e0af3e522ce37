//go:build !wasm

package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserNewVersionCachedWhole: a new version's service worker is
// installed only with the whole site cached. With one of its files
// failing (a busy server, a reset connection), the install tries again
// and then fails: no worker waits with a part of the site, the old
// version keeps serving the page, and the browser installs the new one
// at its next look. go-app's own install ended installed with the site
// half cached, and waited.
func TestBrowserNewVersionCachedWhole(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	tab, old := s.republishedAway(t)
	failed := s.failCSS()
	navigate(t, tab, s.url+"/?sample=w4-then-resume.ts.http")
	// Each install tries three times; the page looks again 3 s after it
	// opens. Once one has failed and none is under way, none waits.
	deadline := time.Now().Add(loadWait(tab))
	for failed.Load() < 3 || workerState(t, tab)["installing"] != "" {
		if time.Now().After(deadline) {
			t.Fatalf("app.css failed %d times; the service worker is %v", failed.Load(), workerState(t, tab))
		}
		time.Sleep(200 * time.Millisecond)
	}
	st := workerState(t, tab)
	for try := 0; st["version"] == "" && try < 10; try++ {
		st = workerState(t, tab)
	}
	if st["waiting"] != "" || st["version"] != old {
		t.Errorf("with app.css failing, the service workers are %v: want the old version %s active and none waiting", st, old)
	}
	if verdict := waitTextWithin(t, tab, "#verdict p", loadWait(tab)); verdict == "" {
		t.Error("the page shows no verdict")
	}
}

// failCSS makes the served root site's app.css fail with 503 from now
// on, and counts its failures.
func (s *servedSite) failCSS() *atomic.Int64 {
	var failed atomic.Int64
	files := *s.rootFiles.Load()
	h := http.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/web/app.css") {
			failed.Add(1)
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		files.ServeHTTP(w, r)
	}))
	s.rootFiles.Store(&h)
	return &failed
}

// workerState is the states of the page's service workers (active,
// waiting and installing; "" for none) and the version the active one
// serves (worker.go's versionListener; "" when it does not answer within
// 2 s).
func workerState(t *testing.T, tab context.Context) map[string]string {
	t.Helper()
	st, err := chromedp.Run(tab, chromedp.Evaluate[map[string]string](`navigator.serviceWorker.getRegistration().then((r) => new Promise((resolve) => {
		const st = {active: r?.active?.state ?? "", waiting: r?.waiting?.state ?? "", installing: r?.installing?.state ?? "", version: ""};
		if (!r?.active) return resolve(st);
		// A worker that does not answer (stopped as it is replaced) is
		// asked again at the next poll.
		setTimeout(() => resolve(st), 2000);
		const channel = new MessageChannel();
		channel.port1.onmessage = (event) => resolve({...st, version: String(event.data)});
		r.active.postMessage({type: "watchlens:version"}, [channel.port2]);
	}))`, chromedp.EvalAwaitPromise))
	must(t, err)
	return st
}

// TestBrowserNewVersionWaitingIsAsked: a new version's worker that
// installed and waits takes over once a page of the site asks it to
// (site.go's takeoverScript, worker.go's versionListener). Its install
// ends with skipWaiting, but Chromium gives up an activation that a
// page's request comes into, and the worker then waits until every tab
// of the site has closed: the browser tests' rare "installed, waiting".
// Here the new version's install does not call skipWaiting at all, so
// that only the page's asking can make it take over.
func TestBrowserNewVersionWaitingIsAsked(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	tab, old := s.republishedAway(t)
	stripped := s.workerWithoutSkipWaiting(t)
	navigate(t, tab, s.url+"/?sample=w4-then-resume.ts.http")
	deadline := time.Now().Add(loadWait(tab))
	st := workerState(t, tab)
	for st["waiting"] != "" || st["installing"] != "" || st["version"] == "" || st["version"] == old {
		if time.Now().After(deadline) {
			t.Fatalf("the new version's worker never took over the open page: the service workers are %v (the old version %s; its worker served without skipWaiting %d times)", st, old, stripped.Load())
		}
		time.Sleep(500 * time.Millisecond)
		st = workerState(t, tab)
	}
	if stripped.Load() == 0 {
		t.Fatal("the new version's worker was never served without its skipWaiting: the test proves nothing")
	}
}

// workerWithoutSkipWaiting serves the root site's app-worker.js from now
// on without the skipWaiting that ends its install, and counts how many
// times it did.
func (s *servedSite) workerWithoutSkipWaiting(t *testing.T) *atomic.Int64 {
	var stripped atomic.Int64
	files := *s.rootFiles.Load()
	h := http.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/app-worker.js") {
			files.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		files.ServeHTTP(rec, r)
		body := rec.Body.String()
		if rec.Code == http.StatusOK {
			if strings.Count(body, skipWaitingCall) != 1 {
				t.Errorf("app-worker.js calls %q %d times, want once: the test no longer holds its worker", skipWaitingCall, strings.Count(body, skipWaitingCall))
			} else {
				body = strings.Replace(body, skipWaitingCall, "", 1)
				stripped.Add(1)
			}
		}
		for k, v := range rec.Header() {
			if k != "Content-Length" && k != "Etag" && k != "Last-Modified" {
				w.Header()[k] = v
			}
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write([]byte(body))
	}))
	s.rootFiles.Store(&h)
	return &stripped
}

// skipWaitingCall is how the site's worker ends its install (go-app's
// template, kept by site/worker.go).
const skipWaitingCall = "await self.skipWaiting();"

// republishedAway opens a sample under the site's worker in a tab of
// its own, leaves it for about:blank, and publishes a new version of
// the site: the tab and the version its worker served.
func (s *servedSite) republishedAway(t *testing.T) (tab context.Context, old string) {
	t.Helper()
	tab = s.openSample(t, "w4-then-resume.ts.http")
	own := s.url + "/app-worker.js"
	_, err := chromedp.Run(tab, chromedp.Poll[bool](`navigator.serviceWorker.controller?.scriptURL === `+strconv.Quote(own),
		chromedp.WithPollingTimeout(pageWait)))
	must(t, err)
	old = workerState(t, tab)["version"]
	navigate(t, tab, "about:blank")
	s.republish(t)
	return tab, old
}
