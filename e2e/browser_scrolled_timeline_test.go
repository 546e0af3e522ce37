//go:build !wasm

package e2e

import (
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestBrowserScrolledTimelineStaysReadable: the lab's three servers'
// tracks and its captures' groups are taller than a 1280x800 window
// leaves the timeline, so its panel scrolls them; scrolled, the panel's
// top still shows the time axis, a copy of the canvas's own, and
// scrolled back the copy is gone. Without it, the servers' tracks were
// read with no times above them. A tooltip near the panel's bottom
// opens above the pointer, not below the panel's edge, which cut it.
func TestBrowserScrolledTimelineStaysReadable(t *testing.T) {
	t.Parallel()
	logs, exports := labFiles(t)
	files := append(append(append([]string(nil), logs...), exports...), labRefusedCaptures(t)...)
	s := startSite(t)
	tab := s.openSampleWithin(t, "w3-then-resume.ts.http", 5*time.Minute)
	must(t, chromedp.Do(tab, chromedp.EmulateViewport(1280, 800)))
	dropRead(t, tab, files...)
	showTimeline(t, tab)
	timelineBands(t, tab, func(b []fileBand) bool { return len(b) > 6 })
	type axisState struct {
		Scrollable bool    `json:"scrollable"`
		Shown      bool    `json:"shown"`
		Top        float64 `json:"top"`
		PanelTop   float64 `json:"panelTop"`
		Diff       float64 `json:"diff"`
		Height     float64 `json:"height"`
	}
	const read = `(() => {
		const p = document.querySelector("#timeline-panel"), c = document.querySelector("#timeline canvas"), a = document.querySelector("#timeline canvas.tl-axis");
		if (!p || !c || !a) return null;
		const shown = getComputedStyle(a).display !== "none";
		let diff = -1;
		if (shown && a.width === c.width && a.height > 0) {
			// The copy's pixels against the canvas's top rows.
			const x = a.getContext("2d").getImageData(0, 0, a.width, a.height).data;
			const y = c.getContext("2d").getImageData(0, 0, a.width, a.height).data;
			diff = 0;
			for (let i = 0; i < x.length; i++) diff += x[i] !== y[i];
		}
		return {scrollable: p.scrollHeight > p.clientHeight + 100, shown, top: a.getBoundingClientRect().top, panelTop: p.getBoundingClientRect().top, diff, height: a.getBoundingClientRect().height};
	})()`
	get := func() axisState {
		st, err := chromedp.Run(tab, chromedp.Evaluate[*axisState](read))
		must(t, err)
		if st == nil {
			t.Fatal("no timeline panel, canvas or axis copy")
		}
		return *st
	}
	st := get()
	if !st.Scrollable {
		t.Fatal("the lab's timeline fits its panel at 1280x800: the test tests nothing")
	}
	if st.Shown {
		t.Errorf("unscrolled, the copy of the axis is shown: %+v", st)
	}
	scroll := func(y int) {
		_, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelector("#timeline-panel").scrollTop = `+strconv.Itoa(y)))
		must(t, err)
	}
	scroll(400)
	if !until(pageWait, func() bool {
		st = get()
		return st.Shown
	}) {
		t.Fatalf("scrolled 400 px, no axis at the panel's top: %+v", st)
	}
	if d := st.Top - st.PanelTop; d < -1 || d > 1 || st.Height < 20 || st.Diff != 0 {
		t.Errorf("scrolled, the axis is %v px below the panel's top, %v px high, %v bytes unlike the canvas's axis", d, st.Height, st.Diff)
	}
	screenshot(t, tab, "axis-in-view")
	scroll(0)
	if !until(pageWait, func() bool {
		st = get()
		return !st.Shown
	}) {
		t.Errorf("scrolled back, the copy of the axis is still shown: %+v", st)
	}

	// The pointer 8 px above the panel's bottom, over the plot.
	p, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](`(() => { const p = document.querySelector("#timeline-panel").getBoundingClientRect(), c = document.querySelector("#timeline canvas");
		const r = c.getBoundingClientRect(); return [r.left + Number(c.dataset.plotX) + Number(c.dataset.plotW) / 2, p.bottom - 8]; })()`))
	must(t, err)
	must(t, chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, p[0], p[1])))
	tip, err := chromedp.Run(tab, chromedp.Poll[[]float64](`(() => { const e = document.querySelector("#timeline .tl-tip"); if (!e || e.style.display === "none" || !e.textContent) return null;
		const r = e.getBoundingClientRect(), p = document.querySelector("#timeline-panel").getBoundingClientRect(); return [r.top, r.bottom, p.top, p.bottom]; })()`,
		chromedp.WithPollingTimeout(pageWait)))
	if err != nil {
		t.Fatalf("no tooltip at the panel's bottom: %v", err)
	}
	if tip[1] > tip[3]+1 || tip[0] < tip[2]-1 {
		t.Errorf("the tooltip spans y %v to %v, out of the panel's %v to %v", tip[0], tip[1], tip[2], tip[3])
	}
	screenshot(t, tab, "tooltip-at-the-bottom")
}
