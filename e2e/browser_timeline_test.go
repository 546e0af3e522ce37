//go:build !wasm

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"watchlens/app/canvas"
	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/timeline"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// The timeline canvas cannot be read, so these tests read what the
// component renders beside it (the summary and the zones table) and check
// it against the timeline package run natively on the same file; then
// they zoom, pan and click on the canvas as a user does.

// tlSummary is the data the summary of the timeline carries.
type tlSummary struct {
	Files           string  `json:"files"`
	Whole           string  `json:"whole"`
	From            string  `json:"from"`
	To              string  `json:"to"`
	Lanes           int     `json:"lanes"`
	Rows            int     `json:"rows"`
	Bookmarks       int     `json:"bookmarks"`
	Errors          int     `json:"errors"`
	ZonesAware      int     `json:"zonesAware"`
	ZonesAwareSec   float64 `json:"zonesAwareSeconds"`
	ZonesIgnoring   int     `json:"zonesIgnoring"`
	ZonesIgnoringS  float64 `json:"zonesIgnoringSeconds"`
	Selected        int     `json:"selected"`
	ZoneRows        int     `json:"zoneRows"`
	CanvasLeft      float64 `json:"canvasLeft"`
	CanvasTop       float64 `json:"canvasTop"`
	PlotX           float64 `json:"plotX"`
	PlotW           float64 `json:"plotW"`
	LanesY          float64 `json:"lanesY"`
	RowH            float64 `json:"rowH"`
	CanvasPixelW    float64 `json:"canvasPixelW"`
	CanvasCSSW      float64 `json:"canvasCSSW"`
	DevicePixelRate float64 `json:"dpr"`
}

const readSummaryJS = `(() => {
	const d = document.querySelector("#timeline-summary");
	const c = document.querySelector("#timeline canvas");
	if (!d || !c || !c.dataset.plotW) { return null; }
	const r = c.parentElement.getBoundingClientRect();
	const n = k => Number(d.dataset[k]);
	return {files: d.dataset.files, whole: d.dataset.whole, from: d.dataset.from, to: d.dataset.to,
		lanes: n("lanes"), rows: n("rows"), bookmarks: n("bookmarks"), errors: n("errors"),
		zonesAware: n("zonesAware"), zonesAwareSeconds: n("zonesAwareSeconds"),
		zonesIgnoring: n("zonesIgnoring"), zonesIgnoringSeconds: n("zonesIgnoringSeconds"),
		selected: n("selected"), zoneRows: document.querySelectorAll("#zones-table tbody tr").length,
		canvasLeft: r.left, canvasTop: r.top, plotX: Number(c.dataset.plotX), plotW: Number(c.dataset.plotW),
		lanesY: Number(c.dataset.lanesY), rowH: Number(c.dataset.rowH),
		canvasPixelW: c.width, canvasCSSW: c.getBoundingClientRect().width, dpr: window.devicePixelRatio};
})()`

