//go:build !wasm

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"watchlens/app/canvas"
	"watchlens/internal/testsample"
	"watchlens/parser"
	"watchlens/report"
	"watchlens/timeline"
)

// nativeSummary is the CLI's summary of files read under the given names,
// with the page's default model.
func nativeSummary(t *testing.T, names, files []string) []string {
	t.Helper()
	b := timeline.NewBuilder()
	for k, path := range files {
		f, err := os.Open(path)
		must(t, err)
		must(t, b.AddReader(names[k], f, parser.Options{}))
		f.Close()
	}
	var out []string
	for _, l := range report.New(b.Build().Analyze(timeline.DefaultParams()), nil).Summary {
		out = append(out, l.Text)
	}
	return out
}

// verdictShown waits for the page's verdict to read want, and checks that
// it sits in the window, above everything else of the capture, without
// scrolling.
func verdictShown(t *testing.T, tab context.Context, want []string) {
	t.Helper()
	type verdict struct {
		Lines      []string `json:"lines"`
		Top        float64  `json:"top"`
		Bottom     float64  `json:"bottom"`
		Height     float64  `json:"height"`
		FirstChild bool     `json:"firstChild"`
	}
	var got verdict
	var err error
	for deadline := time.Now().Add(pageWait); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		got, err = chromedp.Run(tab, chromedp.Evaluate[verdict](`(() => {
			const v = document.querySelector("#verdict");
			if (!v) return {lines: []};
			const r = v.getBoundingClientRect();
			return {lines: [...v.querySelectorAll("p")].map(p => p.textContent), top: r.top, bottom: r.bottom,
				height: window.innerHeight, firstChild: v.parentElement.id === "results" && v.parentElement.firstElementChild === v};
		})()`))
		must(t, err)
		if equalLines(got.Lines, want) {
			break
		}
	}
	if !equalLines(got.Lines, want) {
		t.Fatalf("the page's verdict:\n%q\nthe CLI's summary:\n%q", got.Lines, want)
	}
	if !got.FirstChild || got.Top < 0 || got.Bottom > got.Height {
		t.Errorf("the verdict must be the first thing shown, in the window without scrolling: %+v", got)
	}
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestBrowserVerdict: opening w4 (its resume refused), w3 (accepted) or
// w4 with the broad capture dropped together, the first thing a user
// reads is the verdict in words, and it is the CLI's.
func TestBrowserVerdict(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	s := startSite(t)
	for _, name := range []string{"w4-then-resume.ts.http", "w3-then-resume.ts.http"} {
		tab := s.openSample(t, name)
		verdictShown(t, tab, nativeSummary(t, []string{name}, []string{filepath.Join("samples", name)}))
		screenshot(t, tab, "verdict-"+name)
	}
	files := []string{"samples/w4-then-resume.ts.http", "samples/w1-broad-configmaps-bookmarks.ts.http"}
	tab := s.openSample(t, "w3-then-resume.ts.http")
	drop(t, tab, files...)
	want := nativeSummary(t, []string{"w4-then-resume.ts.http", "w1-broad-configmaps-bookmarks.ts.http"}, files)
	verdictShown(t, tab, want)
	screenshot(t, tab, "verdict-w4-w1")

	// A relist after the 410: the page names the RV it asked for and
	// the one it returned as the CLI does.
	c091 := filepath.Join(testsample.Recording(t, "samples-lab"), "c091-nobookmarks.ts.http")
	tab = s.openSample(t, "w3-then-resume.ts.http")
	drop(t, tab, c091)
	want = nativeSummary(t, []string{filepath.Base(c091)}, []string{c091})
	if !strings.Contains(strings.Join(want, "\n"), "relisted (a LIST at RV 987, the expired cursor, served from the watch cache; it returned RV 1673)") {
		t.Errorf("c091's summary does not name its relist's RVs: %q", want)
	}
	verdictShown(t, tab, want)
}

