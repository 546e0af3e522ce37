package canvas

import "watchlens/timeline"

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
	Groups     []Group
	Rows       []Row
	ScrollY    float64
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

// PlotScale maps the view's range onto the layout's plot.
func (v *View) PlotScale(layout *Layout) Scale {
	return Scale{From: v.From, To: v.To, X0: layout.PlotX, Width: layout.PlotW}
}
