//go:build !wasm

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"watchlens/app/canvas"
	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/report"
	"watchlens/timeline"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The review workspace (issue #17): the timeline filling the window
// under a one-line header, the verdict above it, the docked panel, and
// what an engineer on call does with them: read the verdict, find the
// event that moved a cursor last, copy the summary and a link, reopen
// it; range statistics, search, exports, every screen size and theme.

// w4 is the capture of the scenario: a client cut off, resumed late, 410.
const w4 = "w4-then-resume.ts.http"

// actions counts what a user does in a scenario: each navigation, click
// or drag is one.
type actions struct {
	n    int
	what []string
}

func (a *actions) do(what string) { a.n++; a.what = append(a.what, what) }

// clickAt clicks the page at (x, y), CSS px, as a mouse does.
func clickAt(t testing.TB, tab context.Context, x, y float64, mods int64) {
	t.Helper()
	for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMouseMoved, input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
		p := &input.DispatchMouseEventParams{Type: typ, X: x, Y: y, Button: input.MouseButtonLeft, ClickCount: 1, Modifiers: mods}
		if typ == input.DispatchMouseEventTypeMouseMoved {
			p.Button, p.ClickCount = input.MouseButtonNone, 0
		}
		_, err := chromedp.Call(tab, input.DispatchMouseEvent, *p)
		must(t, err)
	}
}

// cursorPoint is where, on the page, a cursor's line at RV rv passes at
// instant at, for the whole capture shown.
func cursorPoint(t testing.TB, tab context.Context, at int64, rv uint64) (x, y float64) {
	t.Helper()
	got, err := chromedp.Run(tab, chromedp.Poll[map[string]string](`(() => {
		const c = document.querySelector("#timeline canvas"), s = document.querySelector("#timeline-summary");
		if (!c || !c.dataset.bands || !c.dataset.plotW) return null;
		const r = c.parentElement.getBoundingClientRect();
		return {bands: c.dataset.bands, plotX: c.dataset.plotX, plotW: c.dataset.plotW, left: String(r.left), top: String(r.top), from: s.dataset.from, to: s.dataset.to};
	})()`, chromedp.WithPollingTimeout(pageWait)))
	must(t, err)
	num := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	// The cursor strip's band and its RV scale.
	var bands []canvas.Band
	must(t, json.Unmarshal([]byte(got["bands"]), &bands))
	i := slices.IndexFunc(bands, func(b canvas.Band) bool { return b.ID == canvas.BandCursors })
	if i < 0 {
		t.Fatalf("the timeline has no cursor strip: %s", got["bands"])
	}
	by, bh, top, bot := bands[i].Y, bands[i].Height, bands[i].RVTop, bands[i].RVBot
	from, to := num(got["from"]), num(got["to"])
	x = num(got["left"]) + num(got["plotX"]) + (float64(at)-from)/(to-from)*num(got["plotW"])
	y = num(got["top"]) + by + bh - 2 - float64(rv-bot)/float64(top-bot)*(bh-4)
	return x, y
}

// copiedText clicks a copy button and reads what the page copied (its
// notice keeps the text; the clipboard itself needs a focused window).
func copiedText(t testing.TB, tab context.Context, button string) string {
	t.Helper()
	must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`document.querySelector("#copied-text") && (document.querySelector("#copied-text").value = "")`)))
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS(button))))
	got, err := chromedp.Run(tab, chromedp.Poll[string](`(() => { const e = document.querySelector("#copied-text"); return e && e.value ? e.value : null; })()`,
		chromedp.WithPollingTimeout(pageWait)))
	must(t, err)
	return got
}

// inView says whether the element sel is shown whole in the window.
func inView(t testing.TB, tab context.Context, sel string) bool {
	t.Helper()
	ok, err := chromedp.Run(tab, chromedp.Evaluate[bool](fmt.Sprintf(`(() => {
		const e = document.querySelector(%q);
		if (!e || !e.checkVisibility()) return false;
		const r = e.getBoundingClientRect();
		return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1 && r.height > 0;
	})()`, sel)))
	must(t, err)
	return ok
}

