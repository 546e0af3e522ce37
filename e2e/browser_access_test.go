//go:build !wasm

package e2e

import (
	"fmt"
	"testing"

	"watchlens/app"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// focusable opens every collapsible panel, as a user would to get at
// everything, then lists the page's controls a user can see, in document
// order: what the Tab key must reach. Each gets a data-kb number.
const focusable = `(() => {
	document.querySelectorAll('details').forEach(d => d.open = true);
	const sel = 'a[href], button, input, select, textarea, summary, [tabindex]';
	const all = [...document.querySelectorAll(sel)].filter(el =>
		!el.disabled && el.tabIndex >= 0 && el.checkVisibility({visibilityProperty: true}));
	all.forEach((el, i) => el.dataset.kb = i);
	return all.map(el => el.id || el.getAttribute('aria-label') || el.textContent.trim().slice(0, 40) || el.tagName);
})()`

// focused describes the element that has the focus, and whether the
// focus can be seen on it: an outline or a ring drawn around it.
const focused = `(() => {
	const el = document.activeElement;
	const cs = getComputedStyle(el);
	const seen = el.matches(':focus-visible') &&
		((cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2) || cs.boxShadow !== 'none');
	return {kb: el.dataset.kb ?? '', seen: seen, what: el.id || el.tagName};
})()`

type focusState struct {
	KB   string `json:"kb"`
	Seen bool   `json:"seen"`
	What string `json:"what"`
}

// testKeyboard tabs through the page on a capture and checks that the Tab
// key reaches every visible control and that each shows where the focus is.
func testKeyboard(t *testing.T, s *servedSite) {
	tab := s.openSample(t, app.DefaultSample)
	controls, err := chromedp.Run(tab, chromedp.Evaluate[[]string](focusable))
	must(t, err)
	if len(controls) < 10 {
		t.Fatalf("only %d controls found on the page: %q", len(controls), controls)
	}
	name := map[string]string{}
	for i, c := range controls {
		name[fmt.Sprint(i)] = c
	}
	reached := map[string]bool{}
	for range len(controls) + 10 {
		must(t, chromedp.Do(tab, chromedp.KeyEvent(kb.Tab)))
		f, err := chromedp.Run(tab, chromedp.Evaluate[focusState](focused))
		must(t, err)
		if f.KB == "" {
			continue // the address bar's turn, or a control that appeared since
		}
		reached[f.KB] = true
		if !f.Seen {
			t.Errorf("the focus on %s (%s) cannot be seen", name[f.KB], f.What)
		}
	}
	for kb, c := range name {
		if !reached[kb] {
			t.Errorf("Tab never reaches %q", c)
		}
	}
	screenshot(t, tab, "keyboard-focus")
}

// testLargeScreens opens the page on a 4K screen, at scale 1 and as a
// HiDPI laptop, and checks that it uses the room: the timeline spans the
// window, its canvas is sharp (one backing pixel per device pixel), text
// stays readable and nothing scrolls sideways.
func testLargeScreens(t *testing.T, s *servedSite) {
	for _, screen := range []struct {
		name          string
		width, height int64
		scale         float64
	}{
		{"4K", 3840, 2160, 1},
		{"4K at 200 %", 1920, 1080, 2},
	} {
		t.Run(screen.name, func(t *testing.T) {
			t.Parallel()
			tab := s.newTab(t)
			must(t, chromedp.Do(tab, chromedp.EmulateViewport(screen.width, screen.height, chromedp.EmulateScale(screen.scale))))
			navigate(t, tab, s.url+"/?sample="+app.DefaultSample)
			checkShown(t, tab, app.DefaultSample, "samples/"+app.DefaultSample)
			summaryOf(t, tab)
			got, err := chromedp.Run(tab, chromedp.Evaluate[map[string]float64](`(() => {
				const c = document.querySelector('#timeline canvas');
				return {css: c.clientWidth, backing: c.width, dpr: devicePixelRatio, window: innerWidth,
					font: parseFloat(getComputedStyle(document.body).fontSize)};
			})()`))
			must(t, err)
			if got["dpr"] != screen.scale {
				t.Fatalf("devicePixelRatio is %v, want %v", got["dpr"], screen.scale)
			}
			if got["css"] < 0.6*got["window"] {
				t.Errorf("the timeline is %v px wide in a %v px window", got["css"], got["window"])
			}
			if want := got["css"] * got["dpr"]; got["backing"] < want-1 || got["backing"] > want+1 {
				t.Errorf("the canvas has %v backing pixels for %v CSS px at ratio %v: blurred", got["backing"], got["css"], got["dpr"])
			}
			if got["font"] < 14 {
				t.Errorf("body text is %v px", got["font"])
			}
			noSidewaysScroll(t, tab)
			screenshot(t, tab, "screen-"+fmt.Sprint(screen.width)+"x"+fmt.Sprint(screen.scale))
		})
	}
}
