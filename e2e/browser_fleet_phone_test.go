//go:build !wasm

package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserFleetPhoneFits: on a phone (390x844) the fleet's key and
// the names of its curves' band are written whole, in shorter words
// where the whole does not fit, never cut ("clients sent to r…",
// "without bookm…", the key cut after its first mark).
func TestBrowserFleetPhoneFits(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	tab := openFleet(t, s, fleetCaptures(t))
	recordFleetTexts(t, tab)
	must(t, chromedp.Do(tab, chromedp.EmulateViewport(390, 844)))
	// The frame drawn for the phone's room: its stage is the window's
	// width, less the page's edges.
	got, err := chromedp.Run(tab, chromedp.Poll[[]string](`(() => {
		const c = document.querySelector("#fleet canvas"), s = c && c.parentElement;
		if (!s || s.clientWidth > 400 || c.dataset.room !== s.clientWidth + "x" + s.clientHeight) return null;
		const t = window.fleetTexts;
		return t.includes("relists seen") ? t : null;
	})()`, chromedp.WithPollingTimeout(pageWait)))
	if err != nil {
		t.Fatalf("no frame drawn for the phone: %v", err)
	}
	bands := []string{"clients sent to relist", "if every watch dropped:", "without bookmarks ━", "with bookmarks ━", "dashed: might relist", "as their logs show ━", "(no bookmarks seen)", "relists seen"}
	for _, s := range got {
		if len(s) < 4 || s[len(s)-3:] != "…" {
			continue
		}
		for _, b := range bands {
			if len(b) >= len(s)-3 && b[:len(s)-3] == s[:len(s)-3] {
				t.Errorf("on a phone the band's name %q is drawn cut: %q", b, s)
			}
		}
	}
	// The key: every mark with its words inside the legend's width, none
	// cut.
	key, err := chromedp.Run(tab, chromedp.Evaluate[map[string]any](`(() => {
		const h = document.querySelector("#fleet .tl-hint"), r = h.getBoundingClientRect();
		const keys = [...h.querySelectorAll(".fleet-key")];
		return {overflows: h.scrollWidth > h.clientWidth + 1, marks: keys.length,
			outside: keys.filter(k => { const b = k.getBoundingClientRect(); return b.width === 0 || b.left < r.left - 1 || b.right > r.right + 1; }).map(k => k.textContent),
			wordless: keys.filter(k => k.innerText.trim().length <= k.querySelector(".tl-sym").innerText.length).map(k => k.textContent),
			text: h.innerText};
	})()`))
	must(t, err)
	if key["overflows"] == true || key["marks"].(float64) < 5 || len(key["outside"].([]any)) > 0 || len(key["wordless"].([]any)) > 0 {
		t.Errorf("on a phone the fleet's key is cut: %v", key)
	}
	time.Sleep(200 * time.Millisecond) // the frame painted
	screenshot(t, tab, "fleet-phone")
}
