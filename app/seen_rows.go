package app

import (
	"math"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// seenRows is the range of the stage's rows, CSS px from its top, that
// is in view: within the window and within the nearest box that scrolls
// it (the timeline's panel; the tracks scroll inside it).
func seenRows(stage goapp.Value) (top, bottom float64) {
	r := stage.Call("getBoundingClientRect")
	top, bottom = -r.Get("top").Float(), goapp.Window().Get("innerHeight").Float()-r.Get("top").Float()
	win := goapp.Window()
	body := win.Get("document").Get("body")
	for p := stage.Get("parentElement"); p.Truthy() && !p.Equal(body); p = p.Get("parentElement") {
		if o := win.Call("getComputedStyle", p).Get("overflowY").String(); o == "auto" || o == "scroll" {
			b := p.Call("getBoundingClientRect")
			top = math.Max(top, b.Get("top").Float()-r.Get("top").Float())
			bottom = math.Min(bottom, b.Get("bottom").Float()-r.Get("top").Float())
			break
		}
	}
	return top, bottom
}

// seenStep and seenMargin shape the rows a frame of a tall stage draws
// (seenWindow), CSS px.
const (
	seenStep   = 64
	seenMargin = 96
)

// seenWindow is the stage's rows, CSS px from its top, a frame draws:
// those in view (seenRows) and at least seenMargin more on either side,
// from a multiple of seenStep and a multiple of it high. A scroll of a few rows
// is drawn already, and asks no frame, and the canvas keeps its size
// while the panel does. 0, 0 when that is all of the stage.
func seenWindow(stage goapp.Value) (top, h float64) {
	full := stage.Get("clientHeight").Float()
	a, b := seenRows(stage)
	h = math.Ceil(max(b-a, 0)/seenStep)*seenStep + 2*seenMargin + seenStep
	if h >= full {
		return 0, 0
	}
	top = math.Floor((a-seenMargin)/seenStep) * seenStep
	return min(max(top, 0), full-h), h
}