// readSummary waits until the timeline shows the capture called name and
// until cond holds, and returns the summary.
func readSummary(t *testing.T, tab context.Context, name string, cond func(tlSummary) bool) tlSummary {
	t.Helper()
	deadline := time.Now().Add(pageWait)
	for {
		got, err := chromedp.Run(tab, chromedp.Evaluate[*tlSummary](readSummaryJS))
		must(t, err)
		if got != nil && got.Files == name && (cond == nil || cond(*got)) {
			return *got
		}
		if time.Now().After(deadline) {
			text, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.innerText.slice(0, 1500)`))
			t.Fatalf("the timeline of %s never showed as expected; last summary %+v\npage text:\n%s", name, got, text)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// nativeTimeline builds and analyses a sample as the timeline package's
// own tests do.
func nativeTimeline(t *testing.T, file string) (*timeline.Timeline, *timeline.Analysis) {
	t.Helper()
	f, err := os.Open(file)
	must(t, err)
	defer f.Close()
	b := timeline.NewBuilder()
	must(t, b.AddReader(filepath.Base(file), f, parser.Options{}))
	tl := b.Build()
	return tl, tl.Analyze(timeline.DefaultParams())
}

// zoneUnion is how many seconds a cursor kind's zones cover (the models
// overlap, so the union, not the sum).
func zoneUnion(zones []timeline.Zone, kind timeline.CursorKind) (int, float64) {
	var spans [][2]int64
	for _, z := range zones {
		if z.Kind == kind {
			spans = append(spans, [2]int64{z.From, z.To})
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var total, end int64
	for i, s := range spans {
		switch {
		case i == 0 || s[0] > end:
			total += s[1] - s[0]
			end = s[1]
		case s[1] > end:
			total += s[1] - end
			end = s[1]
		}
	}
	return len(spans), float64(total) / 1e9
}

// shotTimeline saves a screenshot of the timeline section.
func shotTimeline(t testing.TB, tab context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(tab, chromedp.Screenshot(chromedp.CSS("#timeline")))
	must(t, err)
	must(t, os.MkdirAll("screenshots", 0o755))
	must(t, os.WriteFile(filepath.Join("screenshots", name+".png"), png, 0o644))
}

func TestBrowserTimeline(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s: install it with `apt-get update && apt-get install -y chromium` (%v)", chromiumPath, err)
	}
	s := startSite(t)

	for _, name := range []string{"w4-then-resume.ts.http", "w3-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http", "w6-sendinitialevents-rig-a.http", "kubectl-pods-watch.jsonl"} {
		t.Run("summary "+name, func(t *testing.T) {
			t.Parallel()
			tl, an := nativeTimeline(t, "samples/"+name)
			tab := s.newTab(t)
			navigate(t, tab, s.url+"/?sample="+name)
			got := readSummary(t, tab, name, nil)
			bookmarks, errors := 0, 0
			for _, f := range tl.Files {
				bookmarks += f.Counts["BOOKMARK"]
				errors += f.Counts["ERROR"]
			}
			if got.Whole != "true" || got.Lanes != tl.Lanes.Len() || got.Bookmarks != bookmarks || got.Errors != errors {
				t.Errorf("summary shows whole=%s %d lanes, %d bookmarks, %d errors; natively %d lanes, %d bookmarks, %d errors",
					got.Whole, got.Lanes, got.Bookmarks, got.Errors, tl.Lanes.Len(), bookmarks, errors)
			}
			na, sa := zoneUnion(an.Zones, timeline.BookmarkAware)
			ni, si := zoneUnion(an.Zones, timeline.BookmarkIgnoring)
			if got.ZonesAware != na || got.ZonesIgnoring != ni || got.ZoneRows != len(an.Zones) {
				t.Errorf("summary shows %d+%d red zones in a table of %d; natively %d bookmark-aware, %d bookmark-ignoring",
					got.ZonesAware, got.ZonesIgnoring, got.ZoneRows, na, ni)
			}
			if d := got.ZonesAwareSec - sa + got.ZonesIgnoringS - si; d > 0.01 || d < -0.01 {
				t.Errorf("summary shows %.3f s + %.3f s of red zones; natively %.3f s + %.3f s", got.ZonesAwareSec, got.ZonesIgnoringS, sa, si)
			}
			// Sharp on HiDPI: the backing store has a device pixel per pixel.
			if got.CanvasPixelW != float64(int(got.CanvasCSSW*got.DevicePixelRate+0.5)) {
				t.Errorf("canvas is %v device pixels wide for %v CSS px at ratio %v", got.CanvasPixelW, got.CanvasCSSW, got.DevicePixelRate)
			}
			shotTimeline(t, tab, "timeline-"+name)
		})
	}

	t.Run("wheel zoom, drag pan, keys, reset", func(t *testing.T) {
		t.Parallel()
		const name = "w1-broad-configmaps-bookmarks.ts.http"
		tab := s.newTab(t)
		navigate(t, tab, s.url+"/?sample="+name)
		whole := readSummary(t, tab, name, nil)
		must(t, chromedp.Do(tab, chromedp.ScrollIntoView(chromedp.CSS("#timeline canvas"))))
		whole = readSummary(t, tab, name, nil)
		start := func(g tlSummary) int64 {
			from, _ := strconv.ParseInt(g.From, 10, 64)
			return from
		}
		span := func(g tlSummary) int64 {
			from, _ := strconv.ParseInt(g.From, 10, 64)
			to, _ := strconv.ParseInt(g.To, 10, 64)
			return to - from
		}
		x, y := whole.CanvasLeft+whole.PlotX+whole.PlotW/2, whole.CanvasTop+whole.LanesY-10
		must(t, chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseWheel, x, y, func(p *input.DispatchMouseEventParams) {
			// CDP wants both deltas, and omits a zero one: a negligible
			// sideways component keeps it in the message.
			p.DeltaX, p.DeltaY = 1e-6, -400
		})))
		zoomed := readSummary(t, tab, name, func(g tlSummary) bool { return g.Whole == "false" })
		if span(zoomed) >= span(whole)*3/4 {
			t.Fatalf("a wheel turn zoomed from a span of %d to %d", span(whole), span(zoomed))
		}
		// The URL follows once the zooming has settled (settleDelay).
		want := "from=" + zoomed.From
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](fmt.Sprintf(`location.search.includes(%q)`, want),
			chromedp.WithPollingTimeout(pageWait))); err != nil {
			url, _ := chromedp.Run(tab, chromedp.Evaluate[string](`location.search`))
			t.Errorf("the page's URL %q does not hold the zoomed range (%s)", url, want)
		}
		shotTimeline(t, tab, "timeline-zoomed")

		// Drag to the left: later instants come into view.
		must(t, chromedp.Do(tab,
			chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x, y, chromedp.ButtonLeft),
			chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x-100, y, chromedp.ButtonLeft),
			chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x-200, y, chromedp.ButtonLeft),
			chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x-200, y, chromedp.ButtonLeft)))
		panned := readSummary(t, tab, name, func(g tlSummary) bool { return g.From != zoomed.From })
		if start(panned) <= start(zoomed) || span(panned) != span(zoomed) {
			t.Errorf("dragging left moved the view from %s (span %d) to %s (span %d)", zoomed.From, span(zoomed), panned.From, span(panned))
		}

		// Keys when the canvas has focus: + zooms in.
		must(t, chromedp.Do(tab, chromedp.Focus(chromedp.CSS("#timeline canvas")), chromedp.KeyEvent("+")))
		keyed := readSummary(t, tab, name, func(g tlSummary) bool { return span(g) < span(panned) })
		if span(keyed) >= span(panned) {
			t.Errorf("+ left the span at %d", span(keyed))
		}

		// A click on a group's header folds it.
		must(t, chromedp.Do(tab, chromedp.MouseClickXY(whole.CanvasLeft+40, whole.CanvasTop+whole.LanesY+whole.RowH/2)))
		folded := readSummary(t, tab, name, func(g tlSummary) bool { return g.Rows < whole.Rows })
		if folded.Rows != whole.Rows-2 || folded.Lanes != whole.Lanes { // the first group has two objects
			t.Errorf("folding the first group left %d of %d rows, %d lanes", folded.Rows, whole.Rows, folded.Lanes)
		}

		// Double-click resets to the whole capture.
		must(t, chromedp.Do(tab, chromedp.MouseClickXY(x, y, chromedp.ClickCount(2))))
		whole = readSummary(t, tab, name, func(g tlSummary) bool { return g.Whole == "true" })

		// Shift-drag over a quarter of the plot zooms to that quarter.
		shift := chromedp.ButtonModifiers(chromedp.ModifierShift)
		a, b := whole.CanvasLeft+whole.PlotX+whole.PlotW/4, whole.CanvasLeft+whole.PlotX+whole.PlotW/2
		must(t, chromedp.Do(tab,
			chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, a, y, chromedp.ButtonLeft, shift),
			chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, (a+b)/2, y, chromedp.ButtonLeft, shift),
			chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, b, y, chromedp.ButtonLeft, shift),
			chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, b, y, chromedp.ButtonLeft, shift)))
		sel := readSummary(t, tab, name, func(g tlSummary) bool { return g.Whole == "false" })
		if r := float64(span(sel)) / float64(span(whole)); r < 0.24 || r > 0.26 {
			t.Errorf("shift-dragging over a quarter of the plot zoomed to %.3f of it", r)
		}
	})

	t.Run("pinch zoom, on a trackpad and a touch screen", func(t *testing.T) {
		t.Parallel()
		const name = "w1-broad-configmaps-bookmarks.ts.http"
		tab := s.newTab(t)
		navigate(t, tab, s.url+"/?sample="+name)
		must(t, chromedp.Do(tab, chromedp.ScrollIntoView(chromedp.CSS("#timeline canvas"))))
		whole := readSummary(t, tab, name, nil)
		span := func(g tlSummary) float64 {
			from, _ := strconv.ParseFloat(g.From, 64)
			to, _ := strconv.ParseFloat(g.To, 64)
			return to - from
		}
		mid := func(g tlSummary) float64 {
			from, _ := strconv.ParseFloat(g.From, 64)
			return from + span(g)/2
		}
		x, y := whole.CanvasLeft+whole.PlotX+whole.PlotW/2, whole.CanvasTop+whole.LanesY-10
		// A trackpad pinch to twice the size is a wheel turn with ctrlKey
		// and deltaY -100 ln 2.
		must(t, chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseWheel, x, y, func(p *input.DispatchMouseEventParams) {
			p.DeltaX, p.DeltaY, p.Modifiers = 1e-6, -100*math.Ln2, int64(chromedp.ModifierCtrl)
		})))
		pinched := readSummary(t, tab, name, func(g tlSummary) bool { return g.Whole == "false" })
		if r := span(pinched) / span(whole); r < 0.49 || r > 0.51 {
			t.Errorf("a trackpad pinch to twice the size left %.3f of the span", r)
		}

		// Two fingers on a touch screen, 100 px apart, spread to 200 px
		// around the same middle: half the span, the middle kept.
		must(t, chromedp.Do(tab, chromedp.MouseClickXY(x, y, chromedp.ClickCount(2))))
		whole = readSummary(t, tab, name, func(g tlSummary) bool { return g.Whole == "true" })
		touch := twoFingers(t, tab, x, y)
		touch(input.DispatchTouchEventTypeTouchStart, 100)
		touch(input.DispatchTouchEventTypeTouchMove, 150)
		touch(input.DispatchTouchEventTypeTouchMove, 200)
		touch(input.DispatchTouchEventTypeTouchEnd, 0)
		// The page may show the first move's zoom before the second's.
		spread := readSummary(t, tab, name, func(g tlSummary) bool { return span(g) < 0.6*span(whole) })
		if r := span(spread) / span(whole); r < 0.48 || r > 0.52 {
			t.Errorf("spreading two fingers to twice their distance left %.3f of the span", r)
		}
		if d := math.Abs(mid(spread)-mid(whole)) / span(whole); d > 0.01 {
			t.Errorf("the instant under the fingers moved by %.3f of the span", d)
		}
		shotTimeline(t, tab, "timeline-pinched")
	})

	t.Run("resourceVersion axis", func(t *testing.T) {
		t.Parallel()
		const name = "w4-then-resume.ts.http"
		_, an := nativeTimeline(t, "samples/"+name)
		tab := s.newTab(t)
		navigate(t, tab, s.url+"/?sample="+name+"&axis=rv")
		got := readSummary(t, tab, name, nil)
		axis, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("#timeline-summary").dataset.axis`))
		must(t, err)
		if axis != "rv" || got.ZonesAware+got.ZonesIgnoring != len(an.Zones) || got.Errors != 1 {
			t.Errorf("on the RV axis (%s) the summary shows %d+%d zones and %d errors; natively %d zones, 1 error",
				axis, got.ZonesAware, got.ZonesIgnoring, got.Errors, len(an.Zones))
		}
		shotTimeline(t, tab, "timeline-rv-axis")
	})

	t.Run("the canvas follows the system's switch to a dark theme", func(t *testing.T) {
		t.Parallel()
		const name = "w4-then-resume.ts.http"
		tab := s.newTab(t)
		navigate(t, tab, s.url+"/?sample="+name)
		readSummary(t, tab, name, nil)
		// The mean brightness of what the canvas paints (its opaque
		// pixels), 0 to 255, leaving out the red zones, which are red in
		// both themes.
		const brightness = `(() => {
			const c = document.querySelector("#timeline canvas");
			const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
			let sum = 0, n = 0;
			for (let i = 0; i < d.length; i += 4) {
				if (d[i + 3] === 255 && d[i] < d[i + 1] + 80) { sum += (d[i] + d[i + 1] + d[i + 2]) / 3; n++; }
			}
			return n ? sum / n : 0;
		})()`
		light, err := chromedp.Run(tab, chromedp.Evaluate[float64](brightness))
		must(t, err)
		_, err = chromedp.Call(tab, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
		must(t, err)
		// Nothing else happens on the page: the theme alone must redraw it.
		dark, err := chromedp.Run(tab, chromedp.Poll[float64](fmt.Sprintf(`(() => { const b = %s; return b < %f ? b : 0; })()`, brightness, light-25),
			chromedp.WithPollingTimeout(pageWait)))
		if err != nil {
			now, _ := chromedp.Run(tab, chromedp.Evaluate[float64](brightness))
			t.Fatalf("after the switch to dark the canvas's brightness is %.0f, %.0f before: not redrawn in the dark theme's colours", now, light)
		}
		t.Logf("canvas brightness %.0f light, %.0f dark", light, dark)
		shotTimeline(t, tab, "timeline-dark")
	})
	t.Run("click selects, hover reads", func(t *testing.T) {
		t.Parallel()
		const name = "w4-then-resume.ts.http"
		tl, _ := nativeTimeline(t, "samples/"+name)
		mod := int(tl.LaneEvents(0)[0])
		tab := s.newTab(t)
		navigate(t, tab, s.url+"/?sample="+name)
		g := readSummary(t, tab, name, nil)
		from, _ := strconv.ParseInt(g.From, 10, 64)
		to, _ := strconv.ParseInt(g.To, 10, 64)
		// The mark in the timeline's layout: row 0 is the group header,
		// row 1 the object's lane.
		markAt := func(g tlSummary) (float64, float64) {
			return g.PlotX + float64(tl.Event(mod).T-from)/float64(to-from)*g.PlotW, g.LanesY + 1.5*g.RowH
		}
		x, y := markAt(g)
		if tip := timelineTip(t, tab, x+2, y, "MODIFIED ConfigMap"); !strings.Contains(tip, "RV 389") {
			t.Errorf("hovering the MODIFIED mark shows %q", tip)
		}

		p := scrollToLayout(t, tab, x+2, y)
		must(t, chromedp.Do(tab, chromedp.MouseClickXY(p[0], p[1])))
		sel := readSummary(t, tab, name, func(g tlSummary) bool { return g.Selected == mod })
		if sel.Selected != mod {
			t.Fatalf("clicking the MODIFIED mark selected %d, want %d", sel.Selected, mod)
		}
		// The page shows the selected event in its detail pane.
		detail, err := chromedp.Run(tab, chromedp.Poll[string](fmt.Sprintf(`(() => { const e = document.querySelector("#detail[data-event=\"%d\"]"); return e ? e.textContent : ""; })()`, mod),
			chromedp.WithPollingTimeout(pageWait)))
		must(t, err)
		if !strings.Contains(detail, "389") {
			t.Errorf("the detail pane of the selected event reads %q", detail)
		}
		shotTimeline(t, tab, "timeline-selected")
		// The viewport as it is: an element screenshot scrolls, which
		// moves the page under the pointer and hides the tooltip. The
		// selection's detail may have moved the lane since the click.
		x, y = markAt(readSummary(t, tab, name, nil))
		timelineTip(t, tab, x+1, y, "MODIFIED ConfigMap")
		screenshot(t, tab, "timeline-hover")

		// Empty space on the lane unselects.
		p = scrollToLayout(t, tab, x+200, y)
		must(t, chromedp.Do(tab, chromedp.MouseClickXY(p[0], p[1])))
		readSummary(t, tab, name, func(g tlSummary) bool { return g.Selected == -1 })
	})
}

