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
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
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
			// The test tests nothing unless it found each kind.
			for _, k := range []string{"refused zone", "at-risk zone", "sessions band: --c-session", "bookmarks band: --c-bookmark",
				"lanes band: --c-modified", "sessions band: --c-error"} {
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
	_, err := chromedp.Call(tab, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}}})
	must(t, err)
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
