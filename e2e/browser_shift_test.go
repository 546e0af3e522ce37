//go:build !wasm

package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserShiftMovesTheRowsShown: web/timeline.js's watchlensShift,
// which shows a pan at once before the engine's worker answers its
// frame, moves the plot's pixels in the rows of the canvas that show in
// its scrolling panel, clears the strip it uncovers and leaves the rest
// of the plot and the gutter alone. A timeline of many files is a canvas
// taller than its panel: moving all of it held the page's thread 69-84
// ms at some moves of a pan over samples-fleet's 52 files.
func TestBrowserShiftMovesTheRowsShown(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	tab := s.openSample(t, "w3-then-resume.ts.http")
	type pixel struct{ R, A int }
	got, err := chromedp.Run(tab, chromedp.Evaluate[struct {
		Shown, Strip, Gutter, Hidden pixel
	}](`(async () => {
		// A panel 200 px high scrolled to the middle of a canvas 2000 px
		// high, each column x of its plot (x >= 20) painted red x.
		const panel = document.createElement("div");
		panel.style.cssText = "position:fixed;left:0;top:0;width:260px;height:200px;overflow:auto";
		const c = document.createElement("canvas");
		c.width = 250;
		c.height = 2000;
		c.style.cssText = "display:block;width:250px;height:2000px";
		panel.appendChild(c);
		document.body.appendChild(panel);
		panel.scrollTop = 1000;
		const g = c.getContext("2d");
		for (let x = 0; x < 250; x++) {
			g.fillStyle = "rgb(" + x + ",0,0)";
			g.fillRect(x, 0, 1, 2000);
		}
		window.watchlensShift(c, 10, 20, 230);
		await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
		const at = (x, y) => { const d = g.getImageData(x, y, 1, 1).data; return {R: d[0], A: d[3]}; };
		const out = {Shown: at(100, 1100), Strip: at(25, 1100), Gutter: at(10, 1100), Hidden: at(100, 100)};
		panel.remove();
		return out;
	})()`, chromedp.EvalAwaitPromise))
	must(t, err)
	if got.Shown != (pixel{90, 255}) {
		t.Errorf("a pixel of the rows shown reads red %d alpha %d after a shift of 10 px, want the pixel 10 px left of it (red 90)", got.Shown.R, got.Shown.A)
	}
	if got.Strip.A != 0 {
		t.Errorf("the strip the shift uncovered reads red %d alpha %d, want it cleared", got.Strip.R, got.Strip.A)
	}
	if got.Gutter != (pixel{10, 255}) {
		t.Errorf("the gutter left of the plot reads red %d alpha %d, want it as it was (red 10)", got.Gutter.R, got.Gutter.A)
	}
	if got.Hidden != (pixel{100, 255}) {
		t.Errorf("a row scrolled out of the panel reads red %d alpha %d, want it left as it was (red 100)", got.Hidden.R, got.Hidden.A)
	}
}
