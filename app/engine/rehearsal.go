package engine

import "watchlens/app/canvas"

// A capture's first zooms and pans run the frame's code as the browser
// first compiled it (baseline wasm), while the browser compiles it
// optimised beside them once it has run enough: the first gestures'
// frames are the slow ones. The engine's worker builds the frames of
// the views those gestures reach while the page asks nothing
// (Rehearsals, Rehearse), so that their code is optimised before them.

// rehearsalZooms are the spans the rehearsed views show, as fractions of
// the view's: a wheel's notches from the whole capture down to seconds.
var rehearsalZooms = []float64{1, 1.0 / 2, 1.0 / 4, 1.0 / 16, 1.0 / 64, 1.0 / 512}

// rehearsalPans are where each span sits, as fractions of it from the
// view's middle: a drag either way.
var rehearsalPans = []float64{-0.25, 0, 0.25}

// rehearsalSeen is the height of the rows a rehearsed view of a tall
// layout draws, CSS px: about what a panel's rows and their margins are.
const rehearsalSeen = 768

// Rehearsals are the views a user's first gestures from st show: st's
// range zoomed in around its middle, each span dragged either way, kept
// within the capture. Everything else is st's, but for a layout taller
// than rehearsalSeen drawn whole (the load's first frame, say): the page
// shows such a layout by the rows in its panel (ViewState.SeenTop), whose
// frames run code of their own (they leave out the bands out of those
// rows), and those are rehearsed.
func (e *Engine) Rehearsals(st ViewState) []ViewState {
	if st.SeenHeight == 0 && e.Layout(st).Height > rehearsalSeen {
		st.SeenTop, st.SeenHeight = 0, rehearsalSeen
	}
	lo, hi := e.opened.Extent(st.AxisRV)
	from, to := st.From, st.To
	if to <= from {
		from, to = lo, hi
	}
	if hi <= lo || to <= from {
		return nil
	}
	mid := from/2 + to/2
	views := make([]ViewState, 0, len(rehearsalZooms)*len(rehearsalPans))
	for _, z := range rehearsalZooms {
		span := max(int64(float64(to-from)*z), 1)
		for _, p := range rehearsalPans {
			v := st
			v.From = mid - span/2 + int64(p*float64(span))
			v.From = min(max(v.From, lo), max(hi-span, lo))
			v.To = v.From + span
			views = append(views, v)
		}
	}
	return views
}

// Rehearse builds the frame of st into fr and says what its summary
// would, as a frame question with its summary does, and leaves the
// engine as it was: the layout hit tests read and the rows of lanes
// stay the last frame's, which the page shows.
func (e *Engine) Rehearse(st ViewState, fr *canvas.Frame) (Drawn, ViewSummary) {
	layout, rows := e.layout, e.rows
	defer func() { e.layout, e.rows = layout, rows }()
	d := e.Frame(st, fr)
	return d, e.Summary(SummaryOf(st, d))
}
