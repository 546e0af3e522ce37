//go:build !wasm

package e2e

import (
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"watchlens/app/canvas"
	"watchlens/parser"
	"watchlens/timeline"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// The workspace fits the window, as Perfetto's does (issue #24): the page
// never scrolls; the header, the verdict, the timeline and the docked
// panel share the window, each scrolling inside its own box; a selection
// gets a panel big enough to read it, under the timeline or beside it;
// the phone gives the plot its width; the PNG carries the whole verdict.

// fitState is what the window shows of the workspace.
type fitState struct {
	ScrollH, InnerH, InnerW float64
	DockTop, DockH, DockW   float64
	PlotW                   float64
	// Folded says the verdict shows its first line only.
	Folded bool
}

const fitStateJS = `(() => {
	const d = document.querySelector("#dock").getBoundingClientRect();
	const c = document.querySelector("#timeline canvas, #fleet canvas");
	const v = document.querySelector("#verdict");
	const shown = v ? [...v.querySelectorAll("p")].filter(p => p.checkVisibility()).length : 0;
	return {ScrollH: document.documentElement.scrollHeight, InnerH: innerHeight, InnerW: innerWidth,
		DockTop: d.top, DockH: d.height, DockW: d.width, PlotW: c ? Number(c.dataset.plotW) : 0,
		Folded: !!v && shown === 1 && v.querySelectorAll("p").length > 1};
})()`

func readFit(t testing.TB, tab context.Context) fitState {
	t.Helper()
	got, err := chromedp.Run(tab, chromedp.Evaluate[fitState](fitStateJS))
	must(t, err)
	return got
}

// shownInDock says whether the element sel lies whole inside the part of
// the dock's body that is on screen, and in the window.
func shownInDock(t testing.TB, tab context.Context, sel string) string {
	t.Helper()
	got, err := chromedp.Run(tab, chromedp.Evaluate[string](fmt.Sprintf(`(() => {
		const e = document.querySelector(%q);
		if (!e || !e.checkVisibility()) return "not shown";
		const r = e.getBoundingClientRect(), b = document.querySelector("#dock .dock-body").getBoundingClientRect();
		if (r.height <= 0 || r.width <= 0) return "empty";
		if (r.top < Math.max(b.top, 0) - 1 || r.bottom > Math.min(b.bottom, innerHeight) + 1) return "at " + r.top + ".." + r.bottom + ", the panel shows " + b.top + ".." + b.bottom;
		if (r.left < b.left - 1 || r.right > b.right + 1) return "at x " + r.left + ".." + r.right + ", the panel spans " + b.left + ".." + b.right;
		return "";
	})()`, sel)))
	must(t, err)
	return got
}

// openTwo opens w4 and w1 together in a window of w x h CSS px, as a
// user opens them, and returns the tab and the model's timeline of them.
func openTwo(t *testing.T, s *servedSite, w, h int64, opts ...chromedp.EmulateViewportOption) (context.Context, *timeline.Timeline) {
	t.Helper()
	return openTwoIn(t, s, s.newTab(t), w, h, opts...)
}

// openTwoIn is openTwo in the tab given.
func openTwoIn(t *testing.T, s *servedSite, tab context.Context, w, h int64, opts ...chromedp.EmulateViewportOption) (context.Context, *timeline.Timeline) {
	t.Helper()
	files := []string{"samples/" + w4, "samples/w1-broad-configmaps-bookmarks.ts.http"}
	names := []string{w4, "w1-broad-configmaps-bookmarks.ts.http"}
	must(t, chromedp.Do(tab, chromedp.EmulateViewport(w, h, opts...)))
	navigate(t, tab, s.url+"/?sample=w3-then-resume.ts.http")
	checkShown(t, tab, "w3-then-resume.ts.http", "samples/w3-then-resume.ts.http")
	var abs []string
	for _, f := range files {
		a, err := filepath.Abs(f)
		must(t, err)
		abs = append(abs, a)
	}
	// The file input, not a drop: a phone's window has no room for the
	// drop's point.
	must(t, chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.CSS("#file-input"), abs)))
	readSummary(t, tab, strings.Join(names, "\n"), nil)
	b := timeline.NewBuilder()
	for k, f := range files {
		r, err := os.Open(f)
		must(t, err)
		must(t, b.AddReader(names[k], r, parser.Options{}))
		r.Close()
	}
	return tab, b.Build()
}

