//go:build !wasm

package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"testing"
	"time"

	"watchlens/app/canvas"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestBrowserScrolledTimelineStaysReadable: the lab's three servers'
// tracks and its captures' groups are taller than a 1280x800 window
// leaves the timeline, so its panel scrolls them. The canvas holds the
// rows in view and a margin, not every track: scrolled, it is drawn
// again for the rows scrolled to, which it covers, and the panel's top
// still shows the time axis, a copy that reads as the canvas's own
// unscrolled, when it shows alone.
// Without it, the servers' tracks were read with no times above them.
// A click on a file's name there folds that file: the pointer is read
// on the layout, wherever the canvas sits. A tooltip near the panel's
// bottom opens above the pointer, not below the panel's edge, which cut
// it.
func TestBrowserScrolledTimelineStaysReadable(t *testing.T) {
	t.Parallel()
	logs, exports := labFiles(t)
	files := append(append(append([]string(nil), logs...), exports...), labRefusedCaptures(t)...)
	s := startSite(t)
	tab := s.openSampleWithin(t, "w3-then-resume.ts.http", 5*time.Minute)
	must(t, chromedp.Do(tab, chromedp.EmulateViewport(1280, 800)))
	dropRead(t, tab, files...)
	showTimeline(t, tab)
	bands := timelineBands(t, tab, func(b []fileBand) bool { return len(b) > 6 })
	if bands[0].id != canvas.BandAxis {
		t.Fatalf("the first band is %v, not the time axis", bands[0].id)
	}
	axisH := bands[0].h
	type canvasState struct {
		Scrollable bool    `json:"scrollable"`
		CanvasTop  float64 `json:"canvasTop"` // the canvas's place on its stage
		Height     float64 `json:"height"`
		StageH     float64 `json:"stageH"`
		PanelH     float64 `json:"panelH"`
		Covers     bool    `json:"covers"` // the canvas covers the stage's rows in view
		StageTop   float64 `json:"stageTop"`
		PanelTop   float64 `json:"panelTop"`
		Left       float64 `json:"left"`
		// Axis is, of the copy of the axis (-1 while it is hidden), the
		// pixels unlike the canvas's own axis unscrolled; Ink those unlike
		// the panel's background.
		Axis, Ink, Pixels int
		// AxisOff is how far below the panel's top, inside its border (or
		// the stage's top, below it), the stage's canvas.tl-axis is.
		AxisOff float64
	}
	// axisRows composites the canvas's rows [y, y+h) CSS px over the
	// panel's background and returns their pixels.
	const axisRows = `const axisRows = (c, y, h) => {
		const r = c.width / c.clientWidth, g = document.createElement("canvas");
		g.width = c.width; g.height = Math.round(h * r);
		const x = g.getContext("2d");
		x.fillStyle = getComputedStyle(c).getPropertyValue("--panel").trim();
		x.fillRect(0, 0, g.width, g.height);
		x.drawImage(c, 0, Math.round(y * r), g.width, g.height, 0, 0, g.width, g.height);
		return x.getImageData(0, 0, g.width, g.height).data;
	};`
	want, err := chromedp.Run(tab, chromedp.Evaluate[[]int](fmt.Sprintf(`(() => { %s
		const c = document.querySelector("#timeline canvas");
		return c.offsetTop === 0 ? Array.from(axisRows(c, 0, %v)) : null;
	})()`, axisRows, axisH)))
	must(t, err)
	if len(want) == 0 {
		t.Fatal("unscrolled, the canvas is not at its stage's top")
	}
	read := fmt.Sprintf(`(() => { %s
		const p = document.querySelector("#timeline-panel"), c = document.querySelector("#timeline canvas"), st = c.parentElement, a = c.nextElementSibling;
		if (!a || !a.classList.contains("tl-axis")) return null;
		const pr = p.getBoundingClientRect(), cr = c.getBoundingClientRect(), sr = st.getBoundingClientRect(), ar = a.getBoundingClientRect();
		const top = Math.max(pr.top + p.clientTop, sr.top), bottom = Math.min(pr.bottom, sr.bottom);
		const shown = getComputedStyle(a).display !== "none";
		const got = shown ? axisRows(a, 0, %v) : [], want = window.axisWanted;
		let axis = shown ? 0 : -1, ink = 0;
		const g = document.createElement("canvas").getContext("2d");
		g.fillStyle = getComputedStyle(c).getPropertyValue("--panel").trim();
		g.fillRect(0, 0, 1, 1);
		const b = g.getImageData(0, 0, 1, 1).data;
		for (let i = 0; i < got.length && i < want.length; i += 4) {
			let unlike = false, inked = false;
			for (let k = 0; k < 3; k++) {
				if (Math.abs(got[i + k] - want[i + k]) > 40) unlike = true;
				if (Math.abs(got[i + k] - b[k]) > 40) inked = true;
			}
			axis += unlike; ink += inked;
		}
		return {scrollable: p.scrollHeight > p.clientHeight + 100, canvasTop: c.offsetTop, height: c.clientHeight, stageH: st.clientHeight, panelH: p.clientHeight,
			covers: cr.top <= top + 0.5 && cr.bottom >= bottom - 0.5, stageTop: sr.top, panelTop: pr.top, left: sr.left,
			axisOff: ar.top - top, axis, ink, pixels: got.length / 4};
	})()`, axisRows, axisH)
	wantJS, err := json.Marshal(want)
	must(t, err)
	_, err = chromedp.Run(tab, chromedp.Evaluate[int](`(() => { window.axisWanted = `+string(wantJS)+`; return 0; })()`))
	must(t, err)
	get := func() canvasState {
		st, err := chromedp.Run(tab, chromedp.Evaluate[*canvasState](read))
		must(t, err)
		if st == nil {
			t.Fatal("no timeline panel or canvas")
		}
		return *st
	}
	st := get()
	if !st.Scrollable {
		t.Fatal("the lab's timeline fits its panel at 1280x800: the test tests nothing")
	}
	// The rows in view, at least 96 px more on each side, and up to two
	// steps of 64 (app/stage_room.go).
	if most := st.PanelH + 2*96 + 2*64; st.Height > most || st.Height >= st.StageH {
		t.Errorf("the canvas is %v px high, for a panel %v px high over tracks %v px high: want at most %v", st.Height, st.PanelH, st.StageH, most)
	}
	if st.Axis >= 0 || !st.Covers {
		t.Errorf("unscrolled, the canvas does not cover the panel's rows, or a copy of its axis shows over its own: %+v", st)
	}
	scroll := func(y int) {
		_, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelector("#timeline-panel").scrollTop = `+strconv.Itoa(y)))
		must(t, err)
	}
	scroll(1000)
	if !until(pageWait, func() bool {
		st = get()
		return st.CanvasTop > 0 && st.Covers
	}) {
		t.Fatalf("scrolled 1000 px, the canvas was not drawn again for the rows in view: %+v", st)
	}
	if st.Ink < 50 || st.Axis < 0 || st.Axis > st.Pixels/50 || math.Abs(st.AxisOff) > 1 {
		t.Errorf("scrolled, the axis is %v px below the panel's top, with %d pixels of ink, %d of %d unlike the canvas's own axis unscrolled", st.AxisOff, st.Ink, st.Axis, st.Pixels)
	}
	screenshot(t, tab, "axis-in-view")

	// A file's name band in the middle of the panel, clicked, folds or
	// unfolds that file.
	mid := st.PanelTop - st.StageTop + 120
	var head fileBand
	for _, b := range bands {
		if b.id == canvas.BandFile && b.y > mid && b.y < mid+150 {
			head = b
			break
		}
	}
	if head.label == "" {
		t.Fatalf("no file's name band %v to %v px down the tracks: %v", mid, mid+150, bands)
	}
	_, _, unfolded := groupOf(bands, head.file)
	clickAt(t, tab, st.Left+20, st.StageTop+head.y+head.h/2, 0)
	timelineBands(t, tab, func(b []fileBand) bool {
		_, _, now := groupOf(b, head.file)
		return now != unfolded
	})

	scroll(0)
	if !until(pageWait, func() bool {
		st = get()
		return st.CanvasTop == 0 && st.Axis < 0
	}) {
		t.Errorf("scrolled back, the canvas is not at its stage's top, or the copy of its axis still shows: %+v", st)
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