// TestBrowserStampedMarks checks that a batch of many marks, which
// web/timeline.js stamps from a sprite, looks like the same marks drawn
// one by one as paths: the same ink, in the same place, in the op's
// colour, for each shape and at pixel ratios 1 and 2.
func TestBrowserStampedMarks(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	tab := s.newTab(t)
	navigate(t, tab, s.url+"/?sample=w4-then-resume.ts.http")
	waitText(t, tab, "#timeline-summary")
	type cmp struct {
		Shape             string
		DPR, Ink, InkPath float64
		Shift             float64 // the largest distance between a mark's two centres, device px
		Colour            []int
	}
	got, err := chromedp.Run(tab, chromedp.Evaluate[[]cmp](`(() => {
		const cols = 20, rows = 8, cell = 20, out = [];
		let seed = 7;
		const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
		for (const dpr of [1, 2]) for (const shape of ["dot", "tri", "tridown", "cross", "diamond", "square", "ring"]) {
			const xy = [];
			for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) xy.push(c * cell + 10 + rnd() - 0.5, r * cell + 10 + rnd() - 0.5);
			const f = new Float32Array(xy);
			const bytes = new Uint8Array(f.buffer);
			const n = cols * rows;
			const draw = (ops) => {
				const cv = document.createElement("canvas");
				window.watchlensDraw(cv, JSON.stringify({w: cols * cell, h: rows * cell, dpr, ops, texts: []}), bytes, f.length);
				return cv.getContext("2d").getImageData(0, 0, cv.width, cv.height);
			};
			const op = {k: "mark", s: shape, c: "#E69F00", z: 8};
			const stamped = draw([{...op, o: 0, n: 2 * n}]);
			const paths = draw(xy.filter((_, i) => i % 2 === 0).map((_, i) => ({...op, o: 2 * i, n: 2})));
			// Ink and centre of each cell.
			const cells = (img) => {
				const w = img.width, d = img.data, cs = [];
				const side = cell * dpr;
				for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
					let m = 0, sx = 0, sy = 0;
					for (let y = r * side; y < (r + 1) * side; y++) for (let x = c * side; x < (c + 1) * side; x++) {
						const a = d[4 * (y * w + x) + 3];
						m += a; sx += a * x; sy += a * y;
					}
					cs.push([m, sx / m, sy / m]);
				}
				return cs;
			};
			const a = cells(stamped), b = cells(paths);
			let ink = 0, inkPath = 0, shift = 0;
			for (let i = 0; i < a.length; i++) {
				ink += a[i][0]; inkPath += b[i][0];
				shift = Math.max(shift, Math.hypot(a[i][1] - b[i][1], a[i][2] - b[i][2]));
			}
			let colour = null;
			for (let i = 0; i < stamped.data.length; i += 4) {
				if (stamped.data[i + 3] === 255) { colour = [stamped.data[i], stamped.data[i + 1], stamped.data[i + 2]]; break; }
			}
			out.push({Shape: shape, DPR: dpr, Ink: ink, InkPath: inkPath, Shift: shift, Colour: colour});
		}
		return out;
	})()`))
	must(t, err)
	if len(got) != 14 {
		t.Fatalf("compared %d shape and ratio pairs, want 14", len(got))
	}
	for _, g := range got {
		// A stamped mark sits on whole device pixels: at most half a
		// pixel off each way.
		t.Logf("%s x%v: ink %.3f, shift %.2f", g.Shape, g.DPR, g.Ink/g.InkPath, g.Shift)
		if r := g.Ink / g.InkPath; r < 0.93 || r > 1.07 || g.Shift > 0.75 {
			t.Errorf("%s at ratio %v: stamped marks have %.2f times the ink of the paths, centres up to %.2f device px apart",
				g.Shape, g.DPR, r, g.Shift)
		}
		if len(g.Colour) != 3 || g.Colour[0] != 0xE6 || g.Colour[1] != 0x9F || g.Colour[2] != 0x00 {
			t.Errorf("%s at ratio %v: stamped in %v, want #E69F00", g.Shape, g.DPR, g.Colour)
		}
	}
}

