//go:build !wasm

package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"watchlens/app"
	"watchlens/internal/synth"
	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/site"
	"watchlens/timeline"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// The browser tests drive the built static site in a real headless Chromium
// the way a user does: open the page, choose or drop a file, read what the
// page shows, and compare it with what the parser computes natively.

const chromiumPath = "/usr/bin/chromium"

// servedSite is the static site served to one test, at the root and,
// built again for a sub-path, under /watchlens/.
type servedSite struct {
	url     string // root build
	subURL  string // the -base /watchlens build
	browser context.Context
	// root is the folder of the site served at url.
	root string
	// rootFiles serves root; republish swaps it.
	rootFiles *atomic.Pointer[http.Handler]
	// mux serves both sites; a test adds its own handlers to it, on the
	// site's origin.
	mux *http.ServeMux
	// web is the folder of assets, app.wasm included, the root site is
	// built from.
	web string
}

func TestBrowser(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s: install it with `apt-get update && apt-get install -y chromium` (%v)", chromiumPath, err)
	}
	s := startSite(t)
	version, _ := exec.Command(chromiumPath, "--version").Output()
	fmt.Printf("browser: running the UI tests in %s", version)

	// Each of these checks has a tab of its own; they run side by side,
	// then the two below that need the ones before.
	apart := sideBySide(t, "in tabs side by side")
	apart.Run("first visit opens the default sample", func(t *testing.T) {
		tab := s.newTab(t)
		navigate(t, tab, s.url+"/")
		checkShown(t, tab, app.DefaultSample, "samples/"+app.DefaultSample)
		// What a new user should see at once: bookmarks keep one cursor
		// fresh while the other goes stale.
		// A quiet cursor past the 75 s the server is sure to keep is at
		// risk, not refused, for a narrow capture alone: no red zone, and
		// the verdict says so in words.
		if s := summaryOf(t, tab); s["zonesAware"] != "0" {
			t.Errorf("the first view shows red zones with bookmarks: %s", s["zonesAware"])
		}
		if v := waitText(t, tab, `#verdict p[data-topic="bookmarks"]`); !strings.Contains(v, "without them") || !strings.Contains(v, "at risk") {
			t.Errorf("the verdict does not say the cursor without bookmarks was at risk: %q", v)
		}
		noSidewaysScroll(t, tab)
		// The page then warms its parser up on two other samples in the
		// background; what it shows must not change.
		waitWarm(t, tab)
		checkShown(t, tab, app.DefaultSample, "samples/"+app.DefaultSample)
		screenshot(t, tab, "first-visit")
	})
	apart.Run("the first paint of a capture shows its timeline drawn", func(t *testing.T) {
		// Watched from before the page's own scripts run: the first frame
		// painted with the capture's section must come after its canvas was
		// drawn, not with an empty canvas and the drawing a frame later.
		tab := s.newTab(t)
		_, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
			const shown = () => document.querySelector("#results");
			let drawn = false, draw;
			Object.defineProperty(window, "watchlensDraw", {
				configurable: true,
				get: () => draw && function () { drawn = drawn || !!shown(); return draw.apply(this, arguments); },
				set: (fn) => { draw = fn; },
			});
			new MutationObserver((_, obs) => {
				if (!shown()) return;
				obs.disconnect();
				requestAnimationFrame(() => { window.firstPaint = drawn ? "drawn" : "empty canvas"; });
			}).observe(document, {subtree: true, childList: true});
		})()`})
		must(t, err)
		navigate(t, tab, s.url+"/?sample=w3-then-resume.ts.http")
		got, err := chromedp.Run(tab, chromedp.Poll[string](`window.firstPaint`, chromedp.WithPollingTimeout(pageWait)))
		must(t, err)
		if got != "drawn" {
			t.Errorf("the first frame showing the capture had an %s", got)
		}
	})
	apart.Run("the keyboard reaches every control, with a visible focus", func(t *testing.T) { testKeyboard(t, s) })
	apart.Run("large screens", func(t *testing.T) { testLargeScreens(t, s) })
	apart.Run("choose file", func(t *testing.T) {
		tab := s.openSample(t, "client-go-golden-watch.http")
		// The user opens the settings, then another capture of the same
		// server: what they opened stays open.
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#tab-settings"))))
		// The user sees them open before choosing the file; the page
		// renders the click a moment after it, and checkShown's visit
		// to the Files tab goes back to the tab open when it starts.
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`!!document.querySelector("#settings")?.checkVisibility()`,
			chromedp.WithPollingTimeout(pageWait))); err != nil {
			t.Fatalf("the settings did not open: %v", err)
		}
		upload(t, tab, "samples/w4-then-resume.http")
		checkShown(t, tab, "w4-then-resume.http", "samples/w4-then-resume.http")
		if open, err := chromedp.Run(tab, chromedp.Evaluate[bool](`!!document.querySelector("#settings")?.checkVisibility()`)); err != nil || !open {
			t.Errorf("the settings closed when another capture was opened (err %v)", err)
		}
		screenshot(t, tab, "choose-file")
	})
	apart.Run("drop file", func(t *testing.T) {
		tab := s.openSample(t, "client-go-golden-watch.http")
		drop(t, tab, "samples/w2-broad-pods-bookmarks.http.gz")
		checkShown(t, tab, "w2-broad-pods-bookmarks.http.gz", "samples/w2-broad-pods-bookmarks.http.gz")
		screenshot(t, tab, "drop-gzip")
	})
	apart.Run("sample menu", func(t *testing.T) {
		tab := s.openSample(t, "client-go-golden-watch.http")
		must(t, chromedp.Do(tab, chromedp.SetValue(chromedp.CSS("#sample-menu"), "w3-then-resume.http"),
			chromedp.Evaluate[chromedp.Void](`document.querySelector("#sample-menu").dispatchEvent(new Event("change", {bubbles: true}))`)))
		checkShown(t, tab, "w3-then-resume.http", "samples/w3-then-resume.http")
	})
	apart.Run("not JSON at all", func(t *testing.T) {
		garbage := filepath.Join(t.TempDir(), "garbage.bin")
		b := []byte("this is not a watch capture\n\x00\x01\x02 \xff\xfe binary junk\n<html>nope</html>\n")
		must(t, os.WriteFile(garbage, b, 0o644))
		tab := s.openSample(t, "client-go-golden-watch.http")
		upload(t, tab, garbage)
		msg := filesText(t, tab, `section.result[data-file="garbage.bin"] #no-events`)
		for _, want := range []string{"No watch events were found in garbage.bin", "offset 0"} {
			if !strings.Contains(msg, want) {
				t.Errorf("message %q does not say %q", msg, want)
			}
		}
		screenshot(t, tab, "garbage")
	})
	apart.Run("an empty file", func(t *testing.T) {
		empty := filepath.Join(t.TempDir(), "empty.log")
		must(t, os.WriteFile(empty, nil, 0o644))
		tab := s.openSample(t, "client-go-golden-watch.http")
		upload(t, tab, empty)
		msg := filesText(t, tab, `section.result[data-file="empty.log"] #no-events`)
		if want := "No watch events were found in empty.log. First problem at offset 0: empty: the capture is empty"; !strings.Contains(msg, want) {
			t.Errorf("message %q does not say %q", msg, want)
		}
	})
	apart.Run("truncated gzip", func(t *testing.T) {
		whole := testsample.Read(t, testsample.Sample(t, "w2-broad-pods-bookmarks.http.gz"))
		cut := filepath.Join(t.TempDir(), "cut.http.gz")
		must(t, os.WriteFile(cut, whole[:len(whole)/2], 0o644))
		tab := s.openSample(t, "client-go-golden-watch.http")
		upload(t, tab, cut)
		checkShown(t, tab, "cut.http.gz", cut)
		for _, sel := range []string{"#input-problems", `section.result[data-file="cut.http.gz"] .diagnostics`} {
			if problems := filesText(t, tab, sel); !strings.Contains(problems, "gzip stream is cut short") {
				t.Errorf("%s does not say the gzip stream was cut:\n%s", sel, problems)
			}
		}
		screenshot(t, tab, "truncated-gzip")
	})
	apart.Run("too big for the browser", func(t *testing.T) {
		// A sparse file: the page must refuse it by its size, before
		// reading a byte.
		huge := filepath.Join(t.TempDir(), "huge.log")
		f, err := os.Create(huge)
		must(t, err)
		must(t, f.Truncate(5<<30))
		must(t, f.Close())
		tab := s.openSample(t, "client-go-golden-watch.http")
		upload(t, tab, huge)
		msg := waitText(t, tab, "#problem")
		for _, want := range []string{"Too big for the browser: huge.log (5.0 GiB)", "watchlens analyze"} {
			if !strings.Contains(msg, want) {
				t.Errorf("message %q does not say %q", msg, want)
			}
		}
	})
	for _, sample := range []string{"w1-broad-configmaps-bookmarks.http", "w2-broad-pods-bookmarks.http.gz"} {
		apart.Run("detail pane from a link to "+sample, func(t *testing.T) {
			i, rv, prevRV := modifiedWithPrevious(t, "samples/"+sample)
			tab := s.newTab(t)
			navigate(t, tab, fmt.Sprintf("%s/?sample=%s&sel=%d", s.url, sample, i))
			js := waitText(t, tab, "#detail-json")
			if !strings.Contains(js, fmt.Sprintf(`"resourceVersion": %q`, rv)) {
				t.Errorf("the detail pane of event %d does not show its resourceVersion %s:\n%.600s", i, rv, js)
			}
			change := waitText(t, tab, `#detail-diff tr[data-path="object.metadata.resourceVersion"]`)
			if !strings.Contains(change, `"`+prevRV+`"`) || !strings.Contains(change, `"`+rv+`"`) {
				t.Errorf("the diff row %q does not show %s -> %s", change, prevRV, rv)
			}
			noSidewaysScroll(t, tab)
			screenshot(t, tab, "detail-"+sample)
		})
	}
	apart.Run("a large file shows its progress at once, and the shown capture stays put until it is read", func(t *testing.T) {
		// Large enough that reading it takes several progress reports
		// (progressEvery) on any machine.
		const name = "pods-300MB.jsonl"
		big := filepath.Join(t.TempDir(), name)
		must(t, os.WriteFile(big, synth.Capture(300<<20), 0o644))
		tab := s.openSample(t, "w4-then-resume.ts.http")
		must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
			const seen = window.seen = {progress: [], remounted: false, draws: 0, drawsWhileLoading: 0};
			const results = document.querySelector("#results");
			new MutationObserver(() => {
				const p = document.querySelector("#progress");
				if (!p) return;
				if (seen.progress.at(-1) !== p.textContent) seen.progress.push(p.textContent);
				seen.remounted ||= document.querySelector("#results") !== results;
				seen.drawsWhileLoading = seen.draws;
			}).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
			const draw = window.watchlensDraw;
			// The page's warm-up draws on canvases it never shows.
			window.watchlensDraw = function (...args) { if (args[0].isConnected) seen.draws++; return draw.apply(this, args); };
		})()`)))
		upload(t, tab, big)
		waitFileOpen(t, tab, name)
		// The new timeline is drawn once the page around it is shown.
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`window.seen.draws > 0`, chromedp.WithPollingTimeout(pageWait))); err != nil {
			t.Errorf("the new capture's timeline was not drawn: %v", err)
		}
		var seen struct {
			Progress          []string
			Remounted         bool
			DrawsWhileLoading int
		}
		got, err := chromedp.Run(tab, chromedp.Evaluate[string](`JSON.stringify(window.seen)`))
		must(t, err)
		must(t, json.Unmarshal([]byte(got), &seen))
		line := regexp.MustCompile(`^Reading ` + regexp.QuoteMeta(name) + `: (\S+ \S+) of 300\.0 MiB, (\d+) events$`)
		// Then, read whole, it is built into a timeline and analysed.
		building := regexp.MustCompile(`^Building the timeline of (\d+) events read from ` + regexp.QuoteMeta(name) + `$`)
		if n := len(seen.Progress); n == 0 || !building.MatchString(seen.Progress[n-1]) {
			t.Errorf("the progress bar did not end on the timeline's building: %q", seen.Progress)
		} else {
			seen.Progress = seen.Progress[:n-1]
		}
		partial := false
		for _, p := range seen.Progress {
			m := line.FindStringSubmatch(p)
			if m == nil {
				t.Errorf("the progress bar reads %q", p)
				continue
			}
			partial = partial || m[1] != "300.0 MiB" && m[2] != "0"
		}
		if !partial {
			t.Errorf("the progress bar never showed part of the file read with its events: %q", seen.Progress)
		}
		if len(seen.Progress) > 0 && !strings.HasPrefix(seen.Progress[0], "Reading "+name+": 0 B of ") {
			t.Errorf("the progress bar first read %q, not that reading had begun", seen.Progress[0])
		}
		// go-app matches children by position: the progress bar must not
		// shift the results shown and remount them, nor redraw a timeline
		// that did not change.
		if seen.Remounted {
			t.Error("the results shown were mounted afresh while the file was read")
		}
		if seen.DrawsWhileLoading != 0 {
			t.Errorf("the shown timeline was drawn %d times while the file was read", seen.DrawsWhileLoading)
		}
		if n, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll("#progress").length`)); err != nil || n != 0 {
			t.Errorf("the progress bar is still there (%d, %v)", n, err)
		}
	})
	apart.Run("a capture opened while another is read is the one shown", func(t *testing.T) {
		const name = "pods-400MB.jsonl"
		big := filepath.Join(t.TempDir(), name)
		// A capture four times over: a read of 100 MB can end
		// within the test's own round trips between seeing the progress
		// and picking the sample.
		pods := synth.Capture(100 << 20)
		must(t, os.WriteFile(big, bytes.Repeat(pods, 4), 0o644))
		tab := s.openSample(t, "w4-then-resume.ts.http")
		upload(t, tab, big)
		// The big file is being read when the user picks a sample.
		waitText(t, tab, "#progress")
		must(t, chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
			const seen = window.seen = {after: []};
			new MutationObserver(() => {
				if (!(`+fileOpen("w3-then-resume.http")+`)) return;
				const p = document.querySelector("#progress");
				if (p && seen.after.at(-1) !== p.textContent) seen.after.push(p.textContent);
				if (`+fileOpen("pods-400MB.jsonl")+`) seen.after.push("shown: pods-400MB.jsonl");
			}).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
			const menu = document.querySelector("#sample-menu");
			menu.value = "w3-then-resume.http";
			menu.dispatchEvent(new Event("change", {bubbles: true}));
		})()`)))
		checkShown(t, tab, "w3-then-resume.http", "samples/w3-then-resume.http")
		// The big read gives up; had it gone on, its progress or its
		// capture would have come back before it ended.
		waitRead(t, tab, "pods-400MB.jsonl", "superseded")
		after, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`window.seen.after`))
		must(t, err)
		if len(after) > 0 {
			t.Errorf("after the sample was shown, the page went on with the file opened before it: %q", after)
		}
		checkShown(t, tab, "w3-then-resume.http", "samples/w3-then-resume.http")
	})
	apart.Run("several files share one clock", func(t *testing.T) {
		tab := s.openSample(t, "client-go-golden-watch.http")
		drop(t, tab, "samples/w3-narrow-label-bookmarks.ts.http", "samples/w1-broad-configmaps-bookmarks.ts.http")
		checkShown(t, tab, "w3-narrow-label-bookmarks.ts.http", "samples/w3-narrow-label-bookmarks.ts.http")
		checkShown(t, tab, "w1-broad-configmaps-bookmarks.ts.http", "samples/w1-broad-configmaps-bookmarks.ts.http")
		screenshot(t, tab, "two-files")
	})
	apart.Run("open a capture by URL", func(t *testing.T) {
		tab := s.newTab(t)
		navigate(t, tab, s.url+"/?url="+s.url+"/web/samples/w4-then-resume.http")
		checkShown(t, tab, "w4-then-resume.http", "samples/w4-then-resume.http")
	})
	apart.Run("exports: Markdown equals watchlens analyze, PNG, JSON", func(t *testing.T) {
		const sample = "w4-then-resume.ts.http"
		downloads := t.TempDir()
		tab := s.openSample(t, sample)
		allowDownloads(t, tab, downloads)
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#exports summary")), chromedp.Click(chromedp.CSS("#export-md"))))
		got := waitForFile(t, filepath.Join(downloads, "watchlens-report.md"))

		must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#export-png"))))
		picture := waitForFile(t, filepath.Join(downloads, "watchlens-timeline.png"))
		if !strings.HasPrefix(picture, "\x89PNG") || len(picture) < 2000 {
			t.Errorf("the timeline export is not a PNG of a drawing (%d bytes)", len(picture))
		} else if img, err := png.DecodeConfig(strings.NewReader(picture)); err != nil {
			t.Errorf("the timeline export does not decode: %v", err)
		} else {
			// The picture is the timeline drawn again at twice its CSS
			// pixels, under a title, the files, the range and the
			// verdict, with the legend below; its 410 zones come out red
			// or pale red (browser_fit_test.go checks the verdict it
			// carries).
			shown, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](`(() => { const c = document.querySelector("#timeline-panel canvas"); return [c.clientWidth, c.clientHeight, Number(c.dataset.pngTop)]; })()`))
			must(t, err)
			if float64(img.Width) != 2*shown[0] || float64(img.Height) < 2*shown[1]+shown[2]+20 || shown[2] < 40 {
				t.Errorf("the timeline export is %dx%d, the page shows %vx%v CSS px under %v px of title", img.Width, img.Height, shown[0], shown[1], shown[2])
			} else {
				whole, err := png.Decode(strings.NewReader(picture))
				must(t, err)
				red := 0
				for y := int(shown[2]); y < int(shown[2]+2*shown[1]); y += 3 {
					for x := 0; x < img.Width; x += 3 {
						if c := color.NRGBAModel.Convert(whole.At(x, y)).(color.NRGBA); int(c.R) > int(c.G)+30 && int(c.R) > int(c.B)+25 {
							red++
						}
					}
				}
				if red < 100 {
					t.Errorf("the PNG's timeline shows %d red points: no 410 zone", red)
				}
			}
		}
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#export-json"))))
		var rep struct {
			Zones []struct{} `json:"zones"`
		}
		must(t, json.Unmarshal([]byte(waitForFile(t, filepath.Join(downloads, "watchlens-report.json"))), &rep))
		if len(rep.Zones) == 0 {
			t.Error("the JSON export of w4-then-resume lists no red zone")
		}

		// analyze names a file as it is given: run it where the sample's
		// name alone finds it, as the page names it.
		want := runWatchlens(t, "samples", "analyze", "--format", "markdown", sample)
		if got != want {
			t.Errorf("the page's Markdown export differs from watchlens analyze --format markdown:\n--- page\n%s\n--- analyze\n%s", got, want)
		}
	})
	apart.Run("zoom and filter, then the copied link reopens the same view", func(t *testing.T) {
		const sample = "w1-broad-configmaps-bookmarks.ts.http"
		tab := s.openSample(t, sample)
		whole := summaryOf(t, tab)

		// Zoom in with the wheel over the middle of the canvas.
		must(t, chromedp.Do(tab, chromedp.ScrollIntoView(chromedp.CSS("#timeline canvas"))))
		box, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector("#timeline .tl-stage").getBoundingClientRect(); return [r.x + r.width * 0.6, r.y + 60]; })()`))
		must(t, err)
		for range 3 {
			_, err := chromedp.Call(tab, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseWheel, X: box[0], Y: box[1], DeltaX: 0.01, DeltaY: -300}) // DeltaX 0 would be omitted, and Chrome wants both
			must(t, err)
		}
		zoomed := waitSummary(t, tab, func(s map[string]string) bool { return s["whole"] == "false" && s["from"] != whole["from"] })

		// Filter by name and to MODIFIED only, from the filter bar.
		must(t, chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#search"), "cm-00")))
		for _, typ := range []string{"added", "deleted", "observed", "bookmark", "error"} {
			must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#filter-"+typ))))
		}
		filtered := waitSummary(t, tab, func(s map[string]string) bool { return s["lanes"] != zoomed["lanes"] && s["bookmarks"] == "0" })

		link, err := chromedp.Run(tab, chromedp.Evaluate[string](`location.href`))
		must(t, err)
		for _, want := range []string{"q=cm-00", "types=modified", "from=", "to="} {
			if !strings.Contains(link, want) {
				t.Errorf("the link %s does not carry %s", link, want)
			}
		}

		again := s.newTab(t)
		navigate(t, again, link)
		checkShown(t, again, sample, "samples/"+sample)
		reopened := waitSummary(t, again, func(s map[string]string) bool { return s["from"] == filtered["from"] })
		for _, key := range []string{"from", "to", "lanes", "bookmarks", "zonesAware", "zonesIgnoring"} {
			if filtered[key] == "" {
				t.Errorf("the summary has no %s to compare", key)
			}
			if reopened[key] != filtered[key] {
				t.Errorf("reopened link: %s = %q, the view had %q", key, reopened[key], filtered[key])
			}
		}
		if q, _ := chromedp.Run(again, chromedp.Evaluate[string](`document.querySelector("#search").value`)); q != "cm-00" {
			t.Errorf("reopened link: the search box holds %q, want cm-00", q)
		}
		screenshot(t, again, "reopened-link")
	})
	apart.Run("label selector", func(t *testing.T) {
		const sample = "w1-broad-configmaps-bookmarks.ts.http"
		tl, _ := nativeTimeline(t, "samples/"+sample)
		want := 0
		for l := range tl.Lanes.Len() {
			if strings.Contains(","+tl.Lanes.At(l).Labels+",", ",app=quiet,") {
				want++
			}
		}
		if want == 0 || want == tl.Lanes.Len() {
			t.Fatalf("%d of %d lanes carry app=quiet: the filter would prove nothing", want, tl.Lanes.Len())
		}
		tab := s.openSample(t, sample)
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#filter-more summary")), chromedp.SendKeys(chromedp.CSS("#filter-label"), "app=quiet\r")))
		waitSummary(t, tab, func(s map[string]string) bool { return s["lanes"] == strconv.Itoa(want) })
		if link, _ := chromedp.Run(tab, chromedp.Evaluate[string](`location.href`)); !strings.Contains(link, "l=app%3Dquiet") {
			t.Errorf("the link %s does not carry the selector", link)
		}
		screenshot(t, tab, "label-selector")
	})
	apart.Run("only objects active in view", func(t *testing.T) {
		const sample = "w1-broad-configmaps-bookmarks.ts.http"
		tl, _ := nativeTimeline(t, "samples/"+sample)
		// The last quarter of the capture, from a link.
		from := tl.Start() + (tl.End()-tl.Start())*3/4
		to := tl.End() + 1
		active := 0
		for l := range tl.Lanes.Len() {
			for _, e := range tl.LaneEvents(l) {
				if p := tl.Point(int(e)); p.T >= from && p.T < to {
					active++
					break
				}
			}
		}
		tab := s.newTab(t)
		navigate(t, tab, fmt.Sprintf("%s/?sample=%s&from=%d&to=%d", s.url, sample, from, to))
		checkShown(t, tab, sample, "samples/"+sample)
		all := waitSummary(t, tab, func(s map[string]string) bool { return s["whole"] == "false" })
		must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#filter-more summary")), chromedp.Click(chromedp.CSS("#filter-inview"))))
		got := waitSummary(t, tab, func(s map[string]string) bool { return s["lanes"] != all["lanes"] })
		if got["lanes"] != strconv.Itoa(active) {
			t.Errorf("with only active objects the view shows %s lanes, want the %d with an event in the range (of %s)", got["lanes"], active, all["lanes"])
		}
		screenshot(t, tab, "active-in-view")
	})
	apart.Run("a gzip Content-Encoding capture, detail pane included", func(t *testing.T) {
		capture, first := encodedCapture(t, "samples/w1-broad-configmaps-bookmarks.http")
		tab := s.openSample(t, "client-go-golden-watch.http")
		upload(t, tab, capture)
		// The same events as the plain capture: the counts must match it.
		checkShown(t, tab, filepath.Base(capture), "samples/w1-broad-configmaps-bookmarks.http")
		must(t, chromedp.Do(tab, chromedp.Focus(chromedp.CSS("#timeline canvas")), chromedp.KeyEvent("]")))
		js := waitText(t, tab, "#detail-json")
		if !strings.Contains(js, fmt.Sprintf(`"resourceVersion": %q`, first.RV)) || !strings.Contains(js, first.Name) {
			t.Errorf("the detail pane of the first event does not show %s at RV %s:\n%.400s", first.Name, first.RV, js)
		}
	})
	apart.Run("a gzip file of gzip Content-Encoding responses: the diff of two events of one body", func(t *testing.T) {
		// The file is decoded again to fetch the events: all of a
		// response's events start their spans at the response and end
		// them where their own bytes were decoded. The second response
		// starts past the file's first bytes, which alone decode to the
		// first response.
		capture, _ := encodedCapture(t, "samples/w1-broad-configmaps-bookmarks.http")
		one, err := os.ReadFile(capture)
		must(t, err)
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		for range 2 {
			_, err = zw.Write(one)
			must(t, err)
		}
		must(t, zw.Close())
		s.mux.HandleFunc("/web/encoded.http.gz", func(w http.ResponseWriter, r *http.Request) {
			http.ServeContent(w, r, "encoded.http.gz", time.Time{}, bytes.NewReader(gz.Bytes()))
		})
		local := filepath.Join(t.TempDir(), "encoded.http.gz")
		must(t, os.WriteFile(local, gz.Bytes(), 0o644))
		// An object's two events of the second response, the later one
		// with more of the body decoded.
		tl, _ := nativeTimeline(t, local)
		i, prev := -1, -1
		for l := range tl.Lanes.Len() {
			evs := tl.LaneEvents(l)
			for k := 1; k < len(evs) && i < 0; k++ {
				a, b := tl.Event(int(evs[k-1])), tl.Event(int(evs[k]))
				if b.Type == parser.Modified && a.Encoded && a.Offset == int64(len(one)) && b.Offset == a.Offset && b.Length > a.Length {
					i, prev = int(evs[k]), int(evs[k-1])
				}
			}
		}
		if i < 0 {
			t.Fatal("no object has two events with spans of two lengths in the second response")
		}
		rv, prevRV := tl.Event(i).RV, tl.Event(prev).RV
		tab := s.newTab(t)
		navigate(t, tab, fmt.Sprintf("%s/?url=%s/web/encoded.http.gz&sel=%d", s.url, s.url, i))
		change := waitText(t, tab, `#detail-diff tr[data-path="object.metadata.resourceVersion"]`)
		if !strings.Contains(change, `"`+prevRV+`"`) || !strings.Contains(change, `"`+rv+`"`) {
			t.Errorf("the diff row %q does not show %s -> %s", change, prevRV, rv)
		}
	})
	apart.Run("a bookmark whose last bytes are stamped a minute late is placed at its first", func(t *testing.T) {
		// samples-lab's protobuf client p00: its capture stamps each
		// bookmark frame's last piece with the next frame
		// (timeline.LateStamp).
		const name = "p00-proto-bookmarks.ts.http"
		local := filepath.Join(testsample.Recording(t, "samples-lab"), name)
		s.mux.HandleFunc("/web/"+name, func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, local) })
		tl, _ := nativeTimeline(t, local)
		late := timeline.Event{Index: -1}
		for i := range tl.Len() {
			if e := tl.Event(i); e.StampedLate != 0 && late.Index < 0 {
				late = e
			}
		}
		if late.Index < 0 {
			t.Fatal("p00 holds no bookmark whose last bytes are stamped long after its first")
		}
		tab := s.newTab(t)
		navigate(t, tab, fmt.Sprintf("%s/?url=%s/web/%s&sel=%d", s.url, s.url, name, late.Index))
		want := fmt.Sprintf("(recorded arrival of its first bytes; the capture stamps its last %s later", timeline.FormatDuration(late.StampedLate))
		if got := waitText(t, tab, fmt.Sprintf(`#detail[data-event="%d"] [data-field="time"]`, late.Index)); !strings.Contains(got, want) {
			t.Errorf("the bookmark's time reads %q, want it to say %q", got, want)
		}
		screenshot(t, tab, "late-stamped-bookmark")
	})
	apart.Run("the keyboard steps through the events", func(t *testing.T) {
		tab := s.openSample(t, "w4-then-resume.ts.http")
		selectedType := `(() => { const e = document.querySelector('#detail[data-event] [data-field="type"]'); return e ? e.textContent : ""; })()`
		must(t, chromedp.Do(tab, chromedp.Focus(chromedp.CSS("#timeline canvas"))))
		// w4 holds a MODIFIED, then the ERROR that answered the resume.
		for _, step := range []struct{ key, want string }{{"]", "MODIFIED"}, {"]", "ERROR"}, {"[", "MODIFIED"}} {
			must(t, chromedp.Do(tab, chromedp.KeyEvent(step.key)))
			_, err := chromedp.Run(tab, chromedp.Poll[bool](selectedType+` === `+strconv.Quote(step.want), chromedp.WithPollingTimeout(pageWait)))
			if err != nil {
				got, _ := chromedp.Run(tab, chromedp.Evaluate[string](selectedType))
				t.Fatalf("after %q the detail pane shows %q, want %s", step.key, got, step.want)
			}
		}
	})
	apart.run()
	t.Run("static site under a sub-path", func(t *testing.T) {
		tab := s.newTab(t)
		navigate(t, tab, s.subURL+"/?sample=w4-then-resume.ts.http")
		checkShown(t, tab, "w4-then-resume.ts.http", "samples/w4-then-resume.ts.http")
		if about := waitText(t, tab, "#sample-about"); !strings.Contains(about, "too old resource version: 389 (1411)") {
			t.Errorf("the page does not say what the sample shows: %q", about)
		}
		// The root site's worker controlled the page when it opened (the
		// tests before opened "/"); this site's own then took over, which
		// is no update to offer.
		first, err := chromedp.Run(tab, chromedp.Evaluate[string](`window.watchlensFirstWorker`))
		must(t, err)
		if want := s.url + "/app-worker.js"; first != want {
			t.Fatalf("the page opened under the worker %q, want the root site's %s", first, want)
		}
		_, err = chromedp.Run(tab, chromedp.Poll[bool](`navigator.serviceWorker.controller?.scriptURL === `+strconv.Quote(s.subURL+"/app-worker.js"),
			chromedp.WithPollingTimeout(pageWait)))
		must(t, err)
		if banner, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector(".banner")?.textContent ?? ""`)); err != nil || banner != "" {
			t.Errorf("the page shows %q (%v) once its own worker took over", banner, err)
		}
		screenshot(t, tab, "sub-path")
	})
	// Last: it changes the root site.
	t.Run("a new version offers to reload", func(t *testing.T) {
		tab := s.openSample(t, "w4-then-resume.ts.http")
		own := s.url + "/app-worker.js"
		// The worker takes over once it has cached the site.
		_, err := chromedp.Run(tab, chromedp.Poll[bool](`navigator.serviceWorker.controller?.scriptURL === `+strconv.Quote(own),
			chromedp.WithPollingTimeout(pageWait)))
		must(t, err)
		// The page asks for a new version again 3 s after it opens: had
		// it asked after the new version was published, the new version
		// would control the page opened next, which has nothing to offer.
		navigate(t, tab, "about:blank")
		s.republish(t)
		// The page opens under the version it was published with, and
		// the browser looks for a new one as it opens it; the new one
		// takes over once it has cached the site, which under load
		// takes longer than a page's usual wait.
		navigate(t, tab, s.url+"/?sample=w4-then-resume.ts.http")
		banner, err := chromedp.Run(tab, chromedp.Poll[string](`document.querySelector(".banner")?.textContent`, chromedp.WithPollingTimeout(loadWait(tab))))
		if err != nil {
			reg, _ := chromedp.Run(tab, chromedp.Evaluate[string](`navigator.serviceWorker.getRegistration().then(r => JSON.stringify({active: r?.active?.state, waiting: r?.waiting?.state, installing: r?.installing?.state, takenOver: !!window.watchlensTakenOver, first: window.watchlensFirstWorker}))`, chromedp.EvalAwaitPromise))
			t.Fatalf("no banner offers the new version: %v (service worker: %s)", err, reg)
		}
		if !strings.Contains(banner, "A new version of watchlens is available") {
			t.Errorf("the banner reads %q", banner)
		}
		screenshot(t, tab, "new-version")
	})
}

// startSite serves the static site (builtSite) on a server of the
// test's own, whose mux the test may add handlers to, with a browser
// context of its own in the shared Chromium.
func startSite(t testing.TB) *servedSite {
	t.Helper()
	built := builtSite(t)
	s := &servedSite{root: built.root, web: built.web, mux: http.NewServeMux(), rootFiles: new(atomic.Pointer[http.Handler])}
	s.serveRoot(built.root)
	s.mux.Handle("/watchlens/", http.StripPrefix("/watchlens", http.FileServer(http.Dir(built.sub))))
	s.mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*s.rootFiles.Load()).ServeHTTP(w, r) }))
	srv := httptest.NewServer(s.mux)
	t.Cleanup(srv.Close)
	s.url, s.subURL = srv.URL, srv.URL+"/watchlens"
	s.browser = newBrowserContext(t)
	return s
}

// serveRoot serves the site built in root at the site's root.
func (s *servedSite) serveRoot(root string) {
	files := http.FileServer(http.Dir(root))
	s.root = root
	s.rootFiles.Store(&files)
}

// republish builds the root site again with one asset changed, as a
// deployment of a new version does, and serves it in place of the one
// served; the other tests' sites keep theirs.
func (s *servedSite) republish(t testing.TB) {
	t.Helper()
	s.rebuildRoot(t, func(web string) {
		css, err := os.ReadFile(filepath.Join(web, "app.css"))
		must(t, err)
		must(t, os.WriteFile(filepath.Join(web, "app.css"), append(css, "\n/* republished */\n"...), 0o644))
	})
}

// rebuildRoot builds the root site again from a copy of its assets that
// change has altered, into folders of the test's own, and serves it.
func (s *servedSite) rebuildRoot(t testing.TB, change func(web string)) {
	t.Helper()
	web := t.TempDir()
	copyAssets(t, s.web, web)
	change(web)
	root := t.TempDir()
	_, err := site.Build(root, "/", web, false)
	must(t, err)
	s.web = web
	s.serveRoot(root)
}

// builtSite returns the static site built once for every test from
// this tree's assets and app (builtWasm): at the root and for the
// sub-path /watchlens. The tests serve it as it is; one that changes a
// site builds its own (rebuildRoot).
func builtSite(t testing.TB) *sites {
	t.Helper()
	wasmPath := builtWasm(t)
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "watchlens-e2e-site-"); built.err != nil {
			return
		}
		b := &sites{web: filepath.Join(built.dir, "web"), root: filepath.Join(built.dir, "root"), sub: filepath.Join(built.dir, "sub")}
		built.err = buildSites(b, wasmPath)
		built.sites = b
	})
	must(t, built.err)
	return built.sites
}

// buildSites gathers the assets of web/ and the app at wasmPath into
// b.web and builds the two sites from them.
func buildSites(b *sites, wasmPath string) error {
	if err := os.MkdirAll(b.web, 0o755); err != nil {
		return err
	}
	assets, err := filepath.Glob("web/*")
	if err != nil {
		return err
	}
	// The page and the engine's worker as this test run built them.
	workerPath := filepath.Join(filepath.Dir(wasmPath), "engine-worker.wasm")
	assets = append(assets, wasmPath, workerPath)
	for _, a := range assets {
		if b := filepath.Base(a); (b == "app.wasm" && a != wasmPath) || (b == "engine-worker.wasm" && a != workerPath) {
			continue // a build of make's, perhaps stale
		}
		content, err := os.ReadFile(a)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(b.web, filepath.Base(a)), content, 0o644); err != nil {
			return err
		}
	}
	if _, err := site.Build(b.root, "/", b.web, false); err != nil {
		return err
	}
	_, err = site.Build(b.sub, "/watchlens", b.web, false)
	return err
}

// copyAssets copies the files of the folder from into the folder to.
func copyAssets(t testing.TB, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	must(t, err)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		must(t, err)
		must(t, os.WriteFile(filepath.Join(to, e.Name()), b, 0o644))
	}
}

// newBrowser starts a headless Chromium of its own with a fresh profile,
// with extra flags given by the caller, and ends it with the test: for a
// test that needs flags the shared one (sharedBrowser) has not.
func newBrowser(t testing.TB, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	browser, stop := startBrowser(t.TempDir(), extra...)
	t.Cleanup(stop)
	must(t, chromedp.Do(browser)) // starts the browser now, outside any timeout
	return browser
}

// startBrowser returns the context of a headless Chromium with its
// profile in dir and extra flags, which starts on its first use, and the
// function that ends it.
func startBrowser(dir string, extra ...chromedp.ExecAllocatorOption) (context.Context, func()) {
	opts := append([]chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// Tests run side by side, each in windows of its own: none of
		// them is in the background, and none may be slowed as if it were.
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		// A tab's omnibox popup is a WebUI page in a renderer of its own,
		// which headless tests never show but pay for in each tab.
		chromedp.Flag("disable-features", "WebUIOmniboxPopup,WebUIOmniboxAimPopup"),
		// The tabs of one site (a test's server) share a renderer, which
		// compiles app.wasm once rather than once a tab.
		chromedp.Flag("process-per-site", true),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1280, 900),
	}, extra...)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	return browser, func() { cancelBrowser(); cancelAlloc() }
}

// newBrowserContext opens a browser context in the shared Chromium, a
// profile of its own that the test's tabs share: its storage, service
// workers, cache and downloads are apart from the other tests' running
// beside it. It is disposed of with the test.
func newBrowserContext(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(sharedBrowser(t), chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	must(t, chromedp.Do(ctx))
	return ctx
}

// allowDownloads has the tab's browser context save what its pages
// download into dir.
func allowDownloads(t testing.TB, tab context.Context, dir string) {
	t.Helper()
	_, err := chromedp.CallBrowser(tab, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir,
		BrowserContextID: chromedp.FromContext(tab).BrowserContextID})
	must(t, err)
}

// openSample opens the page on a built-in sample in a new tab and waits
// until it shows it correctly: the starting point of most tests.
func (s *servedSite) openSample(t testing.TB, name string) context.Context {
	t.Helper()
	tab := s.newTab(t)
	navigate(t, tab, s.url+"/?sample="+name)
	checkShown(t, tab, name, "samples/"+name)
	return tab
}

// tabLimit is a tab's time limit, so a hang fails one test: sized for
// the 2-core machine at a load average of 20, where a test's first page
// spends a long time compiling app.wasm.
const tabLimit = 3 * time.Minute

// pageWait is how long the tests wait for the page to show what they
// ask of it, sized for the same load.
const pageWait = time.Minute

// newTab opens a tab with its own time limit (tabLimit).
func (s *servedSite) newTab(t testing.TB) context.Context {
	t.Helper()
	return newTabWithin(t, s.browser, tabLimit)
}

// newTabWithin opens a tab in browser whose actions must end within
// limit, and closes it with the test.
func newTabWithin(t testing.TB, browser context.Context, limit time.Duration) context.Context {
	t.Helper()
	tab, closeTab := openTab(t, browser)
	timed, cancel := context.WithTimeout(tab, limit)
	t.Cleanup(func() { cancel(); closeTab() })
	return timed
}

// openTab opens a tab in browser, and returns it and the function that
// closes it. The tab reads the messages the browser sends it until it
// is closed. chromedp's router hands each tab its messages through a
// queue of 1024, and waits when that is full; a tab reads its queue for
// as long as the context of its first action lasts. Were that the time
// limit of newTabWithin's, a page still running past it (or in the
// moment between the limit's cancel and the tab's close) would fill its
// queue with events (Network, DOM, CSS, Runtime) and stop the router:
// then every tab of the browser waits for replies that never come, until
// its own limit. So the tab is attached here on a context of its own,
// ended only once the router has handed the tab its detach, its last
// message.
func openTab(t testing.TB, browser context.Context) (context.Context, func()) {
	t.Helper()
	tab, closeTab := chromedp.NewContext(browser)
	reading, stopReading := context.WithCancel(context.WithoutCancel(tab))
	if err := chromedp.Do(reading); err != nil {
		stopReading()
		closeTab()
		t.Fatal(err)
	}
	detached, err := chromedp.Detached(tab)
	must(t, err)
	lost := chromedp.FromContext(tab).Browser.LostConnection
	return tab, func() {
		closeTab()
		// A tab the browser could not close is never detached.
		select {
		case <-detached:
		case <-lost:
		case <-time.After(10 * time.Second):
		}
		stopReading()
	}
}

// preferTheme has the tab's pages, those it opens next included, prefer
// theme ("light" or "dark").
func preferTheme(t testing.TB, tab context.Context, theme string) {
	t.Helper()
	_, err := chromedp.Call(tab, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}}})
	must(t, err)
}

// switchTheme has the page in the tab switch to theme, and waits for a
// frame that has it: a frame's update reports the media queries' change,
// on which the canvases draw again (web/timeline.js), before its
// animation frame callbacks, where Poll asks.
func switchTheme(t testing.TB, tab context.Context, theme string) {
	t.Helper()
	preferTheme(t, tab, theme)
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](fmt.Sprintf(`matchMedia("(prefers-color-scheme: dark)").matches === %t`, theme == "dark"),
		chromedp.WithPollingTimeout(pageWait))); err != nil {
		t.Fatalf("the page did not take the %s theme: %v", theme, err)
	}
}

// waitRead waits until the page says that its read of the file name
// ended with outcome ("shown", "failed" or "superseded"; app/load/readsignal.go).
func waitRead(t testing.TB, tab context.Context, name, outcome string) {
	t.Helper()
	if got := readEnd(t, tab, name); got != outcome {
		t.Fatalf("the page's read of %s ended %s, not %s", name, got, outcome)
	}
}

// readEnd waits until the page's read of the file name ended, and says
// how (app/load/readsignal.go).
func readEnd(t testing.TB, tab context.Context, name string) string {
	t.Helper()
	return readEndAfter(t, tab, 0, []string{name}, pageWait)
}

// readEndAfter waits, for up to within, until a read of one of names
// that the page ended after its first n (window.watchlensReads) has
// ended, and says how.
func readEndAfter(t testing.TB, tab context.Context, n int, names []string, within time.Duration) string {
	t.Helper()
	list, err := json.Marshal(names)
	must(t, err)
	got, err := chromedp.Run(tab, chromedp.Poll[string](fmt.Sprintf(`(window.watchlensReads ?? []).slice(%d).find(r => %s.includes(r.name))?.outcome ?? null`, n, list),
		chromedp.WithPollingTimeout(within)))
	if err != nil {
		t.Fatalf("the page's read of %s did not end within %v: %v (%s)", names[0], within.Round(time.Second), err, pageState(tab))
	}
	return got
}

// pageState is what a test that waited in vain says of the page: the
// reads it ended, what its progress bar and its problems say, and
// whether its Go program stopped (web/crash.js).
func pageState(tab context.Context) string {
	// Its own few seconds, past the tab's deadline if that is what ran out.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(tab), 10*time.Second)
	defer cancel()
	state, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify({
		reads: window.watchlensReads ?? [],
		progress: document.querySelector("#progress")?.textContent ?? null,
		problems: [...document.querySelectorAll(".problem")].map(p => p.textContent),
		crashed: document.querySelector("#crash") !== null,
		drags: window.e2eDrags ?? null,
	})`))
	if err != nil {
		return "the page's state could not be read: " + err.Error()
	}
	return state
}

