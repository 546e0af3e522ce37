package app

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Verdict shows the report's summary, the verdict in plain words, as the
// first thing under the header, above the timeline, where it stays in
// view: what a person on call reads before any timeline or table. It is
// the same text the CLI prints. It folds to its first line, by itself
// when the window is short (the timeline and the panel need the room
// more), and a click on the folded line shows it whole.
type Verdict struct {
	goapp.Compo
	Lines []timeline.SummaryLine

	// choice is the user's: foldAuto until they fold or unfold it.
	choice foldChoice
	short  bool // the window is short or narrow (shortWindow, narrowWindow)
	// more says the lines overflow the few the box shows, unfolded (a
	// More button then shows them whole), and whole that the user asked
	// for them all.
	more, whole bool
	// cutW is how much of the first line, cutOf, the folded box shows,
	// CSS px, before an ellipsis (see foldedText); 0 for all of it.
	cutW  float64
	cutOf string
}

type foldChoice int

const (
	foldAuto foldChoice = iota
	foldFolded
	foldUnfolded
)

// The verdict starts folded in a window under shortWindow CSS px high
// (at 800 px the whole verdict of two files, five lines and more, left
// the timeline under 200 px above a panel showing an event), or under
// narrowWindow wide (a phone, where it filled the first screen).
const (
	shortWindow  = 820
	narrowWindow = 768
)

func (v *Verdict) OnMount(ctx goapp.Context) {
	v.measure()
	v.checkMore(ctx)
}

func (v *Verdict) OnResize(ctx goapp.Context) {
	v.measure()
	v.checkMore(ctx)
}

func (v *Verdict) OnUpdate(ctx goapp.Context) { v.checkMore(ctx) }

// checkMore reads, once the verdict is laid out, whether its lines
// overflow its box, and offers More if they do. The box scrolls, but a
// scroll bar may show only while it scrolls (an overlay scroll bar), and
// its last line read as the verdict's end.
func (v *Verdict) checkMore(ctx goapp.Context) {
	ctx.Defer(func(ctx goapp.Context) {
		box := goapp.Window().GetElementByID("verdict-lines")
		if !box.Truthy() {
			return
		}
		if v.folded() && len(v.Lines) > 0 {
			line := v.Lines[0].Text
			if w := foldedWidth(box.Get("firstElementChild"), line); w != v.cutW || line != v.cutOf {
				v.cutW, v.cutOf = w, line
				ctx.Update()
			}
		}
		if v.whole {
			return
		}
		more := !v.folded() && box.Get("scrollHeight").Int() > box.Get("clientHeight").Int()+1
		if more != v.more {
			v.more = more
			ctx.Update()
		}
	})
}

// foldedText is line as the folded verdict shows it, on one line: whole
// when fits says it fits, else its longest run of words that fits with
// an ellipsis after it. The browser's own cut of an overflowing line
// falls mid-word, where a date or a count cut short reads as another
// ("2026-12-01" as "202…"). A line whose first word does not fit is left whole,
// for the browser to cut.
func foldedText(line string, fits func(string) bool) string {
	if fits(line) {
		return line
	}
	var ends []int // where a word ends, before a space
	for i := 1; i < len(line); i++ {
		if line[i] == ' ' && line[i-1] != ' ' {
			ends = append(ends, i)
		}
	}
	cut := func(k int) string { return strings.TrimRight(line[:ends[k]], ",;:(") + "…" }
	n := sort.Search(len(ends), func(k int) bool { return !fits(cut(k)) })
	if n == 0 {
		return line
	}
	return cut(n - 1)
}