func TestBrowserWorkspace(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	s := startSite(t)

	t.Run("on call: verdict, the cursor's last step, summary, link, in at most 6 actions", func(t *testing.T) {
		var act actions
		tab := s.newTab(t)
		must(t, chromedp.Do(tab, chromedp.EmulateViewport(1440, 900)))
		act.do("open w4")
		navigate(t, tab, s.url+"/?sample="+w4)
		checkShown(t, tab, w4, "samples/"+w4)
		// When and why the 410, would bookmarks have helped: the verdict,
		// read without scrolling.
		verdictShown(t, tab, nativeSummary(t, []string{w4}, []string{"samples/" + w4}))

		// Which event moved the cursor last: click the bookmark-ignoring
		// cursor's last step (the one that went stale).
		tl, an := nativeTimeline(t, "samples/"+w4)
		cur := &tl.Cursors[int(timeline.BookmarkIgnoring)]
		k := cur.Len() - 1
		for k >= 0 && cur.Event(k) < 0 {
			k--
		}
		if k < 0 {
			t.Fatal("the cursor has no step set by an event")
		}
		at, rv := cur.Step(k)
		end := cur.End
		if k+1 < cur.Len() {
			end = cur.T(k + 1)
		}
		// A little after the step, inside its stretch.
		x, y := cursorPoint(t, tab, at+min((end-at)/4, int64(time.Second)), rv)
		act.do("click the cursor's last step")
		clickAt(t, tab, x, y, 0)
		// The events whose steps are at that RV then (the two cursors can
		// coincide there): the page selects one of them.
		want := map[int]bool{}
		for i := range tl.Cursors {
			if r, _, kk, ok := tl.Cursors[i].At(at + min((end-at)/4, int64(time.Second))); ok && r == rv && tl.Cursors[i].Event(kk) >= 0 {
				want[tl.Cursors[i].Event(kk)] = true
			}
		}
		sel, err := chromedp.Run(tab, chromedp.Poll[string](`(() => { const d = document.querySelector("#detail[data-event]"); return d ? d.dataset.event : null; })()`,
			chromedp.WithPollingTimeout(pageWait)))
		if err != nil {
			t.Fatalf("clicking the cursor's step at (%.0f, %.0f) selected nothing: %v", x, y, err)
		}
		ev, _ := strconv.Atoi(sel)
		if !want[ev] {
			t.Errorf("clicking the cursor's last step selected event %d, want one of %v", ev, want)
		}
		if !inView(t, tab, "#detail h2") || !inView(t, tab, `#detail [data-field="resourceVersion"]`) {
			t.Error("the selected event is not shown in the docked panel, in the window")
		}
		if rvShown := waitText(t, tab, `#detail [data-field="resourceVersion"]`); rvShown != strconv.FormatUint(rv, 10) {
			t.Errorf("the event shown has RV %q, the cursor's step %d", rvShown, rv)
		}
		screenshot(t, tab, "workspace-event")

		// What to paste into the postmortem.
		act.do("copy summary")
		summary := copiedText(t, tab, "#copy-summary")
		link, err := chromedp.Run(tab, chromedp.Evaluate[string](`location.href`))
		must(t, err)
		if want := report.New(tl.Analyze(timeline.DefaultParams()), nil).PasteMarkdown(link); summary != want {
			t.Errorf("Copy summary gave\n%s\nthe report's PasteMarkdown is\n%s", summary, want)
		}
		_ = an

		// How to share this view.
		act.do("copy link")
		copiedLink := copiedText(t, tab, "#copy-link")
		if copiedLink != link || !strings.Contains(link, "sel="+sel) {
			t.Errorf("Copy link gave %q; the view is %q (selection %s)", copiedLink, link, sel)
		}
		act.do("open the link")
		again := s.newTab(t)
		must(t, chromedp.Do(again, chromedp.EmulateViewport(1440, 900)))
		navigate(t, again, copiedLink)
		checkShown(t, again, w4, "samples/"+w4)
		if got := waitText(t, again, fmt.Sprintf(`#detail[data-event="%s"] [data-field="resourceVersion"]`, sel)); got != strconv.FormatUint(rv, 10) {
			t.Errorf("the reopened link shows RV %q selected", got)
		}
		if act.n > 6 {
			t.Errorf("the scenario took %d actions: %q", act.n, act.what)
		}
		screenshot(t, tab, "workspace-scenario")
	})

	t.Run("the docked panel goes beside the timeline, resizes from the keyboard, and stays so", func(t *testing.T) {
		tab := s.openSample(t, w4)
		size := `(() => { const d = document.querySelector("#dock").getBoundingClientRect(); return [d.width, d.height]; })()`
		before, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](size))
		must(t, err)
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#dock-side"))))
		side, err := chromedp.Run(tab, chromedp.Poll[[]float64](`(() => {
			if (!document.querySelector(".page.dock-side")) return null;
			const d = document.querySelector("#dock").getBoundingClientRect(), c = document.querySelector("#timeline canvas").getBoundingClientRect();
			return c.right <= d.left ? [d.left, c.right, d.width] : null;
		})()`, chromedp.WithPollingTimeout(pageWait)))
		must(t, err)
		if side[0] < side[1] {
			t.Errorf("docked beside, the panel starts at x %v, left of the timeline's end %v", side[0], side[1])
		}
		// Three presses of the left arrow on the splitter widen it.
		must(t, chromedp.Do(tab, chromedp.Focus(chromedp.CSS("#splitter")), chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowLeft)))
		// The presses are handled as they come: wait for the third.
		wider, err := chromedp.Run(tab, chromedp.Poll[[]float64](fmt.Sprintf(`(() => { const d = document.querySelector("#dock").getBoundingClientRect(); return d.width >= %f ? [d.width, d.height] : null; })()`, side[2]+100),
			chromedp.WithPollingTimeout(3*time.Second)))
		if err != nil {
			wider, err = chromedp.Run(tab, chromedp.Evaluate[[]float64](size))
			must(t, err)
		}
		// The timeline follows, narrower.
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.querySelector("#timeline canvas").getBoundingClientRect().right <= document.querySelector("#dock").getBoundingClientRect().left`,
			chromedp.WithPollingTimeout(pageWait))); err != nil {
			t.Errorf("the timeline did not make room for the wider panel: %v", err)
		}
		if wider[0] < side[2]+100 {
			t.Errorf("the panel is %v px wide after widening it from %v", wider[0], side[2])
		}
		noSidewaysScroll(t, tab)
		screenshot(t, tab, "workspace-dock-beside")
		// Another visit keeps both.
		again := s.newTab(t)
		navigate(t, again, s.url+"/?sample="+w4)
		checkShown(t, again, w4, "samples/"+w4)
		kept, err := chromedp.Run(again, chromedp.Poll[[]float64](`(() => {
			if (!document.querySelector(".page.dock-side")) return null;
			const d = document.querySelector("#dock").getBoundingClientRect();
			return [d.width, d.height];
		})()`, chromedp.WithPollingTimeout(pageWait)))
		if err != nil {
			t.Fatalf("the panel is no longer beside the timeline on another visit: %v", err)
		}
		if math.Abs(kept[0]-wider[0]) > 2 {
			t.Errorf("the panel came back %v px wide, left %v", kept[0], wider[0])
		}
		// Back under the timeline, for the other tests.
		must(t, chromedp.Do(again, chromedp.Click(chromedp.CSS("#dock-side"))))
		if _, err := chromedp.Run(again, chromedp.Poll[bool](`!document.querySelector(".page.dock-side") && localStorage.getItem("watchlens.dock").startsWith("bottom")`,
			chromedp.WithPollingTimeout(pageWait))); err != nil {
			t.Errorf("the panel did not go back under the timeline: %v", err)
		}
		_ = before
	})

	t.Run("a link to a dropped file asks for the file, then restores the view", func(t *testing.T) {
		tab := s.newTab(t)
		navigate(t, tab, s.url+"/")
		checkShown(t, tab, "w3-then-resume.ts.http", "samples/w3-then-resume.ts.http")
		drop(t, tab, "samples/"+w4)
		checkShown(t, tab, w4, "samples/"+w4)
		must(t, chromedp.Do(tab, chromedp.Focus(chromedp.CSS("#timeline canvas")), chromedp.KeyEvent("+")))
		waitSummary(t, tab, func(s map[string]string) bool { return s["whole"] == "false" })
		link := copiedText(t, tab, "#copy-link")
		if !strings.Contains(link, "file="+w4) || strings.Contains(link, "sample=") {
			t.Fatalf("the link to a dropped file does not name it: %s", link)
		}
		again := s.newTab(t)
		navigate(t, again, link)
		msg := waitText(t, again, "#restore")
		if !strings.Contains(msg, w4) || !strings.Contains(msg, "drop it here") {
			t.Errorf("the link's page says %q", msg)
		}
		// It opens nothing else, not the built-in sample: once the page
		// says it decided so, nothing is shown or being read.
		if _, err := chromedp.Run(again, chromedp.Poll[bool](`document.documentElement.dataset.visitOpens === "nothing"`,
			chromedp.WithPollingTimeout(pageWait))); err != nil {
			t.Errorf("the page for a dropped file's link never said it opens nothing: %v", err)
		}
		if n, _ := chromedp.Run(again, chromedp.Evaluate[int](`document.querySelectorAll("#results, #progress").length + (window.watchlensReads ?? []).length`)); n != 0 {
			t.Errorf("the page for a dropped file's link shows or reads %d captures", n)
		}
		screenshot(t, again, "workspace-restore")
		from, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("#timeline-summary").dataset.from`))
		drop(t, again, "samples/"+w4)
		checkShown(t, again, w4, "samples/"+w4)
		if got := waitSummary(t, again, func(s map[string]string) bool { return s["from"] == from }); got["whole"] != "false" {
			t.Errorf("the dropped file did not restore the link's range: %v", got)
		}
	})

	t.Run("a link to many dropped files stands for them by a digest, which the same files meet", func(t *testing.T) {
		files := testsample.FleetRecords(t)[:14]
		tab := s.newTab(t)
		navigate(t, tab, s.url+"/")
		checkShown(t, tab, "w3-then-resume.ts.http", "samples/w3-then-resume.ts.http")
		dropRead(t, tab, files...)
		link := copiedText(t, tab, "#copy-link")
		if !strings.Contains(link, "files=14-") || strings.Contains(link, "file=") || len(link) > 300 {
			t.Fatalf("the link to 14 dropped files is %d bytes: %s", len(link), link)
		}
		again := s.newTab(t)
		navigate(t, again, link)
		if msg := waitText(t, again, "#restore"); !strings.Contains(msg, "the 14 files it was made on") || !strings.Contains(msg, "drop them here") {
			t.Errorf("the link's page says %q", msg)
		}
		screenshot(t, again, "workspace-restore-many")
		reversed := slices.Clone(files)
		slices.Reverse(reversed)
		dropRead(t, again, reversed...)
		if got := copiedText(t, again, "#copy-link"); got != link {
			t.Errorf("the same files dropped again, in another order, link to\n%s\nwhere the link was\n%s", got, link)
		}
	})

	t.Run("the Open URL field opens a capture's link", func(t *testing.T) {
		tab := s.openSample(t, "w3-then-resume.ts.http")
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#open-menu summary")),
			chromedp.SendKeys(chromedp.CSS("#open-url"), s.url+"/web/samples/"+w4+"\r")))
		checkShown(t, tab, w4, "samples/"+w4)
		if u, _ := chromedp.Run(tab, chromedp.Poll[string](`location.search.includes("url=") ? location.search : null`, chromedp.WithPollingTimeout(pageWait))); !strings.Contains(u, w4) {
			t.Errorf("the address bar does not keep the link: %q", u)
		}
	})

	t.Run("two files: each has its own labelled tracks, and the header and tab name both", func(t *testing.T) {
		files := []string{"samples/" + w4, "samples/w1-broad-configmaps-bookmarks.ts.http"}
		names := []string{w4, "w1-broad-configmaps-bookmarks.ts.http"}
		tab := s.openSample(t, "w3-then-resume.ts.http")
		drop(t, tab, files...)
		readSummary(t, tab, strings.Join(names, "\n"), nil)
		got, err := chromedp.Run(tab, chromedp.Poll[map[string]string](`(() => {
			const c = document.querySelector("#timeline canvas");
			if (!c || !c.dataset.bands || !c.dataset.bands.includes("w1-broad")) return null;
			return {bands: c.dataset.bands, title: document.title, header: document.querySelector("#open-files").textContent};
		})()`, chromedp.WithPollingTimeout(pageWait)))
		must(t, err)
		all, err := parseBands(got["bands"])
		must(t, err)
		perFile := map[int]map[string]fileBand{}
		for _, b := range all {
			if perFile[b.file] == nil {
				perFile[b.file] = map[string]fileBand{}
			}
			perFile[b.file][b.label] = b
		}
		for i, name := range names {
			bands := perFile[i]
			if _, ok := bands[name]; !ok {
				t.Errorf("no band labelled %s: %q", name, got["bands"])
			}
			for _, track := range []string{"sessions", "bookmarks", "410 · as recorded", "410 · ignoring bookmarks", "cursors · RV"} {
				if _, ok := bands[track]; !ok {
					t.Errorf("%s has no %s track of its own", name, track)
				}
			}
			if !strings.Contains(got["title"], name) || !strings.Contains(got["header"], name) {
				t.Errorf("the tab's title %q or the header %q does not name %s", got["title"], got["header"], name)
			}
		}
		// Each file's zone tracks show its own zones: red where the
		// model refuses its resumes, nothing where it refuses none.
		b := timeline.NewBuilder()
		for k, f := range files {
			r, err := os.Open(f)
			must(t, err)
			must(t, b.AddReader(names[k], r, parser.Options{}))
			r.Close()
		}
		an := b.Build().Analyze(timeline.DefaultParams())
		for i, name := range names {
			refused := 0
			for _, z := range an.Zones {
				if z.File == i && z.Kind == timeline.BookmarkIgnoring {
					refused++
				}
			}
			zb := perFile[i]["410 · ignoring bookmarks"]
			red, err := chromedp.Run(tab, chromedp.Evaluate[int](fmt.Sprintf(`(() => {
				const c = document.querySelector("#timeline canvas"), r = devicePixelRatio;
				const d = c.getContext("2d").getImageData(0, Math.round((%v + %v / 2 - c.offsetTop) * r), c.width, 1).data;
				let n = 0;
				for (let i = 0; i < d.length; i += 4) if (d[i] > 180 && d[i + 1] < 140 && d[i + 2] < 160) n++;
				return n;
			})()`, zb.y, zb.h)))
			must(t, err)
			if (refused > 0) != (red > 20) {
				t.Errorf("%s: %d refused zones for the cursor without bookmarks, %d red pixels in its track", name, refused, red)
			}
		}
		screenshot(t, tab, "workspace-two-files")

		// A click on w1's name band folds its group into that band; a
		// click on its pin puts it first.
		canvasAt := func(x, y float64) {
			r, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector("#timeline .tl-stage").getBoundingClientRect(); return [r.left, r.top, r.width]; })()`))
			must(t, err)
			if x < 0 {
				x += r[2]
			}
			clickAt(t, tab, r[0]+x, r[1]+y, 0)
		}
		// readBands waits for the bands b (the canvas's data-bands,
		// JSON of []canvas.Band) to meet cond.
		readBands := func(cond string) []canvas.Band {
			got, err := chromedp.Run(tab, chromedp.Poll[string](`(() => {
				const text = document.querySelector("#timeline canvas").dataset.bands, b = JSON.parse(text);
				return (`+cond+`) ? text : null;
			})()`, chromedp.WithPollingTimeout(pageWait)))
			if err != nil {
				t.Fatalf("the bands never became %s: %v", cond, err)
			}
			var bands []canvas.Band
			must(t, json.Unmarshal([]byte(got), &bands))
			return bands
		}
		head := perFile[1][names[1]]
		canvasAt(300, head.y+head.h/2)
		bands := readBands(`b.filter(x => x.File === 1).length === 1`)
		screenshot(t, tab, "workspace-two-files-folded")
		for _, b := range bands {
			if b.File == 1 && b.Label != names[1] {
				t.Errorf("folded, w1 still has the band %+v", b)
			}
		}
		canvasAt(-20, head.y+head.h/2)
		bands = readBands(`b.findIndex(x => x.File === 1) < b.findIndex(x => x.File === 0)`)
		if bands[2].Label != names[1] {
			t.Errorf("pinned, w1's group does not come first: %+v", bands)
		}
	})

	for _, axis := range []string{"time", "rv"} {
		t.Run("a shift-drag's range statistics are the model's, on the "+axis+" axis", func(t *testing.T) {
			tab := s.openSample(t, w4)
			_, an := nativeTimeline(t, "samples/"+w4)
			if axis == "rv" {
				must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#axis-switch"))))
				if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.querySelector("#timeline-summary").dataset.axis === "rv"`, chromedp.WithPollingTimeout(pageWait))); err != nil {
					t.Fatalf("the axis did not switch to resourceVersions: %v", err)
				}
			}
			sum := readSummary(t, tab, w4, nil)
			y := sum.CanvasTop + 10
			x0, x1 := sum.CanvasLeft+sum.PlotX+2, sum.CanvasLeft+sum.PlotX+sum.PlotW*0.995
			// A shift-drag, as a mouse does it.
			for i, p := range []struct {
				typ input.DispatchMouseEventType
				x   float64
			}{{input.DispatchMouseEventTypeMouseMoved, x0}, {input.DispatchMouseEventTypeMousePressed, x0}, {input.DispatchMouseEventTypeMouseMoved, (x0 + x1) / 2}, {input.DispatchMouseEventTypeMouseMoved, x1}, {input.DispatchMouseEventTypeMouseReleased, x1}} {
				ev := &input.DispatchMouseEventParams{Type: p.typ, X: p.x, Y: y, Modifiers: 8, Button: input.MouseButtonLeft, Buttons: 1, ClickCount: 1}
				if i == 0 {
					ev.Button, ev.Buttons, ev.ClickCount = input.MouseButtonNone, 0, 0
				}
				_, err := chromedp.Call(tab, input.DispatchMouseEvent, *ev)
				must(t, err)
			}
			type rangeShown struct {
				From, To                  string
				Events, Bookmarks, Errors int
				ByType                    map[string]int
				Zones                     []int64
				Ages                      []int64
			}
			got, err := chromedp.Run(tab, chromedp.Poll[rangeShown](`(() => {
			const r = document.querySelector("#range[data-from][data-axis='`+axis+`']");
			if (!r || !r.checkVisibility()) return null;
			const rows = by => [...r.querySelectorAll('table[data-range-by="' + by + '"] tbody tr')];
			return {From: r.dataset.from, To: r.dataset.to, Events: +r.dataset.events, Bookmarks: +r.dataset.bookmarks, Errors: +r.dataset.errors,
				ByType: Object.fromEntries(rows("type").map(tr => [tr.querySelector("th").textContent, +tr.querySelector("td").dataset.count])),
				Zones: rows("zones").filter(tr => tr.dataset.count).flatMap(tr => [+tr.dataset.count, +tr.dataset.length]),
				Ages: rows("cursor").map(tr => +tr.dataset.maxAge)};
		})()`, chromedp.WithPollingTimeout(pageWait)))
			must(t, err)
			from, _ := strconv.ParseInt(got.From, 10, 64)
			to, _ := strconv.ParseInt(got.To, 10, 64)
			st := an.RangeStats(from, to)
			if axis == "rv" {
				st = an.RangeStatsRV(uint64(from), uint64(to))
			}
			var zones, ages []int64
			for _, z := range st.Zones {
				zones = append(zones, int64(z.Count), z.Length)
			}
			for _, c := range st.Cursors {
				ages = append(ages, c.MaxAge)
			}
			if got.Events != st.Events || got.Bookmarks != st.Bookmarks || got.Errors != st.Errors ||
				fmt.Sprint(got.ByType) != fmt.Sprint(st.ByType) || fmt.Sprint(got.Zones) != fmt.Sprint(zones) || fmt.Sprint(got.Ages) != fmt.Sprint(ages) {
				t.Errorf("the page's range statistics %+v differ from the model's %+v (zones %v, ages %v)", got, st, zones, ages)
			}
			if st.Events == 0 && st.Bookmarks == 0 {
				t.Errorf("the range %d-%d holds nothing: the comparison proves little", from, to)
			}
			screenshot(t, tab, "workspace-range-"+axis)
		})
	}

	t.Run("the search box finds an RV and an object, and moves the view there", func(t *testing.T) {
		tab := s.openSample(t, w4)
		tl, _ := nativeTimeline(t, "samples/"+w4)
		var rv string
		for i := range tl.Len() {
			if e := tl.Event(i); e.RV != "" {
				rv = e.RV
			}
		}
		for _, q := range []string{rv, "q-watched"} {
			must(t, chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#find"), q)))
			want := tl.Find(q, 12, nil)
			if len(want) == 0 {
				t.Fatalf("the model finds nothing for %q", q)
			}
			waitText(t, tab, "#find-results button")
			must(t, chromedp.Do(tab, chromedp.KeyEvent("\r")))
			// Enter went to the first match and closed the list (the page
			// renders after the key's handler, so the test waits for it).
			if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.querySelectorAll("#find-results").length == 0`,
				chromedp.WithPollingTimeout(pageWait))); err != nil {
				t.Errorf("after Enter the matches of %q are still listed: %v", q, err)
			}
			if want[0].Event >= 0 {
				waitText(t, tab, fmt.Sprintf(`#detail[data-event="%d"]`, want[0].Event))
			}
			holds := func(s map[string]string) bool {
				from, _ := strconv.ParseInt(s["from"], 10, 64)
				to, _ := strconv.ParseInt(s["to"], 10, 64)
				return s["whole"] == "false" && from <= want[0].T && want[0].T <= to
			}
			waitSummary(t, tab, holds)
		}
		screenshot(t, tab, "workspace-find")
	})

	t.Run("the Perfetto export is the report's trace", func(t *testing.T) {
		downloads := t.TempDir()
		tab := s.openSample(t, w4)
		allowDownloads(t, tab, downloads)
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#exports summary")), chromedp.Click(chromedp.CSS("#export-perfetto"))))
		got := waitForFile(t, filepath.Join(downloads, "watchlens-trace.json"))
		var trace struct {
			TraceEvents []map[string]any `json:"traceEvents"`
		}
		must(t, json.Unmarshal([]byte(got), &trace))
		phases := map[string]int{}
		for _, e := range trace.TraceEvents {
			ph, _ := e["ph"].(string)
			phases[ph]++
			need := []string{"name", "ph", "pid"}
			switch ph {
			case "i", "I":
				need = append(need, "ts", "tid")
			case "C":
				need = append(need, "ts", "args")
			case "X":
				need = append(need, "ts", "dur", "tid")
			case "M":
				need = append(need, "args")
			default:
				t.Errorf("an entry of phase %q: %v", ph, e)
			}
			for _, f := range need {
				if _, ok := e[f]; !ok {
					t.Errorf("a %q entry has no %q: %v", ph, f, e)
				}
			}
		}
		_, an := nativeTimeline(t, filepath.Join("samples", w4))
		var want bytes.Buffer
		must(t, report.WritePerfetto(&want, an))
		if got != want.String() {
			t.Errorf("the page's Perfetto trace differs from the report's (%d against %d bytes; phases %v)", len(got), want.Len(), phases)
		}
		if phases["i"]+phases["I"] == 0 || phases["C"] == 0 || phases["X"] == 0 {
			t.Errorf("the trace lacks instants, counters or slices: %v", phases)
		}
	})

	t.Run("the first visit paints the shell and a progress bar while app.wasm loads", func(t *testing.T) {
		// The site again, on an origin of its own (no service worker has
		// cached it), sending app.wasm's first part, then the rest only
		// once the test has seen the shell, a part every 100 ms: what the
		// page shows before app.wasm has come is read while it has not.
		files := http.FileServer(http.Dir(s.root))
		shellSeen := make(chan struct{})
		slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !strings.HasSuffix(r.URL.Path, "/app.wasm") {
				files.ServeHTTP(w, r)
				return
			}
			b, err := os.ReadFile(filepath.Join(s.root, "web", "app.wasm"))
			if err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			w.Header().Set("Content-Type", "application/wasm")
			w.Header().Set("Content-Length", strconv.Itoa(len(b)))
			const parts = 30
			for i := range parts {
				w.Write(b[i*len(b)/parts : (i+1)*len(b)/parts])
				w.(http.Flusher).Flush()
				if i == 0 {
					select {
					case <-shellSeen:
					case <-r.Context().Done():
						return
					}
				}
				time.Sleep(100 * time.Millisecond)
			}
		}))
		defer slow.Close()
		tab := s.newTab(t)
		navigate(t, tab, slow.URL+"/")
		type shell struct {
			Header   bool    `json:"header"`
			Bar      bool    `json:"bar"`
			Value    float64 `json:"value"`
			Captured bool    `json:"captured"`
		}
		got, err := chromedp.Run(tab, chromedp.Poll[*shell](`(() => {
			const h = document.querySelector("header.bar h1"), bar = document.querySelector("#app-wasm-progress");
			if (!h || !bar) return null;
			return {header: h.checkVisibility() && h.getBoundingClientRect().top < 100, bar: bar.checkVisibility(), value: bar.value,
				captured: !!document.querySelector("#results")};
		})()`, chromedp.WithPollingTimeout(pageWait)))
		if err != nil {
			t.Fatalf("no header and progress bar while app.wasm loads: %v", err)
		}
		if !got.Header || !got.Bar || got.Captured {
			t.Errorf("while app.wasm loads the page shows %+v", got)
		}
		screenshot(t, tab, "workspace-first-paint")
		// A file dropped before the app runs leaves the page as it is: the
		// browser neither opens the file in the tab nor refuses the drop
		// (web/drop.js), which an event handler of the app, run later,
		// could not do in time.
		must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`window.e2eShell = true`)))
		drop(t, tab, "samples/w4-then-resume.ts.http")
		close(shellSeen)
		// The bar moves, then the app replaces it with the capture.
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`(() => { const b = document.querySelector("#app-wasm-progress"); return !b || b.value >= 50; })()`,
			chromedp.WithPollingTimeout(pageWait))); err != nil {
			t.Errorf("the progress bar did not move: %v", err)
		}
		if same, err := chromedp.Run(tab, chromedp.Evaluate[bool](`window.e2eShell === true`)); err != nil || !same {
			t.Fatalf("a file dropped while app.wasm loads took the page away (%v)", err)
		}
		checkShown(t, tab, "w3-then-resume.ts.http", "samples/w3-then-resume.ts.http")
	})

	t.Run("screens and themes", func(t *testing.T) {
		for _, sc := range []struct {
			name string
			w, h int64
		}{{"1280x720", 1280, 720}, {"1440x900", 1440, 900}, {"4K", 3840, 2160}, {"phone", 390, 844}} {
			// One page a screen, its layout checked once and its colours
			// and screenshot in each theme: the layout is the themes'.
			t.Run(sc.name, func(t *testing.T) {
				tab := s.newTab(t)
				var opts []chromedp.EmulateViewportOption
				if sc.w < 800 {
					opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(3))
				}
				must(t, chromedp.Do(tab, chromedp.EmulateViewport(sc.w, sc.h, opts...)))
				themes := []string{"light", "dark"}
				preferTheme(t, tab, themes[0])
				navigate(t, tab, s.url+"/?sample="+w4)
				checkShown(t, tab, w4, "samples/"+w4)
				summaryOf(t, tab)
				noSidewaysScroll(t, tab)
				// Every control can be reached: inside the window's
				// width, and text inside its box.
				bad, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`(() => {
					const out = [];
					for (const el of document.querySelectorAll("header button, header select, header input, header summary, .filters label, .dock-bar button, #verdict p, .open-files")) {
						if (!el.checkVisibility()) continue;
						const r = el.getBoundingClientRect();
						if (r.left < 0 || r.right > innerWidth + 0.5) out.push((el.id || el.textContent.slice(0, 30)) + " lies outside the window: " + r.left + "-" + r.right);
						if (el.scrollWidth > el.clientWidth + 1 && !el.matches(".open-files, select, input")) out.push((el.id || el.textContent.slice(0, 30)) + " overflows its box: " + el.scrollWidth + " > " + el.clientWidth);
					}
					return out;
				})()`))
				must(t, err)
				for _, b := range bad {
					t.Error(b)
				}
				if sc.w >= 1280 && !inView(t, tab, "#verdict") {
					t.Error("the verdict is not in the window without scrolling")
				}
				if sc.w >= 1280 {
					share, err := chromedp.Run(tab, chromedp.Evaluate[float64](`document.querySelector("#timeline-panel").getBoundingClientRect().height / innerHeight`))
					must(t, err)
					if share < 0.35 {
						t.Errorf("the timeline takes %.0f %% of the window's height", share*100)
					}
				}
				for _, theme := range themes {
					switchTheme(t, tab, theme)
					checkContrast(t, tab, theme)
					screenshot(t, tab, "workspace-"+sc.name+"-"+theme)
				}
			})
		}
	})
}