// clickError clicks the first ERROR of file 0 on the timeline, where it is
// marked (on the file's sessions track), and returns its event.
func clickError(t *testing.T, tab context.Context, tl *timeline.Timeline, name string) timeline.Event {
	t.Helper()
	ev, x, y := errorPoint(t, tab, tl, name)
	clickAt(t, tab, x, y, 0)
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](fmt.Sprintf(`!!document.querySelector('#detail[data-event="%d"]')`, ev.Index),
		chromedp.WithPollingTimeout(pageWait))); err != nil {
		t.Fatalf("a click on the ERROR at (%.0f, %.0f) did not select it: %v", x, y, err)
	}
	return ev
}

// errorPoint is the first ERROR of file 0 and where, on the page, the
// timeline marks it (on the file's sessions track).
func errorPoint(t *testing.T, tab context.Context, tl *timeline.Timeline, name string) (ev timeline.Event, x, y float64) {
	t.Helper()
	found := false
	for i := range tl.Len() {
		if e := tl.Event(i); e.Type == parser.Error && e.File == 0 {
			ev, found = e, true
			break
		}
	}
	if !found {
		t.Fatal("w4 holds no ERROR: the test tests nothing")
	}
	sum := readSummary(t, tab, name, nil)
	var band fileBand
	for _, b := range timelineBands(t, tab, func(bs []fileBand) bool { return len(bs) > 0 }) {
		if b.file == 0 && b.id == canvas.BandSessions {
			band = b
		}
	}
	if band.h == 0 {
		t.Fatal("w4 has no sessions track on the timeline")
	}
	from, _ := strconv.ParseFloat(sum.From, 64)
	to, _ := strconv.ParseFloat(sum.To, 64)
	x = sum.CanvasLeft + sum.PlotX + (float64(ev.T)-from)/(to-from)*sum.PlotW
	y = sum.CanvasTop + band.y + band.h/2
	return ev, x, y
}

// copyFile copies the file from to the file to.
func copyFile(t testing.TB, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	must(t, err)
	must(t, os.WriteFile(to, b, 0o644))
}

