//go:build !wasm

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"watchlens/internal/testsample"
	"watchlens/timeline"
)

// TestBrowserClients: what each client did and what its library does, on
// the page. samples-watchlist's captures dropped: the verdict's first
// line is the 48 informers that never synced, and a client that sends
// client-go's default User-Agent has its library in its file's section;
// one with a User-Agent of its own has it too, and how it was told; the
// fleet marks each whole read of a client that never synced.
// samples-lab's client-go log dropped alone: its 207 clients' sessions
// are the fleet's, the verdict tells their 81 relists, and a client's
// section says WatchList is off, as the log's feature gate does.
func TestBrowserClients(t *testing.T) {
	t.Parallel()
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
	})()`, chromedp.WithPollingTimeout(pageWait)))
	if err != nil || !strings.Contains(profile, "client-go, version not stamped (in fleet)") || !strings.Contains(profile, "after a 410 it lists again") {
		t.Errorf("c003-bookmarks-defua's section does not name its library (%v): %q", err, profile)
	}
	// A client whose User-Agent is its own is client-go all the same, as
	// its watches' timeout parameter shows.
	_, err = chromedp.Run(tab, chromedp.Evaluate[bool](`(document.querySelector("#files-find").select(), true)`))
	must(t, err)
	must(t, chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#files-find"), "c004-bookmarks.ts")))
	// The last find's one result shows until this one's comes: wait for
	// the section of the file asked for.
	told, err := chromedp.Run(tab, chromedp.Poll[string](`(() => {
		const s = [...document.querySelectorAll("#dock-files section.result")];
		const p = s.length === 1 && s[0].textContent.includes("c004-bookmarks.ts.http") && s[0].querySelector(".client-profile[data-library='client-go']");
		return p ? p.textContent : "";
	})()`, chromedp.WithPollingTimeout(pageWait)))
	if err != nil || !strings.Contains(told, "Client: client-go (its watches send timeout=") {
		t.Errorf("c004-bookmarks' section does not say how its library was told (%v): %q", err, told)
	}
	// The fleet's rows of the clients that never synced mark each whole
	// read, which its key names; the first row is one of them, and
	// pointing at its second read says what it was.
	fl, an := nativeFleet(t, captures)
	if !fl.Clients[0].NeverSynced {
		t.Fatalf("the riskiest client, %s, synced", fl.Clients[0].Name)
	}
	var reads []int64
	for _, w := range an.TL.WatchLists {
		if w.File == fl.Clients[0].File {
			reads = append(reads, w.T)
		}
	}
	if len(reads) < 2 {
		t.Fatalf("%s made %d WatchList requests", fl.Clients[0].Name, len(reads))
	}
	l := readFleetLayout(t, tab)
	fleetTip(t, tab, l.x(reads[1]), l.RowsY+0.5*l.RowH, "read its whole selection again at "+timeline.FormatClock(reads[1], time.UTC)+": a WatchList request whose sync never ended")
	legend, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("#fleet .tl-legend")?.textContent ?? ""`))
	if err != nil || !strings.Contains(legend, "a whole read by a client that never synced") {
		t.Errorf("the fleet's key (%v): %q", err, legend)
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
	// The lab's informers ran with the WatchList feature gate off, which
	// their log says; their version, v0.0.0, says nothing.
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#tab-files"))))
	must(t, chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#files-find"), "c000-bookmarks")))
	gate, err := chromedp.Run(tab, chromedp.Poll[string](`(() => {
		const s = [...document.querySelectorAll("#dock-files section.result")];
		const p = s.length === 1 && s[0].querySelector(".client-profile[data-library='client-go']");
		return p ? p.textContent : "";
	})()`, chromedp.WithPollingTimeout(pageWait)))
	if err != nil || !strings.Contains(gate, "WatchList by default: off (its log, fleet-klog.log, says the WatchListClient feature gate is off)") {
		t.Errorf("c000-bookmarks' section does not say its log's WatchList gate (%v): %q", err, gate)
	}
	screenshot(t, tab, "clients-klog")
}

// TestBrowserClientsLibLog: a kube-rs log dropped alone (parser's
// testdata, written from kube-rs's log statements with samples-lab's
// c097-nobookmarks and c080-nobookmarks): its two informers are the
// fleet's clients, their sessions on the page; the verdict tells the
// relists of c097's informer, as many as c097's TRUTH.tsv counts; and
// that informer's section names kube-rs (read from its own log) and
// what kube-rs does after a 410.
func TestBrowserClientsLibLog(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	truth := testsample.ReadTruth(t, testsample.Recording(t, "samples-lab"))
	s := startSite(t)
	tab := s.openSample(t, "w3-then-resume.ts.http")
	drop(t, tab, filepath.Join("parser", "testdata", "kubers-watcher.log"))
	waitRead(t, tab, "kubers-watcher.log", "shown")
	story, err := chromedp.Run(tab, chromedp.Poll[string](`(() => {
		const p = document.querySelector("#verdict p");
		return p && p.dataset.topic === "fleet" ? p.textContent : "";
	})()`, chromedp.WithPollingTimeout(pageWait)))
	if want := fmt.Sprintf("1 client of the 2 relisted %d times", truth.Int(t, "c097-nobookmarks", "relists")); err != nil || !strings.HasPrefix(story, want) {
		lines, _ := chromedp.Run(tab, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#verdict p, #problems li, .problems li")].map(p => (p.dataset.topic || "") + ": " + p.textContent)`))
		screenshot(t, tab, "clients-kubers")
		t.Fatalf("the kube-rs log's verdict (%v): %q, want it to begin %q; the page says %q", err, story, want, lines)
	}
	screenshot(t, tab, "clients-kubers")
	// Two clients: the timeline comes first; the fleet is a click away.
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#show-fleet"))))
	if clients := waitText(t, tab, "#fleet-summary dd"); clients != "2" {
		t.Errorf("the fleet of the kube-rs log has %s clients, want its 2 informers", clients)
	}
	screenshot(t, tab, "clients-kubers-fleet")

	// A tab of its own: each tab has its time limit (tabLimit).
	tab = s.openSample(t, "w3-then-resume.ts.http")
	drop(t, tab, filepath.Join("parser", "testdata", "kubers-watcher.log"))
	waitRead(t, tab, "kubers-watcher.log", "shown")
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#tab-files"))))
	// Two files: both sections are listed, with no box to find one.
	profile, err := chromedp.Run(tab, chromedp.Poll[string](`(() => {
		const s = [...document.querySelectorAll("#dock-files section.result")];
		const f = s.filter(x => x.dataset.file.includes("shard=s17"));
		const p = s.length === 2 && f.length === 1 && f[0].querySelector(".client-profile[data-library='kube-rs']");
		return p ? p.textContent : "";
	})()`, chromedp.WithPollingTimeout(pageWait)))
	if err != nil || !strings.Contains(profile, "Client: kube-rs (read from its own log, kubers-watcher.log).") || !strings.Contains(profile, "after a 410 it lists again with no resourceVersion") {
		t.Errorf("the s17 informer's section does not name kube-rs and its relist (%v): %q", err, profile)
	}
	screenshot(t, tab, "clients-kubers-files")
}
