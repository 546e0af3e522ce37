//go:build !wasm

package e2e

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// TestBrowserSmaller checks the smaller defects of issue 26 that only a
// browser shows: a link's server that is slow to answer, a link left for
// a file, and an audit log's progress.
func TestBrowserSmaller(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	s := startSite(t)
	capture := testsample.Read(t, testsample.Sample(t, "w4-then-resume.http"))

	t.Run("a link whose server is slow to answer says whom it waits for", func(t *testing.T) {
		// The server answers once the test has read what the page says
		// while it waits.
		read := make(chan struct{})
		s.mux.HandleFunc("/test/slow-headers.log", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-read:
			case <-r.Context().Done():
				return
			}
			w.Write(capture)
		})
		tab := s.newTab(t)
		navigate(t, tab, s.url+"/?url=/test/slow-headers.log")
		host := strings.TrimPrefix(s.url, "http://")
		got, err := chromedp.Run(tab, chromedp.Poll[string](`document.querySelector("#progress label")?.textContent ?? ""`,
			chromedp.WithPollingTimeout(pageWait)))
		close(read)
		if err != nil {
			t.Fatalf("nothing was shown while the server had not answered: %v", err)
		}
		if want := "Connecting to " + host + " for slow-headers.log"; !strings.HasPrefix(got, want) {
			t.Errorf("before the server answered, the page said %q, want %q", got, want)
		}
		screenshot(t, tab, "url-connecting")
		checkShown(t, tab, "slow-headers.log", "samples/w4-then-resume.http")
	})

	t.Run("a link left for a file is no longer downloaded", func(t *testing.T) {
		// Left before its server answered, and halfway through its body.
		for _, c := range []struct {
			name    string
			headers bool
			wait    string
		}{
			{"no-answer.log", false, "Connecting to"},
			{"trickle.log", true, "Downloading trickle.log"},
		} {
			gaveUp := make(chan time.Duration, 1)
			s.mux.HandleFunc("/test/"+c.name, func(w http.ResponseWriter, r *http.Request) {
				if c.headers {
					w.Write(capture[:len(capture)/4])
					w.(http.Flusher).Flush()
				}
				start := time.Now()
				select {
				case <-r.Context().Done():
					gaveUp <- time.Since(start)
				case <-time.After(25 * time.Second):
					gaveUp <- -1
				}
			})
			tab := s.newTab(t)
			navigate(t, tab, s.url+"/?url=/test/"+c.name)
			_, err := chromedp.Run(tab, chromedp.Poll[bool](`(document.querySelector("#progress label")?.textContent ?? "").startsWith(`+strconv.Quote(c.wait)+`)`, chromedp.WithPollingTimeout(pageWait)))
			must(t, err)
			upload(t, tab, "samples/w3-then-resume.http")
			checkShown(t, tab, "w3-then-resume.http", "samples/w3-then-resume.http")
			if d := <-gaveUp; d < 0 {
				t.Errorf("%s: the page kept the link's request open after a file was chosen", c.name)
			} else {
				t.Logf("%s: the request was aborted %v after the server's last bytes", c.name, d.Round(time.Millisecond))
			}
		}
	})

	t.Run("a link cut off lets go of what it downloaded", func(t *testing.T) {
		s.mux.HandleFunc("/test/endless-big.log", func(w http.ResponseWriter, r *http.Request) {
			for r.Context().Err() == nil {
				if _, err := w.Write(capture); err != nil {
					return
				}
			}
		})
		tab := s.newTab(t)
		lowerLimits(t, tab, `{maxBytes: 64 << 20}`)
		// The page's wasm memory, to tell it from what the download kept.
		_, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
			const instantiate = WebAssembly.instantiateStreaming;
			WebAssembly.instantiateStreaming = async (...args) => { const r = await instantiate(...args); window.wasmMemory = r.instance.exports.mem; return r; };
		})()`})
		must(t, err)
		navigate(t, tab, s.url+"/?url=/test/endless-big.log")
		if msg := waitText(t, tab, "#problem"); !strings.Contains(msg, "more than the 64.0 MiB") {
			t.Fatalf("the page says %q", msg)
		}
		_, err = chromedp.Call(tab, heapprofiler.CollectGarbage, cdp.Empty{})
		must(t, err)
		use, err := chromedp.Call(tab, runtime.GetHeapUsage, cdp.Empty{})
		must(t, err)
		// The page's wasm memory (a few hundred MB, which never shrinks)
		// is backing storage too: the 64 MiB downloaded must not be.
		t.Logf("after the cut-off the tab's array buffers hold %.0f MB, its JS heap %.0f MB", use.BackingStorageSize/1e6, use.UsedSize/1e6)
		wasm, err := chromedp.Run(tab, chromedp.Evaluate[float64](`window.wasmMemory?.buffer.byteLength ?? -1`))
		must(t, err)
		if wasm <= 0 {
			t.Fatal("the page's wasm memory was not found")
		}
		if kept := use.BackingStorageSize - wasm; kept > 32<<20 {
			t.Errorf("after a link was cut off at 64 MiB the tab keeps %.0f MB of array buffers besides its wasm memory's %.0f MB", kept/1e6, wasm/1e6)
		}
	})

	t.Run("a right-to-left override in a user agent is drawn as written", func(t *testing.T) {
		const evil = "abc\u202egpj.exe" // drew as "abcexe.jpg"
		dir := t.TempDir()
		var files []string
		for i, name := range []string{"c00-bookmarks.ts.http", "c01-bookmarks.ts.http", "c02-bookmarks.ts.http"} {
			in := testsample.Read(t, filepath.Join("testdata/fleet", name))
			if i == 0 {
				in = regexp.MustCompile(`User-Agent: [^\r\n]*`).ReplaceAll(in, []byte("User-Agent: "+evil))
			}
			files = append(files, filepath.Join(dir, name))
			must(t, os.WriteFile(files[i], in, 0o644))
		}
		tab := s.newTab(t)
		_, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `window.labels = [];
			const fill = CanvasRenderingContext2D.prototype.fillText;
			CanvasRenderingContext2D.prototype.fillText = function (s, ...rest) { window.labels.push(String(s)); return fill.call(this, s, ...rest); };`})
		must(t, err)
		navigate(t, tab, s.url+"/?sample=client-go-golden-watch.http")
		waitText(t, tab, "#timeline-summary")
		must(t, chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.CSS("#file-input"), files)))
		_, err = chromedp.Run(tab, chromedp.Poll[bool](`(document.querySelector("#timeline-summary")?.dataset.files ?? "").split("\n").length === 3`, chromedp.WithPollingTimeout(2*time.Minute)))
		must(t, err)
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#show-fleet"))))
		waitText(t, tab, "#fleet-summary")
		_, err = chromedp.Run(tab, chromedp.Poll[bool](`window.labels.some(l => l.includes("abc"))`, chromedp.WithPollingTimeout(pageWait)))
		if err != nil {
			t.Fatalf("the fleet drew no label for the client: %v", err)
		}
		labels, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`window.labels.filter(l => l.includes("abc"))`))
		must(t, err)
		written := false
		for _, l := range labels {
			if strings.ContainsAny(l, "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069") {
				t.Errorf("the canvas drew a direction control in %q", l)
			}
			written = written || strings.Contains(l, `abc\u202egpj.exe`)
		}
		if !written {
			t.Errorf("no label shows the user agent as written: %q", labels)
		}
		if text, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.innerText`)); strings.ContainsRune(text, '\u202e') {
			t.Error("the page's text holds the override")
		}
		screenshot(t, tab, "fleet-rtl-override")
	})

	t.Run("an audit log shows its progress in bytes", func(t *testing.T) {
		one := testsample.Read(t, filepath.Join(testsample.Recording(t, "samples-lab"), "audit-a-1.log"))
		file := filepath.Join(t.TempDir(), "audit-big.log")
		must(t, os.WriteFile(file, bytes.Repeat(one, 64), 0o644)) // 24 MB
		tab := s.openSample(t, "client-go-golden-watch.http")
		upload(t, tab, file)
		read := regexp.MustCompile(`^Reading audit-big\.log: [0-9.]+ (KiB|MiB) of `)
		got, err := chromedp.Run(tab, chromedp.Poll[string](`(() => { const l = document.querySelector("#progress label")?.textContent ?? ""; return /^Reading audit-big\.log: [1-9]/.test(l) ? l : ""; })()`,
			chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(60*time.Second)))
		if err != nil {
			t.Fatalf("the progress of the audit log never moved from 0 B: %v", err)
		}
		if !read.MatchString(got) {
			t.Errorf("the progress bar reads %q", got)
		}
		screenshot(t, tab, "audit-progress")
	})
}