// TestBrowserReconnectHover: w4 cut where its client dropped, dropped on
// the page with the broad capture. Pointing at each zone band after the
// cut's end says what a reconnect then would get, for that cursor, in
// the words the model gives natively; the had-bookmarks band is there
// because w4 asked for none; at-risk zones are drawn pale.
func TestBrowserReconnectHover(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	data := testsample.Read(t, testsample.Sample(t, "w4-then-resume.ts.http"))
	cut := filepath.Join(t.TempDir(), "w4-cut.ts.http")
	i := bytes.Index(data, []byte("2026-11-30T01:04:24.980441584Z GET"))
	must(t, os.WriteFile(cut, data[:i], 0o644))
	broad := "samples/w1-broad-configmaps-bookmarks.ts.http"

	b := timeline.NewBuilder()
	for _, f := range []string{cut, broad} {
		r, err := os.Open(f)
		must(t, err)
		must(t, b.AddReader(filepath.Base(f), r, parser.Options{}))
		r.Close()
	}
	tl := b.Build()
	an := tl.Analyze(timeline.DefaultParams())

	s := startSite(t)
	tab := s.openSample(t, "w3-then-resume.ts.http")
	drop(t, tab, cut, broad)
	g := readSummary(t, tab, "w4-cut.ts.http\nw1-broad-configmaps-bookmarks.ts.http", nil)
	must(t, chromedp.Do(tab, chromedp.ScrollIntoView(chromedp.CSS("#timeline canvas"))))
	g = readSummary(t, tab, g.Files, nil)
	bands, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("#timeline canvas").dataset.bands`))
	must(t, err)
	var layout []canvas.Band
	must(t, json.Unmarshal([]byte(bands), &layout))
	// Each file has its own zone bands: the middles of the cut capture's.
	ys := map[timeline.CursorKind]float64{}
	for _, b := range layout {
		if b.File == 0 && (b.ID == canvas.BandZoneAware || b.ID == canvas.BandZoneIgnoring || b.ID == canvas.BandZoneHad) {
			ys[canvas.ZoneBandKind(b.ID)] = b.Y + b.Height/2
		}
	}
	if len(ys) != 3 {
		t.Fatalf("zone bands %v of %s: want a had-bookmarks band beside the two recorded cursors'", ys, bands)
	}
	from, _ := strconv.ParseInt(g.From, 10, 64)
	to, _ := strconv.ParseInt(g.To, 10, 64)
	// 01:04:50, 27 s after the cut capture's end, inside the broad one: the
	// recorded cursor (RV 389) is long gone, the had-bookmarks one was
	// fresh at 01:04:21.
	at := time.Date(2026, 11, 30, 1, 4, 50, 0, time.UTC).UnixNano()
	x := g.CanvasLeft + g.PlotX + float64(at-from)/float64(to-from)*g.PlotW
	for _, kind := range []timeline.CursorKind{timeline.BookmarkAware, timeline.BookmarkIgnoring, timeline.HadBookmarks} {
		// The pointer sits on a pixel: the model is asked at that pixel's instant.
		px := math.Round(x)
		pat := from + int64((px-g.CanvasLeft-g.PlotX)/g.PlotW*float64(to-from))
		want := an.Words(an.Verdict(0, kind, pat, 0))
		must(t, chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, px, g.CanvasTop+ys[kind])))
		// The tooltip answers the pointer's last move when the engine has:
		// until then it may still say the band before's.
		tip, err := chromedp.Run(tab, chromedp.Poll[string](fmt.Sprintf(`(() => { const e = document.querySelector("#timeline .tl-tip"); const t = e && e.style.display !== "none" ? e.textContent : ""; return t.split("\n").some(l => l.includes(%q) && l.endsWith(%q)) ? t : ""; })()`, "w4-cut.ts.http", want),
			chromedp.WithPollingTimeout(pageWait)))
		if err != nil {
			tip, _ = chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("#timeline .tl-tip")?.textContent ?? ""`))
		}
		line := ""
		for _, l := range strings.Split(tip, "\n") {
			if strings.Contains(l, "w4-cut.ts.http") {
				line = l
			}
		}
		if !strings.HasSuffix(line, want) || !strings.HasPrefix(want, map[timeline.CursorKind]string{timeline.BookmarkAware: "refused", timeline.BookmarkIgnoring: "refused", timeline.HadBookmarks: "accepted"}[kind]) {
			t.Errorf("%v band at 01:04:50 reads %q, want it to end %q", kind, line, want)
		}
	}
	screenshot(t, tab, "reconnect-hover")
}

