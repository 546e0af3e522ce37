package app

import (
	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// renderVerdict shows the report's summary, the verdict in plain words,
// as the first thing under the header: what a person on call reads
// before any timeline or table. It is the same text the CLI prints.
func (p *Page) renderVerdict() goapp.UI {
	var lines []goapp.UI
	if r := p.analysis.report; r != nil {
		for _, l := range r.Summary {
			lines = append(lines, goapp.P().DataSet("topic", l.Topic).Text(l.Text))
		}
	}
	return goapp.Section().ID("verdict").Class("verdict").Aria("label", "Verdict").Body(lines...)
}
