//go:build !wasm

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"watchlens/app/canvas"
	"watchlens/timeline"
)

// TestBrowserContrast measures, from the pixels Chromium paints, that every
// zone and mark of the timeline stands at least 3:1 (WCAG's contrast for
// graphics) against its track, in the light and the dark theme. A zone's
// colour is read in the middle of a zone the model places, its track's
// beside it where no zone lies; a band's marks are the colours that
// cover enough of it to be a mark's fill, not an edge's blend.
func TestBrowserContrast(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	s := startSite(t)
	for _, theme := range []string{"light", "dark"} {
		t.Run(theme, func(t *testing.T) {
			t.Parallel()
			measured := map[string]bool{}
			// w3's reconnect without bookmarks is at risk by the watch
			// cache's models; served from etcd compacted every 10 s, w4's
			// are refused, and its watch ends in an ERROR.
			etcd := timeline.DefaultParams()
			etcd.WatchCache, etcd.EtcdInterval = false, 10*time.Second
			for _, c := range []struct {
				name, query string
				params      timeline.Params
			}{{"w3-then-resume.ts.http", "", timeline.DefaultParams()}, {"w4-then-resume.ts.http", "&cache=off&etcd=10", etcd}} {
				for k, ratio := range contrasts(t, s, theme, c.name, c.query, c.params) {
					measured[k] = true
					if ratio < 3 {
						t.Errorf("%s, %s: %s stands %.2f:1 against its track, under 3:1", theme, c.name, k, ratio)
					} else {
						t.Logf("%s, %s: %s %.2f:1", theme, c.name, k, ratio)
					}
				}
			}
			for k, ratio := range fleetContrasts(t, s, theme) {
				measured[k] = true
				if ratio < 3 {
					t.Errorf("%s, the fleet view: %s stands %.2f:1 against its track, under 3:1", theme, k, ratio)
				} else {
					t.Logf("%s, the fleet view: %s %.2f:1", theme, k, ratio)
				}
			}
			// The test tests nothing unless it found each kind.
			for _, k := range []string{"refused zone", "at-risk zone", "sessions band: --c-session", "bookmarks band: --c-bookmark",
				"lanes band: --c-modified", "sessions band: --c-error", "fleet row: the other choice's zone", "fleet row: its own zone",
				"fleet curves: --c-ignoring", "fleet curves: --c-aware", "fleet relists: --c-deleted"} {
				if !measured[k] {
					t.Errorf("%s: no %s was measured (measured %v)", theme, k, measured)
				}
			}
		})
	}
}

// contrasts opens the sample in the theme and returns the contrast of each
// zone and mark colour it finds against its track.
func contrasts(t *testing.T, s *servedSite, theme, name, query string, p timeline.Params) map[string]float64 {
	t.Helper()
	tab := s.newTab(t)
	must(t, chromedp.Do(tab, chromedp.EmulateViewport(1440, 900)))
	preferTheme(t, tab, theme)
	navigate(t, tab, s.url+"/?sample="+name+query)
	showTimeline(t, tab)
	g := readSummary(t, tab, name, nil)
	bands := timelineBands(t, tab, func([]fileBand) bool { return true })
	shot, err := chromedp.Run(tab, chromedp.Screenshot(chromedp.CSS("#timeline canvas")))
	must(t, err)
	must(t, os.MkdirAll("screenshots", 0o755))
	must(t, os.WriteFile(filepath.Join("screenshots", "contrast-"+theme+"-"+name+query+".png"), shot, 0o644))
	img, err := png.Decode(bytes.NewReader(shot))
	must(t, err)
	scale := float64(img.Bounds().Dx()) / g.CanvasCSSW
	at := func(x, y float64) color.RGBA {
		r, gr, b, _ := img.At(int(x*scale), int(y*scale)).RGBA()
		return color.RGBA{uint8(r >> 8), uint8(gr >> 8), uint8(b >> 8), 255}
	}
	from, to := parseNs(t, g.From), parseNs(t, g.To)
	xOf := func(ns int64) float64 { return g.PlotX + float64(ns-from)/float64(to-from)*g.PlotW }

	tl, _ := nativeTimeline(t, "samples/"+name)
	an := tl.Analyze(p)
	out := map[string]float64{}
	for _, b := range bands {
		var kind timeline.CursorKind
		switch b.id {
		case canvas.BandZoneAware:
			kind = timeline.BookmarkAware
		case canvas.BandZoneIgnoring:
			kind = timeline.BookmarkIgnoring
		case canvas.BandZoneHad:
			kind = timeline.HadBookmarks
		default:
			continue
		}
		y := b.y + b.h/2
		refused, risk := spans(an.Zones, kind), spans(an.RiskZones, kind)
		track, ok := freeX(g.PlotX, g.PlotW, xOf, refused, risk)
		if !ok {
			continue
		}
		bg := at(track, y)
		if x, ok := insideX(xOf, refused, nil); ok {
			worst(out, "refused zone", pixelContrast(at(x, y), bg))
		}
		if x, ok := insideX(xOf, risk, refused); ok {
			worst(out, "at-risk zone", pixelContrast(at(x, y), bg))
		}
	}
	vars := paletteOf(t, tab)
	for _, b := range bands {
		what := map[canvas.BandID]string{canvas.BandSessions: "sessions band", canvas.BandBookmarks: "bookmarks band", canvas.BandCursors: "cursors band"}[b.id]
		if what == "" {
			continue
		}
		for k, ratio := range markContrasts(img, scale, g.PlotX, g.PlotW, b.y+1, b.y+b.h-1, vars) {
			worst(out, what+": "+k, ratio)
		}
	}
	for k, ratio := range markContrasts(img, scale, g.PlotX, g.PlotW, g.LanesY, g.LanesY+3*g.RowH, vars) {
		worst(out, "lanes band: "+k, ratio)
	}
	return out
}

