//go:build !wasm

package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestBrowserCopyNoticeGoes: the notice that a copy worked goes by
// itself a few seconds on, as a tooltip a tap showed does; it stays
// while the pointer is over it, and goes once the pointer has left. The
// notice that the browser refused the clipboard holds the text to copy
// by hand: it stays until closed.
func TestBrowserCopyNoticeGoes(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	tab := s.openSample(t, "w3-then-resume.ts.http")
	// The clipboard as a focused window has it, or as one that refuses.
	clipboard := func(works bool) {
		t.Helper()
		answer := "Promise.resolve()"
		if !works {
			answer = `Promise.reject(new DOMException("Document is not focused.", "NotAllowedError"))`
		}
		must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`navigator.clipboard.writeText = () => `+answer)))
	}
	shown := func() string {
		t.Helper()
		text, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("#copied")?.textContent ?? ""`))
		must(t, err)
		return text
	}
	copyLink := func(want string) {
		t.Helper()
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.ID("copy-link"))))
		if !until(pageWait, func() bool { return strings.Contains(shown(), want) }) {
			t.Fatalf("after Copy link the notice reads %q, not %q", shown(), want)
		}
	}
	gone := func(within time.Duration) bool { return until(within, func() bool { return shown() == "" }) }
	// Past the notice's few seconds, with time to spare on a busy machine.
	const past = 10 * time.Second

	clipboard(true)
	copyLink("Copied the link to this view to the clipboard.")
	screenshot(t, tab, "copied")
	if !gone(past + 5*time.Second) {
		t.Fatalf("the notice of the copy still shows %v on: %q", past+5*time.Second, shown())
	}

	// Pointed at, it stays; left, it goes.
	copyLink("Copied the link to this view to the clipboard.")
	box, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector("#copied").getBoundingClientRect(); return [r.left + 20, r.top + 10]; })()`))
	must(t, err)
	mouse(t, tab, box[0], box[1])
	if gone(past) {
		t.Fatalf("the notice of the copy went while the pointer was over it")
	}
	mouse(t, tab, 20, 200)
	if !gone(past + 5*time.Second) {
		t.Fatalf("the notice of the copy still shows %v after the pointer left it: %q", past+5*time.Second, shown())
	}

	// Refused, the text to copy by hand stays until closed.
	clipboard(false)
	copyLink("The browser did not let the page use the clipboard")
	if gone(past) {
		t.Fatalf("the notice holding the link to copy by hand went by itself")
	}
	screenshot(t, tab, "copied-refused")
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.ID("copied-close"))))
	if !gone(pageWait) {
		t.Fatalf("Close did not close the notice: %q", shown())
	}
}

// mouse moves the mouse to (x, y) of the window.
func mouse(t testing.TB, tab context.Context, x, y float64) {
	t.Helper()
	must(t, chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y)))
}