// dropRead drops files on the page, as drop does, and waits until the
// page has shown them (see shownBy).
func dropRead(t *testing.T, tab context.Context, files ...string) {
	t.Helper()
	shownBy(t, tab, files, func() { drop(t, tab, files...) })
}

// uploadRead chooses files in the page's file input and waits until the
// page has shown them (see shownBy).
func uploadRead(t *testing.T, tab context.Context, files ...string) {
	t.Helper()
	abs := make([]string, len(files))
	for i, f := range files {
		a, err := filepath.Abs(f)
		must(t, err)
		abs[i] = a
	}
	shownBy(t, tab, files, func() { must(t, chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.CSS("#file-input"), abs))) })
}

// shownBy has open hand files to the page and waits until the page has
// shown them. The page's read of them may take as long as the tab may
// run, whose limit the test sizes for what it opens (see loadWait); a
// read that fails or gives up fails the test at once.
func shownBy(t *testing.T, tab context.Context, files []string, open func()) {
	t.Helper()
	// Each drag event the page gets, and whether the page took it, for
	// pageState to say if the read never ends.
	n, err := chromedp.Run(tab, chromedp.Evaluate[int](`(() => {
		if (!window.e2eDrags) {
			window.e2eDrags = [];
			for (const type of ["dragenter", "dragover", "dragleave", "drop", "change"]) {
				addEventListener(type, e => setTimeout(() => e2eDrags.push(type + (e.defaultPrevented ? " taken" : ""))), true);
			}
		}
		return (window.watchlensReads ?? []).length;
	})()`))
	must(t, err)
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f)
	}
	open()
	if got := readEndAfter(t, tab, n, names, loadWait(tab)); got != "shown" {
		t.Fatalf("the page's read of the %d files opened ended %s, not shown", len(files), got)
	}
}

