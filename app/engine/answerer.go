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
}

var _ Answerer = (*Engine)(nil)