// fleetContrastFiles are ten captures of testdata/fleet whose fleet has
// each of the marks: clients' own zones and the other choice's, relists,
// and both curves.
var fleetContrastFiles = []string{"broad-a", "broad-b", "c05-bookmarks", "c20-nobookmarks", "c21-nobookmarks", "c22-nobookmarks",
	"c30-nobookmarks", "c31-nobookmarks", "c40-proto-bookmarks", "c41-proto-nobookmarks"}

// fleetContrasts opens a fleet of testdata/fleet in the theme and
// returns the contrast of each of its marks against its track: in the
// rows, the zones of the client's own cursor and of the other choice
// (had it asked for bookmarks, or not), each read where it alone lies;
// the curves' lines and the relists' bars in their bands.
func fleetContrasts(t *testing.T, s *servedSite, theme string) map[string]float64 {
	t.Helper()
	var files []string
	for _, f := range fleetCaptures(t) {
		if slices.Contains(fleetContrastFiles, strings.TrimSuffix(filepath.Base(f), ".ts.http")) {
			files = append(files, f)
		}
	}
	if len(files) != len(fleetContrastFiles) {
		t.Fatalf("testdata/fleet has %d of the %d captures the test reads", len(files), len(fleetContrastFiles))
	}
	// Ten captures take a while to read on a busy machine: the tab has
	// more time than newTab's.
	tab := newTabWithin(t, s.browser, 5*time.Minute)
	must(t, chromedp.Do(tab, chromedp.EmulateViewport(1440, 900)))
	preferTheme(t, tab, theme)
	navigate(t, tab, s.url+"/?sample=client-go-golden-watch.http")
	_, err := chromedp.Run(tab, chromedp.Poll[bool](`!!document.querySelector("#timeline-summary")`, chromedp.WithPollingTimeout(2*time.Minute)))
	must(t, err)
	must(t, chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.CSS("#file-input"), files)))
	_, err = chromedp.Run(tab, chromedp.Poll[bool](fmt.Sprintf(`(() => { const d = document.querySelector("#timeline-summary"); return !!d && d.dataset.files.split("\n").length === %d; })()`, len(files)),
		chromedp.WithPollingTimeout(3*time.Minute)))
	must(t, err)
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#show-fleet"))))
	_, err = chromedp.Run(tab, chromedp.Poll[bool](`!!document.querySelector("#fleet-summary")`, chromedp.WithPollingTimeout(time.Minute)))
	must(t, err)
	l := readFleetLayout(t, tab)
	shot, err := chromedp.Run(tab, chromedp.Screenshot(chromedp.CSS("#fleet canvas")))
	must(t, err)
	must(t, os.MkdirAll("screenshots", 0o755))
	must(t, os.WriteFile(filepath.Join("screenshots", "contrast-"+theme+"-fleet.png"), shot, 0o644))
	img, err := png.Decode(bytes.NewReader(shot))
	must(t, err)
	cssW, err := chromedp.Run(tab, chromedp.Evaluate[float64](`document.querySelector("#fleet canvas").getBoundingClientRect().width`))
	must(t, err)
	scale := float64(img.Bounds().Dx()) / cssW
	heightCSS := float64(img.Bounds().Dy()) / scale
	at := func(x, y float64) color.RGBA {
		r, gr, b, _ := img.At(int(x*scale), int(y*scale)).RGBA()
		return color.RGBA{uint8(r >> 8), uint8(gr >> 8), uint8(b >> 8), 255}
	}
	vars := paletteOf(t, tab)
	zone, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](`(() => {
		const c = document.createElement("canvas").getContext("2d");
		c.fillStyle = getComputedStyle(document.documentElement).getPropertyValue("--c-zone").trim(); c.fillRect(0, 0, 1, 1);
		const d = c.getImageData(0, 0, 1, 1).data; return [d[0], d[1], d[2]]; })()`))
	must(t, err)
	zoneColor := color.RGBA{uint8(zone[0]), uint8(zone[1]), uint8(zone[2]), 255}

	_, an := nativeFleet(t, files)
	data := canvas.NewFleetData(an)
	out := map[string]float64{}
	for r := range data.Rows {
		top := l.RowsY + float64(r)*l.RowH - l.ScrollY
		if top+l.RowH > heightCSS {
			break
		}
		own, other := data.Rows[r].Own(), data.Rows[r].Other()
		y0, y1 := top+3, top+l.RowH-3
		track, ok := freeX(l.PlotX, l.PlotW, l.x, own, other)
		if !ok {
			continue
		}
		bg := at(track, top+l.RowH/2)
		for _, c := range []struct {
			what    string
			in, not [][2]int64
		}{{"fleet row: the other choice's zone", other, own}, {"fleet row: its own zone", own, nil}} {
			for _, run := range alone(l.x, c.in, c.not) {
				if ratio, ok := zoneMark(img, scale, run[0]+2, run[1]-2, y0, y1, zoneColor, bg); ok {
					worst(out, c.what, ratio)
				}
			}
		}
	}
	curves := map[string]color.RGBA{"--c-ignoring": vars["--c-ignoring"], "--c-aware": vars["--c-aware"]}
	for k, ratio := range markContrasts(img, scale, l.PlotX, l.PlotW, l.CurvesY+1, l.HistY-3, curves) {
		worst(out, "fleet curves: "+k, ratio)
	}
	for k, ratio := range markContrasts(img, scale, l.PlotX, l.PlotW, l.HistY+1, l.RowsY-3, map[string]color.RGBA{"--c-deleted": vars["--c-deleted"]}) {
		worst(out, "fleet relists: "+k, ratio)
	}
	return out
}