// loadWait is how long a test waits for a load it began: as long as the
// tab may run, but for the time to say why it failed, and at least
// pageWait.
func loadWait(tab context.Context) time.Duration {
	d, ok := tab.Deadline()
	if !ok {
		return pageWait
	}
	return max(time.Until(d)-10*time.Second, pageWait)
}

func navigate(t testing.TB, tab context.Context, url string) {
	t.Helper()
	must(t, chromedp.Do(tab, chromedp.Navigate(url)))
}

func upload(t testing.TB, tab context.Context, file string) {
	t.Helper()
	abs, err := filepath.Abs(file)
	must(t, err)
	must(t, chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.CSS("#file-input"), []string{abs})))
}

// drop drags files from outside the page onto its middle, as a user does
// from a file manager.
func drop(t *testing.T, tab context.Context, files ...string) {
	t.Helper()
	var abs []string
	for _, f := range files {
		a, err := filepath.Abs(f)
		must(t, err)
		abs = append(abs, a)
	}
	data := &input.DragData{Files: abs, DragOperationsMask: 1, Items: []*input.DragDataItem{}}
	for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
		params := input.DispatchDragEventParams{Type: typ, X: 640, Y: 450, Data: data}
		_, err := chromedp.Call(tab, input.DispatchDragEvent, params)
		must(t, err)
	}
}