// checkContrast reads the colours the canvas draws with (its custom
// properties) and the panel's background in the page's theme, and holds,
// in the dark theme, every mark to 3:1 against it, and in both an ERROR
// mark to 3:1 against a red zone.
func checkContrast(t *testing.T, tab context.Context, theme string) {
	t.Helper()
	cols, err := chromedp.Run(tab, chromedp.Evaluate[map[string]string](`(() => {
		const cs = getComputedStyle(document.querySelector("#timeline canvas"));
		const out = {};
		for (const k of ["--panel", "--c-added", "--c-modified", "--c-deleted", "--c-observed", "--c-listed", "--c-bookmark", "--c-error", "--c-zone", "--c-aware", "--c-ignoring", "--c-session"]) out[k] = cs.getPropertyValue(k).trim();
		return out;
	})()`))
	must(t, err)
	bg := cols["--panel"]
	zoneAlpha, _ := chromedp.Run(tab, chromedp.Evaluate[float64](`Number(getComputedStyle(document.querySelector("#timeline canvas")).getPropertyValue("--zone-alpha")) || 0.55`))
	for k, c := range cols {
		if k == "--panel" || theme != "dark" {
			continue
		}
		if r := contrast(c, bg); r < 3 {
			t.Errorf("%s theme: %s %s on the panel %s: contrast %.2f:1", theme, k, c, bg, r)
		}
	}
	zone := blend(cols["--c-zone"], bg, zoneAlpha)
	if r := contrast(cols["--c-error"], zone); r < 3 {
		t.Errorf("%s theme: an ERROR mark %s on a red zone (%s at %.2f over %s): contrast %.2f:1", theme, cols["--c-error"], cols["--c-zone"], zoneAlpha, bg, r)
	}
}

