package canvas

import (
	"slices"

	"watchlens/timeline"
)

// Build fills fr with one frame of the view.
func (c *Cache) Build(v *View, fr *Frame) Layout {
	c.takeZone(v)
	layout := c.Layout(v.Width, v.MaxHeight, len(v.Rows), v.AxisRV, HasHad(v.Analysis), v.FoldedFiles, v.PinnedFiles)
	top, height := v.seen(layout.Height)
	fr.reset(layout.Width, height, v.PixelRatio)
	if height < layout.Height {
		fr.showRows(top)
	}
	if !v.Print && layout.Bands[0].ID == BandAxis {
		fr.Sticky = layout.Bands[0].Height
	}
	s := v.PlotScale(&layout)
	plotBottom := layout.LanesY + max(layout.LanesH, RowHeight)

	// Band backgrounds and labels, unless a band draws its own.
	t0 := len(fr.Texts)
	for _, b := range layout.Bands[1:] {
		if !fr.shows(b) {
			continue
		}
		if g, ok := kinds[b.ID].(gutterDrawer); ok && g.drawGutter(c, v, &layout, b, fr) {
			continue
		}
		fr.rect(ColorGrid, 0.25, layout.PlotX, b.Y, layout.PlotW, b.Height)
		layout.addLabel(fr, layout.labelY(b), b.Label, b.Short, ColorMuted, "")
	}
	t1 := len(fr.Texts)

	// Ticks: grid lines over every band, labels in the axis band.
	var ticks []Tick
	zoned := !v.AxisRV && !c.noClock
	if zoned {
		ticks = timeTicks(s, c.zone)
	} else {
		ticks = numberTicks(s)
	}
	if zoned && layout.LabelsOver {
		// The zone's name is over the plot's left end: a tick's label
		// there would be written under it.
		ticks = slices.DeleteFunc(ticks, func(tk Tick) bool { return s.X(tk.Value) < layout.PlotX+zoneLabelRoom })
	}
	c.segs = fr.drawTicks(ticks, s, layout.Width, plotBottom, c.segs[:0])
	if !layout.LabelsOver {
		// Over the grid lines, which would cross the words a band
		// writes over the plot: a file's name, its pin.
		fr.flushTextRange(t0, t1)
	}
	if zoned {
		t0 := len(fr.Texts)
		layout.addLabel(fr, axisH/2-2, axisZoneName(s, c.zone), "", ColorMuted, "")
		fr.flushTexts(t0)
	}

	fr.clip(layout.PlotX, 0, layout.PlotW, layout.Height)
	for _, l := range plotLayers {
		l.paint(c, v, &layout, s, fr)
	}
	fr.unclip()
	if layout.LabelsOver {
		// Over the plot, the bands' names go over what the bands draw,
		// which would hide them (a zone's bar, a session's).
		fr.flushTextRange(t0, t1)
	}
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
