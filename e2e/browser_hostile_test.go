//go:build !wasm

package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"watchlens/app"
	"watchlens/internal/testsample"
	"watchlens/site"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// TestBrowserHostile opens what a hostile or broken source gives the page
// (links that fail, servers that stall or send too much, captures that
// expand without end, names made to break the layout) and checks that the
// page says what happened and stays usable.
func TestBrowserHostile(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	s := startSite(t)
	capture := testsample.Read(t, testsample.Sample(t, "w4-then-resume.http"))
	// Each check opens tabs of its own and handlers of its own on the
	// site's mux: they run side by side, as many at once as go test runs
	// tests (-parallel, one per core by default), so at a load average
	// of 20 a page has no more tabs beside it than among the other tests.

	t.Run("a link that fails says why", func(t *testing.T) {
		t.Parallel()
		s.mux.HandleFunc("/test/broken.log", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "database on fire", http.StatusInternalServerError)
		})
		refused := closedPort(t)
		for _, c := range []struct {
			name, url string
			want      []string
			cors      bool // only a network error may be a CORS refusal
		}{
			{"404", "/test/missing.log", []string{"HTTP 404 Not Found"}, false},
			{"500", "/test/broken.log", []string{"HTTP 500 Internal Server Error"}, false},
			{"connection refused", "https://" + refused + "/capture.log", []string{"network error", "does not allow cross-origin reads (CORS)"}, true},
			{"javascript: scheme", "javascript:alert(1)", []string{"javascript:", "only http and https links"}, false},
			{"plain http to another site", "http://" + refused + "/capture.log", []string{"plain http link to another site", "only over https"}, false},
		} {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				tab := s.newTab(t)
				navigate(t, tab, s.url+"/?url="+c.url)
				msg := waitText(t, tab, "#problem")
				for _, want := range c.want {
					if !strings.Contains(msg, want) {
						t.Errorf("the page says %q, which does not say %q", msg, want)
					}
				}
				if !c.cors && strings.Contains(msg, "CORS") {
					t.Errorf("the page blames CORS for a %s: %q", c.name, msg)
				}
				screenshot(t, tab, "url-"+strings.ReplaceAll(c.name, " ", "-"))
			})
		}
	})

	t.Run("a file chosen while a link is fetched is the one shown", func(t *testing.T) {
		t.Parallel()
		// The link is answered once the file chosen after it was asked for
		// is shown.
		asked, shown, answered := make(chan struct{}), make(chan struct{}), make(chan struct{})
		s.mux.HandleFunc("/test/slow-answer.log", func(w http.ResponseWriter, r *http.Request) {
			close(asked)
			select {
			case <-shown:
			case <-r.Context().Done():
			}
			w.Write(capture)
			close(answered)
		})
		tab := s.newTab(t)
		navigate(t, tab, s.url+"/?url=/test/slow-answer.log")
		// The page is pre-rendered: its controls work once the app has
		// listed the samples, which it does before it fetches the link.
		select {
		case <-asked:
		case <-tab.Done():
			t.Fatal("the page never asked for the link")
		}
		upload(t, tab, "samples/w3-then-resume.http")
		checkShown(t, tab, "w3-then-resume.http", "samples/w3-then-resume.http")
		close(shown)
		<-answered
		waitRead(t, tab, "slow-answer.log", "superseded")
		if open, err := chromedp.Run(tab, chromedp.Evaluate[bool](fileOpen("slow-answer.log"))); err != nil || open {
			t.Errorf("the link's capture, answered after the file was chosen, is shown (%v, %v)", open, err)
		}
		checkShown(t, tab, "w3-then-resume.http", "samples/w3-then-resume.http")
		if link, _ := chromedp.Run(tab, chromedp.Evaluate[string](`location.href`)); strings.Contains(link, "slow-answer") {
			t.Errorf("the address bar still names the link: %s", link)
		}
		screenshot(t, tab, "url-overtaken-by-file")
	})

	t.Run("a link read slowly shows its progress", func(t *testing.T) {
		t.Parallel()
		// The body comes a hundredth at a time, as a slow server sends
		// it, until the page has shown its progress (which it reports
		// at most every 200 ms, as parts come); then the rest at once.
		progressed := make(chan struct{})
		s.mux.HandleFunc("/test/slow-body.log", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", strconv.Itoa(len(capture)))
			piece, sent := len(capture)/100, 0
			tick := time.NewTicker(100 * time.Millisecond)
			defer tick.Stop()
		slowly:
			for sent+piece < len(capture) {
				w.Write(capture[sent : sent+piece])
				w.(http.Flusher).Flush()
				sent += piece
				select {
				case <-progressed:
					break slowly
				case <-tick.C:
				case <-r.Context().Done():
					return
				}
			}
			w.Write(capture[sent:])
		})
		tab := s.newTab(t)
		navigate(t, tab, s.url+"/?url=/test/slow-body.log")
		got, err := chromedp.Run(tab, chromedp.Poll[string](`(() => { const p = document.querySelector("#progress label"); return p && / of /.test(p.textContent) && !/^Downloading slow-body.log: 0 B/.test(p.textContent) ? p.textContent : ""; })()`,
			chromedp.WithPollingTimeout(pageWait)))
		close(progressed)
		if err != nil {
			t.Fatalf("no progress was shown while the link was read: %v", err)
		}
		want := fmt.Sprintf("of %.1f KiB", float64(len(capture))/1024)
		if !strings.HasPrefix(got, "Downloading slow-body.log: ") || !strings.Contains(got, want) {
			t.Errorf("the progress bar reads %q, want Downloading slow-body.log: ... %s", got, want)
		}
		screenshot(t, tab, "url-progress")
		checkShown(t, tab, "slow-body.log", "samples/w4-then-resume.http")
	})

	t.Run("a link that declares more than the page reads is refused at once", func(t *testing.T) {
		t.Parallel()
		s.mux.HandleFunc("/test/declared-huge.log", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", strconv.FormatInt(5<<30, 10))
			w.Write(capture)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		})
		tab := s.newTab(t)
		navigate(t, tab, s.url+"/?url=/test/declared-huge.log")
		msg := waitText(t, tab, "#problem")
		for _, want := range []string{"5.0 GiB", "4.0 GiB", "watchlens analyze"} {
			if !strings.Contains(msg, want) {
				t.Errorf("the page says %q, which does not say %q", msg, want)
			}
		}
		screenshot(t, tab, "url-declared-huge")
	})

	t.Run("a link that sends more than the page reads is cut off", func(t *testing.T) {
		t.Parallel()
		s.mux.HandleFunc("/test/endless.log", func(w http.ResponseWriter, r *http.Request) {
			for r.Context().Err() == nil {
				if _, err := w.Write(capture); err != nil {
					return
				}
			}
		})
		tab := s.newTab(t)
		lowerLimits(t, tab, `{maxBytes: 8 << 20}`)
		navigate(t, tab, s.url+"/?url=/test/endless.log")
		msg := waitText(t, tab, "#problem")
		for _, want := range []string{"more than the 8.0 MiB", "watchlens analyze"} {
			if !strings.Contains(msg, want) {
				t.Errorf("the page says %q, which does not say %q", msg, want)
			}
		}
		noProgress(t, tab)
		screenshot(t, tab, "url-endless")
	})

	t.Run("a link that stalls times out", func(t *testing.T) {
		t.Parallel()
		s.mux.HandleFunc("/test/stalled.log", func(w http.ResponseWriter, r *http.Request) {
			w.Write(capture[:len(capture)/2])
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		})
		tab := s.newTab(t)
		lowerLimits(t, tab, `{stallMs: 1500}`)
		navigate(t, tab, s.url+"/?url=/test/stalled.log")
		msg := waitText(t, tab, "#problem")
		if !strings.Contains(msg, "no data came for 1.5s") {
			t.Errorf("the page says %q, not that the server stopped sending", msg)
		}
		noProgress(t, tab)
		screenshot(t, tab, "url-stalled")
	})

	t.Run("a capture that expands past the event limit shows what was read", func(t *testing.T) {
		t.Parallel()
		bomb := gzipBomb(t, 16) // a million events
		tab := s.newTab(t)
		lowerLimits(t, tab, `{maxEvents: 200000}`)
		navigate(t, tab, s.url+"/?sample=client-go-golden-watch.http")
		checkShown(t, tab, "client-go-golden-watch.http", "samples/client-go-golden-watch.http")
		upload(t, tab, bomb)
		sec := `section.result[data-file="bomb.log.gz"]`
		msg := filesText(t, tab, sec+" .problem")
		for _, want := range []string{"the page keeps at most 200000 events", "the first ", "watchlens analyze"} {
			if !strings.Contains(msg, want) {
				t.Errorf("the page says %q, which does not say %q", msg, want)
			}
		}
		if top := waitText(t, tab, "#input-problems"); !strings.Contains(top, "at most 200000 events") {
			t.Errorf("the problems at the top of the page do not say the reading stopped: %q", top)
		}
		if n := waitText(t, tab, sec+` tr[data-type="MODIFIED"] td`); n != "200000" {
			t.Errorf("the page counts %s MODIFIED events, want the 200000 read", n)
		}
		if sum := summaryOf(t, tab); sum["lanes"] != "1" {
			t.Errorf("the timeline shows %s lanes, want the bomb's one object", sum["lanes"])
		}
		screenshot(t, tab, "event-limit")
	})

	t.Run("a load that fails says so, and the next one works", func(t *testing.T) {
		t.Parallel()
		tab := s.openSample(t, "client-go-golden-watch.http")
		waitWarm(t, tab)
		// A browser that refuses the reading worker its work: the read
		// panics inside Go.
		must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
			window.realPost = Worker.prototype.postMessage;
			window.refused = 0;
			Worker.prototype.postMessage = function () { window.refused++; throw new Error("the browser refused the worker"); };
		})()`)))
		upload(t, tab, "samples/w3-then-resume.http")
		msg := waitText(t, tab, "#problem")
		for _, want := range []string{"Reading w3-then-resume.http failed", "the browser refused the worker", "open another capture"} {
			if !strings.Contains(msg, want) {
				t.Errorf("the page says %q, which does not say %q", msg, want)
			}
		}
		noProgress(t, tab)
		screenshot(t, tab, "load-failed")
		// A frame asked of the engine's worker while the browser refuses
		// it is that frame's error, not the end of the page: a wheel on
		// the timeline asks one.
		refused, err := chromedp.Run(tab, chromedp.Evaluate[int](`(() => {
			const c = document.querySelector("#timeline canvas"), r = c.parentElement.getBoundingClientRect();
			c.dispatchEvent(new WheelEvent("wheel", {deltaY: -300, clientX: r.left + r.width / 2, clientY: r.top + 40, bubbles: true, cancelable: true}));
			return window.refused;
		})()`))
		must(t, err)
		_, err = chromedp.Run(tab, chromedp.Poll[bool](fmt.Sprintf(`window.refused > %d`, refused), chromedp.WithPollingTimeout(30*time.Second)))
		if err != nil {
			t.Errorf("a wheel on the timeline asked the engine's worker for no frame while the browser refused it (%d refused): %v", refused, err)
		}
		must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`Worker.prototype.postMessage = window.realPost`)))
		upload(t, tab, "samples/w4-then-resume.http")
		checkShown(t, tab, "w4-then-resume.http", "samples/w4-then-resume.http")
	})

	t.Run("long names and right-to-left overrides stay in their place", func(t *testing.T) {
		t.Parallel()
		long := "long-" + strings.Repeat("x", 100_000)
		evil := "evil\u202eredaer-ti"        // shows as "evilit-reader" once the override acts
		wide := strings.Repeat("\uff37", 40) // 40 fullwidth W: a label no wider in runes than others
		var b strings.Builder
		for i, ev := range []struct{ typ, ns, name string }{
			{"ADDED", "default", long}, {"ADDED", "default", evil}, {"MODIFIED", "default", evil}, {"ADDED", "default", wide},
			{"ADDED", "ns-" + strings.Repeat("n", 5000), "in-a-long-namespace"},
		} {
			fmt.Fprintf(&b, `{"type":%q,"object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":%q,"namespace":%q,"resourceVersion":"%d"}}}`+"\n", ev.typ, ev.name, ev.ns, 10+i)
		}
		file := filepath.Join(t.TempDir(), "names.jsonl")
		must(t, os.WriteFile(file, []byte(b.String()), 0o644))
		tab := s.openSample(t, "client-go-golden-watch.http")
		// Every label the canvas draws, with how far it reaches left of
		// where it is anchored on the right.
		must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
			window.labels = [];
			const fill = CanvasRenderingContext2D.prototype.fillText;
			CanvasRenderingContext2D.prototype.fillText = function (s, x, y, ...rest) {
				const w = this.measureText(s).width;
				const left = this.textAlign === "right" ? x - w : this.textAlign === "center" ? x - w / 2 : x;
				if (this.canvas.isConnected) window.labels.push({s: s.slice(0, 60), left, right: left + w, canvas: this.canvas.clientWidth});
				return fill.call(this, s, x, y, ...rest);
			};
		})()`)))
		upload(t, tab, file)
		waitFileOpen(t, tab, "names.jsonl")
		noSidewaysScroll(t, tab)
		type label struct {
			S                   string
			Left, Right, Canvas float64
		}
		labels, err := chromedp.Run(tab, chromedp.Evaluate[[]label](`window.labels`))
		must(t, err)
		if len(labels) == 0 {
			t.Fatal("no label was drawn on the timeline")
		}
		for _, l := range labels {
			if l.Left < 0 || l.Right > l.Canvas {
				t.Errorf("the label %q reaches from %.0f to %.0f px, outside the canvas's %.0f", l.S, l.Left, l.Right, l.Canvas)
			}
		}
		must(t, chromedp.Do(tab, chromedp.Focus(chromedp.CSS("#timeline canvas"))))
		for step, want := range []string{"long-xxx", "evil"} {
			must(t, chromedp.Do(tab, chromedp.KeyEvent("]")))
			_, err := chromedp.Run(tab, chromedp.Poll[bool](fmt.Sprintf(`document.querySelector(".tl-selected").textContent.includes(%q)`, want), chromedp.WithPollingTimeout(pageWait)))
			must(t, err)
			waitText(t, tab, "#detail[data-event]")
			noSidewaysScroll(t, tab)
			if step == 0 {
				if n, _ := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelector(".tl-selected").textContent.length`)); n > 300 {
					t.Errorf("the selected event's line is %d characters long", n)
				}
				if ok, _ := chromedp.Run(tab, chromedp.Evaluate[bool](`[...document.querySelectorAll("#detail [title]")].some(e => e.title.includes(`+strconv.Quote(long)+`))`)); !ok {
					t.Error("the detail pane does not give the full name in a title")
				}
				screenshot(t, tab, "long-name")
				continue
			}
			// The page's own text after the name (", RV 11") reads left
			// to right: its R lies left of its V.
			order, err := chromedp.Run(tab, chromedp.Evaluate[float64](`(() => {
				const dd = document.querySelector(".tl-selected");
				const walk = document.createTreeWalker(dd, NodeFilter.SHOW_TEXT);
				for (let n; (n = walk.nextNode()); ) {
					const i = n.data.indexOf(", RV 11");
					if (i < 0) continue;
					const at = (k) => { const r = document.createRange(); r.setStart(n, k); r.setEnd(n, k + 1); return r.getBoundingClientRect().x; };
					return at(i + 3) - at(i + 2);
				}
				return NaN;
			})()`))
			must(t, err)
			if !(order > 0) {
				t.Errorf("after the name with a right-to-left override, the page's \", RV 11\" is drawn reversed (V %+.0f px from R)", order)
			}
			screenshot(t, tab, "rtl-override")
		}
	})

	t.Run("under its security policy the page works and an injected script does not run", func(t *testing.T) {
		t.Parallel()
		recordViolations := func(tab context.Context) {
			_, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `window.violations = [];
				document.addEventListener("securitypolicyviolation", (e) => window.violations.push(e.effectiveDirective + " " + e.blockedURI + " " + e.sourceFile + ":" + e.lineNumber));`})
			must(t, err)
		}
		violations := func(tab context.Context) []string {
			v, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`window.violations`))
			must(t, err)
			return v
		}
		tab := s.newTab(t)
		recordViolations(tab)
		navigate(t, tab, s.url+"/?sample=w4-then-resume.ts.http")
		checkShown(t, tab, "w4-then-resume.ts.http", "samples/w4-then-resume.ts.http")
		if sum := summaryOf(t, tab); sum["lanes"] == "" || sum["lanes"] == "0" {
			t.Errorf("the timeline shows no lane: %v", sum)
		}
		// The warm-up reads in workers and draws; then a file is opened.
		waitWarm(t, tab)
		upload(t, tab, "samples/w3-then-resume.http")
		checkShown(t, tab, "w3-then-resume.http", "samples/w3-then-resume.http")
		policy, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content ?? ""`))
		must(t, err)
		for _, want := range []string{"script-src 'self' 'wasm-unsafe-eval' 'sha256-", "object-src 'none'", "form-action 'none'", "connect-src 'self' https:"} {
			if !strings.Contains(policy, want) {
				t.Errorf("the page's policy %q does not say %q", policy, want)
			}
		}
		if v := violations(tab); len(v) > 0 {
			t.Errorf("the page broke its own security policy: %q", v)
		}
		screenshot(t, tab, "csp")

		// The same page with a script injected into it, as a hostile
		// capture's text would be if it ever reached the page as HTML.
		index, err := os.ReadFile(filepath.Join(s.root, "index.html"))
		must(t, err)
		injected := strings.Replace(string(index), "</body>", "<script>window.injected = true;</script></body>", 1)
		s.mux.HandleFunc("/injected/", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(injected))
		})
		tab = s.newTab(t)
		recordViolations(tab)
		navigate(t, tab, s.url+"/injected/")
		ran, err := chromedp.Run(tab, chromedp.Evaluate[bool](`window.injected === true`))
		must(t, err)
		if ran {
			t.Error("a script injected into the page ran")
		}
		if v := violations(tab); len(v) != 1 || !strings.HasPrefix(v[0], "script-src-elem inline") {
			t.Errorf("the injected script was not reported as refused by the policy: %q", v)
		}
	})
}