func TestBrowserWorkspaceFits(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	s := startSite(t)
	two := w4 + "\nw1-broad-configmaps-bookmarks.ts.http"

	for _, sc := range []struct {
		name string
		w, h int64
	}{{"1440x900", 1440, 900}, {"1280x800", 1280, 800}} {
		t.Run(sc.name+", two files: the ERROR clicked is read whole, and the page does not scroll", func(t *testing.T) {
			tab, tl := openTwo(t, s, sc.w, sc.h)
			if f := readFit(t, tab); f.ScrollH != f.InnerH {
				t.Errorf("the page is %v px high in a window of %v", f.ScrollH, f.InnerH)
			}
			ev := clickError(t, tab, tl, two)
			if ev.Status == nil {
				t.Fatal("the ERROR has no status: there is no message to show")
			}
			for _, field := range []string{"status", "resourceVersion", "time"} {
				if why := shownInDock(t, tab, `#detail [data-field="`+field+`"]`); why != "" {
					t.Errorf("the ERROR's %s is not in view in the panel: %s", field, why)
				}
			}
			if msg := waitText(t, tab, `#detail [data-field="status"]`); !strings.Contains(msg, ev.Status.Message) {
				t.Errorf("the panel shows the status %q, the ERROR says %q", msg, ev.Status.Message)
			}
			if rv := waitText(t, tab, `#detail [data-field="resourceVersion"]`); !strings.Contains(rv, strconv.FormatUint(ev.Status.Y, 10)) {
				t.Errorf("the panel shows the ERROR's resourceVersion as %q, not the oldest one the server kept, %d", rv, ev.Status.Y)
			}
			f := readFit(t, tab)
			if f.ScrollH != f.InnerH {
				t.Errorf("with the ERROR selected the page is %v px high in a window of %v", f.ScrollH, f.InnerH)
			}
			if f.DockH < 0.35*f.InnerH-1 || f.DockTop+f.DockH > f.InnerH+1 {
				t.Errorf("with the ERROR selected the panel spans %v..%v of a %v px window", f.DockTop, f.DockTop+f.DockH, f.InnerH)
			}
			if sc.h < 850 && !f.Folded {
				t.Errorf("in a %v px high window the verdict is not folded to its first line", sc.h)
			}
			screenshot(t, tab, "fit-"+sc.name)
			if sc.w == 1440 {
				// The README's picture of the workspace.
				copyFile(t, "screenshots/fit-1440x900.png", "docs/workspace.png")
			}

			if sc.h < 850 {
				// A click on the folded verdict unfolds it, and the page
				// still fits.
				must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#verdict p"))))
				if _, err := chromedp.Run(tab, chromedp.Poll[bool](`[...document.querySelectorAll("#verdict p")].every(p => p.checkVisibility())`,
					chromedp.WithPollingTimeout(pageWait))); err != nil {
					t.Errorf("a click on the folded verdict did not unfold it: %v", err)
				}
				if f := readFit(t, tab); f.ScrollH != f.InnerH {
					t.Errorf("unfolded, the page is %v px high in a window of %v", f.ScrollH, f.InnerH)
				}
				screenshot(t, tab, "fit-"+sc.name+"-unfolded")
				return
			}

			// Beside the timeline every Findings value stays inside the
			// panel.
			must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#dock-side"))))
			if _, err := chromedp.Run(tab, chromedp.Poll[bool](`!!document.querySelector(".page.dock-side")`, chromedp.WithPollingTimeout(pageWait))); err != nil {
				t.Fatalf("the panel did not go beside the timeline: %v", err)
			}
			// The tab's findings come from the engine after it shows:
			// #findings is there once they are.
			must(t, chromedp.Do(tab, chromedp.Click(chromedp.ID("tab-findings")), chromedp.WaitVisible(chromedp.ID("findings"))))
			waitFitted(t, tab)
			bad, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`(() => {
				const out = [], b = document.querySelector("#dock .dock-body"), r = b.getBoundingClientRect();
				let n = 0;
				for (const e of document.querySelectorAll("#dock-findings dd, #dock-findings td, #dock-findings li, #dock-findings p")) {
					if (!e.checkVisibility()) continue;
					n++;
					const er = e.getBoundingClientRect();
					if (er.right > r.right + 1 || er.left < r.left - 1) out.push(e.textContent.slice(0, 60) + ": x " + er.left + ".." + er.right + ", the panel " + r.left + ".." + r.right);
				}
				if (b.scrollWidth > b.clientWidth + 1) out.push("the panel scrolls sideways: " + b.scrollWidth + " > " + b.clientWidth);
				if (n < 3) out.push("the Findings tab shows " + n + " values");
				return out;
			})()`))
			must(t, err)
			for _, b := range bad {
				t.Errorf("docked beside: %s", b)
			}
			if f := readFit(t, tab); f.ScrollH != f.InnerH {
				t.Errorf("docked beside, the page is %v px high in a window of %v", f.ScrollH, f.InnerH)
			}
			screenshot(t, tab, "fit-"+sc.name+"-beside")
			must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#dock-side"))))
			if _, err := chromedp.Run(tab, chromedp.Poll[bool](`!document.querySelector(".page.dock-side") && localStorage.getItem("watchlens.dock").startsWith("bottom")`,
				chromedp.WithPollingTimeout(pageWait))); err != nil {
				t.Errorf("the panel did not go back under the timeline: %v", err)
			}
		})
	}

	t.Run("1280x800 fleet: its rows scroll inside their pane, the page does not", func(t *testing.T) {
		files := fleetCaptures(t)
		tab := s.newTab(t)
		must(t, chromedp.Do(tab, chromedp.EmulateViewport(1280, 800)))
		navigate(t, tab, s.url+"/?sample=client-go-golden-watch.http")
		waitText(t, tab, "#timeline-summary")
		uploadRead(t, tab, files...)
		// The page may open a fleet on its Fleet view or on the timeline.
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](fmt.Sprintf(`(() => { const d = document.querySelector("#timeline-summary"); return !!document.querySelector("#fleet-summary") || (!!d && d.dataset.files.split("\n").length === %d); })()`, len(files)),
			chromedp.WithPollingTimeout(pageWait))); err != nil {
			t.Fatalf("the fleet's captures did not open: %v", err)
		}
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`(() => { if (!document.querySelector("#fleet")) document.querySelector("#show-fleet").click(); return !!document.querySelector("#fleet canvas[data-rows-y]"); })()`,
			chromedp.WithPollingTimeout(2*time.Minute))); err != nil {
			t.Fatalf("the fleet view did not show: %v", err)
		}
		l := readFleetLayout(t, tab)
		got, err := chromedp.Run(tab, chromedp.Evaluate[map[string]float64](`(() => {
			const c = document.querySelector("#fleet canvas").getBoundingClientRect();
			return {top: c.top, bottom: c.bottom, height: c.height, scrollH: document.documentElement.scrollHeight, innerH: innerHeight};
		})()`))
		must(t, err)
		if got["scrollH"] != got["innerH"] {
			t.Errorf("with the fleet shown the page is %v px high in a window of %v", got["scrollH"], got["innerH"])
		}
		if got["bottom"] > got["innerH"]+1 {
			t.Errorf("the fleet's canvas ends at %v, under the window's %v", got["bottom"], got["innerH"])
		}
		if rows := l.RowsY + 44*l.RowH; rows <= got["height"] {
			t.Fatalf("the 44 rows (%v px) fit the canvas (%v px): their scrolling is not tested", rows, got["height"])
		}
		screenshot(t, tab, "fit-1280x800-fleet")
		// The README's picture of the fleet.
		copyFile(t, "screenshots/fit-1280x800-fleet.png", "docs/fleet.png")
		// The wheel over the names scrolls the rows, inside the canvas.
		x, y := l.PlotX/2, l.RowsY+2*l.RowH
		_, err = chromedp.Call(tab, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseWheel,
			X: x + 12, Y: got["top"] + y, DeltaX: 0.001, DeltaY: 200})
		must(t, err)
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`Number(document.querySelector("#fleet canvas").dataset.scrollY) > 0`, chromedp.WithPollingTimeout(pageWait))); err != nil {
			t.Errorf("the wheel over the clients' names did not scroll the rows: %v", err)
		}
		if f := readFit(t, tab); f.ScrollH != f.InnerH {
			t.Errorf("with the fleet's rows scrolled the page is %v px high in a window of %v", f.ScrollH, f.InnerH)
		}
		screenshot(t, tab, "fit-1280x800-fleet-scrolled")
	})

	t.Run("390x844 phone: the plot has the width", func(t *testing.T) {
		tab, tl := openTwo(t, s, 390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(3))
		f := readFit(t, tab)
		if f.PlotW < 0.7*f.InnerW {
			t.Errorf("on a %v px wide phone the plot is %v px wide", f.InnerW, f.PlotW)
		}
		noSidewaysScroll(t, tab)
		zoneLabelsDiffer(t, tab)
		screenshot(t, tab, "fit-390x844")
		clickError(t, tab, tl, two)
		if why := shownInDock(t, tab, `#detail [data-field="status"]`); why != "" {
			t.Errorf("on a phone the ERROR's message is not in view: %s", why)
		}
		screenshot(t, tab, "fit-390x844-error")
	})

	t.Run("the PNG export carries the whole verdict at 2x", func(t *testing.T) {
		downloads := t.TempDir()
		tab, _ := openTwo(t, s, 1280, 800)
		allowDownloads(t, tab, downloads)
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#exports summary")), chromedp.Click(chromedp.CSS("#export-png"))))
		picture := waitForFile(t, filepath.Join(downloads, "watchlens-timeline.png"))
		img, err := png.DecodeConfig(strings.NewReader(picture))
		must(t, err)
		shown, err := chromedp.Run(tab, chromedp.Evaluate[map[string]string](`(() => {
			const c = document.querySelector("#timeline canvas"), v = document.querySelector("#verdict");
			return {width: String(c.getBoundingClientRect().width), lines: c.dataset.pngText || "", legend: c.dataset.pngLegend || "",
				verdict: [...v.querySelectorAll("p")].map(p => p.textContent).join(" ")};
		})()`))
		must(t, err)
		w, _ := strconv.ParseFloat(shown["width"], 64)
		if float64(img.Width) != 2*w {
			t.Errorf("the PNG is %d px wide, the timeline %v CSS px: not 2x", img.Width, w)
		}
		// The text the picture carries, its lines joined, holds the
		// verdict whole.
		if text := strings.Join(strings.Fields(shown["lines"]), " "); !strings.Contains(text, strings.Join(strings.Fields(shown["verdict"]), " ")) {
			t.Errorf("the PNG's text\n%s\ndoes not hold the verdict\n%s", shown["lines"], shown["verdict"])
		}
		// Its legend names what two captures can draw, not an API
		// server's marks, which need audit logs or metrics.
		if l := shown["legend"]; !strings.Contains(l, "cursor with the bookmarks received") || strings.Contains(l, "API server") || strings.Contains(l, "metrics") {
			t.Errorf("the PNG's legend reads\n%s", l)
		}
		os.WriteFile(filepath.Join("screenshots", "fit-export.png"), []byte(picture), 0o644)
	})
}

