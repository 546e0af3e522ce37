package app

import (
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
		if !box.Truthy() || v.whole {
			return
		}
		more := !v.folded() && box.Get("scrollHeight").Int() > box.Get("clientHeight").Int()+1
		if more != v.more {
			v.more = more
			ctx.Update()
		}
	})
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
		p := goapp.P().DataSet("topic", l.Topic).Text(l.Text)
		if i == 0 && v.folded() {
			p = p.Title("Show the whole verdict").OnClick(v.onUnfold)
		}
		lines[i] = p
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
