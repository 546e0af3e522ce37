package app

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"watchlens/app/engine"
	"watchlens/app/jsrt"
	"watchlens/app/words"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// ReconnectPanel is the Reconnect tab: what a reconnect at the instant
// marked would get (see reconnect_at.go), the summary's words first, then
// the fleet's counts and a row per file, the worst first, whose reasons
// a click on its name shows. Escape (the dock hears it), or Clear, clears
// the marker.
type ReconnectPanel struct {
	goapp.Compo
	Engine engine.Answerer
	// Generation is the engine's analysis the answers are of (the
	// settings change them).
	Generation int
	Zone       *time.Location // the zone its times are written in
	At         int64          // the instant marked, 0 for none
	// Kept is the answer and what the user opened of it, which stay
	// while another tab is shown.
	Kept *reconnectKept
}

// reconnectKept is what the Reconnect tab keeps while another tab is
// shown.
type reconnectKept struct {
	answer   *engine.ReconnectAt
	asked    reconnectAsk // the question whose answer is shown or on its way
	expanded map[int]bool // the files whose reasons show
}

// reconnectAsk is a question the panel asks: an instant, under one
// analysis of an engine (the settings change the answers).
type reconnectAsk struct {
	eng        engine.Answerer
	generation int
	at         int64
}

// maxReconnectRows bounds the files listed; the worst come first.
const maxReconnectRows = 300

func (p *ReconnectPanel) OnMount(ctx goapp.Context)  { p.ask(ctx) }
func (p *ReconnectPanel) OnUpdate(ctx goapp.Context) { p.ask(ctx) }

// OnDismount forgets a question whose answer is still on its way: the
// answer comes to this panel, which is no longer shown, so the panel
// shown again asks again.
func (p *ReconnectPanel) OnDismount() {
	if k := p.Kept; k.answer == nil {
		k.asked = reconnectAsk{}
	}
}

// ask has the engine answer the instant marked, in a goroutine, unless
// that answer is shown or on its way.
func (p *ReconnectPanel) ask(ctx goapp.Context) {
	k := p.Kept
	q := reconnectAsk{p.Engine, p.Generation, p.At}
	if q == k.asked {
		return
	}
	k.asked, k.answer, k.expanded = q, nil, map[int]bool{}
	if q.at == 0 || q.eng == nil {
		return
	}
	ctx.Async(func() {
		ans := q.eng.ReconnectAt(q.at, jsrt.YieldIfHeld)
		ctx.Dispatch(func(goapp.Context) {
			if k.asked == q {
				k.answer = &ans
			}
		})
	})
}

func (p *ReconnectPanel) Render() goapp.UI {
	if p.At == 0 {
		return goapp.Section().ID("reconnect").Class("panel").Body(
			goapp.H2().Text("Reconnect at"),
			goapp.P().Class("hint").Text("Type a time in Find (08:42:10, or 2026-11-30T08:42:10Z, or a time as the page shows it) or Alt-click the timeline: "+
				"a marker shows the instant, and this tab answers what a reconnect then would get, for each file and cursor, each API server the evidence shows, and the fleet, as watchlens analyze --resume-at does."),
		)
	}
	ans := p.Kept.answer
	return goapp.Section().ID("reconnect").Class("panel").DataSet("at", strconv.FormatInt(p.At, 10)).DataSet("ready", ans != nil).Body(
		goapp.Div().Class("reconnect-head").Body(
			goapp.H2().Text("Reconnect at "+reconnectTime(p.At, p.Zone)),
			goapp.Button().ID("reconnect-clear").Class("quiet").Title("Clear the marker (Escape)").Text("Clear ×").
				OnClick(func(ctx goapp.Context, e goapp.Event) { ctx.NewActionWithValue(actionReconnectAt, int64(0)) }),
		),
		goapp.If(ans == nil, func() goapp.UI {
			return goapp.P().Class("hint").Text("Working out what a reconnect then would get…")
		}).Else(func() goapp.UI {
			note, off := clockNote(ans, p.Zone)
			return goapp.Div().Body(
				goapp.If(note != "", func() goapp.UI {
					return goapp.P().Class("reconnect-clock").DataSet("off", off).Text(note)
				}),
				goapp.Range(ans.Words).Slice(func(i int) goapp.UI {
					return goapp.P().Class("reconnect-words").DataSet("topic", ans.Words[i].Topic).Text(ans.Words[i].Text)
				}),
				goapp.If(ans.Fleet != nil, func() goapp.UI { return p.renderFleet(ans) }),
				p.renderFiles(ans),
			)
		}),
	)
}

