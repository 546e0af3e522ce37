//go:build !wasm

package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"watchlens/app/canvas"
	"watchlens/internal/quantity"
	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/timeline"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// The fleet view of the recording in testdata/fleet (44 client-go
// informers through a rolling restart of two API servers), against the
// fleet the model finds natively in the same captures: the rows in its
// order, the curves' peaks and the relists, read from the canvas's
// tooltips as a user hovers it; a shift-drag's counts; and a click on a
// row opening that client's timeline.

// fleetCaptures are the recording's 44 captures.
func fleetCaptures(t testing.TB) []string {
	t.Helper()
	names, err := filepath.Glob("testdata/fleet/*.ts.http")
	must(t, err)
	if len(names) != 44 {
		t.Fatalf("testdata/fleet has %d captures, want 44", len(names))
	}
	for i, n := range names {
		abs, err := filepath.Abs(n)
		must(t, err)
		names[i] = abs
	}
	return names
}

// nativeFleet reads the captures as the page does, one file each, and
// returns the fleet the model finds.
func nativeFleet(t testing.TB, files []string) (*timeline.Fleet, *timeline.Analysis) {
	t.Helper()
	b := timeline.NewBuilder()
	for _, name := range files {
		f, err := os.Open(name)
		must(t, err)
		err = b.AddReader(filepath.Base(name), f, parser.Options{})
		f.Close()
		must(t, err)
	}
	an := b.Build().Analyze(timeline.DefaultParams())
	fl := an.Fleet()
	if fl == nil {
		t.Fatal("the model finds no fleet")
	}
	return fl, an
}

// openFleet opens the files in a fresh tab and switches to the fleet
// view.
func openFleet(t testing.TB, s *servedSite, files []string) context.Context {
	t.Helper()
	tab := s.newTab(t)
	navigate(t, tab, s.url+"/?sample=client-go-golden-watch.http")
	waitText(t, tab, "#timeline-summary")
	must(t, chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.CSS("#file-input"), files)))
	_, err := chromedp.Run(tab, chromedp.Poll[bool](fmt.Sprintf(`(() => { const d = document.querySelector("#timeline-summary"); return !!d && d.dataset.files.split("\n").length === %d; })()`, len(files)),
		chromedp.WithPollingTimeout(5*time.Minute)))
	must(t, err)
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#show-fleet"))))
	waitText(t, tab, "#fleet-summary")
	// The engine's frame is drawn a moment after the fleet shows, and a
	// click before it finds no row: the canvas says its layout once drawn.
	_, err = chromedp.Run(tab, chromedp.Poll[bool](`!!document.querySelector("#fleet canvas")?.dataset.plotX`, chromedp.WithPollingTimeout(pageWait)))
	must(t, err)
	return tab
}

// fleetPoint scrolls the page so that the point (x, y) of the fleet's
// canvas, given in the canvas's CSS pixels, is in the window, and returns
// it in the window's coordinates.
func fleetPoint(t testing.TB, tab context.Context, x, y float64) (float64, float64) {
	t.Helper()
	p, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => {
		const c = document.querySelector("#fleet canvas");
		let r = c.getBoundingClientRect();
		window.scrollBy({top: r.top + %f - innerHeight / 2, behavior: "instant"});
		r = c.getBoundingClientRect();
		return [r.left + %f, r.top + %f];
	})()`, y, x, y)))
	must(t, err)
	return p[0], p[1]
}

// fleetLayout reads where the fleet's canvas has its plot and bands.
type fleetLayout struct {
	PlotX, PlotW, CurvesY, HistY, RowsY, RowH, ScrollY float64
	From, To                                           int64
}

func readFleetLayout(t testing.TB, tab context.Context) fleetLayout {
	t.Helper()
	// The canvas says its layout once the engine's frame is drawn.
	ds, err := chromedp.Run(tab, chromedp.Poll[map[string]string](`(() => { const c = document.querySelector("#fleet canvas"); return c && c.dataset.plotX ? {...c.dataset} : null; })()`,
		chromedp.WithPollingTimeout(pageWait)))
	if err != nil {
		ds, _ = chromedp.Run(tab, chromedp.Evaluate[map[string]string](`({...document.querySelector("#fleet canvas")?.dataset})`))
	}
	f := func(k string) float64 {
		v, err := strconv.ParseFloat(ds[k], 64)
		if err != nil {
			t.Fatalf("the fleet's canvas has no %s: %v", k, ds)
		}
		return v
	}
	return fleetLayout{PlotX: f("plotX"), PlotW: f("plotW"), CurvesY: f("curvesY"), HistY: f("histY"), RowsY: f("rowsY"), RowH: f("rowH"), ScrollY: f("scrollY"),
		From: int64(f("from")), To: int64(f("to"))}
}

func (l fleetLayout) x(t int64) float64 {
	return l.PlotX + float64(t-l.From)/float64(l.To-l.From)*l.PlotW
}

// fleetTip moves the mouse to (x, y) of the fleet's canvas and returns
// the tooltip it shows there once it holds want.
func fleetTip(t testing.TB, tab context.Context, x, y float64, want string) string {
	t.Helper()
	px, py := fleetPoint(t, tab, x, y)
	must(t, chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, px, py)))
	tip, err := chromedp.Run(tab, chromedp.Poll[string](fmt.Sprintf(`(() => { const e = document.querySelector("#fleet .tl-tip"); const t = e && e.style.display !== "none" ? e.textContent : ""; return t.includes(%q) ? t : ""; })()`, want),
		chromedp.WithPollingTimeout(pageWait)))
	if err != nil {
		got, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("#fleet .tl-tip").textContent`))
		t.Fatalf("at (%.0f, %.0f) the tooltip reads %q, not %q", x, y, got, want)
	}
	return tip
}

