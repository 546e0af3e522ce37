package app

import goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

// Reconnect at T: an instant the user asks about, by typing it in Find
// or Alt-clicking the timeline's or the fleet's plot, is marked across
// the plot, and the Reconnect tab answers what a reconnect then would
// get, per file and cursor, per API server where the evidence shows
// several, and for the fleet: `watchlens analyze --resume-at T`'s answer,
// from the same functions of the model (engine.ReconnectAt).

// actionReconnectAt: the user marked an instant to reconnect at; its
// value is the instant (Unix ns), 0 to clear the marker.
const actionReconnectAt = "reconnect/at"

// onReconnectAt keeps the instant marked in the view, and so in the URL.
func (p *Page) onReconnectAt(ctx goapp.Context, a goapp.Action) {
	p.view.reconnectAt = a.Value.(int64)
	p.saveURL(ctx)
}

// reconnectClick marks the instant under an Alt-click at x, on a plot of
// time.
func (g *gestures) reconnectClick(ctx goapp.Context, x float64) {
	if px, pw, _ := g.view.plot(); x < px || x > px+pw {
		return
	}
	if t, ok := g.view.instantAt(x); ok {
		ctx.NewActionWithValue(actionReconnectAt, g.view.scale().Roundest(t))
	}
}

// instantAt is the instant at pixel x of the plot; false on the
// resourceVersion axis, or for a capture without a clock.
func (v *TimelineView) instantAt(x float64) (int64, bool) {
	if v.axisRV || v.opened.NoClock {
		return 0, false
	}
	return v.scale().At(x), true
}

// marker is the instant marked as the timeline draws it: none on the
// resourceVersion axis, or for a capture without a clock.
func (v *TimelineView) marker() int64 {
	if v.axisRV || v.eng == nil || v.opened.NoClock {
		return 0
	}
	return v.Marker
}

// instantAt is the instant at pixel x of the fleet's plot.
func (v *FleetView) instantAt(x float64) (int64, bool) { return v.scale().At(x), true }
