package canvas

import "fmt"

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

// kindNames name the kinds where the page states its bands as JSON of
// []Band (the timeline canvas's data-bands, which the browser tests read):
// a band's ID is its kind's name there, so that no reader depends on the
// order of the BandID constants.
var kindNames = map[BandID]string{
	BandAxis:         "axis",
	BandDensity:      "density",
	BandSessions:     "sessions",
	BandBookmarks:    "bookmarks",
	BandZoneAware:    "zone-aware",
	BandZoneIgnoring: "zone-ignoring",
	BandZoneHad:      "zone-had",
	BandCursors:      "cursors",
	BandLanes:        "lanes",
	BandFile:         "file",
	BandTrack:        "track",
	BandNone:         "none",
}

// MarshalText writes a band's kind by its name.
func (id BandID) MarshalText() ([]byte, error) {
	if name, ok := kindNames[id]; ok {
		return []byte(name), nil
	}
	return nil, fmt.Errorf("band kind %d has no name", int(id))
}

// UnmarshalText reads a band's kind from its name.
func (id *BandID) UnmarshalText(name []byte) error {
	for k, n := range kindNames {
		if n == string(name) {
			*id = k
			return nil
		}
	}
	return fmt.Errorf("no kind of band is named %q", name)
}

// plotLayers paint in the plot, clipped to it, in this order: later
// ones over earlier ones (an ERROR's line over the zones).
var plotLayers = []painter{densityBand{}, trackBand{}, sessionsBand{}, bookmarksBand{}, zoneLayer{}, errorLayer{}, cursorsBand{}}

// overLayers paint after the plot's clip: the cursor strip's RV scale in
// the gutter, and the lane area, which clips its own rows.
var overLayers = []painter{cursorScale{}, lanesBand{}}