// zoneLabelsDiffer draws the timeline again (the theme switched to dark
// makes every canvas draw its last frame) and checks the 410 zone bands'
// labels as drawn: in a phone's gutter each is cut to its start or
// replaced by its short form, and the three must still read apart.
func zoneLabelsDiffer(t *testing.T, tab context.Context) {
	t.Helper()
	must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
		window.zoneLabels = [];
		const fill = CanvasRenderingContext2D.prototype.fillText;
		CanvasRenderingContext2D.prototype.fillText = function (s, ...rest) {
			if (this.canvas.closest("#timeline") && String(s).startsWith("410")) window.zoneLabels.push(String(s));
			return fill.call(this, s, ...rest);
		};
	})()`)))
	var labels []string
	// Each switch is waited on before the next: while the document's
	// style is out of date, Chromium evaluates the media queries at its
	// next style update, and two switches before it (dark, then light
	// again) change nothing it reports.
	for _, theme := range []string{"dark", "light"} {
		must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`window.zoneLabels = []`)))
		switchTheme(t, tab, theme)
		drawn, err := chromedp.Run(tab, chromedp.Poll[[]string](`window.zoneLabels.length > 0 && window.zoneLabels`, chromedp.WithPollingTimeout(pageWait)))
		if err != nil {
			t.Fatalf("switched to the %s theme, the timeline drew no 410 zone label again: %v", theme, err)
		}
		labels = append(labels, drawn...)
	}
	seen := map[string]bool{}
	for _, l := range labels {
		seen[l] = true
		// A cut label reads as the start it keeps, which another band's
		// label may share ("410 with…" of "410 without").
		if strings.HasSuffix(l, "…") {
			t.Errorf("on a phone the 410 zone label %q is cut: its short form does not fit the gutter", l)
		}
	}
	if len(seen) < 3 {
		t.Errorf("on a phone the 410 zone bands read %q: fewer than three different labels", labels)
	}
	t.Logf("the 410 zone labels on a phone: %q", labels)
}
