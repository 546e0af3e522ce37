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

func (v *Verdict) OnMount(ctx goapp.Context)  { v.measure() }
func (v *Verdict) OnResize(ctx goapp.Context) { v.measure() }

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
	return goapp.Section().ID("verdict").Class("verdict").Class(classIf(v.folded(), "folded")).Aria("label", "Verdict").Body(
		goapp.Button().ID("verdict-fold").Class("quiet fold").Aria("expanded", !v.folded()).
			Title("Fold the verdict to its first line, or show it whole").Text(fold).OnClick(v.onFold),
		goapp.Div().Class("verdict-lines").Body(lines...),
	)
}

func (v *Verdict) onFold(ctx goapp.Context, e goapp.Event) {
	if v.folded() {
		v.choice = foldUnfolded
	} else {
		v.choice = foldFolded
	}
	relayout(ctx)
}

func (v *Verdict) onUnfold(ctx goapp.Context, e goapp.Event) {
	v.choice = foldUnfolded
	relayout(ctx)
}