// alone are the x runs, at least 8 px wide, of the spans in that none of
// the spans not overlaps.
func alone(xOf func(int64) float64, in, not [][2]int64) [][2]float64 {
	var out [][2]float64
	for _, s := range in {
		runs := [][2]float64{{xOf(s[0]), xOf(s[1])}}
		for _, o := range not {
			ox0, ox1 := xOf(o[0]), xOf(o[1])
			var cut [][2]float64
			for _, r := range runs {
				if ox1 <= r[0] || ox0 >= r[1] {
					cut = append(cut, r)
					continue
				}
				if ox0 > r[0] {
					cut = append(cut, [2]float64{r[0], ox0})
				}
				if ox1 < r[1] {
					cut = append(cut, [2]float64{ox1, r[1]})
				}
			}
			runs = cut
		}
		for _, r := range runs {
			if r[1]-r[0] >= 8 {
				out = append(out, r)
			}
		}
	}
	return out
}

// zoneMark reads a zone drawn in the box x0..x1, y0..y1 (CSS px) over
// the track bg: of the colours that blend the zone's colour over the
// track (the zone's fill, or its lines and their edges) and cover at
// least 12 pixels, the one that stands out most, and its contrast
// against the track. A zone whose mark is a pale fill reads as that fill.
func zoneMark(img image.Image, scale, x0, x1, y0, y1 float64, zone, bg color.RGBA) (float64, bool) {
	counts := map[color.RGBA]int{}
	for y := int(y0 * scale); y < int(y1*scale); y++ {
		for x := int(x0 * scale); x < int(x1*scale); x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			counts[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}]++
		}
	}
	best, found := 0.0, false
	for c, n := range counts {
		if n < 12 || c == bg {
			continue
		}
		for a := 0.05; a <= 1.001; a += 0.01 {
			if near(c, over(zone, bg, a)) {
				best, found = max(best, pixelContrast(c, bg)), true
				break
			}
		}
	}
	return best, found
}

func parseNs(t *testing.T, s string) int64 {
	t.Helper()
	var v int64
	if _, err := fmt.Sscan(s, &v); err != nil {
		t.Fatalf("an instant of the summary: %q", s)
	}
	return v
}

func worst(out map[string]float64, k string, v float64) {
	if old, ok := out[k]; !ok || v < old {
		out[k] = v
	}
}

// spans are the instants a cursor kind's zones cover.
func spans(zones []timeline.Zone, kind timeline.CursorKind) [][2]int64 {
	var out [][2]int64
	for _, z := range zones {
		if z.Kind == kind {
			out = append(out, [2]int64{z.From, z.To})
		}
	}
	return out
}

