//go:build !wasm

package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserFirstFrameIsShown: the frame the engine's worker draws with
// a load (Page.firstView) is the one the page shows, drawn once for the
// room the new capture leaves the timeline, whatever the capture before
// it took of that room: a sample's note, which a file has not, and a
// selection's taller dock, which a new capture drops. kubectl's watch of
// every pod has lanes enough to fill any room the window gives, so a
// frame drawn for another room shows another number of them. The frame
// is drawn in the animation frame that paints it, a task apart from the
// render of the capture's panels.
func TestBrowserFirstFrameIsShown(t *testing.T) {
	s := startSite(t)
	tab := s.openSample(t, "client-go-golden-watch.http")
	// The engine's worker answers the loads once the page has warmed
	// up, as a user's drop a few seconds after opening it is.
	waitWarm(t, tab)
	pods := filepath.Join("samples", "kubectl-pods-watch.jsonl")
	drawnOnce(t, tab, "the sample's note", func() { upload(t, tab, pods) }, "kubectl-pods-watch.jsonl")

	// An event selected raises the dock; the next capture has none.
	must(t, chromedp.Do(tab, chromedp.Focus(chromedp.CSS("#timeline canvas")), chromedp.KeyEvent("]")))
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.querySelector(".page").classList.contains("has-selection")`,
		chromedp.WithPollingTimeout(pageWait))); err != nil {
		t.Fatalf("] selected no event: %v", err)
	}
	waitFitted(t, tab)
	again := filepath.Join(t.TempDir(), "pods-again.jsonl")
	content, err := os.ReadFile(pods)
	must(t, err)
	must(t, os.WriteFile(again, content, 0o644))
	drawnOnce(t, tab, "a selection", func() { upload(t, tab, again) }, "pods-again.jsonl")
}

// drawnOnce has open open the file called name in tab, and checks that
// the timeline then draws one frame, drawn for the room its stage gives
// it (data-room) and within that room; before is what the capture shown
// before took of the room, for the messages.
func drawnOnce(t *testing.T, tab context.Context, before string, open func(), name string) {
	t.Helper()
	must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
		if (window.firstFrameDrawsWatched) return;
		window.firstFrameDrawsWatched = true;
		window.firstFrameDraws = [];
		window.lastTimelineDraw = performance.now();
		// Whether a draw runs in an animation frame's callback, before
		// the browser paints that frame, rather than in the task that
		// rendered the capture's panels.
		let inFrame = false;
		const raf = window.requestAnimationFrame;
		window.requestAnimationFrame = function (callback) {
			return raf.call(window, (t) => {
				inFrame = true;
				try { return callback(t); } finally { inFrame = false; }
			});
		};
		const draw = window.watchlensDraw;
		window.watchlensDraw = function (canvas, spec) {
			if (canvas.isConnected && canvas.closest("#timeline")) {
				const s = JSON.parse(spec);
				window.firstFrameDraws.push({w: s.w, h: s.h, inFrame});
				window.lastTimelineDraw = performance.now();
			}
			return draw.apply(this, arguments);
		};
	})()`)))
	// The capture shown may still be drawing what came before (a
	// selection's frame, on a loaded machine): the count starts once the
	// timeline has been still for a while.
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`performance.now() - window.lastTimelineDraw > 700`,
		chromedp.WithPollingTimeout(pageWait))); err != nil {
		t.Fatalf("the timeline of the capture before %s never stopped drawing: %v", name, err)
	}
	must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`window.firstFrameDraws = []`)))
	open()
	waitFileOpen(t, tab, name)
	waitFitted(t, tab)
	// A frame asked again comes within a few frames of the first.
	time.Sleep(time.Second)
	got, err := chromedp.Run(tab, chromedp.Evaluate[string](`JSON.stringify({draws: window.firstFrameDraws,
		stage: (st => ({w: st.clientWidth, h: st.clientHeight}))(document.querySelector("#timeline canvas").parentElement)})`))
	must(t, err)
	var seen struct {
		Draws []struct {
			W, H    float64
			InFrame bool
		}
		Stage struct{ W, H float64 }
	}
	must(t, json.Unmarshal([]byte(got), &seen))
	if len(seen.Draws) != 1 {
		t.Fatalf("after %s, %s was drawn %d times, want once: %+v in a stage %+v", before, name, len(seen.Draws), seen.Draws, seen.Stage)
	}
	d, room := seen.Draws[0], seen.Stage
	if !d.InFrame {
		t.Errorf("after %s, %s's first frame was drawn in the task that rendered the capture, not in an animation frame of its own", before, name)
	}
	// The lanes fill the room but for less than a row (16 px).
	if d.W != room.W || d.H > room.H || d.H <= room.H-16 {
		t.Errorf("after %s, %s's frame is %vx%v in a stage %vx%v", before, name, d.W, d.H, room.W, room.H)
	}
}

// TestBrowserFirstVisitFillsItsStage: a visit's first capture, whose
// timeline mounts before the page around it has its final layout, is
// drawn for the room its stage has once painted: kubectl's watch of
// every pod has lanes enough to fill any room, so a frame drawn for the
// room of before leaves the stage's foot blank.
func TestBrowserFirstVisitFillsItsStage(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	tab := s.newTab(t)
	must(t, chromedp.Do(tab, chromedp.EmulateViewport(1280, 800)))
	navigate(t, tab, s.url+"/?sample=kubectl-pods-watch.jsonl")
	waitFileOpen(t, tab, "kubectl-pods-watch.jsonl")
	waitFitted(t, tab)
	sizes, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](`(cv => [cv.clientHeight, cv.parentElement.clientHeight])(document.querySelector("#timeline canvas"))`))
	must(t, err)
	// The lanes fill the room but for less than a row (16 px).
	if canvasH, stageH := sizes[0], sizes[1]; canvasH > stageH || canvasH <= stageH-16 {
		t.Errorf("the visit's timeline is %v px high in a stage %v px high", canvasH, stageH)
	}
}