// shown is what the page says of one capture.
type shown struct {
	Types   map[string]int `json:"types"`
	Kinds   map[string]int `json:"kinds"`
	FirstRV string         `json:"firstRV"`
	LastRV  string         `json:"lastRV"`
}

// checkShown waits for the page to show the capture called name and checks
// its counts and resourceVersions against a native parse of file.
func checkShown(t testing.TB, tab context.Context, name, file string) {
	t.Helper()
	sel := fmt.Sprintf(`section.result[data-file=%q]`, name)
	var got shown
	inFilesTab(t, tab, sel+` table[data-by="type"]`, func() {
		var err error
		got, err = chromedp.Run(tab, chromedp.Evaluate[shown](fmt.Sprintf(`(() => {
			const sec = document.querySelector(%q);
			const table = by => Object.fromEntries([...sec.querySelectorAll('table[data-by="' + by + '"] tbody tr')]
				.map(tr => [tr.querySelector("th").textContent, Number(tr.querySelector("td").textContent)]));
			return {types: table("type"), kinds: table("kind"),
				firstRV: sec.querySelector('[data-rv="first"]').textContent,
				lastRV: sec.querySelector('[data-rv="last"]').textContent};
		})()`, sel)))
		must(t, err)
	})
	want := parseNatively(t, file)
	if fmt.Sprint(got.Types) != fmt.Sprint(want.Types) {
		t.Errorf("%s: page shows types %v, parser counts %v", name, got.Types, want.Types)
	}
	if fmt.Sprint(got.Kinds) != fmt.Sprint(want.Kinds) {
		t.Errorf("%s: page shows kinds %v, parser counts %v", name, got.Kinds, want.Kinds)
	}
	if got.FirstRV != want.FirstRV || got.LastRV != want.LastRV {
		t.Errorf("%s: page shows RVs %s..%s, parser reads %s..%s", name, got.FirstRV, got.LastRV, want.FirstRV, want.LastRV)
	}
	if len(want.Types) == 0 {
		t.Errorf("%s: the parser found no events, so the comparison proves nothing", file)
	}
}

