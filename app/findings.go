package app

import (
	"fmt"
	"strings"
	"time"

	"watchlens/app/words"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// focusSpan is how much time around a finding the view shows when the user
// follows it.
const focusSpan = 2 * time.Minute

// renderFindings is the report of the timeline as a panel: the bookmarks
// what-if, the observed errors, the red zones, the resumes checked against
// the models and the anomalies. Each finding with a time moves the view.
func (p *Page) renderFindings() goapp.UI {
	w := p.analysis.report.WhatIf
	f := p.findings()
	return goapp.Section().ID("findings").Class("panel").Body(
		goapp.H2().Text("Findings"),
		goapp.Dl().ID("whatif").Class("whatif").Body(
			goapp.Dt().Text("reconnects in the capture (a watch followed by another)"),
			goapp.Dd().DataSet("whatif", "reconnects").Text(w.Reconnects),
			goapp.Dt().Text("relists needed with bookmarks"),
			goapp.Dd().DataSet("whatif", "with").Text(fmt.Sprintf("%d, at risk %d", w.RelistsWithBookmarks, w.AtRiskWith)),
			goapp.Dt().Text("relists needed without bookmarks"),
			goapp.Dd().DataSet("whatif", "without").Text(fmt.Sprintf("%d, at risk %d", w.RelistsWithoutBookmarks, w.AtRiskWithout)),
			goapp.Dt().Text("relists had it asked for bookmarks"),
			goapp.Dd().DataSet("whatif", "had").Text(fmt.Sprintf("%d, at risk %d, unknown %d", w.RelistsHad, w.AtRiskHad, w.UnknownHad)),
			goapp.Dt().Text("relists bookmarks saved"),
			goapp.Dd().DataSet("whatif", "saved").Text(fmt.Sprintf("%d (%.1f%%)", w.RelistsSaved, w.PercentSaved)),
			goapp.Dt().Text("cursor age at the oldest reconnect, with / without bookmarks"),
			goapp.Dd().Text(fmt.Sprintf("%s / %s", ageText(w.LongestAgeWithSeconds), ageText(w.LongestAgeWithoutSeconds))),
			goapp.Dt().Text("longest a cursor went unconfirmed anywhere in the capture"),
			goapp.Dd().DataSet("whatif", "longest").Text(p.longestAges()),
		),
		findingList("Observed errors", "errors", f.errors, p.onFocus),
		findingList("Red zones (a resume from here gets 410)", "zones", f.zones, p.onFocus),
		findingList("Resumes in the capture, against the model", "resumes", f.resumes, p.onFocus),
		findingList("Gaps (cursor still while the cluster moved)", "gaps", f.gaps, p.onFocus),
		findingList("Anomalies", "anomalies", f.anomalies, p.onFocus),
	)
}

// longestAges names, per file and recorded cursor, the longest stretch
// it went unconfirmed: the report's cursors, apart from the age at a
// reconnect above.
func (p *Page) longestAges() string {
	var parts []string
	many := len(p.analysis.report.Files) > 1
	for _, c := range p.analysis.report.Cursors {
		if c.Cursor == "had-bookmarks" {
			continue
		}
		name := c.Cursor
		if many {
			name = words.Isolated(c.File) + " " + name
		}
		parts = append(parts, name+" "+ageText(c.LongestAgeSeconds))
	}
	return strings.Join(parts, "; ")
}

// finding is one line of the findings panel: when it happened and what.
type finding struct {
	time  string // RFC 3339, empty when the capture has no clock
	event int    // the event it is about, -1 when it is about no one event
	text  string
}

// findingLists are the findings that pass the page's filters.
type findingLists struct {
	errors, zones, resumes, gaps, anomalies []finding
}

// findings gathers the report's findings that pass the filters. Errors,
// zones, resumes and gaps belong to a file's watch, so only the kind filter
// applies to them (a watch's cursor does not depend on which objects the
// user looks at); an anomaly about one event follows every filter.
func (p *Page) findings() findingLists {
	r, tl, flt := p.analysis.report, p.capture.tl, p.view.filter
	fileOK := map[string]bool{}
	for _, f := range tl.Files {
		fileOK[f.Name] = flt.Kind == "" || f.Kind == flt.Kind
	}
	var out findingLists
	for _, e := range r.Errors {
		if fileOK[e.File] {
			out.errors = append(out.errors, finding{e.Time, -1, fmt.Sprintf("%s session %d: %d %s: %s", e.File, e.Session, e.Code, e.Reason, e.Message)})
		}
	}
	for _, z := range r.Zones {
		if fileOK[z.File] {
			out.zones = append(out.zones, finding{z.FromTime, -1, fmt.Sprintf("%s, %s cursor, %s, RV %s..%s: %s", z.File, z.Cursor, z.Model, z.FromRV, z.ToRV, z.Reason)})
		}
	}
	for _, s := range r.Resumes {
		if fileOK[s.File] {
			agree := "agrees"
			if !s.Agree {
				agree = "DISAGREES"
			}
			out.resumes = append(out.resumes, finding{s.Time, -1, fmt.Sprintf("%s session %d from RV %s: server %s, model %s (%s): %s", s.File, s.Session, s.RV, s.Observed, s.Predicted, agree, s.Reason)})
		}
	}
	for _, g := range r.Gaps {
		if fileOK[g.File] {
			out.gaps = append(out.gaps, finding{g.From, -1, fmt.Sprintf("%s, %s cursor at RV %s while the head reached %s: %s, %s RVs behind", words.Isolated(g.File), g.Cursor, g.RV, g.HeadRV, ageText(g.AgeSeconds), g.AgeRVs)})
		}
	}
	// The report lists the timeline's anomalies in the same order.
	for i, a := range r.Anomalies {
		ev := tl.Anomalies[i].Event
		if ev >= 0 {
			e := tl.Event(ev)
			if !flt.Event(e.Type) || (e.Lane >= 0 && !flt.Lane(tl.Lanes[e.Lane])) {
				continue
			}
		} else if !fileOK[a.File] {
			continue
		}
		out.anomalies = append(out.anomalies, finding{a.Time, ev, fmt.Sprintf("%s: %s (RV %s): %s", words.Isolated(a.File), a.Kind, a.RV, words.VisibleControls(a.Message))})
	}
	return out
}

// maxFindingsShown keeps a capture with thousands of anomalies from
// building thousands of DOM nodes; the exports have them all.
const maxFindingsShown = 200

func findingList(title, id string, items []finding, onFocus func(finding) goapp.EventHandler) goapp.UI {
	n := len(items)
	shown := items[:min(n, maxFindingsShown)]
	return goapp.Details().Class("findings").DataSet("findings", id).DataSet("count", n).Open(n > 0 && n <= 20).Body(
		goapp.Summary().Text(fmt.Sprintf("%s: %d", title, n)),
		goapp.Ul().Body(
			goapp.Range(shown).Slice(func(i int) goapp.UI {
				f := shown[i]
				return goapp.Li().Body(
					goapp.If(f.time != "", func() goapp.UI {
						return goapp.Button().Class("link").Title("Show this moment on the timeline").Text(shortTime(f.time)).OnClick(onFocus(f))
					}),
					goapp.Span().Text(" "+f.text),
				)
			}),
		),
	)
}

// onFocus moves the view to a finding's moment, and selects the event it is
// about, if any.
func (p *Page) onFocus(f finding) goapp.EventHandler {
	return func(ctx goapp.Context, e goapp.Event) {
		if t, err := time.Parse(time.RFC3339Nano, f.time); err == nil && !p.view.axisRV {
			p.view.from = t.Add(-focusSpan / 2).UnixNano()
			p.view.to = t.Add(focusSpan / 2).UnixNano()
		}
		if f.event >= 0 {
			p.selectEvent(ctx, f.event)
		}
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
