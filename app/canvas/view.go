package canvas

import (
	"math"

	"watchlens/timeline"
)

// View is everything one frame depends on.
type View struct {
	Analysis *timeline.Analysis
	Filter   timeline.Filter
	AxisRV   bool
	From, To int64
	Width    float64
	// MaxHeight, when not 0, is the room the canvas has, CSS pixels: the
	// lane area fills it (see FitLayout).
	MaxHeight  float64
	PixelRatio float64
	// SeenTop and SeenHeight are the layout's rows, CSS px, that the
	// page shows: a frame of a taller layout draws them alone, so that
	// the canvas of many files' tracks is as tall as the panel that
	// scrolls them (and its drawing as long), not as all of them.
	// SeenHeight 0 draws the whole layout, as a picture (Print) does.
	SeenTop, SeenHeight float64
	Groups              []Group
	Rows                []Row
	ScrollY             float64
	// A folded file's group of tracks shows as its name band alone, with
	// its 410 zones in it; pinned groups come first.
	FoldedFiles, PinnedFiles FileSet
	Selected                 int
	// Print draws a picture for a document: without the controls drawn
	// on the canvas (the groups' fold marks and pins).
	Print      bool
	Selecting  bool
	SelectFrom float64 // pixel x of a shift-drag's ends
	SelectTo   float64
	// Marker is the instant a reconnect is asked about, 0 for none.
	Marker Marker
}

// seen is the layout's rows [top, top+h) a frame of a layout height
// CSS px high draws: View.SeenTop's, within the layout.
func (v *View) seen(height float64) (top, h float64) {
	if v.Print || v.SeenHeight <= 0 || v.SeenHeight >= height {
		return 0, height
	}
	return math.Floor(min(max(v.SeenTop, 0), height-v.SeenHeight)), v.SeenHeight
}

// PlotScale maps the view's range onto the layout's plot.
func (v *View) PlotScale(layout *Layout) Scale {
	return Scale{From: v.From, To: v.To, X0: layout.PlotX, Width: layout.PlotW}
}
