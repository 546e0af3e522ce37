package app

import (
	"fmt"
	"time"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// focusSpan is how much time around a finding the view shows when the user
// follows it.
const focusSpan = 2 * time.Minute

// renderFindings is the report of the timeline as a panel: the bookmarks
// what-if, the observed errors, the red zones, the resumes checked against
// the models and the anomalies. Each finding with a time moves the view.
func (p *Page) renderFindings() goapp.UI {
	r := p.analysis.report
	w := r.WhatIf
	return goapp.Section().ID("findings").Class("panel").Body(
		goapp.H2().Text("Findings"),
		goapp.Dl().ID("whatif").Class("whatif").Body(
			goapp.Dt().Text("reconnects in the capture"),
			goapp.Dd().DataSet("whatif", "reconnects").Text(w.Reconnects),
			goapp.Dt().Text("relists needed with bookmarks"),
			goapp.Dd().DataSet("whatif", "with").Text(w.RelistsWithBookmarks),
			goapp.Dt().Text("relists needed without bookmarks"),
			goapp.Dd().DataSet("whatif", "without").Text(w.RelistsWithoutBookmarks),
			goapp.Dt().Text("relists bookmarks saved"),
			goapp.Dd().DataSet("whatif", "saved").Text(fmt.Sprintf("%d (%.1f%%)", w.RelistsSaved, w.PercentSaved)),
			goapp.Dt().Text("longest cursor age, with / without bookmarks"),
			goapp.Dd().Text(fmt.Sprintf("%s / %s", ageText(w.LongestAgeWithSeconds), ageText(w.LongestAgeWithoutSeconds))),
		),
		findingList("Observed errors", "errors", len(r.Errors), func(i int) finding {
			e := r.Errors[i]
			return finding{e.Time, fmt.Sprintf("%s session %d: %d %s: %s", e.File, e.Session, e.Code, e.Reason, e.Message)}
		}, p.onFocus),
		findingList("Red zones (a resume from here gets 410)", "zones", len(r.Zones), func(i int) finding {
			z := r.Zones[i]
			return finding{z.FromTime, fmt.Sprintf("%s, %s cursor, %s, RV %s..%s: %s", z.File, z.Cursor, z.Model, z.FromRV, z.ToRV, z.Reason)}
		}, p.onFocus),
		findingList("Resumes in the capture, against the model", "resumes", len(r.Resumes), func(i int) finding {
			s := r.Resumes[i]
			agree := "agrees"
			if !s.Agree {
				agree = "DISAGREES"
			}
			return finding{s.Time, fmt.Sprintf("%s session %d from RV %s: server %s, model %s (%s): %s", s.File, s.Session, s.RV, s.Observed, s.Predicted, agree, s.Reason)}
		}, p.onFocus),
		findingList("Gaps (cursor still while the cluster moved)", "gaps", len(r.Gaps), func(i int) finding {
			g := r.Gaps[i]
			return finding{g.From, fmt.Sprintf("%s, %s cursor at RV %s while the head reached %s: %s, %s RVs behind", g.File, g.Cursor, g.RV, g.HeadRV, ageText(g.AgeSeconds), g.AgeRVs)}
		}, p.onFocus),
		findingList("Anomalies", "anomalies", len(r.Anomalies), func(i int) finding {
			a := r.Anomalies[i]
			return finding{a.Time, fmt.Sprintf("%s: %s (RV %s): %s", a.File, a.Kind, a.RV, a.Message)}
		}, p.onFocus),
	)
}

// finding is one line of the findings panel: when it happened and what.
type finding struct {
	time string // RFC 3339, empty when the capture has no clock
	text string
}

func findingList(title, id string, n int, item func(int) finding, onFocus func(string) goapp.EventHandler) goapp.UI {
	return goapp.Details().Class("findings").DataSet("findings", id).Open(n > 0 && n <= 20).Body(
		goapp.Summary().Text(fmt.Sprintf("%s: %d", title, n)),
		goapp.Ul().Body(
			goapp.Range(make([]struct{}, min(n, 200))).Slice(func(i int) goapp.UI {
				f := item(i)
				return goapp.Li().Body(
					goapp.If(f.time != "", func() goapp.UI {
						return goapp.Button().Class("link").Title("Show this moment on the timeline").Text(shortTime(f.time)).OnClick(onFocus(f.time))
					}),
					goapp.Span().Text(" "+f.text),
				)
			}),
		),
	)
}

// onFocus moves the view to a finding's moment.
func (p *Page) onFocus(when string) goapp.EventHandler {
	return func(ctx goapp.Context, e goapp.Event) {
		t, err := time.Parse(time.RFC3339Nano, when)
		if err != nil || p.view.axisRV {
			return
		}
		p.view.from = t.Add(-focusSpan / 2).UnixNano()
		p.view.to = t.Add(focusSpan / 2).UnixNano()
		p.saveURL(ctx)
		ctx.ScrollTo("timeline-panel")
	}
}

func shortTime(rfc string) string {
	t, err := time.Parse(time.RFC3339Nano, rfc)
	if err != nil {
		return rfc
	}
	return t.UTC().Format("15:04:05.000")
}

func ageText(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(time.Millisecond).String()
}
