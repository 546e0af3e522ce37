package canvas

// band is every band of one BandID, as track is one band: HitTest asks
// the band under the pointer through kinds, and Build draws them through
// plotLayers and overLayers, so a new band is a file with its kind and
// its painter, and an entry in those tables and in the layout's stack.
type band interface {
	// hit says what lies under the pointer p in band p.band.
	hit(c *Cache, v *View, p pointer) Hit
}

// stacked is a band the layout stacks from its kind: the fixed bands
// above the lanes. A track's band is as high as its track says.
type stacked interface {
	// label names a band of the kind in the gutter.
	label() string
	// height is a band's, CSS px, in a layout of groups file groups.
	height(groups int) float64
}

// shortLabeled is a stacked band whose label has a short form for a
// narrow gutter: bands whose labels differ only at their ends (the three
// 410 zone bands) would otherwise be cut to the same start.
type shortLabeled interface {
	shortLabel() string
}

// pointer is where HitTest asks a band about: the band under it, the
// plot's scale, the pointer in CSS px, the axis value there and how far
// from a mark, on the axis, a click still picks it.
type pointer struct {
	layout   *Layout
	band     Band
	s        Scale
	x, y     float64
	at, slop int64
}

// gutterHit is a band that answers in the gutter too, left of the plot:
// a file's name band, a lane's name.
type gutterHit interface {
	answersInGutter()
}

// gutterDrawer is a band that draws its own background and gutter
// instead of a shaded band with its label; it says whether it did.
type gutterDrawer interface {
	drawGutter(c *Cache, v *View, layout *Layout, b Band, fr *Frame) bool
}

// painter draws every band of a kind, or a layer across bands, in one
// batch of ops: a frame holds a few ops per kind however many file
// groups are stacked.
type painter interface {
	paint(c *Cache, v *View, layout *Layout, s Scale, fr *Frame)
}

// kinds are the bands by ID.
var kinds = map[BandID]band{
	BandAxis:         axisBand{},
	BandDensity:      densityBand{},
	BandSessions:     sessionsBand{},
	BandBookmarks:    bookmarksBand{},
	BandZoneAware:    zoneBand{BandZoneAware},
	BandZoneIgnoring: zoneBand{BandZoneIgnoring},
	BandZoneHad:      zoneBand{BandZoneHad},
	BandCursors:      cursorsBand{},
	BandLanes:        lanesBand{},
	BandFile:         fileBand{},
	BandTrack:        trackBand{},
}

// plotLayers paint in the plot, clipped to it, in this order: later
// ones over earlier ones (an ERROR's line over the zones).
var plotLayers = []painter{densityBand{}, trackBand{}, sessionsBand{}, bookmarksBand{}, zoneLayer{}, errorLayer{}, cursorsBand{}}

// overLayers paint after the plot's clip: the cursor strip's RV scale in
// the gutter, and the lane area, which clips its own rows.
var overLayers = []painter{cursorScale{}, lanesBand{}}