// rgb reads #rrggbb.
func rgb(c string) [3]float64 {
	var v [3]float64
	if len(c) == 7 && c[0] == '#' {
		for i := range 3 {
			n, _ := strconv.ParseUint(c[1+2*i:3+2*i], 16, 8)
			v[i] = float64(n)
		}
	}
	return v
}

func blend(fg, bg string, alpha float64) string {
	f, b := rgb(fg), rgb(bg)
	out := "#"
	for i := range 3 {
		out += fmt.Sprintf("%02x", int(math.Round(f[i]*alpha+b[i]*(1-alpha))))
	}
	return out
}

// contrast is WCAG's contrast ratio of two colours.
func contrast(a, b string) float64 {
	lum := func(c string) float64 {
		v := rgb(c)
		var l [3]float64
		for i, x := range v {
			x /= 255
			if x <= 0.03928 {
				l[i] = x / 12.92
			} else {
				l[i] = math.Pow((x+0.055)/1.055, 2.4)
			}
		}
		return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
	}
	la, lb := lum(a), lum(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// The workspace on a phone (issue #24): the page is the window, as on a
// desktop. The header takes two lines, the verdict one, the timeline or
// the fleet the screen's width and most of its height, and the dock is a
// sheet at the bottom that rises to show what is selected, lowers to its
// tabs and is dragged by its grip, never over the whole plot.

// phoneState is where the workspace's parts lie in the window, CSS px.
type phoneState struct {
	ScrollH, InnerH, InnerW float64
	// PageScrollH and PageH are the page's content height and its box's:
	// the page clips what does not fit, so a scroll height equal to the
	// window's proves nothing without them.
	PageScrollH, PageH float64
	HeaderH, VerdictH  float64
	PanelTop, PanelH   float64
	CanvasW, CanvasTop float64
	CanvasBottom       float64
	DockTop, DockH     float64
	DockBottom         float64
	Lowered, Folded    bool
}

const phoneStateJS = `(() => {
	const r = s => { const e = document.querySelector(s); return e ? e.getBoundingClientRect() : new DOMRect(); };
	const page = document.querySelector(".page"), v = document.querySelector("#verdict");
	const c = r("#timeline canvas, #fleet canvas"), p = r("#timeline-panel"), d = r("#dock");
	const shown = v ? [...v.querySelectorAll("p")].filter(p => p.checkVisibility()).length : 0;
	return {ScrollH: document.documentElement.scrollHeight, InnerH: innerHeight, InnerW: innerWidth,
		PageScrollH: page.scrollHeight, PageH: page.clientHeight,
		HeaderH: r("header.bar").height, VerdictH: r("#verdict").height,
		PanelTop: p.top, PanelH: p.height, CanvasW: c.width, CanvasTop: c.top, CanvasBottom: c.bottom,
		DockTop: d.top, DockH: d.height, DockBottom: d.bottom,
		Lowered: !!document.querySelector("#dock.lowered"),
		Folded: !!v && shown === 1 && v.querySelectorAll("p").length > 1};
})()`

func readPhone(t testing.TB, tab context.Context) phoneState {
	t.Helper()
	got, err := chromedp.Run(tab, chromedp.Evaluate[phoneState](phoneStateJS))
	must(t, err)
	return got
}

// fitsWindow checks that the page is the window: it does not scroll, and
// nothing of it is clipped off its bottom.
func fitsWindow(t testing.TB, p phoneState, when string) {
	t.Helper()
	if p.ScrollH != p.InnerH {
		t.Errorf("%s: the page is %v px high in a window of %v", when, p.ScrollH, p.InnerH)
	}
	if p.PageScrollH > p.PageH+1 {
		t.Errorf("%s: the page's parts need %v px, and the window is %v px high: the bottom is cut off", when, p.PageScrollH, p.PageH)
	}
	if p.DockBottom > p.InnerH+1 || p.DockH <= 0 {
		t.Errorf("%s: the panel spans %v..%v of a %v px window", when, p.DockTop, p.DockBottom, p.InnerH)
	}
}

// fingerDrag moves one finger from (x0, y0) to (x1, y1) in steps, as a
// person drags.
func fingerDrag(t testing.TB, tab context.Context, x0, y0, x1, y1 float64) {
	t.Helper()
	one := 1.0
	at := func(typ input.DispatchTouchEventType, x, y float64) {
		pts := []*input.TouchPoint{{X: x, Y: y, ID: &one}}
		if typ == input.DispatchTouchEventTypeTouchEnd {
			pts = []*input.TouchPoint{}
		}
		_, err := chromedp.Call(tab, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts})
		must(t, err)
	}
	at(input.DispatchTouchEventTypeTouchStart, x0, y0)
	const steps = 8
	for i := 1; i <= steps; i++ {
		f := float64(i) / steps
		at(input.DispatchTouchEventTypeTouchMove, x0+(x1-x0)*f, y0+(y1-y0)*f)
	}
	at(input.DispatchTouchEventTypeTouchEnd, 0, 0)
}

// fingerSpread puts two fingers apart0 px apart around (x, y) and spreads
// them to apart1.
func fingerSpread(t testing.TB, tab context.Context, x, y, apart0, apart1 float64) {
	t.Helper()
	one, two := 1.0, 2.0
	at := func(typ input.DispatchTouchEventType, apart float64) {
		pts := []*input.TouchPoint{{X: x - apart/2, Y: y, ID: &one}, {X: x + apart/2, Y: y, ID: &two}}
		if typ == input.DispatchTouchEventTypeTouchEnd {
			pts = []*input.TouchPoint{}
		}
		_, err := chromedp.Call(tab, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts})
		must(t, err)
	}
	at(input.DispatchTouchEventTypeTouchStart, apart0)
	at(input.DispatchTouchEventTypeTouchMove, (apart0+apart1)/2)
	at(input.DispatchTouchEventTypeTouchMove, apart1)
	at(input.DispatchTouchEventTypeTouchEnd, 0)
}

