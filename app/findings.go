package app

import (
	"fmt"
	"time"

	"watchlens/app/engine"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// focusSpan is how much time around a finding the view shows when the user
// follows it.
const focusSpan = 2 * time.Minute

// FindingsPanel is the Findings tab: the model's findings, the bookmarks
// what-if, the observed errors, the red zones, the resumes checked against
// the models, the gaps and the anomalies, those the filters keep, as the
// engine answers them (engine.Findings). Each finding with a time moves
// the view there (actionFocus).
type FindingsPanel struct {
	goapp.Compo
	Engine engine.Answerer
	// Generation is the engine's analysis the findings are of.
	Generation int
	Filter     timeline.Filter
	Zone       *time.Location // the zone its times are written in
	// Kept is the answer and which lists the user opened or unfolded,
	// which stay while another tab is shown; nil keeps nothing.
	Kept *findingsKept
}

// findingsKept is what the Findings tab keeps while another tab is
// shown: the answer, and what the user opened, by list.
type findingsKept struct {
	answer   *engine.Findings
	answered findingsAsk     // the question whose answer answer is
	asked    findingsAsk     // the question whose answer is shown or on its way
	open     map[string]bool // opened (true) or closed (false) by the user, against the default
	unfolded map[string]bool // shown whole, up to maxFindingsShown
}

// findingsAsk is a question the panel asks: the findings of one
// analysis of an engine that pass a filter.
type findingsAsk struct {
	eng        engine.Answerer
	generation int
	filter     timeline.Filter
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

func (p *FindingsPanel) OnMount(ctx goapp.Context)  { p.ask(ctx) }
func (p *FindingsPanel) OnUpdate(ctx goapp.Context) { p.ask(ctx) }

// OnDismount forgets a question whose answer is still on its way: the
// answer comes to this panel, which is no longer shown, so the panel
// shown again asks again.
func (p *FindingsPanel) OnDismount() {
	if k := p.Kept; k != nil && k.asked != k.answered {
		k.asked = k.answered
	}
}

// ask has the engine answer the findings shown, in a goroutine, unless
// that answer is shown or on its way. The answer shown stays until the
// next one comes.
func (p *FindingsPanel) ask(ctx goapp.Context) {
	k := p.Kept
	q := findingsAsk{p.Engine, p.Generation, p.Filter}
	if k == nil || q == k.asked || q.eng == nil {
		return
	}
	k.asked = q
	ctx.Async(func() {
		f := q.eng.Findings(q.filter)
		ctx.Dispatch(func(goapp.Context) {
			if k.asked == q {
				k.answer, k.answered = &f, q
			}
		})
	})
}

func (p *FindingsPanel) Render() goapp.UI {
	k := p.Kept
	if k == nil || k.answer == nil || k.answered.eng != p.Engine {
		// The panel's id, which says its lists are there, comes with
		// them.
		return goapp.Section().Class("panel").Body(
			goapp.H2().Text("Findings"),
			goapp.P().Class("hint").Text("Gathering the findings…"),
		)
	}
	f := k.answer
	w := f.WhatIf
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
			goapp.If(w.UnknownWith+w.UnknownWithout > 0, func() goapp.UI {
				return goapp.Dt().Text("not judged (no clock or no cursor then)")
			}),
			goapp.If(w.UnknownWith+w.UnknownWithout > 0, func() goapp.UI {
				return goapp.Dd().DataSet("whatif", "unknown").Text(fmt.Sprintf("%d with the bookmarks received, %d ignoring them", w.UnknownWith, w.UnknownWithout))
			}),
			goapp.Dt().Text("relists saved by the bookmarks received"),
			goapp.Dd().DataSet("whatif", "saved").Text(savedText(f)),
			goapp.Dt().Text("cursor age at the oldest reconnect, with / without bookmarks"),
			goapp.Dd().Text(fmt.Sprintf("%s / %s", timeline.FormatDuration(w.LongestAgeWith), timeline.FormatDuration(w.LongestAgeWithout))),
			goapp.Dt().Text("longest a cursor went unconfirmed anywhere in the capture"),
			goapp.Dd().DataSet("whatif", "longest").Text(f.LongestAges),
		),
		goapp.If(f.Fleet, func() goapp.UI {
			// The verdict's fleet figures answer another question, with
			// other numbers: say which.
			return goapp.P().Class("hint").DataSet("whatif", "fleet").Text(f.BesideFleet)
		}),
		p.findingList("Observed errors", "errors", f.Errors, len(f.Errors)),
		p.findingList("Red zones (a resume from here gets 410)", "zones", f.Zones, len(f.Zones)),
		// Every watch from the cursor its client held, after a list as
		// after a reconnect: more than the reconnects counted above.
		p.findingList("Watches started from the client's cursor (after a list or a reconnect), each against the model's verdict", "resumes", f.Resumes, len(f.Resumes)),
		p.findingList("Gaps (cursor still while the cluster moved)", "gaps", f.Gaps, f.GapCount),
		p.findingList("Anomalies", "anomalies", f.Anomalies, len(f.Anomalies)),
	)
}