func TestBrowserFleet(t *testing.T) {
	t.Parallel()
	files := fleetCaptures(t)
	fl, an := nativeFleet(t, files)
	s := startSite(t)
	tab := openFleet(t, s, files)

	// With the view switch and 44 file names the header is still one line
	// in a 1280 px window: the share buttons sit beside the file names.
	tops, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](`[innerWidth, ...["#open-files", "#show-fleet", "#find", "#exports"].map(s => document.querySelector(s).getBoundingClientRect().top)]`))
	must(t, err)
	if tops[0] != 1280 || max(tops[1], tops[2], tops[3], tops[4])-min(tops[1], tops[2], tops[3], tops[4]) > 12 {
		t.Errorf("at %v px wide the header wraps: tops of the file names, the view switch, the search box and Export %v", tops[0], tops[1:])
	}

	// The view switch shows which view is on screen, as the tabs do.
	marked, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`["#show-timeline", "#show-fleet"].map(s => {
		const b = document.querySelector(s), c = getComputedStyle(b);
		return b.getAttribute("aria-pressed") + " " + c.fontWeight + " " + (c.boxShadow !== "none");
	})`))
	must(t, err)
	if len(marked) != 2 || marked[0] != "false 400 false" || marked[1] != "true 600 true" {
		t.Errorf("the view switch (timeline, fleet: pressed, weight, underline) reads %q: the fleet shown is not marked", marked)
	}

	sum, err := chromedp.Run(tab, chromedp.Evaluate[map[string]string](`({...document.querySelector("#fleet-summary").dataset})`))
	must(t, err)
	var names []string
	var maxWith, maxWithout int
	for _, c := range fl.Clients {
		names = append(names, c.Name)
	}
	for _, st := range fl.Steps {
		maxWith, maxWithout = max(maxWith, st.With), max(maxWithout, st.Without)
	}
	if got := strings.Split(sum["order"], "\n"); strings.Join(got, ",") != strings.Join(names, ",") {
		t.Errorf("the fleet's rows are\n%v\nthe model's clients, riskiest first,\n%v", got, names)
	}
	if sum["clients"] != "44" || sum["relists"] != strconv.Itoa(fl.RelistsObserved) || fl.RelistsObserved != 18 {
		t.Errorf("the page shows %s clients and %s relists; the model %d and %d (the recording's truth: 18)", sum["clients"], sum["relists"], len(fl.Clients), fl.RelistsObserved)
	}
	if sum["maxWith"] != strconv.Itoa(maxWith) || sum["maxWithout"] != strconv.Itoa(maxWithout) || maxWithout == 0 {
		t.Errorf("the curves peak at %s with and %s without bookmarks; the model's at %d and %d", sum["maxWith"], sum["maxWithout"], maxWith, maxWithout)
	}
	// The worst moment is the verdict's own sentence, not a count of
	// the page's.
	if got, want := waitText(t, tab, "#fleet-worst"), an.WorstWords(); got != want || want == "" {
		t.Errorf("the page's worst moment %q, the verdict's %q", got, want)
	}
	// docs/fleet.png, the README's picture, is TestBrowserWorkspaceFits's.
	screenshot(t, tab, "fleet")

	l := readFleetLayout(t, tab)
	t.Run("the canvas draws the rows in the model's order", func(t *testing.T) {
		for _, r := range []int{0, 1, 5, 11} { // the stage keeps room for 12 rows at least
			c := fl.Clients[r]
			tip := fleetTip(t, tab, 60, l.RowsY+(float64(r)+0.5)*l.RowH, c.Name+"\n")
			if want := "relists seen: " + strconv.Itoa(len(c.Relists)); !strings.Contains(tip, want) {
				t.Errorf("row %d (%s) says %q, want %q", r, c.Name, tip, want)
			}
		}
		// Each relist of the riskiest client is a ring on its row.
		c := fl.Clients[0]
		for _, rl := range c.Relists {
			fleetTip(t, tab, l.x(rl.T), l.RowsY+0.5*l.RowH, "relisted at "+timeline.FormatClock(rl.T, time.UTC)+", after 410 Gone")
		}
	})
	t.Run("the curves count the model's stampede", func(t *testing.T) {
		for _, st := range fl.Stampedes {
			x := l.x(st.From) + 2
			if l.x(st.To)-x < 2 {
				continue // narrower than a pixel column
			}
			want := fmt.Sprintf("%d clients to relist without bookmarks,\n%d with bookmarks", st.Without, st.With)
			fleetTip(t, tab, x, l.CurvesY+50, want)
		}
	})
	t.Run("the restarts are marked where the model detects them", func(t *testing.T) {
		if len(an.Restarts) != 2 {
			t.Fatalf("the model detects %d restarts in the recording of two", len(an.Restarts))
		}
		for _, r := range an.Restarts {
			fleetTip(t, tab, l.x(r.Ended)+1, l.HistY+20, "API server restart: its watches ended at "+timeline.FormatClock(r.Ended, time.UTC))
		}
	})
	t.Run("scrolled to the end, the last client is drawn", func(t *testing.T) {
		px, py := fleetPoint(t, tab, 40, l.RowsY+2*l.RowH)
		must(t, chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseWheel, px, py, func(p *input.DispatchMouseEventParams) {
			p.DeltaX, p.DeltaY = 1e-6, 4000 // DeltaX 0 would be omitted, and Chromium wants both
		})))
		var scrolled fleetLayout
		if !until(pageWait, func() bool { scrolled = readFleetLayout(t, tab); return scrolled.ScrollY > 0 }) {
			t.Fatal("the wheel over the names did not scroll the rows")
		}
		last := len(fl.Clients) - 1
		y := scrolled.RowsY + (float64(last)+0.5)*scrolled.RowH - scrolled.ScrollY
		fleetTip(t, tab, 60, y, fl.Clients[last].Name+"\n")
	})
	t.Run("a shift-drag counts the range", func(t *testing.T) {
		st := fl.Stampedes[0]
		x0, y := fleetPoint(t, tab, l.x(st.From)-30, l.CurvesY+50)
		x1 := x0 + 60
		clickDrag(t, tab, x0, x1, y, 8) // 8: shift
		got, err := chromedp.Run(tab, chromedp.Poll[map[string]string](`(() => { const e = document.querySelector("#fleet-range"); return e && e.dataset.from ? {...e.dataset} : null; })()`,
			chromedp.WithPollingTimeout(pageWait)))
		must(t, err)
		from, _ := strconv.ParseInt(got["from"], 10, 64)
		to, _ := strconv.ParseInt(got["to"], 10, 64)
		relists, peak := 0, 0
		for _, c := range fl.Clients {
			for _, rl := range c.Relists {
				if rl.T >= from && rl.T < to {
					relists++
				}
			}
		}
		for k, s := range fl.Steps {
			if s.T < to && (k+1 == len(fl.Steps) || fl.Steps[k+1].T > from) {
				peak = max(peak, s.Without)
			}
		}
		if got["relists"] != strconv.Itoa(relists) || got["peakWithout"] != strconv.Itoa(peak) || peak == 0 {
			t.Errorf("the range %d-%d counts %s relists, peak %s without bookmarks; the model %d and %d", from, to, got["relists"], got["peakWithout"], relists, peak)
		}
		text := waitText(t, tab, "#fleet-range")
		if !strings.Contains(text, "to relist without bookmarks") {
			t.Errorf("the range reads %q", text)
		}
		screenshot(t, tab, "fleet-range")
	})
	t.Run("past the recordings' end the curves stop, and a reconnect there counts no client", func(t *testing.T) {
		// The margin past the shared clock's end: the hover says the
		// recordings end there and gives the counts of their last
		// instant; a client counts only while recorded, so a reconnect
		// asked past it judges none.
		end := an.TL.End()
		last := fl.Steps[sort.Search(len(fl.Steps), func(i int) bool { return fl.Steps[i].T > end })-1]
		// The shift-drag zoomed in: 0 shows the whole clock again.
		whole := canvas.NewFleetData(an)
		must(t, chromedp.Do(tab, chromedp.Focus(chromedp.CSS("#fleet canvas")), chromedp.KeyEvent("0")))
		var l fleetLayout
		near := func(a, b int64) bool { return max(a-b, b-a) < int64(time.Millisecond) } // the canvas's data attributes are read as floats
		if !until(pageWait, func() bool { l = readFleetLayout(t, tab); return near(l.From, whole.From) && near(l.To, whole.To) }) {
			t.Fatalf("0 shows %d-%d, not the whole clock with its margins %d-%d", l.From, l.To, whole.From, whole.To)
		}
		x := l.x(end + (l.To-end)/2)
		tip := fleetTip(t, tab, x, l.CurvesY+50, "The recordings end at "+timeline.FormatClock(end, time.UTC))
		for _, want := range []string{
			fmt.Sprintf("%s to relist without bookmarks,\n%d with bookmarks", quantity.Plural(last.Without, "client"), last.With),
			"Past it nothing shows the clients still watching",
		} {
			if !strings.Contains(tip, want) {
				t.Errorf("past the recordings' end the hover says %q, want %q", tip, want)
			}
		}
		screenshot(t, tab, "fleet-past-the-end")
		// An Alt-click there asks a reconnect at that instant: no client
		// is counted, and the note says why.
		px, py := fleetPoint(t, tab, x, l.CurvesY+50)
		clickAt(t, tab, px, py, 1) // 1: Alt
		got := readReconnect(t, tab, "")
		at, err := strconv.ParseInt(got.At, 10, 64)
		must(t, err)
		if at <= end {
			t.Fatalf("an Alt-click past the recordings' end marked %s, not past %s", time.Unix(0, at).UTC(), time.Unix(0, end).UTC())
		}
		fc, _ := an.FleetReconnect(timeline.ResumeQuery{At: at})
		if n := len(fl.Clients); got.Fleet["without"]["unknown"] != n || got.Fleet["with"]["unknown"] != n || got.Fleet["as-recorded"]["unknown"] != n || got.Fleet["without"]["refused"] != 0 || fc.Without.AfterRecording != n {
			t.Errorf("a reconnect at %s counts %v; want all %d clients not judged (the model: %+v)", time.Unix(0, at).UTC(), got.Fleet, n, fc.Without)
		}
		if note := reconnectClockNote(t, tab); !strings.Contains(note, "the counts judge none of them") {
			t.Errorf("past the recordings' end the Reconnect tab's note says %q", note)
		}
		// The pointer away, the picture shows the curves' end and the marker.
		must(t, chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 1, 1)))
		screenshot(t, tab, "fleet-past-the-end-reconnect")
	})
	t.Run("the range shown carries over between the views", func(t *testing.T) {
		t.Parallel()
		tab := openFleet(t, s, files)
		// rangeOf waits until the range sel's data attributes give is
		// not unlike (the range before a move) and returns it.
		rangeOf := func(sel string, unlike [2]string) [2]string {
			t.Helper()
			got, err := chromedp.Run(tab, chromedp.Poll[[]string](`(() => {
				const e = document.querySelector(`+strconv.Quote(sel)+`);
				const r = e && e.dataset.from ? [e.dataset.from, e.dataset.to || ""] : null;
				return r && (r[0] !== `+strconv.Quote(unlike[0])+` || r[1] !== `+strconv.Quote(unlike[1])+`) ? r : null;
			})()`, chromedp.WithPollingTimeout(pageWait)))
			if err != nil {
				t.Fatalf("the range of %s did not move from %v: %v", sel, unlike, err)
			}
			return [2]string(got)
		}
		// rangeBecomes waits until the range sel's data attributes give
		// is want: the view just shown keeps its last frame's range on
		// screen until the engine answers the frame of the range it was
		// given. It returns the range last seen.
		rangeBecomes := func(sel string, want [2]string) [2]string {
			t.Helper()
			var got []string
			until(pageWait, func() bool {
				var err error
				got, err = chromedp.Run(tab, chromedp.Evaluate[[]string](`(() => {
					const e = document.querySelector(`+strconv.Quote(sel)+`);
					return e && e.dataset.from ? [e.dataset.from, e.dataset.to || ""] : ["", ""];
				})()`))
				must(t, err)
				return [2]string(got) == want
			})
			return [2]string(got)
		}
		// zoom turns the wheel over the middle of the canvas's plot by
		// notches, one at a time, each seen to move the range of rangeSel
		// (the views apply a wheel turn after the event) from the last.
		zoom := func(canvasSel, rangeSel string, notches int, dy float64) [2]string {
			r := rangeOf(rangeSel, [2]string{})
			for range notches {
				must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
					const c = document.querySelector(`+strconv.Quote(canvasSel)+`);
					const r = c.getBoundingClientRect();
					const x = r.left + Number(c.dataset.plotX) + Number(c.dataset.plotW) / 2;
					c.dispatchEvent(new WheelEvent("wheel", {deltaY: `+strconv.FormatFloat(dy, 'f', 0, 64)+`, clientX: x, clientY: r.top + 60, bubbles: true, cancelable: true}));
				})()`)))
				r = rangeOf(rangeSel, r)
			}
			return r
		}
		// Zoomed in on the fleet, then to the timeline: it shows the same
		// stretch of time.
		fleet := zoom("#fleet canvas", "#fleet canvas", 4, -240)
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#show-timeline"))))
		waitText(t, tab, "#timeline-summary")
		if got := rangeBecomes("#timeline-summary", fleet); got != fleet {
			t.Errorf("the fleet showed %v, the timeline then %v", fleet, got)
		}
		// Zoomed out on the timeline, then back to the fleet once the
		// page has the range: it writes it into the address bar.
		tl := zoom("#timeline canvas", "#timeline-summary", 1, 240)
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`(() => {
			const q = new URLSearchParams(location.search), d = document.querySelector("#timeline-summary").dataset;
			return d.whole === "true" ? !q.has("from") : q.get("from") === d.from && q.get("to") === d.to;
		})()`, chromedp.WithPollingTimeout(pageWait))); err != nil {
			t.Fatalf("the timeline's range %v never reached the address bar: %v", tl, err)
		}
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#show-fleet"))))
		waitText(t, tab, "#fleet-summary dd")
		if got := rangeBecomes("#fleet canvas", tl); got != tl {
			t.Errorf("the timeline showed %v, the fleet then %v", tl, got)
		}
	})
	t.Run("clicking a row opens that client's timeline", func(t *testing.T) {
		t.Parallel()
		tab := openFleet(t, s, files)
		const r = 2
		c := fl.Clients[r]
		x, y := fleetPoint(t, tab, 300, l.RowsY+(r+0.5)*l.RowH)
		clickAt(t, tab, x, y, 0)
		checkOpened(t, tab, c.File, filepath.Base(files[c.File]))
		// The URL follows, so that a link copied now opens the client
		// pinned and unfolded.
		pin := strconv.Itoa(c.File)
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`(() => {
			const q = new URLSearchParams(location.search), fold = q.get("fold") || "";
			const folded = fold.split(",").some(r => { const [a, b = a] = r.split("-").map(Number); return a <= `+pin+` && `+pin+` <= b; });
			return q.get("pin") === `+strconv.Quote(pin)+` && fold !== "" && !folded;
		})()`, chromedp.WithPollingTimeout(pageWait))); err != nil {
			u, _ := chromedp.Run(tab, chromedp.Evaluate[string](`location.search`))
			t.Errorf("after clicking %s the URL is %s: it does not pin file %s, unfolded", c.Name, u, pin)
		}
		screenshot(t, tab, "fleet-opened")
	})
	t.Run("a client found by name opens as its row does", func(t *testing.T) {
		t.Parallel()
		tab := openFleet(t, s, files)
		c := fl.Clients[5]
		file := filepath.Base(files[c.File])
		must(t, chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#find"), strings.TrimSuffix(file, ".ts.http"))))
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`(() => { const b = document.querySelector("#find-results button"); return !!b && b.dataset.kind === "client"; })()`,
			chromedp.WithPollingTimeout(pageWait))); err != nil {
			list, _ := chromedp.Run(tab, chromedp.Evaluate[string](`(document.querySelector("#find-results") || {}).textContent || "no results"`))
			t.Fatalf("typing %s finds no client: %s", file, list)
		}
		must(t, chromedp.Do(tab, chromedp.KeyEvent("\r")))
		checkOpened(t, tab, c.File, file)
	})
}

// checkOpened checks that the timeline shows the client of file first,
// its group of tracks unfolded: its name band, then its sessions, above
// the other files' and the servers' tracks.
func checkOpened(t *testing.T, tab context.Context, file int, name string) {
	t.Helper()
	waitText(t, tab, "#timeline-summary")
	var bands []canvas.Band
	until(pageWait, func() bool {
		ds, err := chromedp.Run(tab, chromedp.Evaluate[string](`(() => { const c = document.querySelector("#timeline canvas"); return c ? c.dataset.bands || "" : ""; })()`))
		must(t, err)
		bands = nil
		if ds != "" {
			must(t, json.Unmarshal([]byte(ds), &bands))
		}
		return len(bands) > 3 && bands[2].File == file
	})
	if len(bands) < 4 || bands[2].Label != name || bands[2].File != file || bands[3].File != file || bands[3].ID != canvas.BandSessions {
		t.Errorf("with %s (file %d) opened the timeline's first bands are\n%+v", name, file, bands[:min(len(bands), 6)])
	}
}

// clickDrag drags the mouse from x0 to x1 at height y with the modifiers
// held, as a user does.
func clickDrag(t testing.TB, tab context.Context, x0, x1, y float64, mods int64) {
	t.Helper()
	ev := func(typ input.DispatchMouseEventType, x float64, b input.MouseButton, buttons int64) {
		p := input.DispatchMouseEventParams{Type: typ, X: x, Y: y, Button: b, Buttons: buttons, Modifiers: mods, ClickCount: 1}
		_, err := chromedp.Call(tab, input.DispatchMouseEvent, p)
		must(t, err)
	}
	ev(input.DispatchMouseEventTypeMouseMoved, x0, input.MouseButtonNone, 0)
	ev(input.DispatchMouseEventTypeMousePressed, x0, input.MouseButtonLeft, 1)
	for i := 1; i <= 6; i++ {
		ev(input.DispatchMouseEventTypeMouseMoved, x0+(x1-x0)*float64(i)/6, input.MouseButtonLeft, 1)
	}
	ev(input.DispatchMouseEventTypeMouseReleased, x1, input.MouseButtonLeft, 0)
}

// millionSharded is the broad capture of 1 M events in 10 000 shards
// that the fleet's tests split: written once, for a few seconds, and
// only read after that.
var millionSharded struct {
	once sync.Once
	dir  string // removed by TestMain
	err  error
}

// shardedMillion returns the path of millionSharded's capture, writing
// it on the first call.
func shardedMillion(t testing.TB) string {
	t.Helper()
	millionSharded.once.Do(func() {
		if millionSharded.dir, millionSharded.err = os.MkdirTemp("", "watchlens-e2e-sharded-"); millionSharded.err != nil {
			return
		}
		// Left set if writing stops the first test.
		millionSharded.err = errors.New("the first test to write the capture of 1 M events failed")
		writeShardedCapture(t, filepath.Join(millionSharded.dir, "sharded-1M.log"), 1_000_000, 10_000)
		millionSharded.err = nil
	})
	must(t, millionSharded.err)
	return filepath.Join(millionSharded.dir, "sharded-1M.log")
}

// TestBrowserSplitCancelledByANewOpen: while the page splits a broad
// capture into virtual clients, the user opens another file: the split
// gives up, the new file shows, and the split's clients never replace it.
func TestBrowserSplitCancelledByANewOpen(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	big := shardedMillion(t)
	// Reading a million events before the split begins takes minutes at a
	// load average of 20: more than a tab's tabLimit.
	tab := newTabWithin(t, s.browser, 5*time.Minute)
	navigate(t, tab, s.url+"/?split=label%3Dshard&sample=client-go-golden-watch.http")
	waitText(t, tab, "#timeline-summary")
	must(t, chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.CSS("#file-input"), []string{big})))
	// The split's progress, or the read's end if the split went by first.
	_, err := chromedp.Run(tab, chromedp.Poll[bool](`/Splitting .?sharded-1M\.log.? into virtual clients: \d+ of 10000 made/.test(document.querySelector("#progress label")?.textContent ?? "") ||
		(window.watchlensReads ?? []).some(r => r.name === "sharded-1M.log")`,
		chromedp.WithPollingTimeout(4*time.Minute), chromedp.WithPollingMutation()))
	must(t, err)
	const name = "w3-then-resume.ts.http"
	upload(t, tab, "samples/"+name)
	checkShown(t, tab, name, "samples/"+name)
	// On a quiet machine the split can end before the new file is
	// chosen: then only the end state below is tested.
	if end := readEnd(t, tab, "sharded-1M.log"); end != "superseded" {
		t.Logf("the split ended %s before the new file was opened", end)
	}
	got, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`[document.querySelector("#timeline-summary")?.dataset.files ?? "", String(!!document.querySelector("#show-fleet")), String(!!document.querySelector("#progress"))]`))
	must(t, err)
	if got[0] != name || got[1] != "false" || got[2] != "false" {
		t.Errorf("after opening %s during the split the timeline shows %q, a fleet: %s, a progress bar: %s", name, got[0], got[1], got[2])
	}
	screenshot(t, tab, "split-cancelled")
}

// TestBrowserFleetOf10000Clients: a broad capture of 1 M events split
// into 10 000 virtual clients opens on the fleet; a row opens the
// timeline, which draws the groups of tracks of the first files and says
// so; the Files panel lists the first files, counts the rest and finds
// one by name.
func TestBrowserFleetOf10000Clients(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	big := shardedMillion(t)
	tab := newTabWithin(t, s.browser, 5*time.Minute)
	navigate(t, tab, s.url+"/?split=label%3Dshard&sample=client-go-golden-watch.http")
	waitText(t, tab, "#timeline-summary")
	must(t, chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.CSS("#file-input"), []string{big})))
	_, err := chromedp.Run(tab, chromedp.Poll[bool](`!!document.querySelector("#fleet canvas")`, chromedp.WithPollingTimeout(4*time.Minute)))
	must(t, err)
	if got := waitText(t, tab, "#fleet-summary dd"); got != "10001" {
		t.Fatalf("the fleet has %s clients, want 10001", got)
	}
	l := readFleetLayout(t, tab)
	x, y := fleetPoint(t, tab, 300, l.RowsY+2.5*l.RowH)
	clickAt(t, tab, x, y, 0)
	note := waitText(t, tab, "#files-not-drawn")
	if !strings.Contains(note, "first 64 of the 10001 files") {
		t.Errorf("the timeline's note reads %q", note)
	}
	// 64 groups folded to their names, not 10 000 stacked.
	height, err := chromedp.Run(tab, chromedp.Evaluate[float64](`document.querySelector("#timeline canvas").getBoundingClientRect().height`))
	must(t, err)
	if height > 4000 {
		t.Errorf("the timeline's canvas is %v px high", height)
	}
	// The screenshot waits for the timeline's first frame: the canvas is
	// blank until the engine has drawn it.
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`(() => { const c = document.querySelector("#timeline canvas"); return !!c && Number(c.dataset.plotW) > 0; })()`, chromedp.WithPollingTimeout(pageWait))); err != nil {
		t.Errorf("the timeline of the client clicked was not drawn: %v", err)
	}
	shotTimeline(t, tab, "fleet-10000-timeline")

	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#tab-files"))))
	if got := waitText(t, tab, "#files-more"); got != "9951 more not listed here" {
		t.Errorf("under the files listed the panel reads %q", got)
	}
	sections, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll("#dock-files section.result").length`))
	must(t, err)
	if sections != 50 {
		t.Errorf("the Files panel lists %d files, want 50", sections)
	}
	must(t, chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#files-find"), "S9999")))
	_, err = chromedp.Run(tab, chromedp.Poll[bool](`(() => {
		const s = [...document.querySelectorAll("#dock-files section.result")];
		return s.length === 1 && s[0].dataset.file === "sharded-1M.log [shard=s9999]" && !document.querySelector("#files-more");
	})()`, chromedp.WithPollingTimeout(pageWait)))
	if err != nil {
		names, _ := chromedp.Run(tab, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#dock-files section.result")].slice(0, 5).map(s => s.dataset.file)`))
		t.Errorf("finding S9999 lists %v", names)
	}
	// A virtual client's bytes are its capture's: it says so, not "0 B".
	if meta := waitText(t, tab, "#dock-files section.result .meta"); !strings.Contains(meta, "60 events in 1 session, split from sharded-1M.log") || strings.Contains(meta, "0 B") {
		t.Errorf("the client found says %q", meta)
	}
	screenshot(t, tab, "fleet-10000-files")
}

// TestBrowserFleetOfAuditLogsAlone: samples-outage's audit logs alone
// cannot always tell its 20 informers with client-go's default
// User-Agent from their pair (timeline.File.MayMix). The fleet's summary
// counts the rows it marks, in words, and says what tells them apart;
// and the gutter, too narrow for their names, which differ only at their
// end, draws each by the words that tell it apart ("⚠ …shard=s31,
// informer 1"), not as the start they share ("⚠ fleet/v0.0.0
// (linux/amd6…").
func TestBrowserFleetOfAuditLogsAlone(t *testing.T) {
	t.Parallel()
	outage := testsample.Recording(t, "samples-outage")
	audits, err := filepath.Glob(filepath.Join(outage, "audit-*.log"))
	must(t, err)
	s := startSite(t)
	tab := s.openSample(t, "w3-then-resume.ts.http")
	recordFleetTexts(t, tab)
	drop(t, tab, audits...)
	got := waitTextWithin(t, tab, "#fleet-may-mix", loadWait(tab))
	if !strings.HasPrefix(got, "20: ") || !strings.Contains(got, "the audit log alone cannot tell each from another informer") || !strings.Contains(got, "The clients' own logs") {
		t.Errorf("the fleet's summary says %q of the rows that may mix, want the 20 of samples-outage's audit logs, why, and what tells them apart", got)
	}
	// The load balancer's outage shows in the audit logs as a silence:
	// the verdict tells it, the fleet marks it, and pointing into it says
	// what the logs show.
	_, a := nativeFleet(t, audits)
	os := a.TL.Outages()
	if len(os) != 1 || !os[0].Silent {
		t.Fatalf("the model finds outages %+v, want the load balancer's one as a silence", os)
	}
	first := waitTextWithin(t, tab, "#verdict p", loadWait(tab))
	if !strings.Contains(first, "the audit logs show no request of 99 clients") {
		t.Errorf("the verdict's first line %q does not tell the silence", first)
	}
	outages, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("#fleet-summary").dataset.outages`))
	must(t, err)
	l := readFleetLayout(t, tab)
	tip := fleetTip(t, tab, l.x((os[0].From+os[0].To)/2), l.CurvesY+10, "No server reached")
	if outages != "1" || !strings.Contains(tip, "the audit logs show no request of 99 clients") || !strings.Contains(tip, "API servers a, b and c were up meanwhile") {
		t.Errorf("the fleet counts %q outages; pointing into the silence says %q", outages, tip)
	}
	screenshot(t, tab, "fleet-audit-logs-silence")
	// checkMarked waits for a frame that draws rows the audit log may mix
	// as the width draws them (drawnAs), scrolling the rows with the
	// wheel over their names, as a user does, while none is in view;
	// then checks that no two of them read the same.
	checkMarked := func(width, drawnAs string) {
		t.Helper()
		poll := `(() => {
			const m = window.fleetTexts.filter((s) => s.startsWith("⚠ "));
			return m.length && m.every((s) => /` + drawnAs + `/.test(s)) ? m : null;
		})()`
		marked, err := chromedp.Run(tab, chromedp.Poll[[]string](poll, chromedp.WithPollingTimeout(5*time.Second)))
		for turn := 0; err != nil && turn < 40; turn++ {
			r, rerr := chromedp.Run(tab, chromedp.Evaluate[map[string]float64](`(() => {
				const r = document.querySelector("#fleet canvas").getBoundingClientRect();
				return {x: r.left + 40, y: r.top + r.height * 0.8};
			})()`))
			must(t, rerr)
			_, err = chromedp.Call(tab, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseWheel,
				X: r["x"], Y: r["y"], DeltaX: 0.001, DeltaY: 120})
			must(t, err)
			marked, err = chromedp.Run(tab, chromedp.Poll[[]string](poll, chromedp.WithPollingTimeout(2*time.Second)))
		}
		if err != nil {
			last, _ := chromedp.Run(tab, chromedp.Evaluate[[]string](`window.fleetTexts.filter((s) => s.startsWith("⚠ "))`))
			t.Fatalf("%s: no frame draws the rows the audit log may mix as /%s/ (the last: %q)", width, drawnAs, last)
		}
		seen := map[string]bool{}
		for _, s := range marked {
			if seen[s] {
				t.Errorf("%s: the gutter draws two clients the audit log may mix as %q (all: %q)", width, s, marked)
			}
			seen[s] = true
		}
		screenshot(t, tab, "fleet-audit-logs-alone-"+width)
	}
	checkMarked("desktop", `^⚠ …shard=s\d+, informer [12]$`)
	// A phone's gutter is too narrow even for "⚠ …shard=s31, informer 1":
	// the browser cuts it after its ellipsis, and its end still tells the
	// rows apart.
	must(t, chromedp.Do(tab, chromedp.EmulateViewport(390, 844)))
	checkMarked("phone", `^⚠ …(?!shard=).*\d+, informer [12]$`)
}

// TestBrowserFleetOfAnOutage: samples-outage's captures and its API
// servers' own logs, dropped together, open on the fleet. The verdict
// says the servers were up while no client reached them and tells no
// restart; the fleet marks the outage, named over its curves ("no server
// reached"), and pointing into it says what the records make of it.
func TestBrowserFleetOfAnOutage(t *testing.T) {
	t.Parallel()
	outage := testsample.Recording(t, "samples-outage")
	var files []string
	for _, pattern := range []string{"*.ts.http", "apiserver-*.log"} {
		fs, err := filepath.Glob(filepath.Join(outage, pattern))
		must(t, err)
		files = append(files, fs...)
	}
	s := startSite(t)
	tab := s.openSample(t, "w3-then-resume.ts.http")
	drop(t, tab, files...)
	_, err := chromedp.Run(tab, chromedp.Poll[bool](`!!document.querySelector("#fleet canvas")?.dataset.plotX`, chromedp.WithPollingTimeout(loadWait(tab))))
	must(t, err)
	lines, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#verdict p")].map(p => p.dataset.topic + ": " + p.textContent)`))
	must(t, err)
	told := false
	for _, l := range lines {
		told = told || strings.Contains(l, "API servers a, b and c were up meanwhile") && strings.Contains(l, "the clients' way to them was cut")
		if strings.HasPrefix(l, "restart: ") {
			t.Errorf("the verdict tells a restart: %q", l)
		}
	}
	if !told {
		t.Errorf("the verdict does not say the servers were up: %q", lines)
	}
	_, a := nativeFleet(t, files)
	os := a.TL.Outages()
	if len(os) != 1 {
		t.Fatalf("the model finds outages %+v, want the load balancer's one", os)
	}
	got, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`[document.querySelector("#fleet-summary").dataset.outages, document.querySelector("#fleet .tl-legend").textContent]`))
	must(t, err)
	if got[0] != "1" || !strings.Contains(got[1], "no server reached") {
		t.Errorf("the fleet's summary counts %q outages, its legend reads %q: want the outage counted and its mark explained", got[0], got[1])
	}
	l := readFleetLayout(t, tab)
	tip := fleetTip(t, tab, l.x((os[0].From+os[0].To)/2), l.CurvesY+10, "No server reached")
	if !strings.Contains(tip, "API servers a, b and c were up meanwhile") || !strings.Contains(tip, "connection refused") || !strings.Contains(tip, "As they came back, 31 more attempts failed") ||
		!strings.Contains(tip, "A reconnect then waits for a server: the counts above are the answers at ") {
		t.Errorf("pointing into the outage says %q", tip)
	}
	screenshot(t, tab, "fleet-outage")
}

// recordFleetTexts keeps in window.fleetTexts the texts of the fleet
// canvas's last frame, as the browser fills them: a frame begins by
// clearing the whole canvas.
func recordFleetTexts(t *testing.T, tab context.Context) {
	t.Helper()
	must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
		window.fleetTexts = [];
		const inFleet = (ctx) => ctx.canvas.closest && ctx.canvas.closest("#fleet");
		const clear = CanvasRenderingContext2D.prototype.clearRect;
		CanvasRenderingContext2D.prototype.clearRect = function (x, y, ...rest) {
			if (x === 0 && y === 0 && inFleet(this)) window.fleetTexts = [];
			return clear.call(this, x, y, ...rest);
		};
		const fill = CanvasRenderingContext2D.prototype.fillText;
		CanvasRenderingContext2D.prototype.fillText = function (s, ...rest) {
			if (inFleet(this)) window.fleetTexts.push(s);
			return fill.call(this, s, ...rest);
		};
	})()`)))
}