// fingerTap touches (x, y) and lifts the finger there, as a tap.
func fingerTap(t testing.TB, tab context.Context, x, y float64) {
	t.Helper()
	one := 1.0
	for _, typ := range []input.DispatchTouchEventType{input.DispatchTouchEventTypeTouchStart, input.DispatchTouchEventTypeTouchEnd} {
		pts := []*input.TouchPoint{{X: x, Y: y, ID: &one}}
		if typ == input.DispatchTouchEventTypeTouchEnd {
			pts = []*input.TouchPoint{}
		}
		_, err := chromedp.Call(tab, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts})
		must(t, err)
	}
}

// timelineTip is the timeline's tooltip's text, "" when it is hidden.
const timelineTipJS = `(() => { const e = document.querySelector("#timeline .tl-tip"); return e && e.style.display !== "none" ? e.textContent : ""; })()`

// tipShownAfter taps (x, y) and says whether the tooltip then names want.
func tipShownAfter(t testing.TB, tab context.Context, x, y float64, want string) bool {
	t.Helper()
	fingerTap(t, tab, x, y)
	_, err := chromedp.Run(tab, chromedp.Poll[bool](fmt.Sprintf(`%s.includes(%q)`, timelineTipJS, want), chromedp.WithPollingTimeout(pageWait)))
	return err == nil
}