// gzipBomb writes bomb.log.gz: members gzip members, each of 65536
// identical watch events, small on disk (35 KB a member) and 9 MB each
// once decompressed.
func gzipBomb(t testing.TB, members int) string {
	t.Helper()
	line := `{"type":"MODIFIED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"bomb","namespace":"default","resourceVersion":"7"}}}` + "\n"
	var member bytes.Buffer
	zw, err := gzip.NewWriterLevel(&member, gzip.BestCompression)
	must(t, err)
	_, err = zw.Write([]byte(strings.Repeat(line, 1<<16)))
	must(t, err)
	must(t, zw.Close())
	name := filepath.Join(t.TempDir(), "bomb.log.gz")
	must(t, os.WriteFile(name, bytes.Repeat(member.Bytes(), members), 0o644))
	return name
}

// lowerLimits has the page opened next in tab use lower limits than the
// ones it ships with (app/load/limits.go), so that a test reaches them quickly.
func lowerLimits(t testing.TB, tab context.Context, limits string) {
	t.Helper()
	_, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: "window.watchlensTestLimits = " + limits + ";"})
	must(t, err)
}

// noProgress checks that no progress bar is left on the page.
func noProgress(t testing.TB, tab context.Context) {
	t.Helper()
	// A page that still works takes its bar down as it renders next.
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.querySelectorAll("#progress").length === 0`, chromedp.WithPollingTimeout(pageWait))); err != nil {
		n, _ := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll("#progress").length`))
		t.Errorf("a progress bar is still shown (%d, %v)", n, err)
	}
}

