//go:build !wasm

package e2e

import (
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserFleetPNG exports the fleet view as a picture: twice the
// canvas's CSS pixels, the fleet drawn under the title and the whole
// verdict, with the fleet's legend below it.
func TestBrowserFleetPNG(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	s := startSite(t)
	tab := openFleet(t, s, fleetCaptures(t)[:8])
	downloads := t.TempDir()
	allowDownloads(t, tab, downloads)
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#exports summary")), chromedp.Click(chromedp.CSS("#export-png"))))
	picture := waitForFile(t, filepath.Join(downloads, "watchlens-timeline.png"))
	img, err := png.DecodeConfig(strings.NewReader(picture))
	must(t, err)
	shown, err := chromedp.Run(tab, chromedp.Evaluate[map[string]string](`(() => {
		const c = document.querySelector("#fleet canvas"), v = document.querySelector("#verdict"), r = c.getBoundingClientRect();
		return {width: String(r.width), height: String(r.height), top: c.dataset.pngTop || "0", lines: c.dataset.pngText || "",
			verdict: [...v.querySelectorAll("p")].map(p => p.textContent).join(" ")};
	})()`))
	must(t, err)
	w, _ := strconv.ParseFloat(shown["width"], 64)
	h, _ := strconv.ParseFloat(shown["height"], 64)
	top, _ := strconv.ParseFloat(shown["top"], 64)
	if float64(img.Width) != 2*w || float64(img.Height) < top+2*h+20 || top < 40 {
		t.Errorf("the fleet's PNG is %dx%d; the fleet is %vx%v CSS px under %v px of title and verdict: not 2x", img.Width, img.Height, w, h, top)
	}
	// The text the picture carries, its lines joined, holds the verdict
	// whole.
	if text := strings.Join(strings.Fields(shown["lines"]), " "); shown["verdict"] == "" || !strings.Contains(text, strings.Join(strings.Fields(shown["verdict"]), " ")) {
		t.Errorf("the fleet's PNG's text\n%s\ndoes not hold the verdict\n%s", shown["lines"], shown["verdict"])
	}
	if !strings.Contains(shown["lines"], "Fleet of 8 clients, shown: ") {
		t.Errorf("the fleet's PNG does not say what it shows: %q", shown["lines"])
	}
	must(t, os.MkdirAll("screenshots", 0o755))
	must(t, os.WriteFile(filepath.Join("screenshots", "fleet-export.png"), []byte(picture), 0o644))
}
