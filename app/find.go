package app

import (
	"strings"
	"time"

	"watchlens/app/engine"
	"watchlens/app/words"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The search box, like Perfetto's omnibox: one field that finds an
// object's name, a client, a resourceVersion, an instant or an error's
// message (engine.Engine.Find), and moves the view to what it found. An
// instant is also marked as one to reconnect at: the Reconnect tab
// answers what a reconnect then would get (see reconnect_at.go); a
// client's timeline opens as a click on its fleet row opens it.

// findLimit is how many matches the box lists.
const findLimit = 12

// FindBox is the search box. It posts what the user goes to as
// actionGoTo, for the page to move the view and select the event, and
// an instant as actionReconnectAt too; it forgets its query when another
// capture opens.
type FindBox struct {
	goapp.Compo
	Engine engine.Answerer
	// Zone is where times are typed and shown (Params.Zone).
	Zone *time.Location

	query string
	// matches are the engine's answer for matchesFor: the list shows the
	// last answer while the next is asked.
	matches    []timeline.Match
	matchesFor string
	// goFirst says the user pressed Enter before the answer for the query
	// came: it goes to its first match once it comes.
	goFirst  bool
	queryFor engine.Answerer // the capture the query was typed on
}

// actionGoTo: the user went to a match of the search box; its value is
// the timeline.Match.
const actionGoTo = "find/go"

func (f *FindBox) Render() goapp.UI {
	if f.queryFor != f.Engine {
		f.query, f.matches, f.matchesFor, f.goFirst, f.queryFor = "", nil, "", false, f.Engine
	}
	return goapp.Div().ID("find-box").Class("find").Role("search").Body(
		goapp.Label().For("find").Class("tl-visually-hidden").Text("Find an object, a client, a resourceVersion, a time or a message"),
		goapp.Input().ID("find").Type("search").Placeholder("Find: name, RV, time…").
			Title("Find an object's name, a client (its file or its User-Agent), a resourceVersion, a time (01:04:25, RFC 3339, or as the page shows it) or an error's message; Enter goes to the first match, and a time is marked: what would a reconnect then get?").
			Value(f.query).AutoComplete(false).
			OnInput(f.onInput).OnKeyDown(f.onKey),
		goapp.If(strings.TrimSpace(f.query) != "", func() goapp.UI {
			return goapp.Ul().ID("find-results").Class("find-results").Aria("label", "Matches").Body(
				goapp.If(len(f.matches) == 0 && f.matchesFor == f.query, func() goapp.UI {
					return goapp.Li().Class("hint").Text("Nothing matches.")
				}),
				goapp.Range(f.matches).Slice(func(i int) goapp.UI {
					m := f.matches[i]
					text := m.Kind.String() + ": " + words.ShortName(words.Isolated(m.Text))
					if m.Kind == timeline.MatchTime {
						text += " · what a reconnect then gets"
					}
					return goapp.Li().Body(goapp.Button().Class("link").DataSet("kind", m.Kind.String()).
						Text(text).OnClick(f.onGo(m)))
				}),
			)
		}),
	)
}

func (f *FindBox) onInput(ctx goapp.Context, e goapp.Event) {
	f.query = ctx.JSSrc().Get("value").String()
	f.goFirst = false
	f.ask(ctx)
}

// ask asks the engine for the matches of the query typed: in a
// goroutine, as a find over a million events' objects takes a while. An
// answer for a query no longer typed is dropped.
func (f *FindBox) ask(ctx goapp.Context) {
	eng, query, zone := f.Engine, f.query, f.Zone.String()
	if eng == nil || strings.TrimSpace(query) == "" {
		f.matches, f.matchesFor = nil, query
		return
	}
	ctx.Async(func() {
		matches := eng.Find(query, findLimit, zone)
		ctx.Dispatch(func(ctx goapp.Context) {
			if f.Engine != eng || f.query != query {
				return
			}
			f.matches, f.matchesFor = matches, query
			if f.goFirst {
				f.goFirst = false
				if len(matches) > 0 {
					f.goTo(ctx, matches[0])
				}
			}
		})
	})
}

func (f *FindBox) onKey(ctx goapp.Context, e goapp.Event) {
	switch e.Get("key").String() {
	case "Enter":
		switch {
		case f.matchesFor != f.query:
			f.goFirst = true
		case len(f.matches) > 0:
			f.goTo(ctx, f.matches[0])
		}
	case "Escape":
		f.query, f.matches, f.matchesFor, f.goFirst = "", nil, "", false
		ctx.JSSrc().Set("value", "")
	default:
		ctx.PreventUpdate()
	}
}

func (f *FindBox) onGo(m timeline.Match) goapp.EventHandler {
	return func(ctx goapp.Context, e goapp.Event) { f.goTo(ctx, m) }
}

// goTo empties the box and posts the match; an instant is marked to
// reconnect at.
func (f *FindBox) goTo(ctx goapp.Context, m timeline.Match) {
	f.query, f.matches, f.matchesFor = "", nil, ""
	// go-app removes the value attribute, which leaves what was typed.
	if box := goapp.Window().GetElementByID("find"); box.Truthy() {
		box.Set("value", "")
	}
	if m.Kind == timeline.MatchClient {
		ctx.NewActionWithValue(actionFleetOpen, m.File)
		return
	}
	ctx.NewActionWithValue(actionGoTo, m)
	if m.Kind == timeline.MatchTime {
		ctx.NewActionWithValue(actionReconnectAt, m.T)
	}
}
