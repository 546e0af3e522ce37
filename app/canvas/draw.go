package canvas

import (
	"strconv"

	"watchlens/timeline"
)

// Build fills fr with one frame of the view.
func (c *Cache) Build(v *View, fr *Frame) Layout {
	layout := c.Layout(v.Width, v.MaxHeight, len(v.Rows), v.AxisRV, HasHad(v.Analysis), v.FoldedFiles, v.PinnedFiles)
	fr.reset(layout.Width, layout.Height, v.PixelRatio)
	s := v.PlotScale(&layout)
	plotBottom := layout.LanesY + max(layout.LanesH, RowHeight)

	// Band backgrounds and labels.
	t0 := len(fr.Texts)
	for _, b := range layout.Bands[1:] {
		if b.ID == BandFile {
			// A file's group: a fold mark and its name in the gutter,
			// bold, and at the right end the pin. A folded group's zones
			// show in the plot (see zoneBands).
			fr.rect(ColorGrid, 0.6, 0, b.Y, layout.Width, b.Height)
			mark, pin := "▾ ", "pin to top"
			if b.Folded {
				mark = "▸ "
			}
			if v.PinnedFiles.Has(b.File) {
				pin = "unpin"
			}
			w := layout.Width - 12 - pinW
			if b.Folded {
				w = layout.PlotX - 14
			}
			if v.Print {
				fr.addTextWithin(6, b.Y+b.Height/2, w, b.Label, ColorFg, "l", "b")
				continue
			}
			fr.addTextWithin(6, b.Y+b.Height/2, w, mark+b.Label, ColorFg, "l", "b")
			fr.addText(layout.Width-rightPad, b.Y+b.Height/2, pin, ColorMuted, "r", "")
			continue
		}
		fr.rect(ColorGrid, 0.25, layout.PlotX, b.Y, layout.PlotW, b.Height)
		if b.ID == BandTrack {
			if l, ok := c.tracks[b.Track].(legended); ok && len(l.legend()) > 0 {
				// The track's name at its top, and what its marks are
				// under it.
				fr.addTextWithin(layout.PlotX-8, b.Y+8, layout.PlotX-14, b.Label, ColorMuted, "r", "")
				for k, line := range l.legend() {
					fr.addTextWithin(layout.PlotX-8, b.Y+20+11*float64(k), layout.PlotX-14, line.text, line.color, "r", "")
				}
				continue
			}
		}
		fr.addTextWithin(layout.PlotX-8, b.Y+b.Height/2, layout.PlotX-14, b.Label, ColorMuted, "r", "")
	}
	fr.flushTexts(t0)

	// Ticks: grid lines over every band, labels in the axis band.
	var ticks []Tick
	if v.AxisRV || c.noClock {
		ticks = numberTicks(s)
	} else {
		ticks = timeTicks(s)
	}
	c.segs = fr.drawTicks(ticks, s, plotBottom, c.segs[:0])

	fr.clip(layout.PlotX, 0, layout.PlotW, layout.Height)
	c.density(v, &layout, fr)
	c.drawTracks(v, &layout, s, fr)
	c.sessions(v, &layout, s, fr)
	c.bookmarkTrack(v, &layout, s, fr)
	c.zoneBands(v, &layout, s, fr)
	c.errorMarks(v, &layout, s, fr)
	if !v.AxisRV {
		for i := range layout.Bands {
			if b := &layout.Bands[i]; b.ID == BandCursors {
				b.RVTop, b.RVBot = c.cursorStrip(v, &layout, *b, s, fr)
				if layout.CursorTop == layout.CursorBot {
					layout.CursorTop, layout.CursorBot = b.RVTop, b.RVBot
				}
			}
		}
	}
	fr.unclip()
	t0 = len(fr.Texts)
	for _, b := range layout.Bands {
		if b.ID == BandCursors && b.RVTop > b.RVBot {
			// The strip's RV scale, in the gutter beside it.
			fr.addText(layout.PlotX-8, b.Y+7, strconv.FormatUint(b.RVTop, 10), ColorMuted, "r", "")
			fr.addText(layout.PlotX-8, b.Y+b.Height-7, strconv.FormatUint(b.RVBot, 10), ColorMuted, "r", "")
		}
	}
	fr.flushTexts(t0)

	c.laneRows(v, &layout, s, fr)

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