// TestBrowserVerdictEndsOnAWholeLine: testdata/fleet's verdict, unfolded
// in a window 900x850, has more lines than its box shows. The box ends
// between two lines, none cut through, and a More button says that more
// follow; More shows the verdict whole, and Less its few lines again.
// The box ended mid-glyph, with no sign of the lines under it but a
// scroll bar that may show only while the box scrolls.
func TestBrowserVerdictEndsOnAWholeLine(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	tab := s.openSample(t, "w3-then-resume.ts.http")
	must(t, chromedp.Do(tab, chromedp.EmulateViewport(900, 850)))
	dropRead(t, tab, fleetCaptures(t)...)
	type box struct {
		Folded    bool     `json:"folded"`
		Overflows bool     `json:"overflows"`
		Cut       []string `json:"cut"`
		More      string   `json:"more"`
	}
	// The lines of the box's text that its bottom edge cuts through.
	const read = `(() => {
		const v = document.querySelector("#verdict"), b = document.querySelector("#verdict .verdict-lines");
		if (!v || !b) return null;
		const bottom = b.getBoundingClientRect().bottom, cut = [];
		for (const p of b.querySelectorAll("p")) {
			const r = document.createRange();
			r.selectNodeContents(p);
			for (const l of r.getClientRects()) {
				if (l.top < bottom - 0.5 && l.bottom > bottom + 0.5) cut.push(p.dataset.topic + ": line " + l.top + "-" + l.bottom + " by the box's bottom at " + bottom);
			}
		}
		const more = document.querySelector("#verdict-more");
		return {folded: v.classList.contains("folded"), overflows: b.scrollHeight > b.clientHeight + 1, cut, more: more ? more.textContent : ""};
	})()`
	get := func(ok func(box) bool) box {
		t.Helper()
		var got *box
		if !until(pageWait, func() bool {
			var err error
			got, err = chromedp.Run(tab, chromedp.Evaluate[*box](read))
			must(t, err)
			return got != nil && ok(*got)
		}) {
			t.Fatalf("the verdict's box: %+v", got)
		}
		return *got
	}
	got := get(func(b box) bool { return b.Overflows })
	if got.Folded {
		t.Fatal("the verdict starts folded at 900x850: the test tests nothing")
	}
	if len(got.Cut) > 0 {
		t.Errorf("the verdict's box ends through a line: %q", got.Cut)
	}
	got = get(func(b box) bool { return b.More != "" })
	if !strings.HasPrefix(got.More, "More") {
		t.Errorf("the verdict's box overflows, and its button reads %q", got.More)
	}
	screenshot(t, tab, "verdict-more")
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#verdict-more"))))
	got = get(func(b box) bool { return !b.Overflows })
	if !strings.HasPrefix(got.More, "Less") || len(got.Cut) > 0 {
		t.Errorf("More shows the verdict whole, its button reading %q, lines cut %q", got.More, got.Cut)
	}
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#verdict-more"))))
	got = get(func(b box) bool { return b.Overflows && strings.HasPrefix(b.More, "More") })
	if len(got.Cut) > 0 {
		t.Errorf("Less: the verdict's box ends through a line: %q", got.Cut)
	}
}

