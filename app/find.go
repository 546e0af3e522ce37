package app

import (
	"strings"
	"time"

	"watchlens/app/words"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The search box, like Perfetto's omnibox: one field that finds an
// object's name, a resourceVersion, an instant or an error's message
// (timeline.Timeline.Find), and moves the view to what it found. An
// instant is also marked as one to reconnect at: the Reconnect tab
// answers what a reconnect then would get (see reconnect_at.go).

// findLimit is how many matches the box lists.
const findLimit = 12

// FindBox is the search box. It posts what the user goes to as
// actionGoTo, for the page to move the view and select the event, and
// an instant as actionReconnectAt too; it forgets its query when another
// capture opens.
type FindBox struct {
	goapp.Compo
	Timeline *timeline.Timeline
	// Zone is where times are typed and shown (Params.Zone).
	Zone *time.Location

	query    string
	matches  []timeline.Match
	queryFor *timeline.Timeline // the capture the query was typed on
}

// actionGoTo: the user went to a match of the search box; its value is
// the timeline.Match.
const actionGoTo = "find/go"

func (f *FindBox) Render() goapp.UI {
	if f.queryFor != f.Timeline {
		f.query, f.matches, f.queryFor = "", nil, f.Timeline
	}
	return goapp.Div().ID("find-box").Class("find").Role("search").Body(
		goapp.Label().For("find").Class("tl-visually-hidden").Text("Find an object, a resourceVersion, a time or a message"),
		goapp.Input().ID("find").Type("search").Placeholder("Find: name, RV, time…").
			Title("Find an object's name, a resourceVersion, a time (01:04:25, RFC 3339, or as the page shows it) or an error's message; Enter goes to the first match, and a time is marked: what would a reconnect then get?").
			Value(f.query).AutoComplete(false).
			OnInput(f.onInput).OnKeyDown(f.onKey),
		goapp.If(strings.TrimSpace(f.query) != "", func() goapp.UI {
			return goapp.Ul().ID("find-results").Class("find-results").Aria("label", "Matches").Body(
				goapp.If(len(f.matches) == 0, func() goapp.UI {
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
	f.matches = nil
	if f.Timeline != nil {
		f.matches = f.Timeline.Find(f.query, findLimit, f.Zone)
	}
}

func (f *FindBox) onKey(ctx goapp.Context, e goapp.Event) {
	switch e.Get("key").String() {
	case "Enter":
		if len(f.matches) > 0 {
			f.goTo(ctx, f.matches[0])
		}
	case "Escape":
		f.query, f.matches = "", nil
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
	f.matches = nil
	f.query = ""
	// go-app removes the value attribute, which leaves what was typed.
	if box := goapp.Window().GetElementByID("find"); box.Truthy() {
		box.Set("value", "")
	}
	ctx.NewActionWithValue(actionGoTo, m)
	if m.Kind == timeline.MatchTime {
		ctx.NewActionWithValue(actionReconnectAt, m.T)
	}
}
