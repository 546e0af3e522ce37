package canvas

// track is a band of the timeline that owns its drawing, its
// hit-testing and its height, as a Perfetto track does: the layout
// stacks it, Build draws it and HitTest asks it, without knowing what it
// shows.
type track interface {
	// label names the track in the gutter.
	label() string
	// height is its band's, CSS px.
	height() float64
	// draw adds the track's marks in band b to fr; the plot is clipped.
	draw(v *View, b Band, s Scale, fr *Frame)
	// hit says what lies at (x, y) in band b, at instant at.
	hit(v *View, b Band, s Scale, at int64, x, y float64) Hit
}

// legendLine is a line of a track's legend in the gutter.
type legendLine struct{ text, color string }

// legended is a track that names its marks in the gutter, under its
// name.
type legended interface {
	legend() []legendLine
}

// trackBand is the bands of the tracks: each answers and draws through
// its own track (see Cache.tracks).
type trackBand struct{}

// paint draws every track band of the layout.
func (trackBand) paint(c *Cache, v *View, layout *Layout, s Scale, fr *Frame) {
	for _, b := range layout.Bands {
		if b.ID == BandTrack && fr.shows(b) {
			c.tracks[b.Track].draw(v, b, s, fr)
		}
	}
}

func (trackBand) hit(c *Cache, v *View, p pointer) Hit {
	return c.tracks[p.band.Track].hit(v, p.band, p.s, p.at, p.x, p.y)
}

// drawGutter names a legended track at its top and what its marks are
// under it.
func (trackBand) drawGutter(c *Cache, v *View, layout *Layout, b Band, fr *Frame) bool {
	l, ok := c.tracks[b.Track].(legended)
	if !ok || len(l.legend()) == 0 {
		return false
	}
	fr.rect(ColorGrid, 0.25, layout.PlotX, b.Y, layout.PlotW, b.Height)
	layout.addLabel(fr, b.Y+8, b.Label, "", ColorMuted, "")
	for k, line := range l.legend() {
		layout.addLabel(fr, b.Y+20+11*float64(k), line.text, "", line.color, "")
	}
	return true
}