// clockNote says of an answer for an instant off the shared clock that
// nothing was recorded there, and how the answer takes it: before the
// clock's start no cursor is known; past its end, each file's is as the
// client left it (analyze --resume-at asks the same, and a reconnect then
// is a question a postmortem asks), while the fleet's counts, which count
// a client while it is recorded, judge none. off is "start" or "end";
// both "" on the clock.
func clockNote(ans *engine.ReconnectAt, loc *time.Location) (note, off string) {
	if ans.Start == 0 && ans.End == 0 {
		return "", ""
	}
	switch {
	case ans.At < ans.Start:
		return words.RecordingBegins(len(ans.Files) > 1, reconnectTime(ans.Start, loc)) + ", so no cursor can be judged.", "start"
	case ans.At > ans.End && ans.Fleet != nil:
		return words.RecordingEnds(true, reconnectTime(ans.End, loc)) + ", so nothing shows the clients still watching then: the counts judge none of them, and each file below has its cursor judged as the client left it.", "end"
	case ans.At > ans.End:
		return words.RecordingEnds(len(ans.Files) > 1, reconnectTime(ans.End, loc)) + ", so each cursor is judged as the client left it then.", "end"
	}
	return "", ""
}

// reconnectTime is the instant marked as the panel's heading says it.
func reconnectTime(t int64, loc *time.Location) string {
	return time.Unix(0, t).In(loc).Format("Jan 2 15:04:05.000 MST")
}

// renderFleet counts the clients by what a reconnect of every one of
// them then would get, with bookmarks and without.
func (p *ReconnectPanel) renderFleet(ans *engine.ReconnectAt) goapp.UI {
	row := func(side, label string, c timeline.OutcomeCounts) goapp.UI {
		cell := func(outcome string, n int) goapp.UI {
			return goapp.Td().DataSet("count", n).DataSet("outcome", outcome).Text(n)
		}
		return goapp.Tr().DataSet("side", side).Body(
			goapp.Th().Scope("row").Text(label),
			cell("refused", c.Refused), cell("at-risk", c.AtRisk), cell("accepted", c.Accepted), cell("unknown", c.Unknown),
		)
	}
	f := ans.Fleet
	return goapp.Table().ID("reconnect-fleet").Body(
		goapp.Caption().Text("Had every client reconnected then, as when the API servers roll ("+strconv.Itoa(f.With.Accepted+f.With.AtRisk+f.With.Refused+f.With.Unknown)+" clients)"),
		goapp.THead().Body(goapp.Tr().Body(
			goapp.Th().Scope("col").Text("clients"),
			goapp.Th().Scope("col").Text("refused (410 Gone: a relist)"),
			goapp.Th().Scope("col").Text("at risk"),
			goapp.Th().Scope("col").Text("accepted"),
			goapp.Th().Scope("col").Text("not judged"),
		)),
		goapp.If(ans.OneAnswer, func() goapp.UI {
			// The clients' logs hide their bookmarks: one answer.
			return goapp.TBody().Body(row("logged", "with the cursor each log shows", f.Without))
		}).Else(func() goapp.UI {
			return goapp.TBody().Body(
				row("as-recorded", "as each client ran", f.AsRecorded),
				row("without", "without bookmarks (had none asked)", f.Without),
				row("with", "with bookmarks (had every client asked)", f.With),
			)
		}),
	)
}