// writeBigCapture writes a time-stamped NDJSON watch body of n events: a
// busy broad ConfigMap watch, 10 000 objects in 7 namespaces, a change
// every 3.6 ms (n = 1 M makes an hour), a bookmark a minute.
func writeBigCapture(t testing.TB, path string, n int) {
	writeHourOfEvents(t, path, n, 0, func(w io.Writer, i int, ts string, rv int) {
		typ := "MODIFIED"
		if i < 10_000 {
			typ = "ADDED"
		}
		obj := i % 10_000
		fmt.Fprintf(w, `%s {"type":"%s","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"obj-%d","namespace":"ns-%d","uid":"u-%d","resourceVersion":"%d"}}}`+"\n",
			ts, typ, obj, obj%7, obj, rv)
	})
}

// writeHourOfEvents writes a time-stamped NDJSON watch body of n events
// spread over an hour, resourceVersions from 1001 on: every 16 667th,
// from the phase-th, a ConfigMap bookmark, and the others as event writes
// them.
func writeHourOfEvents(t testing.TB, path string, n, phase int, event func(w io.Writer, i int, ts string, rv int)) {
	f, err := os.Create(path)
	must(t, err)
	w := bufio.NewWriterSize(f, 1<<20)
	t0 := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	step := time.Hour / time.Duration(n)
	for i := range n {
		ts := t0.Add(time.Duration(i) * step).Format(time.RFC3339Nano)
		rv := 1001 + i
		if i%16_667 == phase {
			fmt.Fprintf(w, `%s {"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"%d"}}}`+"\n", ts, rv)
			continue
		}
		event(w, i, ts, rv)
	}
	must(t, w.Flush())
	must(t, f.Close())
}