func parseNatively(t testing.TB, file string) shown {
	t.Helper()
	f, err := os.Open(file)
	must(t, err)
	defer f.Close()
	c, err := parser.ReadAll(f, parser.Options{})
	must(t, err)
	s := shown{Types: map[string]int{}, Kinds: map[string]int{}}
	for _, ev := range c.Events {
		s.Types[ev.Type.String()]++
		if ev.Type == parser.Error {
			continue
		}
		if ev.Kind != "" {
			s.Kinds[ev.Kind]++
		}
		if ev.RV != "" {
			if s.FirstRV == "" {
				s.FirstRV = ev.RV
			}
			s.LastRV = ev.RV
		}
	}
	return s
}

// encodedCapture writes a real capture's events as one HTTP response with
// Content-Encoding: gzip, ten events per gzip member and a member per
// chunk, as an API server flushes to a client that accepts gzip. It returns
// the file and the first event.
func encodedCapture(t *testing.T, plain string) (string, parser.Event) {
	t.Helper()
	f, err := os.Open(plain)
	must(t, err)
	defer f.Close()
	r := parser.NewReader(f, parser.Options{})
	var lines [][]byte
	var first parser.Event
	for r.Next() {
		if len(lines) == 0 {
			first = r.Event()
		}
		lines = append(lines, append(bytes.Clone(r.Raw()), '\n'))
	}
	var out bytes.Buffer
	out.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n")
	for i := 0; i < len(lines); i += 10 {
		var member bytes.Buffer
		zw := gzip.NewWriter(&member)
		for _, l := range lines[i:min(i+10, len(lines))] {
			_, err := zw.Write(l)
			must(t, err)
		}
		must(t, zw.Close())
		fmt.Fprintf(&out, "%x\r\n%s\r\n", member.Len(), member.Bytes())
	}
	out.WriteString("0\r\n\r\n")
	name := filepath.Join(t.TempDir(), "gzip-encoded.http")
	must(t, os.WriteFile(name, out.Bytes(), 0o644))
	return name, first
}

