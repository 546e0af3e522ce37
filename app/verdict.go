package app

import (
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Verdict shows the report's summary, the verdict in plain words, as the
// first thing under the header, above the timeline, where it stays in
// view: what a person on call reads before any timeline or table. It is
// the same text the CLI prints. It folds to its first line.
type Verdict struct {
	goapp.Compo
	Lines []timeline.SummaryLine

	folded bool
}

func (v *Verdict) Render() goapp.UI {
	lines := make([]goapp.UI, len(v.Lines))
	for i, l := range v.Lines {
		lines[i] = goapp.P().DataSet("topic", l.Topic).Text(l.Text)
	}
	fold := "Fold"
	if v.folded {
		fold = "Unfold"
	}
	return goapp.Section().ID("verdict").Class("verdict").Class(classIf(v.folded, "folded")).Aria("label", "Verdict").Body(
		goapp.Button().ID("verdict-fold").Class("quiet fold").Aria("expanded", !v.folded).
			Title("Fold the verdict to its first line, or show it whole").Text(fold).OnClick(v.onFold),
		goapp.Div().Class("verdict-lines").Body(lines...),
	)
}

func (v *Verdict) onFold(ctx goapp.Context, e goapp.Event) {
	v.folded = !v.folded
	relayout(ctx)
}