// BenchmarkBrowserTimelineFrame measures in headless Chromium the time
// from a wheel or pointer event on the timeline's canvas to the frame
// that answers it drawn, over a capture of 1 M events. The engine runs
// in its worker: the event is handled on the page, which asks the worker
// for the frame, and the time runs until the answer to a frame question
// asked after the event is drawn (watchWorkerFrames). A frame budget is
// 16 ms. The wheel zooms from the whole hour down to seconds and back;
// zoomed in to about a quarter, the pan frames are 40 moves of a drag,
// each timed to its frame, and each round's log gives the 95th
// percentile of each part of a pan frame's time: until the page asked the
// worker, until the worker's answer came, until the page drew it; then a
// drag of 120 moves, one every animation
// frame as a hand's is, counts the frames drawn during it and the longest
// main-thread task (a long-task observer). The medians, 95th
// percentiles and slowest frames reported are over the frames of every
// round (frameTimes). WATCHLENS_BENCH_WASM serves another build's wasm
// (serveBenchWasm).
func BenchmarkBrowserTimelineFrame(b *testing.B) {
	const name = "big-1M.log"
	big := filepath.Join(b.TempDir(), name)
	writeBigCapture(b, big, 1_000_000)
	s := startSite(b)
	s.serveBenchWasm(b)
	benchFrames(b, s, []string{big}, "timeline-1M", nil)
}