// modifiedWithPrevious finds, natively, a MODIFIED event whose object has
// an earlier event in the capture, and returns its timeline index and the
// two resourceVersions.
func modifiedWithPrevious(t *testing.T, file string) (int, string, string) {
	t.Helper()
	tl, _ := nativeTimeline(t, file)
	for l := range tl.Lanes.Len() {
		evs := tl.LaneEvents(l)
		if len(evs) >= 2 {
			cur := tl.Event(int(evs[1]))
			if cur.Type == parser.Modified {
				return int(evs[1]), cur.RV, tl.Event(int(evs[0])).RV
			}
		}
	}
	t.Fatalf("%s has no object with two events", file)
	return 0, "", ""
}

// waitWarm waits until the page has warmed its parser up (app/warmup.go).
// The warm-up waits for up to three spare workers' own warm-ups, each
// for up to a minute (app/warmup.go's spareWarmAtMost), which on a busy
// machine take longer than pageWait together.
func waitWarm(t testing.TB, tab context.Context) {
	t.Helper()
	_, err := chromedp.Run(tab, chromedp.Poll[bool](`document.querySelector(".page").dataset.warm === "true"`, chromedp.WithPollingTimeout(warmWait)))
	if err != nil {
		t.Fatalf("the page did not say it was warm within %s: %v", warmWait, err)
	}
}

