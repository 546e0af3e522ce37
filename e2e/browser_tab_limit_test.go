//go:build !wasm

package e2e

import (
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserTabPastItsLimit: a tab whose time limit has passed while its
// page still sends events (here a flood of console messages) leaves the
// browser's other tabs working: newTabWithin's tab reads its messages
// until it is closed (openTab), where a tab that stopped reading them at
// its limit would fill its queue and stop the router every tab's
// messages go through.
func TestBrowserTabPastItsLimit(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	browser := newBrowserContext(t)
	chatty := newTabWithin(t, browser, 5*time.Second)
	must(t, chromedp.Do(chatty, chromedp.Evaluate[chromedp.Void](`setInterval(() => { for (let i = 0; i < 50; i++) console.log("event " + i); }, 5)`)))
	<-chatty.Done()
	// Long enough for the flood to be many times the queue's 1024.
	time.Sleep(3 * time.Second)
	other := newTabWithin(t, browser, pageWait)
	if _, err := chromedp.Run(other, chromedp.Evaluate[int](`1 + 1`)); err != nil {
		t.Fatalf("another tab did not answer once a tab's limit had passed: %v", err)
	}
}