// foldedWidth is how much of line, CSS px, the folded verdict's element
// p shows before an ellipsis (foldedText's cut, measured as the page lays
// it out, in p's font against p's width), 0 for all of it.
func foldedWidth(p goapp.Value, line string) float64 {
	if !p.Truthy() {
		return 0
	}
	style := goapp.Window().Call("getComputedStyle", p)
	px := func(name string) float64 {
		v, _ := strconv.ParseFloat(strings.TrimSuffix(style.Get(name).String(), "px"), 64)
		return v
	}
	room := p.Get("clientWidth").Float() - px("paddingLeft") - px("paddingRight")
	m := goapp.Window().Get("document").Call("createElement", "span")
	m.Get("style").Set("cssText", "position: absolute; visibility: hidden; white-space: pre")
	p.Call("append", m)
	defer m.Call("remove")
	width := func(s string) float64 {
		m.Set("textContent", s)
		return m.Call("getBoundingClientRect").Get("width").Float()
	}
	cut := foldedText(line, func(s string) bool { return width(s) <= room })
	if cut == line {
		return 0
	}
	return math.Ceil(width(strings.TrimSuffix(cut, "…")))
}

func (v *Verdict) measure() {
	w, h := goapp.Window().Size()
	v.short = (h > 0 && h < shortWindow) || (w > 0 && w < narrowWindow)
}

func (v *Verdict) folded() bool {
	if v.choice == foldAuto {
		return v.short && len(v.Lines) > 1
	}
	return v.choice == foldFolded
}

func (v *Verdict) Render() goapp.UI {
	lines := make([]goapp.UI, len(v.Lines))
	for i, l := range v.Lines {
		p := goapp.P().DataSet("topic", l.Topic)
		if i > 0 {
			lines[i] = p.Text(l.Text)
			continue
		}
		// The first line's words are in a box of their own, which the
		// folded verdict cuts to the width foldedWidth measured, with an
		// ellipsis after it; the line stays whole on the page, for a
		// screen reader, and a copy, to read.
		text := goapp.Span().Text(l.Text)
		if v.folded() {
			cut := v.cutOf == l.Text && v.cutW > 0
			if cut {
				text = text.Style("max-width", strconv.FormatFloat(v.cutW, 'f', -1, 64)+"px")
			}
			p = p.Class(classIf(cut, "cut")).Title(l.Text + "\n\nClick to show the whole verdict.").OnClick(v.onUnfold)
		}
		lines[i] = p.Body(text)
	}
	fold := "Fold"
	if v.folded() {
		fold = "Unfold"
	}
	return goapp.Section().ID("verdict").Class("verdict").Class(classIf(v.folded(), "folded")).Class(classIf(v.whole && !v.folded(), "whole")).
		Aria("label", "Verdict").Body(
		goapp.Button().ID("verdict-fold").Class("quiet fold").Aria("expanded", !v.folded()).
			Title("Fold the verdict to its first line, or show it whole").Text(fold).OnClick(v.onFold),
		goapp.If(!v.folded() && (v.more || v.whole), func() goapp.UI {
			text, title := "More ▾", "Show the whole verdict: more lines follow"
			if v.whole {
				text, title = "Less ▴", "Keep the verdict to a few lines, which scroll"
			}
			return goapp.Button().ID("verdict-more").Class("quiet more").Aria("expanded", v.whole).Aria("controls", "verdict-lines").
				Title(title).Text(text).OnClick(v.onMore)
		}),
		goapp.Div().ID("verdict-lines").Class("verdict-lines").Body(lines...),
	)
}

// onMore shows the verdict whole, or again in its few lines.
func (v *Verdict) onMore(ctx goapp.Context, e goapp.Event) {
	v.whole = !v.whole
	v.checkMore(ctx)
	relayout(ctx)
}

func (v *Verdict) onFold(ctx goapp.Context, e goapp.Event) {
	if v.folded() {
		v.choice = foldUnfolded
	} else {
		v.choice = foldFolded
	}
	v.checkMore(ctx)
	relayout(ctx)
}

func (v *Verdict) onUnfold(ctx goapp.Context, e goapp.Event) {
	v.choice = foldUnfolded
	v.checkMore(ctx)
	relayout(ctx)
}