// warmWait is how long waitWarm waits.
const warmWait = 3 * time.Minute

// waitFitted waits until each canvas view shown has drawn for the room
// its stage gives it now (data-room, web/timeline.js's watchlensStage):
// a change of that room, the dock moved or the verdict unfolded, reaches
// the views a while after the page shows it.
func waitFitted(t testing.TB, tab context.Context) {
	t.Helper()
	_, err := chromedp.Run(tab, chromedp.Poll[bool](`(() => {
		const shown = [...document.querySelectorAll("canvas[data-room]")].filter(cv => cv.checkVisibility());
		return shown.length > 0 && shown.every(cv => cv.dataset.room === cv.parentElement.clientWidth + "x" + cv.parentElement.clientHeight);
	})()`, chromedp.WithPollingTimeout(pageWait)))
	if err != nil {
		rooms, _ := chromedp.Run(tab, chromedp.Evaluate[[]string](`[...document.querySelectorAll("canvas")].map(cv => (cv.dataset.room ?? "none") + " drawn, " + cv.parentElement.clientWidth + "x" + cv.parentElement.clientHeight + " now")`))
		t.Fatalf("the timeline did not fit its new room: %v (%v)", err, rooms)
	}
}

// noSidewaysScroll checks that the page fits the window's width (1280
// CSS pixels here): a page that scrolls sideways hides half of what it says.
func noSidewaysScroll(t testing.TB, tab context.Context) {
	t.Helper()
	widths, err := chromedp.Run(tab, chromedp.Evaluate[[]int](`[document.documentElement.scrollWidth, window.innerWidth]`))
	must(t, err)
	if widths[0] > widths[1] {
		t.Errorf("the page is %d px wide in a %d px window", widths[0], widths[1])
	}
}

