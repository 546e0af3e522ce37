package engine

import (
	"watchlens/app/canvas"
	"watchlens/timeline"
)

// Answerer answers the questions about one open capture: *Engine in the
// page's own wasm, or a client of the engine in a Web Worker
// (app/engine/client), whose answers are the same. The page holds either.
type Answerer interface {
	Opened() Opened
	Analyze(params timeline.Params, pause func()) (Analyzed, error)
	Frame(st ViewState, fr *canvas.Frame) Drawn
	Layout(st ViewState) canvas.Layout
	Hit(st ViewState, x, y float64) Hit
	Summary(st ViewState) ViewSummary
	Zones(max int) ([]ZoneRow, int)
	Step(st ViewState, forward bool) Step

	Files(find string, max int) FilesReport
	Event(i int) EventDetail
	Find(query string, limit int, zone string) []timeline.Match
	Findings(filter timeline.Filter) Findings
	RangeStats(axisRV bool, from, to int64) timeline.RangeStats
	ReconnectAt(at int64, pause func()) ReconnectAt
	Fleet() (Fleet, bool)
	FleetFrame(st FleetState, fr *canvas.Frame) canvas.FleetLayout
	FleetHit(st FleetState, x, y float64) FleetHit
	FleetRange(from, to int64) canvas.FleetRange
	Report(format ReportFormat, link string) (string, error)
}

var _ Answerer = (*Engine)(nil)
