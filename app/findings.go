package app

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"watchlens/app/words"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// focusSpan is how much time around a finding the view shows when the user
// follows it.
const focusSpan = 2 * time.Minute

// FindingsPanel is the Findings tab: the model's findings, the bookmarks
// what-if, the observed errors, the red zones, the resumes checked against
// the models, the gaps and the anomalies, those the filters keep. Each
// finding with a time moves the view there (actionFocus).
type FindingsPanel struct {
	goapp.Compo
	Timeline *timeline.Timeline
	Analysis *timeline.Analysis
	Filter   timeline.Filter
	// Kept is which lists the user opened or unfolded, which stays while
	// another tab is shown; nil keeps nothing.
	Kept *findingsKept
}

// findingsKept is what the Findings tab keeps while another tab is
// shown, by list.
type findingsKept struct {
	open     map[string]bool // opened (true) or closed (false) by the user, against the default
	unfolded map[string]bool // shown whole, up to maxFindingsShown
}

// actionFocus: the user followed a finding; its value is the finding's
// focus.
const actionFocus = "findings/focus"

// focus is where a finding takes the view.
type focus struct {
	at    int64 // Unix ns
	timed bool  // false when the capture has no clock: the range stays
	event int   // the event to select, -1 for none
}

func (p *FindingsPanel) Render() goapp.UI {
	w := p.Analysis.WhatIf
	f := p.findings()
	return goapp.Section().ID("findings").Class("panel").Body(
		goapp.H2().Text("Findings"),
		goapp.Dl().ID("whatif").Class("whatif").Body(
			goapp.Dt().Text("reconnects in the capture (a watch followed by another)"),
			goapp.Dd().DataSet("whatif", "reconnects").Text(w.Reconnects),
			goapp.Dt().Text("relists with the bookmarks received"),
			goapp.Dd().DataSet("whatif", "with").Text(fmt.Sprintf("%d, at risk %d", w.RelistsWith, w.AtRiskWith)),
			goapp.Dt().Text("relists ignoring bookmarks"),
			goapp.Dd().DataSet("whatif", "without").Text(fmt.Sprintf("%d, at risk %d", w.RelistsWithout, w.AtRiskWithout)),
			goapp.Dt().Text("relists had it asked for bookmarks"),
			goapp.Dd().DataSet("whatif", "had").Text(fmt.Sprintf("%d, at risk %d, unknown %d", w.RelistsHad, w.AtRiskHad, w.UnknownHad)),
			goapp.Dt().Text("relists saved by the bookmarks received"),
			goapp.Dd().DataSet("whatif", "saved").Text(fmt.Sprintf("%d (%.1f%%)", w.Saved, w.SavedPercent)),
			goapp.Dt().Text("cursor age at the oldest reconnect, with / without bookmarks"),
			goapp.Dd().Text(fmt.Sprintf("%s / %s", timeline.FormatDuration(w.LongestAgeWith), timeline.FormatDuration(w.LongestAgeWithout))),
			goapp.Dt().Text("longest a cursor went unconfirmed anywhere in the capture"),
			goapp.Dd().DataSet("whatif", "longest").Text(p.longestAges()),
		),
		p.findingList("Observed errors", "errors", f.errors),
		p.findingList("Red zones (a resume from here gets 410)", "zones", f.zones),
		p.findingList("Resumes in the capture, against the model", "resumes", f.resumes),
		p.findingList("Gaps (cursor still while the cluster moved)", "gaps", f.gaps),
		p.findingList("Anomalies", "anomalies", f.anomalies),
	)
}

// longestAges names, per file and recorded cursor, the longest stretch
// it went unconfirmed, apart from the age at a reconnect above.
func (p *FindingsPanel) longestAges() string {
	var parts []string
	tl := p.Timeline
	many := len(tl.Files) > 1
	for _, c := range p.Analysis.Ages {
		if c.Kind == timeline.HadBookmarks {
			continue
		}
		name := c.Kind.String()
		if many {
			name = words.Isolated(tl.Files[c.File].Name) + " " + name
		}
		parts = append(parts, name+" "+timeline.FormatDuration(c.MaxAge))
	}
	return strings.Join(parts, "; ")
}

// finding is one line of the findings panel: when it happened, the event
// it is about (-1 when it is about no one event), and what.
type finding struct {
	focus
	text string
}

// findingLists are the findings that pass the page's filters.
type findingLists struct {
	errors, zones, resumes, gaps, anomalies []finding
}