// summaryOf reads the timeline's HTML summary: what the canvas shows.
func summaryOf(t testing.TB, tab context.Context) map[string]string {
	t.Helper()
	waitText(t, tab, "#timeline-summary")
	s, err := chromedp.Run(tab, chromedp.Evaluate[map[string]string](`({...document.querySelector("#timeline-summary").dataset})`))
	must(t, err)
	return s
}

// waitSummary waits until the timeline's summary satisfies ok, for up
// to pageWait: what a move or a filter changes. After a drop, wait for
// its read first (dropRead), which may take longer.
func waitSummary(t testing.TB, tab context.Context, ok func(map[string]string) bool) map[string]string {
	t.Helper()
	var s map[string]string
	if !until(pageWait, func() bool { s = summaryOf(t, tab); return ok(s) }) {
		t.Fatalf("the timeline summary never changed as expected: %v", s)
	}
	return s
}

// until calls ok every 100 ms until it holds, for up to within, and
// says whether it held.
func until(within time.Duration, ok func() bool) bool {
	for deadline := time.Now().Add(within); ; time.Sleep(100 * time.Millisecond) {
		if ok() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// waitForFile waits for a download to land and returns its content.
func waitForFile(t *testing.T, name string) string {
	t.Helper()
	var b []byte
	if !until(pageWait, func() bool { var err error; b, err = os.ReadFile(name); return err == nil && len(b) > 0 }) {
		t.Fatalf("%s was not downloaded", name)
	}
	return string(b)
}

// waitText waits until sel exists and returns its text.
func waitText(t testing.TB, tab context.Context, sel string) string {
	t.Helper()
	return waitTextWithin(t, tab, sel, pageWait)
}

// waitTextWithin waits, for up to within, until sel exists, and returns
// its text: for what follows a load the test began (see loadWait).
func waitTextWithin(t testing.TB, tab context.Context, sel string, within time.Duration) string {
	t.Helper()
	text, err := chromedp.Run(tab, chromedp.Poll[string](fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e ? e.textContent : ""; })()`, sel),
		chromedp.WithPollingTimeout(within)))
	if err != nil {
		problem, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.innerText.slice(0, 2000)`))
		t.Fatalf("waiting for %s: %v\npage text:\n%s", sel, err, problem)
	}
	return text
}

// screenshot saves a PNG of the tab into screenshots/ (git-ignored) so a
// person can look at what the test saw.
func screenshot(t testing.TB, tab context.Context, name string) {
	t.Helper()
	shot, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	must(t, err)
	must(t, os.MkdirAll("screenshots", 0o755))
	must(t, os.WriteFile(filepath.Join("screenshots", name+".png"), shot, 0o644))
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		var ce *cdp.Error
		if errors.As(err, &ce) {
			t.Fatalf("chromium: %v", ce)
		}
		t.Fatal(err)
	}
}