// renderFiles lists each file's answers, a column per cursor, the
// answer of each API server under its own when the evidence shows
// several.
func (p *ReconnectPanel) renderFiles(ans *engine.ReconnectAt) goapp.UI {
	var kinds []timeline.CursorKind
	for _, f := range ans.Files {
		for _, c := range f.Cursors {
			if !slices.Contains(kinds, c.Kind) {
				kinds = append(kinds, c.Kind)
			}
		}
	}
	files := ans.Files[:min(len(ans.Files), maxReconnectRows)]
	caption := "Each file's reconnect, the worst first as it ran: a click on a name shows why"
	if len(files) < len(ans.Files) {
		caption += "; the first " + strconv.Itoa(len(files)) + " of " + strconv.Itoa(len(ans.Files)) + " files"
	}
	return goapp.Table().ID("reconnect-files").Body(
		goapp.Caption().Text(caption),
		goapp.THead().Body(goapp.Tr().Body(
			goapp.Th().Scope("col").Text("file"),
			goapp.Range(kinds).Slice(func(i int) goapp.UI { return goapp.Th().Scope("col").Text(kinds[i].Words()) }),
		)),
		goapp.Range(files).Slice(func(i int) goapp.UI { return p.renderFile(files[i], kinds) }),
	)
}

// renderFile is one file's row, and its reasons when expanded: a tbody
// of its own, so the two rows go together.
func (p *ReconnectPanel) renderFile(f engine.ReconnectFile, kinds []timeline.CursorKind) goapp.UI {
	open := p.Kept.expanded[f.File]
	cell := func(k timeline.CursorKind) goapp.UI {
		for _, c := range f.Cursors {
			if c.Kind != k {
				continue
			}
			var per []string
			for _, sv := range c.PerServer {
				per = append(per, sv.Server+"="+sv.Outcome.String())
			}
			return goapp.Td().DataSet("cursor", k.String()).DataSet("outcome", c.Outcome.String()).DataSet("rv", rvText(c)).
				DataSet("servers", strings.Join(per, ",")).Class("outcome-"+c.Outcome.String()).Title(c.Words).Body(
				goapp.Span().Class("outcome").Text(timeline.OutcomeWords(c.Outcome)),
				goapp.If(len(c.PerServer) > 0, func() goapp.UI {
					return goapp.Div().Class("hint").Text(c.ServerWords)
				}),
			)
		}
		return goapp.Td().Text("—")
	}
	return goapp.TBody().DataSet("file", f.Name).DataSet("server", f.Server).Body(
		goapp.Tr().Body(
			goapp.Th().Scope("row").Body(
				goapp.Button().Class("link").Aria("expanded", open).Title("Why: the model's reasons, for each cursor and server").
					OnClick(func(ctx goapp.Context, e goapp.Event) { p.Kept.expanded[f.File] = !p.Kept.expanded[f.File] }).
					Body(nameUI(f.ShortName)),
				goapp.If(f.Server != "", func() goapp.UI {
					return goapp.Div().Class("hint").Text("its open connection is to " + words.Isolated(f.Server))
				}),
			),
			goapp.Range(kinds).Slice(func(i int) goapp.UI { return cell(kinds[i]) }),
		),
		goapp.If(open, func() goapp.UI {
			return goapp.Tr().Class("reconnect-why").Body(goapp.Td().ColSpan(len(kinds) + 1).Body(
				goapp.Range(f.Cursors).Slice(func(i int) goapp.UI { return p.renderWhy(f.Cursors[i]) }),
			))
		}),
	)
}

// renderWhy is one cursor's answer in words, then the exact reasons of
// the model and of each server.
func (p *ReconnectPanel) renderWhy(c engine.ReconnectCursor) goapp.UI {
	head := c.Kind.Words() + ": " + c.Words
	if c.HasCursor {
		head += " (cursor at RV " + timeline.FormatRV(c.RV) + ")"
	}
	return goapp.Div().Class("reconnect-reason").DataSet("cursor", c.Kind.String()).Body(
		goapp.P().Text(head),
		goapp.P().Class("mono").DataSet("reason", "model").Text(c.Reason),
		goapp.If(len(c.PerServer) > 0, func() goapp.UI {
			return goapp.Ul().Body(goapp.Range(c.PerServer).Slice(func(i int) goapp.UI {
				sv := c.PerServer[i]
				return goapp.Li().DataSet("server", sv.Server).Body(
					goapp.Text("server "+words.Isolated(sv.Server)+": "+timeline.OutcomeWords(sv.Outcome)+": "),
					goapp.Span().Class("mono").DataSet("reason", "server").Text(sv.Reason),
				)
			}))
		}),
	)
}

// rvText is the cursor's RV then, "" when it had none.
func rvText(c engine.ReconnectCursor) string {
	if !c.HasCursor {
		return ""
	}
	return timeline.FormatRV(c.RV)
}
