package canvas

import "watchlens/timeline"

// Build fills fr with one frame of the view.
func (c *Cache) Build(v *View, fr *Frame) Layout {
	c.takeZone(v)
	layout := c.Layout(v.Width, v.MaxHeight, len(v.Rows), v.AxisRV, HasHad(v.Analysis), v.FoldedFiles, v.PinnedFiles)
	fr.reset(layout.Width, layout.Height, v.PixelRatio)
	s := v.PlotScale(&layout)
	plotBottom := layout.LanesY + max(layout.LanesH, RowHeight)

	// Band backgrounds and labels, unless a band draws its own.
	t0 := len(fr.Texts)
	for _, b := range layout.Bands[1:] {
		if g, ok := kinds[b.ID].(gutterDrawer); ok && g.drawGutter(c, v, &layout, b, fr) {
			continue
		}
		fr.rect(ColorGrid, 0.25, layout.PlotX, b.Y, layout.PlotW, b.Height)
		fr.addLabelWithin(layout.PlotX-8, b.Y+b.Height/2, layout.PlotX-14, b.Label, b.Short, ColorMuted, "r", "")
	}
	fr.flushTexts(t0)

	// Ticks: grid lines over every band, labels in the axis band.
	var ticks []Tick
	if v.AxisRV || c.noClock {
		ticks = numberTicks(s)
	} else {
		ticks = timeTicks(s, c.zone)
	}
	c.segs = fr.drawTicks(ticks, s, plotBottom, c.segs[:0])
	if !v.AxisRV && !c.noClock {
		fr.axisZone(layout.PlotX, s, c.zone)
	}

	fr.clip(layout.PlotX, 0, layout.PlotW, layout.Height)
	for _, l := range plotLayers {
		l.paint(c, v, &layout, s, fr)
	}
	fr.unclip()
	for _, l := range overLayers {
		l.paint(c, v, &layout, s, fr)
	}
	v.Marker.draw(s, plotBottom, fr, c.zone)

	if v.Selecting {
		a, b := min(v.SelectFrom, v.SelectTo), max(v.SelectFrom, v.SelectTo)
		fr.rect(ColorSession, 0.25, a, axisH, b-a, plotBottom-axisH)
	}
	return layout
}

// axisPos is an event's place on the axis (ok false when it has none there).
func axisPos(axisRV bool, t int64, rv uint64) (int64, bool) {
	if axisRV {
		return int64(rv), rv != timeline.NoRV
	}
	return t, true
}
