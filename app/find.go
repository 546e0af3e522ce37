package app

import (
	"strings"

	"watchlens/app/words"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The search box, like Perfetto's omnibox: one field that finds an
// object's name, a resourceVersion, an instant or an error's message
// (timeline.Timeline.Find), and moves the view to what it found.

// findLimit is how many matches the box lists.
const findLimit = 12

// findState is the search box's query and its matches.
type findState struct {
	query   string
	matches []timeline.Match
}

func (p *Page) renderFind() goapp.UI {
	f := p.find
	return goapp.Div().ID("find-box").Class("find").Role("search").Body(
		goapp.Label().For("find").Class("tl-visually-hidden").Text("Find an object, a resourceVersion, a time or a message"),
		goapp.Input().ID("find").Type("search").Placeholder("Find: name, RV, 01:04:25, message").
			Title("Find an object's name, a resourceVersion, a time (01:04:25 or RFC 3339) or an error's message; Enter goes to the first match").
			Value(f.query).AutoComplete(false).
			OnInput(p.onFindInput).OnKeyDown(p.onFindKey),
		goapp.If(strings.TrimSpace(f.query) != "", func() goapp.UI {
			return goapp.Ul().ID("find-results").Class("find-results").Aria("label", "Matches").Body(
				goapp.If(len(f.matches) == 0, func() goapp.UI {
					return goapp.Li().Class("hint").Text("Nothing matches.")
				}),
				goapp.Range(f.matches).Slice(func(i int) goapp.UI {
					m := f.matches[i]
					return goapp.Li().Body(goapp.Button().Class("link").DataSet("kind", m.Kind.String()).
						Text(m.Kind.String() + ": " + words.ShortName(words.Isolated(m.Text))).OnClick(p.onFindGo(m)))
				}),
			)
		}),
	)
}

func (p *Page) onFindInput(ctx goapp.Context, e goapp.Event) {
	p.find.query = ctx.JSSrc().Get("value").String()
	p.find.matches = nil
	if p.capture != nil {
		p.find.matches = p.capture.tl.Find(p.find.query, findLimit)
	}
}

func (p *Page) onFindKey(ctx goapp.Context, e goapp.Event) {
	switch e.Get("key").String() {
	case "Enter":
		if len(p.find.matches) > 0 {
			p.goTo(ctx, p.find.matches[0])
		}
	case "Escape":
		p.find = findState{}
		ctx.JSSrc().Set("value", "")
	default:
		ctx.PreventUpdate()
	}
}

func (p *Page) onFindGo(m timeline.Match) goapp.EventHandler {
	return func(ctx goapp.Context, e goapp.Event) { p.goTo(ctx, m) }
}

// goTo moves the view to a match, keeping the span shown (two minutes
// from the whole capture), and selects its event, if any.
func (p *Page) goTo(ctx goapp.Context, m timeline.Match) {
	p.find.matches = nil
	p.find.query = ""
	// go-app removes the value attribute, which leaves what was typed.
	if box := goapp.Window().GetElementByID("find"); box.Truthy() {
		box.Set("value", "")
	}
	if !p.view.axisRV {
		span := p.view.to - p.view.from
		if span <= 0 {
			span = int64(focusSpan)
		}
		p.view.from = m.T - span/2
		p.view.to = p.view.from + span
	}
	if m.Event >= 0 {
		p.selectEvent(ctx, m.Event)
		p.tab = tabEvent
	}
	p.saveURL(ctx)
}
