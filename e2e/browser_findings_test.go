//go:build !wasm

package e2e

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserFindings: the Findings tab lists the model's findings, and
// following one moves the view to its moment while the tab stays open.
func TestBrowserFindings(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	s := startSite(t)
	tab := s.openSample(t, w4)
	tl, an := nativeTimeline(t, "samples/"+w4)
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.ID("tab-findings"))))
	waitText(t, tab, "#findings")
	for list, want := range map[string]int{"errors": len(tl.ObservedErrors()), "zones": len(an.Zones), "gaps": len(an.Gaps), "resumes": len(an.Resumes)} {
		got, err := chromedp.Run(tab, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector('[data-findings=%q]').dataset.count`, list)))
		must(t, err)
		if got != strconv.Itoa(want) {
			t.Errorf("the %s list counts %s, the model has %d", list, got, want)
		}
	}
	errs := tl.ObservedErrors()
	if len(errs) != 1 {
		t.Fatalf("%s has %d errors, want its one 410", w4, len(errs))
	}
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS(`[data-findings="errors"] li button`))))
	at := errs[0].T
	waitSummary(t, tab, func(s map[string]string) bool {
		from, _ := strconv.ParseInt(s["from"], 10, 64)
		to, _ := strconv.ParseInt(s["to"], 10, 64)
		return s["whole"] == "false" && from < at && at < to && to-from <= int64(2*60e9)
	})
	if sel, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector('#tab-findings').getAttribute('aria-selected')`)); err != nil || sel != "true" {
		t.Errorf("after following a finding the Findings tab is selected: %q (%v)", sel, err)
	}
	screenshot(t, tab, "findings")
}