// tipGone says whether the timeline's tooltip is hidden within within.
func tipGone(t testing.TB, tab context.Context, within time.Duration) bool {
	t.Helper()
	_, err := chromedp.Run(tab, chromedp.Poll[bool](timelineTipJS+` === ""`, chromedp.WithPollingTimeout(within)))
	return err == nil
}

// restartLabelsOverlap reads where the fleet writes its restarts' names
// and returns the first two whose boxes (their room, a line high)
// overlap, or none; and how many there are.
func restartLabelsOverlap(t testing.TB, tab context.Context, l fleetLayout) (a, b *canvas.RestartLabel, n int) {
	t.Helper()
	text, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("#fleet canvas").dataset.restartLabels || ""`))
	must(t, err)
	if text == "" {
		t.Fatal("the fleet's canvas does not say where it writes the restarts' names (data-restart-labels)")
	}
	var labels []canvas.RestartLabel
	must(t, json.Unmarshal([]byte(text), &labels))
	const lineH = 13 // the backing box the page draws
	for i := range labels {
		p := &labels[i]
		if p.X < l.PlotX || p.X+p.W > l.PlotX+l.PlotW+0.5 {
			t.Errorf("the restart label %+v runs out of the plot [%v, %v]", *p, l.PlotX, l.PlotX+l.PlotW)
		}
		for j := range labels[i+1:] {
			q := &labels[i+1+j]
			if p.X < q.X+q.W && q.X < p.X+p.W && math.Abs(p.Y-q.Y) < lineH {
				return p, q, len(labels)
			}
		}
	}
	return nil, nil, len(labels)
}

func TestBrowserWorkspacePhone(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	s := startSite(t)
	phone := []chromedp.EmulateViewportOption{chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(3)}
	two := w4 + "\nw1-broad-configmaps-bookmarks.ts.http"
	// Each scenario is a dozen gestures on two files: more than a tab's
	// usual tabLimit on a busy machine.
	openTwo := func(t *testing.T, s *servedSite, w, h int64, opts ...chromedp.EmulateViewportOption) (context.Context, *timeline.Timeline) {
		t.Helper()
		return openTwoIn(t, s, newTabWithin(t, s.browser, 4*time.Minute), w, h, opts...)
	}

	t.Run("390x844, two captures: the page is the window, the plot its width, the event selected read in the sheet", func(t *testing.T) {
		tab, tl := openTwo(t, s, 390, 844, phone...)
		p := readPhone(t, tab)
		fitsWindow(t, p, "opened")
		if p.CanvasW < 0.95*p.InnerW {
			t.Errorf("on a %v px wide phone the timeline is %v px wide", p.InnerW, p.CanvasW)
		}
		// The plot proper, not its labels, takes the width: the tracks'
		// names go over it (a 72 px column of names left 300 px of 390).
		if sum := readSummary(t, tab, two, nil); sum.PlotW < 0.9*p.InnerW {
			t.Errorf("on a %v px wide phone the plot is %v px wide, from %v", p.InnerW, sum.PlotW, sum.PlotX)
		}
		if p.HeaderH > 0.12*p.InnerH {
			t.Errorf("the header takes %v px of a %v px window", p.HeaderH, p.InnerH)
		}
		if !p.Folded || p.VerdictH > 0.06*p.InnerH {
			t.Errorf("the verdict is not folded to its first line: folded %v, %v px high", p.Folded, p.VerdictH)
		}
		if p.PanelH < p.DockH || p.PanelH < p.HeaderH+p.VerdictH || p.PanelH < 0.4*p.InnerH {
			t.Errorf("the timeline has %v px of the %v px window; the panel %v, the header %v, the verdict %v", p.PanelH, p.InnerH, p.DockH, p.HeaderH, p.VerdictH)
		}
		noSidewaysScroll(t, tab)
		screenshot(t, tab, "phone-390x844")

		// The verdict unfolds, and the page still fits.
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.ID("verdict-fold"))))
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`[...document.querySelectorAll("#verdict p")].every(p => p.checkVisibility())`,
			chromedp.WithPollingTimeout(pageWait))); err != nil {
			t.Errorf("the verdict's Unfold did not show it whole: %v", err)
		}
		waitFitted(t, tab)
		fitsWindow(t, readPhone(t, tab), "the verdict unfolded")
		screenshot(t, tab, "phone-390x844-verdict")
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.ID("verdict-fold"))))
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`!!document.querySelector("#verdict.folded")`, chromedp.WithPollingTimeout(pageWait))); err != nil {
			t.Errorf("the verdict's Fold did not fold it: %v", err)
		}

		// The sheet lowered to its tabs rises to show the event tapped.
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.ID("dock-raise"))))
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`!!document.querySelector("#dock.lowered")`, chromedp.WithPollingTimeout(pageWait))); err != nil {
			t.Fatalf("the sheet's ▾ did not lower it: %v", err)
		}
		waitFitted(t, tab)
		low := readPhone(t, tab)
		fitsWindow(t, low, "the sheet lowered")
		if low.DockH > 0.1*low.InnerH || low.PanelH < p.PanelH+0.2*p.InnerH {
			t.Errorf("lowered, the sheet is %v px high and the timeline %v (was %v)", low.DockH, low.PanelH, p.PanelH)
		}
		screenshot(t, tab, "phone-390x844-lowered")
		ev := clickError(t, tab, tl, two)
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`!document.querySelector("#dock.lowered")`, chromedp.WithPollingTimeout(pageWait))); err != nil {
			t.Errorf("the sheet did not rise to show the event tapped: %v", err)
		}
		waitFitted(t, tab)
		for _, field := range []string{"status", "resourceVersion", "time"} {
			if why := shownInDock(t, tab, `#detail [data-field="`+field+`"]`); why != "" {
				t.Errorf("the ERROR's %s is not in view in the sheet: %s", field, why)
			}
		}
		if msg := waitText(t, tab, `#detail [data-field="status"]`); !strings.Contains(msg, ev.Status.Message) {
			t.Errorf("the sheet shows the status %q, the ERROR says %q", msg, ev.Status.Message)
		}
		sel := readPhone(t, tab)
		fitsWindow(t, sel, "the ERROR selected")
		if sel.PanelH < 0.25*sel.InnerH {
			t.Errorf("with the ERROR shown the timeline has %v px of %v", sel.PanelH, sel.InnerH)
		}
		screenshot(t, tab, "phone-390x844-event")

		// A tap shows what lies under the finger, and a finger cannot
		// leave the canvas as a mouse does: the tooltip goes at a tap
		// elsewhere, at a finger's scroll, or a while later.
		tapError := func(which string) {
			t.Helper()
			_, x, y := errorPoint(t, tab, tl, two)
			if !tipShownAfter(t, tab, x, y, "ERROR") {
				t.Fatalf("%s tap on the ERROR at (%.0f, %.0f) showed no tooltip naming it", which, x, y)
			}
		}
		center := func(sel string) (float64, float64) {
			t.Helper()
			c, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, sel)))
			must(t, err)
			return c[0], c[1]
		}
		tapError("a")
		screenshot(t, tab, "phone-390x844-tapped")
		hx, hy := center("#detail h2")
		fingerTap(t, tab, hx, hy)
		if !tipGone(t, tab, 2*time.Second) {
			t.Error("the tooltip a tap showed stays after a tap on the sheet")
		}
		tapError("a second")
		dx, dy := center("#dock .dock-body")
		fingerDrag(t, tab, dx, dy, dx, dy-60)
		if !tipGone(t, tab, 2*time.Second) {
			t.Error("the tooltip a tap showed stays while a finger scrolls the sheet")
		}
		tapError("a third")
		if !tipGone(t, tab, 10*time.Second) {
			t.Error("the tooltip a tap showed stays 10 s later with nothing else done")
		}
		screenshot(t, tab, "phone-390x844-tip-gone")
	})

	t.Run("390x844, two captures: the sheet's grip and tabs, a finger's scroll, pan and pinch", func(t *testing.T) {
		tab, _ := openTwo(t, s, 390, 844, phone...)
		sel := readPhone(t, tab)
		// The grip dragged to the top: the sheet rises, and the timeline
		// keeps a plot above it.
		grip, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector("#splitter").getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`))
		must(t, err)
		fingerDrag(t, tab, grip[0], grip[1], grip[0], 20)
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](fmt.Sprintf(`document.querySelector("#dock").getBoundingClientRect().height > %f`, sel.DockH+100),
			chromedp.WithPollingTimeout(pageWait))); err != nil {
			t.Errorf("dragging the sheet's grip up did not raise it: %v", err)
		}
		waitFitted(t, tab)
		high := readPhone(t, tab)
		fitsWindow(t, high, "the sheet raised")
		if high.PanelH < 150 || high.CanvasTop > high.PanelTop+high.PanelH-100 {
			t.Errorf("raised, the sheet leaves the timeline %v px, its plot from %v in a pane ending at %v", high.PanelH, high.CanvasTop, high.PanelTop+high.PanelH)
		}
		screenshot(t, tab, "phone-390x844-raised")
		// Dragged down past its least size it lowers to its tabs.
		grip, err = chromedp.Run(tab, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector("#splitter").getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`))
		must(t, err)
		fingerDrag(t, tab, grip[0], grip[1], grip[0], high.InnerH-5)
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`!!document.querySelector("#dock.lowered")`, chromedp.WithPollingTimeout(pageWait))); err != nil {
			t.Errorf("dragging the sheet's grip down did not lower it: %v", err)
		}
		// A tab raises it again.
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.ID("tab-findings"))))
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`!document.querySelector("#dock.lowered") && document.querySelector("#dock-findings").checkVisibility()`,
			chromedp.WithPollingTimeout(pageWait))); err != nil {
			t.Errorf("a tab of the lowered sheet did not raise it: %v", err)
		}
		waitFitted(t, tab)
		fitsWindow(t, readPhone(t, tab), "the Findings tab")
		screenshot(t, tab, "phone-390x844-findings")

		// Two files' tracks are higher than the pane: a finger's vertical
		// drag on the plot scrolls them, its sideways drag pans, and two
		// fingers zoom.
		sum := readSummary(t, tab, two, nil)
		top := readPhone(t, tab)
		x := sum.CanvasLeft + sum.PlotX + sum.PlotW/2
		y := top.PanelTop + 0.3*top.PanelH
		fingerDrag(t, tab, x, y, x, y-120)
		scrolled, err := chromedp.Run(tab, chromedp.Poll[float64](`document.querySelector("#timeline-panel").scrollTop || null`, chromedp.WithPollingTimeout(pageWait)))
		if err != nil {
			t.Errorf("a finger's drag up the plot did not scroll the tracks: %v", err)
		}
		t.Logf("a drag of 120 px scrolled the tracks by %v px", scrolled)
		fitsWindow(t, readPhone(t, tab), "the tracks scrolled")
		num := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
		span := func(g tlSummary) float64 { return num(g.To) - num(g.From) }
		whole := readSummary(t, tab, two, nil)
		fingerSpread(t, tab, x, y, 60, 180)
		zoomed := readSummary(t, tab, two, func(g tlSummary) bool { return span(g) < 0.6*span(whole) })
		if r := span(zoomed) / span(whole); r > 0.5 {
			t.Errorf("spreading two fingers to three times their distance left %.2f of the span", r)
		}
		fingerDrag(t, tab, x, y, x-100, y)
		panned := readSummary(t, tab, two, func(g tlSummary) bool { return g.From != zoomed.From })
		if was, now := num(zoomed.From), num(panned.From); now <= was {
			t.Errorf("a finger's drag to the left moved the range from %s to %s, not later", zoomed.From, panned.From)
		}
		screenshot(t, tab, "phone-390x844-zoomed")
	})

	t.Run("390x844, samples-fleet: the page is the window, the fleet its width, its rows scroll in their pane", func(t *testing.T) {
		dir := testsample.Recording(t, "samples-fleet")
		files, err := filepath.Glob(filepath.Join(dir, "*.ts.http"))
		must(t, err)
		if len(files) < 40 {
			t.Fatalf("samples-fleet has %d captures", len(files))
		}
		tab := s.openLong(t)
		// The sheet as it opens, not as the test before left it.
		must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`localStorage.removeItem("watchlens.dock")`)))
		must(t, chromedp.Do(tab, chromedp.EmulateViewport(390, 844, phone...)))
		navigate(t, tab, s.url+"/?sample=w3-then-resume.ts.http")
		checkShown(t, tab, "w3-then-resume.ts.http", "samples/w3-then-resume.ts.http")
		must(t, chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.CSS("#file-input"), files)))
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`(() => { const d = document.querySelector("#timeline-summary"); return !!document.querySelector("#fleet-summary") || (!!d && d.dataset.files.includes("c41-proto-nobookmarks")); })()`,
			chromedp.WithPollingTimeout(3*time.Minute))); err != nil {
			t.Fatalf("samples-fleet's captures did not open: %v", err)
		}
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`(() => { if (!document.querySelector("#fleet")) document.querySelector("#show-fleet").click(); return !!document.querySelector("#fleet canvas[data-rows-y]"); })()`,
			chromedp.WithPollingTimeout(2*time.Minute))); err != nil {
			t.Fatalf("the fleet view did not show: %v", err)
		}
		waitFitted(t, tab)
		p := readPhone(t, tab)
		fitsWindow(t, p, "the fleet shown")
		if p.CanvasW < 0.95*p.InnerW {
			t.Errorf("on a %v px wide phone the fleet is %v px wide", p.InnerW, p.CanvasW)
		}
		if p.PanelH < p.DockH || p.PanelH < 0.4*p.InnerH {
			t.Errorf("the fleet has %v px of the %v px window, the panel %v", p.PanelH, p.InnerH, p.DockH)
		}
		l := readFleetLayout(t, tab)
		if rows := l.RowsY + float64(len(files))*l.RowH; rows <= p.CanvasBottom-p.CanvasTop {
			t.Fatalf("the %d rows (%v px) fit the canvas (%v px): their scrolling is not tested", len(files), rows, p.CanvasBottom-p.CanvasTop)
		}
		screenshot(t, tab, "phone-390x844-fleet")
		// The restarts, a few dozen px apart on a phone, are named on
		// staggered lines, never over each other.
		if a, b, n := restartLabelsOverlap(t, tab, l); a != nil {
			t.Errorf("the restart labels %+v and %+v overlap", *a, *b)
		} else if n == 0 {
			t.Error("no restart is named on the fleet")
		}
		// The bands above the rows are higher than the pane leaves them: a
		// finger's drag up the curves scrolls the pane to the rows, and one
		// up the rows scrolls them inside the canvas; the page stays.
		x := l.PlotX + l.PlotW/2
		end := p.PanelTop + p.PanelH
		if rowsTop := p.CanvasTop + l.RowsY; rowsTop > end-4*l.RowH {
			y := p.CanvasTop + l.CurvesY + 10
			fingerDrag(t, tab, x, y, x, y-(rowsTop-end+4*l.RowH))
			if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.querySelector("#timeline-panel").scrollTop > 0`, chromedp.WithPollingTimeout(pageWait))); err != nil {
				t.Errorf("a finger's drag up the fleet's curves did not scroll its pane: %v", err)
			}
			p = readPhone(t, tab)
			fitsWindow(t, p, "the fleet's pane scrolled")
		}
		y := p.CanvasTop + l.RowsY + 2*l.RowH
		if y > end-l.RowH {
			t.Fatalf("the fleet's rows start at %v, under its pane's end %v", y, end)
		}
		fingerDrag(t, tab, x, y, x, y-2*l.RowH-10)
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`Number(document.querySelector("#fleet canvas").dataset.scrollY) > 0`, chromedp.WithPollingTimeout(pageWait))); err != nil {
			t.Errorf("a finger's drag up the clients' rows did not scroll them: %v", err)
		}
		fitsWindow(t, readPhone(t, tab), "the fleet's rows scrolled")
		screenshot(t, tab, "phone-390x844-fleet-scrolled")
	})

	t.Run("390x844: the header's folds show the filters and the sharing menu, and the page still fits", func(t *testing.T) {
		tab := s.newTab(t)
		must(t, chromedp.Do(tab, chromedp.EmulateViewport(390, 844, phone...)))
		navigate(t, tab, s.url+"/?sample="+w4)
		checkShown(t, tab, w4, "samples/"+w4)
		if inView(t, tab, "#filters") || inView(t, tab, "#copy-link") {
			t.Error("on a phone the filters or the sharing buttons show before they are asked for")
		}
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.ID("filters-toggle"))))
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.querySelector("#filters").checkVisibility()`, chromedp.WithPollingTimeout(pageWait))); err != nil {
			t.Errorf("the Filters button did not show the filters: %v", err)
		}
		waitFitted(t, tab)
		fitsWindow(t, readPhone(t, tab), "the filters shown")
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.ID("share-toggle"))))
		for _, sel := range []string{"#copy-link", "#copy-summary", "#exports summary"} {
			if _, err := chromedp.Run(tab, chromedp.Poll[bool](fmt.Sprintf(`document.querySelector(%q).checkVisibility()`, sel), chromedp.WithPollingTimeout(pageWait))); err != nil || !inView(t, tab, sel) {
				t.Errorf("the Share menu does not show %s in the window: %v", sel, err)
			}
		}
		screenshot(t, tab, "phone-390x844-folds")
		if link := copiedText(t, tab, "#copy-link"); !strings.Contains(link, "sample="+w4) {
			t.Errorf("the folded Copy link copied %q", link)
		}
		if inView(t, tab, "#copy-link") {
			t.Error("the Share menu stays open after a copy, over the timeline")
		}
	})

	t.Run("844x390, a phone on its side: the page is the window, the event selected read in the panel", func(t *testing.T) {
		tab, tl := openTwo(t, s, 844, 390, phone...)
		p := readPhone(t, tab)
		fitsWindow(t, p, "opened")
		if p.PanelH < 0.3*p.InnerH {
			t.Errorf("on its side the phone gives the timeline %v px of %v", p.PanelH, p.InnerH)
		}
		noSidewaysScroll(t, tab)
		if sum := readSummary(t, tab, two, nil); sum.PlotW < 0.9*p.CanvasW {
			t.Errorf("on its side the phone gives the plot %v px of a %v px timeline", sum.PlotW, p.CanvasW)
		}
		screenshot(t, tab, "phone-844x390")
		clickError(t, tab, tl, two)
		waitFitted(t, tab)
		for _, sel := range []string{"#detail h2", `#detail [data-field="type"]`, `#detail [data-field="resourceVersion"]`} {
			if why := shownInDock(t, tab, sel); why != "" {
				t.Errorf("on its side the phone does not show the ERROR's %s: %s", sel, why)
			}
		}
		if p := readPhone(t, tab); p.CanvasW < 0.5*p.InnerW {
			t.Errorf("on its side, with the panel beside it, the timeline is %v px wide of %v", p.CanvasW, p.InnerW)
		}
		fitsWindow(t, readPhone(t, tab), "the ERROR selected")
		screenshot(t, tab, "phone-844x390-event")
	})
}