// BenchmarkBrowserTimelineFrameIncident is BenchmarkBrowserTimelineFrame
// over samples-fleet's records, its 44 informers' captures and four
// audit logs: a timeline of 52 files (the audit logs' other clients are
// files too). folded has each group of tracks folded to its name and
// zones, as the page opens more than three files (1310 CSS px of
// tracks); unfolded has the user unfold every group first, a click on
// each name (9474 px).
func BenchmarkBrowserTimelineFrameIncident(b *testing.B) {
	for _, unfold := range []bool{false, true} {
		name := map[bool]string{false: "folded", true: "unfolded"}[unfold]
		b.Run(name, func(b *testing.B) {
			s := startSite(b)
			s.serveBenchWasm(b)
			var prepare func(context.Context)
			if unfold {
				prepare = func(tab context.Context) { unfoldEveryFile(b, tab) }
			}
			benchFrames(b, s, testsample.FleetRecords(b), "timeline-incident-"+name, prepare)
		})
	}
}

// unfoldEveryFile unfolds each folded file's group of tracks on the
// timeline, a click on its name, from the last (a group unfolded moves
// those under it, not those above), and scrolls the panel back to its
// top.
func unfoldEveryFile(t testing.TB, tab context.Context) {
	t.Helper()
	bands := timelineBands(t, tab, func([]fileBand) bool { return true })
	for i := len(bands) - 1; i >= 0; i-- {
		b := bands[i]
		if b.id != canvas.BandFile {
			continue
		}
		if _, _, unfolded := groupOf(bands, b.file); unfolded {
			continue
		}
		clickBand(t, tab, b, 20)
		timelineBands(t, tab, func(now []fileBand) bool {
			_, _, unfolded := groupOf(now, b.file)
			return unfolded
		})
	}
	_, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelector("#timeline-panel").scrollTop = 0`))
	must(t, err)
}

// benchFrames loads files in a tab of its own and reports the frames of
// wheel and drag gestures over their timeline, as BenchmarkBrowserTimelineFrame
// describes, after prepare (when not nil) has set the view up, and saves
// a screenshot named shot. A load that ends the page
// (out of memory) fails with the last progress the page showed.
func benchFrames(b *testing.B, s *servedSite, files []string, shot string, prepare func(context.Context)) {
	// The load is shown once the view summary names one of its files
	// (an audit log names none: its clients are the files).
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f)
	}
	name := names[0]
	namesJSON, err := json.Marshal(names)
	must(b, err)
	tab := newTabWithin(b, s.browser, 30*time.Minute)
	exposeWasmMemory(b, tab)
	watchWorkerFrames(b, tab)
	navigate(b, tab, s.url+"/?sample=client-go-golden-watch.http")
	waitText(b, tab, "#timeline-summary")
	start := time.Now()
	must(b, chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.CSS("#file-input"), files)))
	state, err := chromedp.Run(tab, chromedp.Poll[string](fmt.Sprintf(`(() => {
		const p = document.querySelector("#progress");
		if (p) window.lastProgress = p.textContent;
		const crash = document.querySelector("#crash");
		if (crash) return "the page stopped: " + crash.textContent + " (last progress: " + window.lastProgress + ")";
		const d = document.querySelector("#timeline-summary");
		return !!d && d.dataset.files.split("\n").some(n => %s.includes(n)) ? "shown" : "";
	})()`, namesJSON), chromedp.WithPollingInterval(200*time.Millisecond), chromedp.WithPollingTimeout(25*time.Minute)))
	must(b, err)
	if state != "shown" {
		b.Fatalf("loading %s: %s", name, state)
	}
	loaded := time.Since(start)
	mem, err := chromedp.Run(tab, chromedp.Evaluate[float64](`window.wasmMemory.buffer.byteLength`))
	must(b, err)
	fmt.Fprintf(os.Stderr, "%s loaded and shown in %v; wasm memory %.0f MB\n", name, loaded.Round(time.Millisecond), mem/(1<<20))
	if prepare != nil {
		prepare(tab)
	}
	must(b, chromedp.Do(tab, chromedp.ScrollIntoView(chromedp.CSS("#timeline canvas"))))
	type frames struct {
		Wheel, WheelP95, WheelMax, Pan, PanP95, PanMax, DragDrawn, DragLongest, DragEndLongest float64
		Unanswered                                                                             int
		Moved                                                                                  bool
		PanPhases, WheelPhases                                                                 [3]float64
		WheelTimes, PanTimes                                                                   []float64
	}
	var sum frames
	var wheels, pans frameTimes
	// WATCHLENS_BENCH_TRACE traces the rounds, each part of a frame
	// measured in it (performance.measure: asking, answering, drawing).
	var stopTrace func() loadCPU
	if os.Getenv("WATCHLENS_BENCH_TRACE") != "" {
		stopTrace = startCPUTrace(b, tab)
		must(b, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`window.watchlensFrames.marked = true`)))
	}
	b.ResetTimer()
	for range b.N {
		got, err := chromedp.Run(tab, chromedp.Evaluate[frames](`(async () => {
			const c = document.querySelector("#timeline canvas");
			const r = c.parentElement.getBoundingClientRect();
			const x = r.left + Number(c.dataset.plotX) + Number(c.dataset.plotW) / 2;
			const y = r.top + Number(c.dataset.lanesY) + 40;
`+workerFrameTiming+`			const settled = () => new Promise(done => setTimeout(done, 500));
			// Each round starts from the whole capture (the last one ended
			// zoomed in).
			c.dispatchEvent(new MouseEvent("dblclick", {clientX: x, clientY: y, bubbles: true, cancelable: true}));
			await settled();
			// Zoom in 20 notches and back out: every frame from the whole hour down to seconds.
			const wheel = dy => c.dispatchEvent(new WheelEvent("wheel", {deltaY: dy, clientX: x, clientY: y, bubbles: true, cancelable: true}));
			f.phases = [];
			const [wheelP50, wheelP95, wheelMax, wheelNone, wheelTimes] = await timed(40, i => wheel(i < 20 ? -240 : 240));
			const p95 = k => { const v = f.phases.map(p => p[k]).sort((a, b) => a - b); return v[Math.floor(v.length * 0.95)] ?? 0; };
			const wheelPhases = [p95(0), p95(1), p95(2)];
			// Zoomed in to about a quarter (14 minutes, 240 000 events), a
			// drag moves the view.
			for (let i = 0; i < 3; i++) await timed(1, () => wheel(-240));
			await settled();
			const from = document.querySelector("#timeline-summary").dataset.from;
			const opts = (px, b) => ({pointerId: 1, button: 0, buttons: b, clientX: px, clientY: y, bubbles: true});
			c.dispatchEvent(new PointerEvent("pointerdown", opts(x, 1)));
			f.phases = [];
			const [panP50, panP95, panMax, panNone, panTimes] = await timed(40, i => c.dispatchEvent(new PointerEvent("pointermove", opts(x - 5 * (i + 1), 1))));
			const panPhases = [p95(0), p95(1), p95(2)];
			c.dispatchEvent(new PointerEvent("pointerup", opts(x - 200, 0)));
			await settled();
			const [drawn, longest, endLongest] = await dragFrames(120,
				() => c.dispatchEvent(new PointerEvent("pointerdown", opts(x, 1))),
				i => c.dispatchEvent(new PointerEvent("pointermove", opts(x - 3 * (i + 1), 1))),
				() => c.dispatchEvent(new PointerEvent("pointerup", opts(x - 360, 0))));
			// The summary follows the drags once they settle.
			await settled();
			const moved = document.querySelector("#timeline-summary").dataset.from !== from;
			return {Wheel: wheelP50, WheelP95: wheelP95, WheelMax: wheelMax, Pan: panP50, PanP95: panP95, PanMax: panMax,
				DragDrawn: drawn, DragLongest: longest, DragEndLongest: endLongest, Unanswered: wheelNone + panNone, Moved: moved, PanPhases: panPhases, WheelPhases: wheelPhases,
				WheelTimes: wheelTimes, PanTimes: panTimes};
		})()`, chromedp.EvalAwaitPromise))
		must(b, err)
		if !got.Moved {
			b.Fatal("dragging the zoomed-in timeline did not move its range")
		}
		if got.Unanswered > 0 {
			b.Logf("%d events asked no frame: left out of the times", got.Unanswered)
		}
		// Each round's figures: the rounds after the first run beside the
		// next load's spare worker warming up.
		b.Logf("round: pan p50 %.1f p95 %.1f slowest %.1f ms (p95 of its parts: asked %.1f, answered %.1f, drawn %.1f ms after); wheel p50 %.1f p95 %.1f slowest %.1f ms (asked %.1f, answered %.1f, drawn %.1f); drag %.0f frames, longest task %.0f ms",
			got.Pan, got.PanP95, got.PanMax, got.PanPhases[0], got.PanPhases[1], got.PanPhases[2], got.Wheel, got.WheelP95, got.WheelMax, got.WheelPhases[0], got.WheelPhases[1], got.WheelPhases[2], got.DragDrawn, got.DragLongest)
		wheels = append(wheels, got.WheelTimes...)
		pans = append(pans, got.PanTimes...)
		sum.DragDrawn += got.DragDrawn
		sum.DragLongest = max(sum.DragLongest, got.DragLongest)
		sum.DragEndLongest = max(sum.DragEndLongest, got.DragEndLongest)
	}
	if stopTrace != nil {
		stopTrace()
	}
	n := float64(b.N)
	// The slowest frame is the slowest of all rounds, which on this
	// shared 2-core machine includes the moments the OS ran something
	// else.
	wheels.report(b, "wheel")
	pans.report(b, "pan")
	b.ReportMetric(sum.DragDrawn/n, "frames-drawn/120-move-drag")
	b.ReportMetric(sum.DragLongest, "ms/drag-longest-task")
	b.ReportMetric(sum.DragEndLongest, "ms/drag-end-longest-task")
	shotTimeline(b, tab, shot)
}

// watchWorkerFrames has the pages tab opens note, in
// window.watchlensFrames, when each frame question, the timeline's or the
// fleet's, goes to the engine's worker (asked: {id, t, view, q, spare},
// a timeline frame's view as the list of its binary form's bytes
// (engine.ViewState.AppendBinary, read with viewOfBytes), a fleet
// frame's view in its args; spare the length of the buffer the page gave
// back with it, 0 for none), when its frame comes back (answered: id to t;
// superseded answers carry none) and when each frame is drawn (draws, by
// web/timeline.js's watchlensDraw, wrapped once the script defines it);
// waiters are called with each draw's time until they answer true.
func watchWorkerFrames(t testing.TB, tab context.Context) {
	t.Helper()
	_, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
		const f = window.watchlensFrames = {asked: [], answered: new Map(), draws: [], waiters: [], phases: []};
		const post = Worker.prototype.postMessage;
		Worker.prototype.postMessage = function (m, ...rest) {
			if (m && (m.q === "frame" || m.q === "fleetframe")) f.asked.push({id: m.id, t: performance.now(), view: m.view instanceof Uint8Array ? Array.from(m.view) : m.view, q: m.q, spare: m.spare ? m.spare.byteLength : 0});
			return post.call(this, m, ...rest);
		};
		const W = window.Worker;
		window.Worker = class extends W {
			constructor(...args) {
				super(...args);
				this.addEventListener("message", e => {
					const m = e.data;
					if (m && (m.q === "frame" || m.q === "fleetframe") && m.spec !== undefined) f.answered.set(m.id, performance.now());
				});
			}
		};
		let draw;
		Object.defineProperty(window, "watchlensDraw", {configurable: true, get: () => draw, set: fn => {
			draw = function () {
				const out = fn.apply(this, arguments);
				const t = performance.now();
				f.draws.push(t);
				f.waiters = f.waiters.filter(w => !w(t));
				return out;
			};
		}});
	})()`})
	must(t, err)
}

