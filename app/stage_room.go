package app

import (
	"math"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"watchlens/internal/wire"
)

// stageRoom is what a frame of a canvas view needs of its stage, the
// canvas's parent.
type stageRoom struct {
	width, height float64 // the stage's client size, CSS px
	// seenTop and seenBottom are the stage's rows in view, CSS px from
	// its top: within the window and within the nearest box that scrolls
	// it (the timeline's panel; the tracks scroll inside it).
	seenTop, seenBottom float64
	dpr                 float64 // the device's pixel ratio, at least 1
}

// stageMeasure measures a canvas's stageRoom with web/timeline.js's
// watchlensStage, which also notes the room in the canvas's data-room.
// It is one call into JS, where a read of each through syscall/js (the
// stage's size, its box and the window's height, each ancestor's style
// up to the panel that scrolls it) was a crossing of its own, at every
// pointer move of a pan. Its buffers are reused from frame to frame.
type stageMeasure struct {
	fn    goapp.Value // watchlensStage
	out   goapp.Value // a Float64Array of five, which fn fills
	bytes goapp.Value // a Uint8Array over out's buffer
	b     [5 * 8]byte
}

// of measures cv's stage. Views measure once web/timeline.js is loaded
// (frameSender.script).
func (m *stageMeasure) of(cv goapp.Value) stageRoom {
	if m.fn == nil {
		win := goapp.Window()
		m.fn = win.Get("watchlensStage")
		m.out = win.Get("Float64Array").New(len(m.b) / 8)
		m.bytes = win.Get("Uint8Array").New(m.out.Get("buffer"))
	}
	m.fn.Invoke(cv, m.out)
	goapp.CopyBytesToGo(m.b[:], m.bytes)
	var r stageRoom
	wire.NewReader(m.b[:]).Floats(&r.width, &r.height, &r.seenTop, &r.seenBottom, &r.dpr)
	r.dpr = max(r.dpr, 1)
	return r
}

// frame is the CSS width a frame is drawn at, the stage's (320 at
// least), and the room the stage gives the canvas (ViewState.MaxHeight,
// see canvas.FitLayout): 0, no room given, for a stage under 100 px
// high.
func (r stageRoom) frame() (width, maxH float64) {
	if r.height >= 100 {
		maxH = r.height
	}
	return max(r.width, 320), maxH
}

// seenRows is the range of el's rows, CSS px from its top, that is in
// view, as stageRoom's (web/timeline.js's watchlensSeenRows).
func seenRows(el goapp.Value) (top, bottom float64) {
	r := goapp.Window().Call("watchlensSeenRows", el)
	return r.Index(0).Float(), r.Index(1).Float()
}

// seenStep and seenMargin shape the rows a frame of a tall stage draws
// (seenWindow), CSS px.
const (
	seenStep   = 64
	seenMargin = 96
)

// seenWindow is the stage's rows, CSS px from its top, a frame draws:
// those in view and at least seenMargin more on either side, from a
// multiple of seenStep and a multiple of it high. A scroll of a few rows
// is drawn already, and asks no frame, and the canvas keeps its size
// while the panel does. 0, 0 when that is all of the stage.
func seenWindow(r stageRoom) (top, h float64) {
	full := r.height
	h = math.Ceil(max(r.seenBottom-r.seenTop, 0)/seenStep)*seenStep + 2*seenMargin + seenStep
	if h >= full {
		return 0, 0
	}
	top = math.Floor((r.seenTop-seenMargin)/seenStep) * seenStep
	return min(max(top, 0), full-h), h
}