// savedText says what the bookmarks received saved, or that the
// clients' logs, which show none, cannot tell.
func savedText(f *engine.Findings) string {
	if f.BookmarksUnseen {
		return "not known: the clients' logs show no bookmarks"
	}
	return f.WhatIf.SavedWords()
}

// maxFindingsShown keeps a capture with thousands of anomalies from
// building thousands of DOM nodes; the exports have them all.
const maxFindingsShown = 200

// findingsFolded is how many findings a list shows until the user asks
// for all: the lab's lists of 200 resumes, zones and gaps in full would
// be thousands of DOM nodes, which go-app builds at the end of its load.
const findingsFolded = 20

// findingList is one list of findings: open when it is short, its first
// findingsFolded findings, and a button that shows the rest (up to
// maxFindingsShown). total counts them all where items holds the first
// of them (the longest gaps).
func (p *FindingsPanel) findingList(title, id string, items []engine.Finding, total int) goapp.UI {
	loc := p.Zone
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
		goapp.Summary().Text(fmt.Sprintf("%s: %d", title, total)),
		goapp.Ul().Body(
			goapp.Range(shown).Slice(func(i int) goapp.UI {
				f := shown[i]
				return goapp.Li().Body(
					goapp.If(f.Timed, func() goapp.UI {
						return goapp.Button().Class("link").Title("Show this moment on the timeline").Text(timeline.FormatClock(f.At, loc)).
							OnClick(func(ctx goapp.Context, e goapp.Event) {
								ctx.NewActionWithValue(actionFocus, focus{at: f.At, timed: f.Timed, event: f.Event})
							})
					}),
					goapp.Span().Text(" "+f.Text),
				)
			}),
		),
		goapp.If(len(shown) < min(n, maxFindingsShown), func() goapp.UI {
			return goapp.Button().Class("link findings-more").DataSet("more", id).Text(showMoreText(n, total)).
				OnClick(func(ctx goapp.Context, e goapp.Event) {
					if k.unfolded == nil {
						k.unfolded = map[string]bool{}
					}
					k.unfolded[id] = true
				})
		}),
		goapp.If(len(shown) == maxFindingsShown && total > maxFindingsShown, func() goapp.UI {
			if total > n {
				return goapp.P().Class("hint").Text(fmt.Sprintf("The longest %d of %d.", maxFindingsShown, total))
			}
			return goapp.P().Class("hint").Text(fmt.Sprintf("The first %d of %d; the report (Export: Markdown or JSON) has them all.", maxFindingsShown, n))
		}),
	)
}

// showMoreText says what unfolding a list of n findings, of total, shows.
func showMoreText(n, total int) string {
	if n > maxFindingsShown || total > n {
		return fmt.Sprintf("Show the first %d of %d", min(n, maxFindingsShown), total)
	}
	return fmt.Sprintf("Show all %d", n)
}
