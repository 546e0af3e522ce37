package app

import (
	"runtime"

	"watchlens/app/load"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// renderProgress draws the bar that moveProgress then moves: what one
// shows of a progress report, the other must update.
func (p *Page) renderProgress() goapp.UI {
	l := p.loading
	value, maximum := l.Bar()
	return goapp.Div().ID("progress").Class("progress").Body(
		goapp.Label().For("progress-bar").Text(l.Text()),
		goapp.Progress().ID("progress-bar").Max(maximum).Attr("value", value),
	)
}

// moveProgress shows a report in the bar on the page, if there is one,
// without rendering the page: a render of the whole page there would take
// the thread that parses away from it with every report. It changes the nodes go-app
// made, as its next render would: the label's text node and the bar's
// attributes.
func moveProgress(l load.Progress) bool {
	doc := goapp.Window().Get("document")
	bar, label := doc.Call("getElementById", "progress-bar"), doc.Call("querySelector", "#progress > label")
	if !bar.Truthy() || !label.Truthy() || !label.Get("firstChild").Truthy() {
		return false
	}
	label.Get("firstChild").Set("nodeValue", l.Text())
	value, maximum := l.Bar()
	bar.Call("setAttribute", "max", maximum)
	bar.Call("setAttribute", "value", value)
	return true
}

// showProgress shows a report of a goroutine's read in the progress bar.
func (p *Page) showProgress(ctx goapp.Context, pr load.Progress) {
	ctx.Dispatch(func(ctx goapp.Context) {
		p.loading = &pr
		if moveProgress(pr) {
			ctx.PreventUpdate()
		}
	})
	// go-app runs a dispatch only once this goroutine lets it, and
	// renders 1/120 s after the first dispatch since it last did. Let it
	// now: the bar moves at once, and the last report, sent as the
	// timeline's building starts and again as the engine's worker's
	// answer arrives (load's progressReport.answered), sets that clock
	// going, so the render that shows the capture comes as soon as it is
	// built and read, not a frame later.
	runtime.Gosched()
}
