//go:build !wasm

package e2e

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// slowFrameDelay is how long slowWorkerFrames holds each frame the
// engine's worker answers: several animation frames, as a loaded machine
// or a large capture makes them.
const slowFrameDelay = 150 * time.Millisecond

// slowWorkerFrames has the pages tab opens hand each frame the engine's
// worker answers to the page's handler slowFrameDelay late, in the order
// they came: the page's frame scheduling meets a worker slower than the
// gestures.
func slowWorkerFrames(t testing.TB, tab context.Context) {
	t.Helper()
	_, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
		const W = window.Worker;
		window.Worker = class extends W {
			set onmessage(fn) {
				super.onmessage = fn && (e => {
					if (e.data && e.data.q === "frame") setTimeout(() => fn.call(this, e), ` + strconv.Itoa(int(slowFrameDelay.Milliseconds())) + `);
					else fn.call(this, e);
				});
			}
			get onmessage() { return super.onmessage; }
		};
	})()`})
	must(t, err)
}

// TestBrowserTimelineSlowWorker checks the timeline's frames with an
// engine's worker slower than the gestures (slowWorkerFrames): the view a
// gesture ends at, and a click's selection, are drawn and summed up
// whatever frame was on its way, and a drag draws frames while it moves.
// Asking each frame at every move, each superseding the one before, drew
// none during such a drag; keeping one frame on its way and leaving the
// gesture's end to wait behind it showed an earlier view's summary (a
// two-finger spread to twice the distance, which must leave half the
// span to within 2 %, left more) and lost a click's selection.
func TestBrowserTimelineSlowWorker(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	slowTab := func(t *testing.T, name string) context.Context {
		tab := s.newTab(t)
		slowWorkerFrames(t, tab)
		watchWorkerFrames(t, tab)
		navigate(t, tab, s.url+"/?sample="+name)
		must(t, chromedp.Do(tab, chromedp.ScrollIntoView(chromedp.CSS("#timeline canvas"))))
		return tab
	}
	span := func(g tlSummary) float64 {
		from, _ := strconv.ParseFloat(g.From, 64)
		to, _ := strconv.ParseFloat(g.To, 64)
		return to - from
	}
	// drawn is how many frames the page has drawn.
	drawn := func(t *testing.T, tab context.Context) int {
		n, err := chromedp.Run(tab, chromedp.Evaluate[int](`window.watchlensFrames.draws.length`))
		must(t, err)
		return n
	}
	// settledSummary is the summary once a frame was drawn after the
	// first since and none for a few of slowFrameDelay: the view the page
	// rests at.
	settledSummary := func(t *testing.T, tab context.Context, name string, since int) tlSummary {
		t.Helper()
		_, err := chromedp.Run(tab, chromedp.Poll[bool](fmt.Sprintf(`(() => {
			const d = window.watchlensFrames.draws;
			return d.length > %d && performance.now() - d.at(-1) > %d;
		})()`, since, 4*slowFrameDelay.Milliseconds()), chromedp.WithPollingTimeout(pageWait)))
		must(t, err)
		return readSummary(t, tab, name, nil)
	}

	t.Run("a pinch ends at the view of its end", func(t *testing.T) {
		t.Parallel()
		const name = "w1-broad-configmaps-bookmarks.ts.http"
		var tab context.Context
		var whole, spread tlSummary
		// A gesture the page took for no pinch at all (the view left
		// whole) is tried again in a new tab, up to three: under the
		// load of the whole suite the page was once still laying itself
		// out as the fingers came down. A pinch taken ends as below.
		for try := 1; ; try++ {
			tab = slowTab(t, name)
			whole = readSummary(t, tab, name, nil)
			x, y := whole.CanvasLeft+whole.PlotX+whole.PlotW/2, whole.CanvasTop+whole.LanesY-10
			touch := twoFingers(t, tab, x, y)
			// Two fingers 100 px apart spread to 200 px, by steps
			// quicker than the worker answers.
			before := drawn(t, tab)
			touch(input.DispatchTouchEventTypeTouchStart, 100)
			for apart := 110.0; apart <= 200; apart += 10 {
				touch(input.DispatchTouchEventTypeTouchMove, apart)
			}
			// Every range the summary shows from the gesture's end on
			// is its end's: a frame asked during the gesture, answered
			// after it, is not summed up.
			must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
				const d = document.querySelector("#timeline-summary");
				window.summaryRanges = [];
				new MutationObserver(() => window.summaryRanges.push([d.dataset.from, d.dataset.to])).observe(d, {attributes: true});
			})()`)))
			touch(input.DispatchTouchEventTypeTouchEnd, 0)
			spread = settledSummary(t, tab, name, before)
			if r := span(spread) / span(whole); math.Abs(r-1) > 0.01 || try == 3 {
				break
			}
			t.Logf("try %d: the page took the two fingers for no pinch; again in a new tab", try)
		}
		if r := span(spread) / span(whole); math.Abs(r-0.5) > 0.5*0.02 {
			t.Errorf("spreading two fingers to twice their distance left %.3f of the span", r)
		}
		shown, err := chromedp.Run(tab, chromedp.Evaluate[[][2]string](`window.summaryRanges`))
		must(t, err)
		for _, r := range shown {
			if got := span(tlSummary{From: r[0], To: r[1]}) / span(whole); math.Abs(got-0.5) > 0.5*0.02 {
				t.Errorf("after the gesture's end the summary showed %.3f of the span (ranges shown: %v)", got, shown)
				break
			}
		}
	})

	t.Run("a click's selection is drawn", func(t *testing.T) {
		t.Parallel()
		const name = "w4-then-resume.ts.http"
		tl, _ := nativeTimeline(t, "samples/"+name)
		mod := int(tl.LaneEvents(0)[0])
		// clickAskedAtOnce clicks mod's event in a new tab while a wheel
		// notch's frame is on its way, checks that the selection is shown
		// and drawn, and says whether the click's frame was asked before
		// the frame on its way was drawn (true when none was on its way);
		// final makes one asked after it an error.
		clickAskedAtOnce := func(final bool) bool {
			tab := slowTab(t, name)
			g := readSummary(t, tab, name, nil)
			from, _ := strconv.ParseInt(g.From, 10, 64)
			to, _ := strconv.ParseInt(g.To, 10, 64)
			// Row 0 is the group header, row 1 the object's lane.
			x := g.CanvasLeft + g.PlotX + float64(tl.Event(mod).T-from)/float64(to-from)*g.PlotW + 2
			y := g.CanvasTop + g.LanesY + 1.5*g.RowH
			// A wheel notch zooms around the mark, which stays under the
			// pointer, and its frame is on its way when the click comes.
			before := drawn(t, tab)
			must(t, chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseWheel, x, y, func(p *input.DispatchMouseEventParams) {
				p.DeltaX, p.DeltaY = 1e-6, -50
			})))
			must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`document.addEventListener("pointerup", () => { window.clickedAt = performance.now(); }, {capture: true, once: true})`)))
			must(t, chromedp.Do(tab, chromedp.MouseClickXY(x, y)))
			sel := readSummary(t, tab, name, func(g tlSummary) bool { return g.Selected == mod })
			if sel.Whole != "false" {
				t.Errorf("the wheel's zoom is not shown: %+v", sel)
			}
			// The last frame asked, and drawn, shows the selection, and the
			// frame of the selection was asked at once, before the page drew
			// the wheel's frame on its way.
			type question struct {
				T    float64 `json:"t"`
				View []int   `json:"view"`
			}
			type asked struct {
				View     []int      `json:"view"`
				Answered bool       `json:"answered"`
				Drawn    bool       `json:"drawn"`
				NextDraw float64    `json:"nextDraw"` // -1 for none
				Since    []question `json:"since"`    // the frames asked from the click on
				OnItsWay bool       `json:"onItsWay"`
			}
			last := settledSummary(t, tab, name, before)
			if last.Selected != mod {
				t.Errorf("the selection summed up once the page settled is %d, want %d", last.Selected, mod)
			}
			a, err := chromedp.Run(tab, chromedp.Evaluate[asked](`(() => {
				const f = window.watchlensFrames, a = f.asked.at(-1), t = f.answered.get(a.id);
				const since = f.asked.filter(q => q.t >= window.clickedAt).map(q => ({t: q.t, view: q.view}));
				const nextDraw = f.draws.find(d => d >= window.clickedAt) ?? -1;
				// A frame was on its way when the click came: the last asked
				// before it, after the last drawn before it.
				const before = xs => xs.filter(t => t < window.clickedAt).at(-1) ?? -Infinity;
				const onItsWay = before(f.asked.map(q => q.t)) > before(f.draws);
				return {view: a.view, answered: t !== undefined, drawn: t !== undefined && f.draws.at(-1) >= t, nextDraw, since, onItsWay};
			})()`))
			must(t, err)
			v := viewOfBytes(t, a.View)
			// The frame of the selection was asked before the page drew
			// the next frame after the click.
			atOnce := false
			for _, q := range a.Since {
				if viewOfBytes(t, q.View).Selected == mod {
					atOnce = a.NextDraw < 0 || q.T < a.NextDraw
					break
				}
			}
			if v.Selected != mod || !a.Answered || !a.Drawn {
				t.Errorf("the last frame asked selects %d (want %d), answered %v, drawn %v", v.Selected, mod, a.Answered, a.Drawn)
			}
			// Under a heavy load the wheel's frame can be drawn before the
			// click comes: then no frame was on its way to wait behind.
			switch {
			case !a.OnItsWay:
				t.Log("the wheel's frame was drawn before the click came: nothing to ask at once before")
			case !atOnce && final:
				t.Error("the click's frame was asked after the frame on its way was drawn")
			case !atOnce:
				return false
			}
			return true
		}
		// Under a heavy load the page's handler of the click can yield to
		// the browser (it holds it at most a while), and the frame on its
		// way is drawn meanwhile: a click that came second is tried again,
		// twice at most, each time in a new tab.
		for attempt := 1; !clickAskedAtOnce(attempt == 3); attempt++ {
			t.Logf("attempt %d: the click's frame was asked after the frame on its way was drawn", attempt)
		}
	})

	t.Run("a drag draws frames as it moves", func(t *testing.T) {
		t.Parallel()
		const name = "w1-broad-configmaps-bookmarks.ts.http"
		tab := slowTab(t, name)
		g := readSummary(t, tab, name, nil)
		// Zoomed in, so that a drag moves the view.
		x, y := g.CanvasLeft+g.PlotX+g.PlotW/2, g.CanvasTop+g.LanesY+40
		before := drawn(t, tab)
		must(t, chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseWheel, x, y, func(p *input.DispatchMouseEventParams) {
			p.DeltaX, p.DeltaY = 1e-6, -500
		})))
		zoomed := settledSummary(t, tab, name, before)
		// 60 moves, one an animation frame: a second, some six times
		// slowFrameDelay.
		before = drawn(t, tab)
		during, err := chromedp.Run(tab, chromedp.Evaluate[float64](`(async () => {
			const c = document.querySelector("#timeline canvas");
`+workerFrameTiming+`			const opts = (px, b) => ({pointerId: 1, button: 0, buttons: b, clientX: px, clientY: `+strconv.FormatFloat(y, 'f', 1, 64)+`, bubbles: true});
			const x = `+strconv.FormatFloat(x, 'f', 1, 64)+`;
			const [drawn] = await dragFrames(60,
				() => c.dispatchEvent(new PointerEvent("pointerdown", opts(x, 1))),
				i => c.dispatchEvent(new PointerEvent("pointermove", opts(x - 4 * (i + 1), 1))),
				() => c.dispatchEvent(new PointerEvent("pointerup", opts(x - 240, 0))));
			return drawn;
		})()`, chromedp.EvalAwaitPromise))
		must(t, err)
		if during < 3 {
			t.Errorf("a drag of 60 animation frames drew %.0f frames while it moved", during)
		}
		moved := settledSummary(t, tab, name, before)
		if moved.From == zoomed.From {
			t.Errorf("the drag did not move the view: %s to %s", zoomed.From, zoomed.To)
		}
	})
}