// findings gathers the model's findings that pass the filters. Errors,
// zones, resumes and gaps belong to a file's watch, so only the kind filter
// applies to them (a watch's cursor does not depend on which objects the
// user looks at); an anomaly about one event follows every filter.
func (p *FindingsPanel) findings() findingLists {
	an, tl, flt := p.Analysis, p.Timeline, p.Filter
	fileOK := make([]bool, len(tl.Files))
	for i, f := range tl.Files {
		fileOK[i] = flt.Kind == "" || f.Kind == flt.Kind
	}
	at := func(file int, t int64, event int, text string) finding {
		return finding{focus{at: t, timed: tl.Files[file].Clock != timeline.ClockNone, event: event}, text}
	}
	var out findingLists
	for _, e := range tl.ObservedErrors() {
		s := tl.Sessions[e.Session]
		if fileOK[s.File] {
			out.errors = append(out.errors, at(s.File, e.T, -1, fmt.Sprintf("%s session %d: %d %s: %s", tl.Files[s.File].Name, s.Index, e.Status.Code, e.Status.Reason, e.Status.Message)))
		}
	}
	for _, z := range an.Zones {
		if fileOK[z.File] {
			out.zones = append(out.zones, at(z.File, z.From, -1, fmt.Sprintf("%s, %s cursor, %s, RV %s..%s: %s", tl.Files[z.File].Name, z.Kind, z.Model, timeline.FormatRV(z.FromRV), timeline.FormatRV(z.ToRV), z.Reason)))
		}
	}
	for _, r := range an.Resumes {
		s := tl.Sessions[r.Session]
		if fileOK[s.File] {
			agree := "agrees"
			if r.Observed != r.Predicted.Outcome {
				agree = "DISAGREES"
			}
			out.resumes = append(out.resumes, at(s.File, s.Start, -1, fmt.Sprintf("%s session %d from RV %s: server %s, model %s (%s): %s", tl.Files[s.File].Name, s.Index, r.RV, r.Observed, r.Predicted.Outcome, agree, r.Predicted.Reason)))
		}
	}
	// The longest gaps first: they are the ones to read.
	gaps := slices.Clone(an.Gaps)
	slices.SortStableFunc(gaps, func(a, b timeline.Gap) int { return cmp.Compare(b.AgeTime, a.AgeTime) })
	for _, g := range gaps {
		if fileOK[g.File] {
			out.gaps = append(out.gaps, at(g.File, g.From, -1, fmt.Sprintf("%s, %s cursor at RV %s while the head reached %s: %s, %s RVs behind", words.Isolated(tl.Files[g.File].Name), g.Kind, timeline.FormatRV(g.RV), timeline.FormatRV(g.HeadRV), timeline.FormatDuration(g.AgeTime), timeline.FormatRV(g.AgeRV))))
		}
	}
	for _, a := range tl.Anomalies {
		if a.Event >= 0 {
			e := tl.Event(a.Event)
			if !flt.Event(e.Type) || (e.Lane >= 0 && !flt.Lane(tl.Lanes.At(e.Lane))) {
				continue
			}
		} else if !fileOK[a.File] {
			continue
		}
		out.anomalies = append(out.anomalies, at(a.File, a.T, a.Event, fmt.Sprintf("%s: %s (RV %s): %s", words.Isolated(tl.Files[a.File].Name), a.Kind, a.RV, timeline.VisibleBidi(a.Msg))))
	}
	return out
}

// maxFindingsShown keeps a capture with thousands of anomalies from
// building thousands of DOM nodes; the exports have them all.
const maxFindingsShown = 200

// findingsFolded is how many findings a list shows until the user asks
// for all: the lab's lists of 200 resumes, zones and gaps were 1 800 DOM
// nodes, which go-app built at the end of its load.
const findingsFolded = 20

// findingList is one list of findings: open when it is short, its first
// findingsFolded findings, and a button that shows the rest (up to
// maxFindingsShown).
func (p *FindingsPanel) findingList(title, id string, items []finding) goapp.UI {
	loc := zoneOf(p.Analysis)
	k := p.Kept
	if k == nil {
		k = &findingsKept{}
	}
	n := len(items)
	// Short lists open; the user's choice, once it differs, stays.
	def := n > 0 && n <= findingsFolded
	open, chosen := k.open[id]
	if !chosen {
		open = def
	}
	limit := findingsFolded
	if k.unfolded[id] {
		limit = maxFindingsShown
	}
	shown := items[:min(n, limit)]
	return goapp.Details().Class("findings").DataSet("findings", id).DataSet("count", n).Open(open).
		OnToggle(func(ctx goapp.Context, e goapp.Event) {
			// The page's own opening of a short list toggles it too.
			if now := ctx.JSSrc().Get("open").Bool(); now != def {
				if k.open == nil {
					k.open = map[string]bool{}
				}
				k.open[id] = now
			} else {
				delete(k.open, id)
			}
		}).Body(
		goapp.Summary().Text(fmt.Sprintf("%s: %d", title, n)),
		goapp.Ul().Body(
			goapp.Range(shown).Slice(func(i int) goapp.UI {
				f := shown[i]
				return goapp.Li().Body(
					goapp.If(f.timed, func() goapp.UI {
						return goapp.Button().Class("link").Title("Show this moment on the timeline").Text(timeline.FormatClock(f.at, loc)).
							OnClick(func(ctx goapp.Context, e goapp.Event) { ctx.NewActionWithValue(actionFocus, f.focus) })
					}),
					goapp.Span().Text(" "+f.text),
				)
			}),
		),
		goapp.If(len(shown) < min(n, maxFindingsShown), func() goapp.UI {
			return goapp.Button().Class("link findings-more").DataSet("more", id).Text(showMoreText(n)).
				OnClick(func(ctx goapp.Context, e goapp.Event) {
					if k.unfolded == nil {
						k.unfolded = map[string]bool{}
					}
					k.unfolded[id] = true
				})
		}),
		goapp.If(len(shown) == maxFindingsShown && n > maxFindingsShown, func() goapp.UI {
			return goapp.P().Class("hint").Text(fmt.Sprintf("The first %d of %d; the report (Export: Markdown or JSON) has them all.", maxFindingsShown, n))
		}),
	)
}

// showMoreText says what unfolding a list of n findings shows.
func showMoreText(n int) string {
	if n > maxFindingsShown {
		return fmt.Sprintf("Show the first %d of %d", maxFindingsShown, n)
	}
	return fmt.Sprintf("Show all %d", n)
}