// insideX is the middle of the widest run of whole pixels inside in and
// out of not, at least 5 px wide, so that no edge's blend is read.
func insideX(xOf func(int64) float64, in, not [][2]int64) (float64, bool) {
	best, bestW := 0.0, 0.0
	for _, s := range in {
		x0, x1 := xOf(s[0]), xOf(s[1])
		for _, o := range not {
			// Cut the run at the first excluded span inside it.
			if ox0, ox1 := xOf(o[0]), xOf(o[1]); ox0 < x1 && ox1 > x0 {
				if ox0-x0 >= x1-ox1 {
					x1 = ox0
				} else {
					x0 = ox1
				}
			}
		}
		if w := x1 - x0; w > bestW {
			best, bestW = (x0+x1)/2, w
		}
	}
	return best, bestW >= 5
}

// freeX is an x of the plot, 3 px from any zone of the kind, where the
// track shows through.
func freeX(plotX, plotW float64, xOf func(int64) float64, a, b [][2]int64) (float64, bool) {
	near := func(x float64) bool {
		for _, ss := range [][][2]int64{a, b} {
			for _, s := range ss {
				if x >= xOf(s[0])-3 && x <= xOf(s[1])+3 {
					return true
				}
			}
		}
		return false
	}
	for x := plotX + 2; x < plotX+plotW-2; x++ {
		if !near(x) {
			return x, true
		}
	}
	return 0, false
}

// paletteOf reads the timeline's colours as the page's theme resolves
// them: each custom property of app/canvas/palette.go.
func paletteOf(t *testing.T, tab context.Context) map[string]color.RGBA {
	t.Helper()
	names := []string{"--c-added", "--c-modified", "--c-deleted", "--c-observed", "--c-listed", "--c-bookmark", "--c-error",
		"--c-aware", "--c-ignoring", "--c-head", "--c-session"}
	list, err := json.Marshal(names)
	must(t, err)
	got, err := chromedp.Run(tab, chromedp.Evaluate[map[string][]float64](fmt.Sprintf(`(() => {
		const c = document.createElement("canvas").getContext("2d"), st = getComputedStyle(document.documentElement), out = {};
		for (const n of %s) { c.fillStyle = "#000"; c.fillStyle = st.getPropertyValue(n).trim(); c.fillRect(0, 0, 1, 1);
			const d = c.getImageData(0, 0, 1, 1).data; out[n] = [d[0], d[1], d[2]]; }
		return out; })()`, list)))
	must(t, err)
	out := map[string]color.RGBA{}
	for n, v := range got {
		out[n] = color.RGBA{uint8(v[0]), uint8(v[1]), uint8(v[2]), 255}
	}
	return out
}

// markContrasts finds, in the plot's rows y0 to y1, the track (the colour
// at the plot's left edge, where no capture has begun) and the marks:
// any colour covering at least 12 pixels that is, or blends over the
// track at one of the alphas the timeline draws with, one of the
// palette's. It returns each mark's contrast against the track, by
// palette name.
func markContrasts(img image.Image, scale, plotX, plotW, y0, y1 float64, vars map[string]color.RGBA) map[string]float64 {
	rgb := func(x, y int) color.RGBA {
		r, g, b, _ := img.At(x, y).RGBA()
		return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}
	}
	counts, edge := map[color.RGBA]int{}, map[color.RGBA]int{}
	for y := int(y0 * scale); y < int(y1*scale); y++ {
		for x := int(plotX * scale); x < int((plotX+plotW)*scale); x++ {
			counts[rgb(x, y)]++
		}
		for x := int((plotX + 1) * scale); x < int((plotX+4)*scale); x++ {
			edge[rgb(x, y)]++
		}
	}
	out := map[string]float64{}
	var track color.RGBA
	for c, n := range edge {
		if n > edge[track] {
			track = c
		}
	}
	for c, n := range counts {
		if n < 12 || c == track {
			continue
		}
		for name, v := range vars {
			for _, a := range []float64{1, 0.8, 0.7, 0.55} {
				if near(c, over(v, track, a)) {
					worst(out, name, pixelContrast(c, track))
				}
			}
		}
	}
	return out
}

// over is fg drawn at alpha a over bg.
func over(fg, bg color.RGBA, a float64) color.RGBA {
	mix := func(f, b uint8) uint8 { return uint8(math.Round(float64(f)*a + float64(b)*(1-a))) }
	return color.RGBA{mix(fg.R, bg.R), mix(fg.G, bg.G), mix(fg.B, bg.B), 255}
}

func near(a, b color.RGBA) bool {
	d := func(x, y uint8) int { return max(int(x)-int(y), int(y)-int(x)) }
	return d(a.R, b.R) <= 3 && d(a.G, b.G) <= 3 && d(a.B, b.B) <= 3
}

// pixelContrast is WCAG 2's contrast ratio of two sRGB colours.
func pixelContrast(a, b color.RGBA) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

func luminance(c color.RGBA) float64 {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}
