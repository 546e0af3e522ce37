package app

import (
	"cmp"
	"slices"
	"time"

	"watchlens/app/canvas"
	"watchlens/app/jsrt"
	"watchlens/timeline"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Reconnect at T: an instant the user asks about, by typing it in Find
// or Alt-clicking the timeline's or the fleet's plot, is marked across
// the plot, and the Reconnect tab answers what a reconnect then would
// get, per file and cursor, per API server where the evidence shows
// several, and for the fleet: `watchlens analyze --resume-at T`'s answer,
// from the same functions of the model.

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
		ctx.NewActionWithValue(actionReconnectAt, roundest(t, g.view.scale()))
	}
}

// roundest is instant t rounded to the largest power of ten nanoseconds
// that one pixel of s spans: a pixel spans many instants, and the one
// marked reads 01:04:05, not 01:04:04.999.
func roundest(t int64, s canvas.Scale) int64 {
	perPixel := float64(s.To-s.From) / s.Width
	step := int64(1)
	for float64(step)*10 <= perPixel && step < int64(time.Hour) {
		step *= 10
	}
	return (t + step/2) / step * step
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

// reconnectAnswer is what a reconnect at one instant would get, as the
// model answers `--resume-at`: the summary's words for it, the fleet's
// counts, and a row per file, the worst answers first.
type reconnectAnswer struct {
	an    *timeline.Analysis
	at    int64
	words []timeline.SummaryLine
	fleet *timeline.FleetReconnect // nil without a fleet
	files []reconnectFile
}

// reconnectFile is one file's answers, a cursor each.
type reconnectFile struct {
	file    int
	cursors []reconnectCursor
	// likely is the server the reconnect would likely go to: the one of
	// the file's connection open then (-1: not known).
	likely int
}

// reconnectCursor is one cursor's answer, and the answer of each API
// server when the evidence shows several.
type reconnectCursor struct {
	timeline.Verdict
	perServer []timeline.ServerVerdict
}

// answerReconnect asks the model what a reconnect at at would get. Over
// hundreds of files with several servers it takes a while as wasm, so it
// yields on the way; it runs in a goroutine.
func answerReconnect(an *timeline.Analysis, at int64) *reconnectAnswer {
	q := timeline.ResumeQuery{At: at}
	ans := &reconnectAnswer{an: an, at: at}
	servers := len(an.TL.Servers) > 1
	for fi := range an.TL.Files {
		jsrt.YieldIfHeld()
		rf := reconnectFile{file: fi, likely: -1}
		for _, v := range an.ResumeAt(fi, q.For(&an.TL.Files[fi])) {
			rc := reconnectCursor{Verdict: v}
			if servers {
				rc.perServer, rf.likely = an.ResumeAtServers(v.File, v.Kind, v.At)
			}
			rf.cursors = append(rf.cursors, rc)
		}
		ans.files = append(ans.files, rf)
	}
	slices.SortStableFunc(ans.files, func(a, b reconnectFile) int { return cmp.Compare(a.worst(), b.worst()) })
	jsrt.YieldIfHeld()
	if fc, ok := an.FleetReconnect(q); ok {
		ans.fleet = &fc
	}
	jsrt.YieldIfHeld()
	ans.words = an.ResumeAtWords(q)
	return ans
}

// worst ranks the file by its worst answer: refused first, then at
// risk, not judged, accepted.
func (f reconnectFile) worst() int {
	w := outcomeRank(timeline.Accepted)
	for _, c := range f.cursors {
		w = min(w, outcomeRank(c.Outcome))
	}
	return w
}

func outcomeRank(o timeline.Outcome) int {
	switch o {
	case timeline.Refused:
		return 0
	case timeline.AtRisk:
		return 1
	case timeline.Unknown:
		return 2
	}
	return 3
}
