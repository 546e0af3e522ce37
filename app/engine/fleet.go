package engine

import (
	"watchlens/app/canvas"
	"watchlens/timeline"
)

// FleetState is the fleet view as the page holds it: everything a fleet
// frame or hit test depends on besides the analysis. It is plain and
// comparable, as ViewState is.
type FleetState struct {
	From, To int64 // the range shown on the shared clock
	// Width is the canvas's CSS width; MaxHeight, when not 0, the room it
	// has (the rows fill it); PixelRatio the screen's or the picture's.
	Width, MaxHeight, PixelRatio float64
	ScrollY                      float64 // how far the rows are scrolled
	Marker                       int64   // the instant a reconnect is asked about, 0 for none
	// Print draws a picture: the layout hit tests answer for stays the
	// last frame shown.
	Print bool
	// Selecting: a shift-drag is under way, between these pixel xs.
	Selecting            bool
	SelectFrom, SelectTo float64
}

// Fleet is the fleet of the latest analysis as the view shows it beside
// its canvas: the rows, the extent it pans within, and its figures.
type Fleet struct {
	// Rows are the clients, riskiest first, as the canvas draws them.
	Rows []FleetRow
	// From and To are the shared clock's extent, with a margin.
	From, To int64
	// MinHeight is the least height the canvas needs: its bands and a
	// dozen rows, CSS px.
	MinHeight float64
	// MaxWith and MaxWithout are the most clients a reconnect would have
	// sent to a relist at once, with and without bookmarks.
	MaxWith, MaxWithout int
	// WorstWords is the worst moment for every watch to drop in the
	// verdict's own sentence (timeline.Analysis.WorstWords), "" when
	// there is none.
	WorstWords string
	Relists    int // the relists seen
	// Restarts counts the API server restarts a server's own records
	// show, ProbableRestarts those the clients' watches alone suggest
	// (timeline.DetectedRestart.Shown).
	Restarts, ProbableRestarts int
	// Outages counts the stretches when no request of the captured
	// clients reached a server (timeline.Outage).
	Outages int
	// NeverSynced counts the clients that never synced, whose rows mark
	// each whole read (canvas.FleetRow.Reads).
	NeverSynced int
	// ByServer says the rows come in groups, by the API server each
	// client was on longest, as the audit logs say (canvas.FleetGroup).
	ByServer bool
}

// FleetRow is one client's row.
type FleetRow struct {
	Name string
	// Servers names the API servers, and their processes, that answered
	// the client, in order; "" when no audit log says.
	Servers string
	// File is the client's file, whose timeline a click on the row opens.
	File int
	// MayMix says the audit log alone cannot tell the client from
	// another informer: the row is marked, and its tooltip says why.
	MayMix bool
}

// FleetHit is what lies under the pointer in the fleet view: a tooltip,
// and the client whose row it is on (Row -1 and File -1 for none).
type FleetHit struct {
	Text      string
	Row, File int
}

// fleetCache is the fleet's drawing data, worked out once per analysis
// (canvas.FleetData: ten thousand clients draw as fast as ten), and the
// buffers and layout of the last frame: a pan asks a frame per pointer
// move.
type fleetCache struct {
	an      *timeline.Analysis // the analysis data is for
	data    *canvas.FleetData
	scratch canvas.FleetScratch
	layout  canvas.FleetLayout // the last frame's, which hit tests answer for
}

// fleetData is the latest analysis's fleet, nil when it has none (fewer
// than two clients).
func (e *Engine) fleetData() *canvas.FleetData {
	if e.fleet.an != e.an {
		e.fleet = fleetCache{an: e.an}
		if e.an != nil {
			e.fleet.data = canvas.NewFleetData(e.an)
		}
	}
	return e.fleet.data
}

// Fleet answers the latest analysis's fleet, false when it has none.
func (e *Engine) Fleet() (Fleet, bool) {
	d := e.fleetData()
	if d == nil {
		return Fleet{}, false
	}
	f := Fleet{Rows: make([]FleetRow, len(d.Rows)), From: d.From, To: d.To, MinHeight: d.MinHeight(),
		MaxWith: d.MaxWith, MaxWithout: d.MaxWithout, WorstWords: e.an.WorstWords(), Relists: d.Fleet.RelistsObserved, Outages: len(d.Outages),
		ByServer: len(d.Groups) > 0, NeverSynced: len(d.Fleet.Clients) - d.Fleet.Synced()}
	for _, r := range d.Restarts {
		if r.Shown() {
			f.Restarts++
		} else {
			f.ProbableRestarts++
		}
	}
	for i, r := range d.Rows {
		f.Rows[i] = FleetRow{Name: r.Client.Name, Servers: r.Servers, File: r.Client.File, MayMix: r.MayMix}
	}
	return f, true
}

func (st *FleetState) viewport() *canvas.FleetViewport {
	return &canvas.FleetViewport{From: st.From, To: st.To, Width: st.Width, MaxHeight: st.MaxHeight, PixelRatio: st.PixelRatio,
		ScrollY: st.ScrollY, Selecting: st.Selecting, SelectFrom: st.SelectFrom, SelectTo: st.SelectTo, Marker: canvas.Marker(st.Marker)}
}

// FleetFrame builds the fleet's frame of the view st into fr, whose
// buffers are reused from frame to frame, and answers its layout (where
// the plot, the bands and the rows are, and the restarts' labels). A
// fleet without rows answers an empty layout and leaves fr as it was.
func (e *Engine) FleetFrame(st FleetState, fr *canvas.Frame) canvas.FleetLayout {
	d := e.fleetData()
	if d == nil {
		return canvas.FleetLayout{}
	}
	if st.Print {
		// The picture's own scratch: the restarts' labels of the frame
		// shown stay where the page read them.
		var scratch canvas.FleetScratch
		return d.Build(st.viewport(), fr, &scratch)
	}
	e.fleet.layout = d.Build(st.viewport(), fr, &e.fleet.scratch)
	return e.fleet.layout
}

// FleetHit answers for the pointer at (x, y), CSS pixels of the canvas,
// over the last fleet frame drawn of the view st.
func (e *Engine) FleetHit(st FleetState, x, y float64) FleetHit {
	d := e.fleetData()
	if d == nil {
		return FleetHit{Row: -1, File: -1}
	}
	h := d.HitTest(st.viewport(), &e.fleet.layout, x, y)
	out := FleetHit{Text: h.Text, Row: h.Row, File: -1}
	if h.Row >= 0 && h.Row < len(d.Rows) {
		out.File = d.Rows[h.Row].Client.File
	}
	return out
}

// FleetRange counts what [from, to) of the shared clock holds: the
// clients a reconnect would have sent to a relist, their peaks, and the
// relists seen.
func (e *Engine) FleetRange(from, to int64) canvas.FleetRange {
	d := e.fleetData()
	if d == nil {
		return canvas.FleetRange{From: from, To: to}
	}
	return d.RangeCounts(from, to)
}
