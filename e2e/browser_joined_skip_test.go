//go:build !wasm

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"watchlens/internal/testsample"
)

// TestBrowserJoinedSkip: files dropped together are read through one
// joined read (app/jsrt/joined.go), in the page's own wasm as in the
// engine's worker. A 64 MiB capture that the page
// stops reading at its limit of events is passed over without its bytes
// being read, and the file after it, samples-lab's client-go log, is
// still read from its own first byte: the verdict tells its 207 clients'
// 81 relists.
func TestBrowserJoinedSkip(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	s := startSite(t)
	const bigSize = 64 << 20
	line := `{"type":"MODIFIED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"big","namespace":"default","resourceVersion":"7"}}}` + "\n"
	big := filepath.Join(t.TempDir(), "a-big.log")
	must(t, os.WriteFile(big, []byte(strings.Repeat(line, bigSize/len(line))), 0o644))

	tab := s.newTab(t)
	lowerLimits(t, tab, `{maxEvents: 2000}`)
	// The reading worker's replies carry each slice's byte count (n):
	// their sum is how much of the files the page read. The page reads
	// in its own wasm here (watchlensEngineWorker = false), where its
	// reading workers are the page's to count; the engine's worker
	// starts its own inside itself, through the same joined read
	// (jsrt.JoinedFiles). Every worker the page starts is counted, from
	// the document's start, and the count starts over once the page's
	// warm-up, which reads through them too, has ended.
	_, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
		window.watchlensEngineWorker = false;
		window.bytesRead = 0;
		const d = Object.getOwnPropertyDescriptor(Worker.prototype, "onmessage");
		Object.defineProperty(Worker.prototype, "onmessage", {
			configurable: true,
			get() { return d.get.call(this); },
			set(f) {
				d.set.call(this, f && ((e) => {
					if (e.data && typeof e.data.n === "number") window.bytesRead += e.data.n;
					return f(e);
				}));
			},
		});
	})()`})
	must(t, err)
	navigate(t, tab, s.url+"/?sample=w3-then-resume.ts.http")
	checkShown(t, tab, "w3-then-resume.ts.http", "samples/w3-then-resume.ts.http")
	waitWarm(t, tab)
	must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`window.bytesRead = 0`)))
	klog := filepath.Join(testsample.Recording(t, "samples-lab"), "fleet-klog.log")
	klogInfo, err := os.Stat(klog)
	must(t, err)
	drop(t, tab, big, klog)
	story, err := chromedp.Run(tab, chromedp.Poll[string](`(() => {
		const p = document.querySelector("#verdict p");
		return p && p.dataset.topic === "fleet" ? p.textContent : "";
	})()`, chromedp.WithPollingTimeout(2*time.Minute)))
	if err != nil || !strings.HasPrefix(story, "64 clients of the 208 relisted 81 times") {
		t.Errorf("the client log after the capture stopped at the limit is not read whole (%v): %q", err, story)
	}
	msg := filesText(t, tab, `section.result[data-file="a-big.log"] .problem`)
	if !strings.Contains(msg, "the page keeps at most 2000 events") {
		t.Errorf("the capture's section says %q, not that the page stopped at its limit", msg)
	}
	read, err := chromedp.Run(tab, chromedp.Evaluate[int](`window.bytesRead`))
	must(t, err)
	t.Logf("the page read %d bytes of the %d of the two files", read, bigSize+klogInfo.Size())
	if read == 0 || read > bigSize/4 {
		t.Errorf("the page read %d bytes of the two files for the capture's first 2000 events and the client log: the rest of the %d-byte capture was read to pass over it", read, bigSize)
	}
	screenshot(t, tab, "joined-skip")
}