// TestBrowserFoldedVerdictCutsAtAWord: w4's verdict folded in a window
// 800 px wide shows its first line cut after a whole word, with an
// ellipsis, on one line, and the whole line in its tooltip; the page
// still holds the line whole. The browser's own ellipsis (a line clamp)
// falls where the characters run out, mid-word, and a date cut so reads
// as another.
func TestBrowserFoldedVerdictCutsAtAWord(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	tab := s.openSample(t, "w4-then-resume.ts.http")
	must(t, chromedp.Do(tab, chromedp.EmulateViewport(800, 900)))
	whole := nativeSummary(t, []string{"w4-then-resume.ts.http"}, []string{"samples/w4-then-resume.ts.http"})[0]
	waitFitted(t, tab)
	must(t, chromedp.Do(tab, chromedp.Click(chromedp.ID("verdict-fold"))))
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`!!document.querySelector("#verdict.folded")`, chromedp.WithPollingTimeout(pageWait))); err != nil {
		t.Fatalf("the verdict's Fold did not fold it: %v", err)
	}
	type line struct {
		Shown  string  `json:"shown"`  // the characters that show, and the ellipsis after them
		Text   string  `json:"text"`   // the line's text on the page
		Title  string  `json:"title"`  // its tooltip
		Lines  float64 `json:"lines"`  // its height, in lines
		Room   float64 `json:"room"`   // the box's width
		WholeW float64 `json:"wholeW"` // the whole line's, on one line
	}
	// A character shows when its box ends inside the box that clips the
	// line's words, on its first line; the ellipsis, the browser's own
	// aside, is the paragraph's ::after.
	read := fmt.Sprintf(`(() => {
		const p = document.querySelector("#verdict.folded p");
		if (!p) return null;
		const clip = p.firstElementChild || p, text = clip.firstChild, box = clip.getBoundingClientRect(), r = document.createRange();
		let n = 0;
		for (; n < text.length; n++) {
			r.setStart(text, n);
			r.setEnd(text, n + 1);
			const c = r.getBoundingClientRect();
			if (c.right > box.right + 0.5 || c.top > box.top + 2) break;
		}
		const m = document.createElement("span");
		m.style.cssText = "position: absolute; white-space: pre";
		m.textContent = %q;
		p.append(m);
		const wholeW = m.getBoundingClientRect().width;
		m.remove();
		const cs = getComputedStyle(p);
		return {shown: text.data.slice(0, n) + (getComputedStyle(p, "::after").content.startsWith('"…"') ? "…" : ""), text: p.textContent, title: p.title,
			lines: p.getBoundingClientRect().height / parseFloat(cs.lineHeight),
			room: p.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight), wholeW};
	})()`, whole)
	// atWord says whether what shows is the line's start up to a space,
	// without a comma before it, and an ellipsis.
	atWord := func(shown string) bool {
		kept, ok := strings.CutSuffix(shown, "…")
		for i := range len(whole) {
			if ok && whole[i] == ' ' && strings.TrimRight(whole[:i], ",;:(") == kept {
				return true
			}
		}
		return false
	}
	var got *line
	if !until(pageWait, func() bool {
		var err error
		got, err = chromedp.Run(tab, chromedp.Evaluate[*line](read))
		must(t, err)
		// The cut follows the box's width, which settles as the page
		// lays out again for the verdict folded.
		return got != nil && atWord(got.Shown) && got.Lines < 1.5
	}) {
		t.Fatalf("folded at 800 px, the verdict's first line does not show on one line, cut after a whole word, with an ellipsis: %+v\nthe line: %q", got, whole)
	}
	screenshot(t, tab, "verdict-folded-800")
	if got.WholeW <= got.Room {
		t.Fatalf("the whole first line (%.0f px) fits the folded box (%.0f px): the test tests nothing", got.WholeW, got.Room)
	}
	if got.Text != whole || !strings.HasPrefix(got.Title, whole) {
		t.Errorf("folded, the page holds the line %q and its tooltip reads %q, not the whole line %q", got.Text, got.Title, whole)
	}
}