// frameTimes are the times of a benchmark's frames of one kind, pooled
// over its rounds: the 95th percentile of one round's 40 frames is its
// second slowest, which one frame beside a compile on the other core
// decides, where over four rounds it is the eighth slowest of 160.
type frameTimes []float64

// report reports the frames' median, 95th percentile and slowest, as
// ms/kind-frame, ms/kind-frame-p95 and ms/slowest-kind-frame.
func (f frameTimes) report(b *testing.B, kind string) {
	if len(f) == 0 {
		return
	}
	s := slices.Sorted(slices.Values(f))
	b.ReportMetric(s[len(s)/2], "ms/"+kind+"-frame")
	b.ReportMetric(s[len(s)*95/100], "ms/"+kind+"-frame-p95")
	b.ReportMetric(s[len(s)-1], "ms/slowest-"+kind+"-frame")
}

// workerFrameTiming defines, for a frame benchmark's script over a page
// watchWorkerFrames watches: answered(t0), the time from t0 to the draw
// of the first frame asked of the worker at or after t0, null when no
// frame was asked within a second; timed(n, f), the median, 95th
// percentile and slowest of n events, each f(i) called in an animation
// frame and timed so, the number that asked no frame, and the times
// themselves, sorted (for frameTimes); and dragFrames(n, down, move, up), which calls down(), move(i) in each of
// n animation frames in a row, then up(), and answers the frames drawn
// between the first move and the last, the longest main-thread task
// that started meanwhile, and the longest in the half second after up
// (the page hears of the range then, and renders). Each frame answered
// notes its parts' times in f.phases and, with f.marked, measures them
// in the page's timeline, for a trace.
const workerFrameTiming = `
			const f = window.watchlensFrames;
			const answered = t0 => new Promise(done => {
				const w = td => {
					for (const a of f.asked) {
						const ta = f.answered.get(a.id);
						if (a.t >= t0 && ta !== undefined && ta <= td) {
							f.phases.push([a.t - t0, ta - a.t, td - ta]);
							if (f.marked) {
								performance.measure("asking", {start: t0, end: a.t});
								performance.measure("answering", {start: a.t, end: ta});
								performance.measure("drawing", {start: ta, end: td});
							}
							done(td - t0);
							return true;
						}
					}
					return false;
				};
				f.waiters.push(w);
				setTimeout(() => {
					if (f.waiters.includes(w) && !f.asked.some(a => a.t >= t0)) {
						f.waiters = f.waiters.filter(x => x !== w);
						done(null);
					}
				}, 1000);
			});
			const timed = async (n, fn) => {
				const ts = [];
				let none = 0;
				for (let i = 0; i < n; i++) {
					const t = await new Promise(done => requestAnimationFrame(() => {
						const t0 = performance.now();
						fn(i);
						answered(t0).then(done);
					}));
					if (t === null) none++;
					else ts.push(t);
				}
				ts.sort((a, b) => a - b);
				const m = ts.length;
				return [ts[m >> 1] ?? 0, ts[Math.floor(m * 0.95)] ?? 0, ts[m - 1] ?? 0, none, ts];
			};
			const dragFrames = async (n, down, move, up) => {
				const tasks = [];
				const obs = new PerformanceObserver(l => tasks.push(...l.getEntries()));
				obs.observe({type: "longtask"});
				down();
				const t0 = performance.now(), d0 = f.draws.length;
				for (let i = 0; i < n; i++) await new Promise(done => requestAnimationFrame(() => { move(i); done(); }));
				const drawn = f.draws.length - d0;
				const tUp = performance.now();
				up();
				await new Promise(done => setTimeout(done, 500));
				tasks.push(...obs.takeRecords());
				obs.disconnect();
				const longest = ts => Math.max(0, ...ts.map(e => e.duration));
				return [drawn, longest(tasks.filter(e => e.startTime >= t0 && e.startTime < tUp)), longest(tasks.filter(e => e.startTime >= tUp))];
			};
`

// twoFingers answers a function that puts two fingers on the touch
// screen of tab, apart px apart around (x, y), as the event typ: a
// touch's start, a move, or its end (when both are lifted).
func twoFingers(t testing.TB, tab context.Context, x, y float64) func(typ input.DispatchTouchEventType, apart float64) {
	return func(typ input.DispatchTouchEventType, apart float64) {
		one, two := 1.0, 2.0
		pts := []*input.TouchPoint{{X: x - apart/2, Y: y, ID: &one}, {X: x + apart/2, Y: y, ID: &two}}
		if typ == input.DispatchTouchEventTypeTouchEnd {
			pts = []*input.TouchPoint{}
		}
		_, err := chromedp.Call(tab, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts})
		must(t, err)
	}
}
