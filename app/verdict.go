package app

import (
	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// renderVerdict shows the report's summary, the verdict in plain words,
// as the first thing under the header, above the timeline, where it
// stays in view: what a person on call reads before any timeline or
// table. It is the same text the CLI prints. It folds to its first line.
func (p *Page) renderVerdict() goapp.UI {
	var lines []goapp.UI
	if r := p.analysis.report; r != nil {
		for _, l := range r.Summary {
			lines = append(lines, goapp.P().DataSet("topic", l.Topic).Text(l.Text))
		}
	}
	fold := "Fold"
	if p.verdictFolded {
		fold = "Unfold"
	}
	return goapp.Section().ID("verdict").Class("verdict").Class(classIf(p.verdictFolded, "folded")).Aria("label", "Verdict").Body(
		goapp.Button().ID("verdict-fold").Class("quiet fold").Aria("expanded", !p.verdictFolded).
			Title("Fold the verdict to its first line, or show it whole").Text(fold).OnClick(p.onFoldVerdict),
		goapp.Div().Class("verdict-lines").Body(lines...),
	)
}

func (p *Page) onFoldVerdict(ctx goapp.Context, e goapp.Event) {
	p.verdictFolded = !p.verdictFolded
	relayout(ctx)
}