// closedPort returns a loopback address where nothing listens.
func closedPort(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	addr := ln.Addr().String()
	must(t, ln.Close())
	return addr
}

// TestBrowserServe opens the page as `watchlens serve` serves it and
// checks that a normal load throws nothing: an exception on every load
// hides the one that matters.
func TestBrowserServe(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	s := startSite(t)
	dir := t.TempDir()
	_, err := site.Build(dir, "/", s.web, true)
	must(t, err)
	srv := httptest.NewServer(site.Handler(dir))
	t.Cleanup(srv.Close)

	t.Run("a normal load throws nothing", func(t *testing.T) {
		tab := s.newTab(t)
		var mu sync.Mutex
		var thrown []string
		must(t, chromedp.Listen(tab, func(ev any) {
			if e, ok := ev.(*runtime.EventExceptionThrown); ok {
				d := e.ExceptionDetails
				what := d.Text
				if d.Exception != nil {
					what += " " + d.Exception.Description
				}
				mu.Lock()
				thrown = append(thrown, fmt.Sprintf("%s (%s:%d)", what, d.URL, d.LineNumber))
				mu.Unlock()
			}
		}))
		// The page asks for a new version as it opens and 3 s later
		// (app.Page's OnMount): counted here, with the checks still
		// waiting on the server. A check that fails still throws.
		_, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
			const checks = window.watchlensUpdateChecks = {asked: 0, pending: 0};
			const update = ServiceWorkerRegistration.prototype.update;
			ServiceWorkerRegistration.prototype.update = function () {
				checks.pending++;
				return update.apply(this, arguments).then((r) => { checks.pending--; return r; }, (e) => { checks.pending--; throw e; });
			};
			// go-app's app.js defines goappTryUpdate, which the page calls.
			document.addEventListener("DOMContentLoaded", () => {
				const tryUpdate = window.goappTryUpdate;
				window.goappTryUpdate = function () { checks.asked++; return tryUpdate.apply(this, arguments); };
			});
		})()`})
		must(t, err)
		// Twice: the first visit installs the service worker, the second
		// opens under it.
		for range 2 {
			navigate(t, tab, srv.URL+"/")
			checkShown(t, tab, app.DefaultSample, "samples/"+app.DefaultSample)
			if _, err := chromedp.Run(tab, chromedp.Poll[bool](`watchlensUpdateChecks.asked >= 2 && watchlensUpdateChecks.pending === 0`,
				chromedp.WithPollingTimeout(pageWait))); err != nil {
				checks, _ := chromedp.Run(tab, chromedp.Evaluate[string](`JSON.stringify(window.watchlensUpdateChecks)`))
				t.Fatalf("the page did not check twice for a new version: %v (%s)", err, checks)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		for _, e := range thrown {
			t.Errorf("uncaught in the page: %s", e)
		}
	})
	t.Run("no other site may frame the page", func(t *testing.T) {
		// A policy in a meta tag cannot forbid framing: serve sends it.
		resp, err := http.Get(srv.URL + "/")
		must(t, err)
		resp.Body.Close()
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'self'") {
			t.Errorf("serve's Content-Security-Policy header is %q", csp)
		}
	})
}
