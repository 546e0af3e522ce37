//go:build !wasm

package e2e

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserNewVersionCachedWhole: a new version's service worker
// takes over only with the whole site cached. One of its files failing
// once (a reset connection, a busy server) is fetched again and the new
// version takes over; a file that keeps failing fails the install, the
// old version keeps serving the page, and once the file arrives the next
// look for a new version installs it. go-app's own install ended
// installed without the site cached, and waited.
func TestBrowserNewVersionCachedWhole(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		fails int64 // how many of the new version's requests for app.css fail
	}{
		{"a file failing once", 1},
		{"a file failing until fixed", 1 << 30},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := startSite(t)
			tab := s.openSample(t, "w4-then-resume.ts.http")
			own := s.url + "/app-worker.js"
			_, err := chromedp.Run(tab, chromedp.Poll[bool](`navigator.serviceWorker.controller?.scriptURL === `+strconv.Quote(own),
				chromedp.WithPollingTimeout(pageWait)))
			must(t, err)
			old := workerState(t, tab)["version"]
			navigate(t, tab, "about:blank")
			s.republish(t)
			failing := s.failCSS(c.fails)
			navigate(t, tab, s.url+"/?sample=w4-then-resume.ts.http")
			if c.fails == 1 {
				waitNewWorker(t, tab, old)
				if n := failing.failed.Load(); n != 1 {
					t.Errorf("app.css failed %d times, want once", n)
				}
				return
			}
			// Each install tries three times; the page looks again 3 s
			// after it opens. Once one has failed and none is under way,
			// none waits.
			deadline := time.Now().Add(loadWait(tab))
			for failing.failed.Load() < 3 || workerState(t, tab)["installing"] != "" {
				if time.Now().After(deadline) {
					t.Fatalf("app.css failed %d times; the service worker is %v", failing.failed.Load(), workerState(t, tab))
				}
				time.Sleep(200 * time.Millisecond)
			}
			if st := workerState(t, tab); st["waiting"] != "" || st["version"] != old {
				t.Errorf("with app.css failing, the service workers are %v: want the old version %s active and none waiting", st, old)
			}
			if verdict := waitTextWithin(t, tab, "#verdict p", loadWait(tab)); verdict == "" {
				t.Error("the page shows no verdict")
			}
			// The file arrives again: the next look installs the new
			// version.
			failing.limit.Store(0)
			_, err = chromedp.Run(tab, chromedp.Evaluate[any](`navigator.serviceWorker.getRegistration().then((r) => r.update()).then(() => true)`, chromedp.EvalAwaitPromise))
			must(t, err)
			waitNewWorker(t, tab, old)
		})
	}
}

// failingFile is a file of the served site that fails while it has
// failed fewer than limit times.
type failingFile struct{ limit, failed atomic.Int64 }

// failCSS makes the served root site's app.css fail with 503, n times
// (until the returned file's limit changes).
func (s *servedSite) failCSS(n int64) *failingFile {
	f := &failingFile{}
	f.limit.Store(n)
	files := *s.rootFiles.Load()
	h := http.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/web/app.css") && f.failed.Load() < f.limit.Load() {
			f.failed.Add(1)
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		files.ServeHTTP(w, r)
	}))
	s.rootFiles.Store(&h)
	return f
}

// waitNewWorker waits for a version other than old to be the page's
// active service worker, with none waiting.
func waitNewWorker(t *testing.T, tab context.Context, old string) {
	t.Helper()
	deadline := time.Now().Add(loadWait(tab))
	for {
		st := workerState(t, tab)
		if st["version"] != old && st["version"] != "" && st["waiting"] == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the new version's service worker is not active: %v (the old version: %s)", st, old)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// workerState is the states of the page's service workers (active,
// waiting and installing; "" for none) and the version the active one
// serves (worker.go's versionListener).
func workerState(t *testing.T, tab context.Context) map[string]string {
	t.Helper()
	st, err := chromedp.Run(tab, chromedp.Evaluate[map[string]string](`navigator.serviceWorker.getRegistration().then((r) => new Promise((resolve) => {
		const st = {active: r?.active?.state ?? "", waiting: r?.waiting?.state ?? "", installing: r?.installing?.state ?? "", version: ""};
		if (!r?.active) return resolve(st);
		const channel = new MessageChannel();
		channel.port1.onmessage = (event) => resolve({...st, version: String(event.data)});
		r.active.postMessage({type: "watchlens:version"}, [channel.port2]);
	}))`, chromedp.EvalAwaitPromise))
	must(t, err)
	return st
}
