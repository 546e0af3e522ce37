//go:build !wasm

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"watchlens/internal/testsample"

	"github.com/chromedp/chromedp"
)

// TestBrowserFindingShowsTheTimeline: a finding's time is titled "Show
// this moment on the timeline"; followed from the fleet view, the first
// view of a fleet, it changed the URL's range and nothing a user sees.
// It now shows the timeline.
func TestBrowserFindingShowsTheTimeline(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	outage := testsample.Recording(t, "samples-outage")
	audits, err := filepath.Glob(filepath.Join(outage, "audit-*.log"))
	must(t, err)
	s := startSite(t)
	tab := s.openSample(t, "w3-then-resume.ts.http")
	drop(t, tab, audits...)
	waitTextWithin(t, tab, "#fleet-summary", loadWait(tab))
	// Over the fleet, the filters say they act on the timeline alone.
	if got := waitText(t, tab, "#filters"); !strings.Contains(got, "act on the timeline") {
		t.Errorf("over the fleet view the filters read %q", got)
	}
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.ID("tab-findings"))))
	waitText(t, tab, "#findings")
	// Every list open, the first finding with a time.
	must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`document.querySelectorAll("#findings details").forEach((d) => { d.open = true; })`)))
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS(`#findings li button`))))
	wait, cancel := context.WithTimeout(tab, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(wait, chromedp.WaitNotPresent("#fleet-summary")); err != nil {
		t.Fatalf("following a finding from the fleet view left the fleet shown: %v", err)
	}
	waitFitted(t, tab)
	must(t, chromedp.Do(tab, chromedp.WaitVisible("#filter-added")))
}
