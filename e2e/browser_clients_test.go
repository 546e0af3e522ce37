//go:build !wasm

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"watchlens/internal/testsample"
)

// TestBrowserClients: what each client did and what its library does, on
// the page. samples-watchlist's captures dropped: the verdict's first
// line is the 48 informers that never synced, and a client that sends
// client-go's default User-Agent has its library in its file's section.
// samples-lab's client-go log dropped alone: its 207 clients' sessions
// are the fleet's, and the verdict tells their 81 relists.
func TestBrowserClients(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	s := startSite(t)
	watchlist := testsample.Recording(t, "samples-watchlist")
	captures, err := filepath.Glob(filepath.Join(watchlist, "*.ts.http"))
	must(t, err)
	tab := s.openSample(t, "w3-then-resume.ts.http")
	drop(t, tab, captures...)
	first, err := chromedp.Run(tab, chromedp.Poll[string](`(() => {
		const p = document.querySelector("#verdict p");
		return p && p.dataset.topic === "unsynced" ? p.textContent : "";
	})()`, chromedp.WithPollingTimeout(2*time.Minute)))
	if err != nil || !strings.HasPrefix(first, "48 clients") || !strings.Contains(first, "never synced") {
		lines, _ := chromedp.Run(tab, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#verdict p")].map(p => p.dataset.topic + ": " + p.textContent)`))
		t.Fatalf("the verdict's first line is not the 48 unsynced informers (%v): %q", err, lines)
	}
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#tab-files"))))
	must(t, chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#files-find"), "c003-bookmarks-defua")))
	profile, err := chromedp.Run(tab, chromedp.Poll[string](`(() => {
		const s = [...document.querySelectorAll("#dock-files section.result")];
		const p = s.length === 1 && s[0].querySelector(".client-profile[data-library='client-go']");
		return p ? p.textContent : "";
	})()`, chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil || !strings.Contains(profile, "client-go v0.0.0 (in fleet)") || !strings.Contains(profile, "after a 410 it lists again") {
		t.Errorf("c003-bookmarks-defua's section does not name its library (%v): %q", err, profile)
	}
	screenshot(t, tab, "clients-watchlist")

	tab = s.openSample(t, "w3-then-resume.ts.http")
	drop(t, tab, filepath.Join(testsample.Recording(t, "samples-lab"), "fleet-klog.log"))
	story, err := chromedp.Run(tab, chromedp.Poll[string](`(() => {
		const p = document.querySelector("#verdict p");
		return p && p.dataset.topic === "fleet" ? p.textContent : "";
	})()`, chromedp.WithPollingTimeout(2*time.Minute)))
	if err != nil || !strings.HasPrefix(story, "64 clients of the 207 relisted 81 times") {
		t.Errorf("the client log's verdict (%v): %q", err, story)
	}
	clients := waitText(t, tab, "#fleet-summary dd")
	if clients != "207" {
		t.Errorf("the fleet of the client log has %s clients, want 207", clients)
	}
	screenshot(t, tab, "clients-klog")
}
