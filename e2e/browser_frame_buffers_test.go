//go:build !wasm

package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserFrameBuffersGoBack: while the user pans the timeline, each
// frame question but the first few takes back to the engine's worker
// the buffer of a frame the page has drawn over (client.Worker.GiveBack),
// so that the worker writes the next frame in memory already mapped
// rather than in a new buffer, which this machine faults in a page at a
// time. TestBrowserEngineWorker checks that a frame written in a buffer
// given back is the frame.
func TestBrowserFrameBuffersGoBack(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	tab := s.newTab(t)
	watchWorkerFrames(t, tab)
	navigate(t, tab, s.url+"/?sample=w1-broad-configmaps-bookmarks.ts.http")
	waitText(t, tab, "#timeline-summary")
	must(t, chromedp.Do(tab, chromedp.ScrollIntoView(chromedp.CSS("#timeline canvas"))))
	type asked struct {
		Q     string
		Spare int
	}
	got, err := chromedp.Run(tab, chromedp.Evaluate[[]asked](`(async () => {
		const c = document.querySelector("#timeline canvas");
		const r = c.parentElement.getBoundingClientRect();
		const x = r.left + Number(c.dataset.plotX) + Number(c.dataset.plotW) / 2;
		const y = r.top + Number(c.dataset.lanesY) + 10;
`+workerFrameTiming+`
		const settled = () => new Promise(done => setTimeout(done, 500));
		const wheel = dy => c.dispatchEvent(new WheelEvent("wheel", {deltaY: dy, clientX: x, clientY: y, bubbles: true, cancelable: true}));
		await timed(3, () => wheel(-240));
		await settled();
		const opts = (px, b) => ({pointerId: 1, button: 0, buttons: b, clientX: px, clientY: y, bubbles: true});
		c.dispatchEvent(new PointerEvent("pointerdown", opts(x, 1)));
		const first = f.asked.length;
		await timed(16, i => c.dispatchEvent(new PointerEvent("pointermove", opts(x - 6 * (i + 1), 1))));
		c.dispatchEvent(new PointerEvent("pointerup", opts(x - 96, 0)));
		await settled();
		return f.asked.slice(first).map(a => ({Q: a.q, Spare: a.spare}));
	})()`, chromedp.EvalAwaitPromise))
	must(t, err)
	if len(got) < 12 {
		t.Fatalf("a drag of 16 moves asked %d frames: %+v", len(got), got)
	}
	// The first answers of the drag are drawn over the frames of the
	// wheel's, whose buffers went back then: from the third question on,
	// each answer drawn has given one back before the next is asked.
	without, least := 0, 0
	for _, a := range got[2:] {
		if a.Spare > 0 && (least == 0 || a.Spare < least) {
			least = a.Spare
		}
		if a.Q != "frame" {
			t.Errorf("the timeline's drag asked a %q question", a.Q)
		}
		if a.Spare == 0 {
			without++
		}
	}
	if without > 0 {
		t.Errorf("%d of %d frame questions of a drag took no buffer back to the worker: %+v", without, len(got)-2, got)
	}
	t.Logf("%d frame questions, the buffers given back %d bytes and more", len(got), least)
}
