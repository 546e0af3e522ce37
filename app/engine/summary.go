package engine

import (
	"strconv"

	"watchlens/app/canvas"
	"watchlens/app/words"
	"watchlens/timeline"
)

// ViewSummary is what the view st shows, in numbers and words: the
// timeline's HTML summary beside the canvas, which screen readers and
// tests read.
type ViewSummary struct {
	Lanes, Groups, Rows int
	Bookmarks, Errors   int
	// Zones are the refused zones in view, by cursor kind.
	Zones [2]timeline.ZoneTotal
	// Selected names the selected event, "none" without one.
	Selected string
	// Servers are the API servers the timeline draws.
	Servers []canvas.ServerSummary
	// Files are the timeline's files' names.
	Files []string
	// FromText and ToText are the range shown, as the axis writes it.
	FromText, ToText string
}

// Summary says what the view st shows.
func (e *Engine) Summary(st ViewState) ViewSummary {
	v := e.canvasView(&st)
	s := e.cache.Summarize(v, e.rows.shown)
	out := ViewSummary{Lanes: s.Lanes, Groups: s.Groups, Rows: len(v.Rows), Bookmarks: s.Bookmarks, Errors: s.Errors, Zones: s.Zones,
		Selected: "none", Servers: e.cache.Servers()}
	out.FromText, out.ToText = e.cache.FormatShown(st.AxisRV, st.From, st.To)
	if st.Selected >= 0 && st.Selected < e.tl.Len() {
		out.Selected = e.cache.EventText(st.Selected)
	}
	out.Files = make([]string, len(e.tl.Files))
	for i, f := range e.tl.Files {
		out.Files[i] = f.Name
	}
	return out
}

// SummaryOf is the view whose summary tells what the frame of st shows,
// d being what the engine answered of that frame: the rows' scroll as
// the frame kept it, at the frame's width, whatever the screen's pixels
// and whichever of the layout's rows the panel shows.
func SummaryOf(st ViewState, d Drawn) ViewState {
	st.Width, st.PixelRatio, st.ScrollY = d.Layout.Width, 1, d.ScrollY
	st.SeenTop, st.SeenHeight = 0, 0
	return st
}

// ZoneRow is one red zone as the timeline's table lists it.
type ZoneRow struct {
	Cursor, Model string // the cursor's kind and the model's, by name
	// Where names the file (with several open) and the cursor.
	Where    string
	From, To string // each an instant and its RV
	Reason   string
}

// Zones lists the analysis's red zones, the first max of them, and says
// how many there are in all.
func (e *Engine) Zones(max int) ([]ZoneRow, int) {
	if e.an == nil {
		return nil, 0
	}
	zones := e.an.Zones
	all := len(zones)
	if len(zones) > max {
		zones = zones[:max]
	}
	rows := make([]ZoneRow, len(zones))
	for i, z := range zones {
		where := z.Kind.Words()
		if len(e.tl.Files) > 1 {
			where = words.Isolated(e.tl.Files[z.File].Name) + " (" + where + ")"
		}
		rows[i] = ZoneRow{Cursor: z.Kind.String(), Model: z.Model.String(), Where: where,
			From:   e.cache.FormatTime(z.From) + " (RV " + strconv.FormatUint(z.FromRV, 10) + ")",
			To:     e.cache.FormatTime(z.To) + " (RV " + strconv.FormatUint(z.ToRV, 10) + ")",
			Reason: e.an.ZoneReason(z)}
	}
	return rows, all
}

// Step is the event after (or before) the selected one that the view
// shows, and its instant; Event is -1 when there is none.
type Step struct {
	Event int
	T     int64
}

// Step walks from the view's selected event to the next one it shows in
// time order (forward) or the previous one; without a selection it
// starts at the edge of the range shown.
func (e *Engine) Step(st ViewState, forward bool) Step {
	tl := e.tl
	step, i := 1, st.Selected
	if !forward {
		step = -1
	}
	if i < 0 {
		lo, hi := 0, tl.Len()
		if !st.AxisRV {
			lo, hi = tl.TimeRange(st.From, st.To)
		}
		if i = lo - 1; !forward {
			i = hi
		}
	}
	for j := i + step; j >= 0 && j < tl.Len(); j += step {
		pt := tl.Point(j)
		if !st.Filter.Event(pt.Type) || (pt.Lane >= 0 && !st.Filter.Lane(tl.Lanes.At(int(pt.Lane)))) {
			continue
		}
		return Step{Event: j, T: pt.T}
	}
	return Step{Event: -1}
}
