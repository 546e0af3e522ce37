package canvas

import (
	"math"
)

// Hit is what lies under the pointer: a tooltip, the event a click
// selects (-1 for none) and the group header a click folds (-1 for none).
type Hit struct {
	Text  string
	Event int
	Group int
	// FileBand says the pointer is on a file's name band: a click folds
	// File's group of tracks, or with Pin pins it to the top.
	FileBand bool
	File     int
	Pin      bool
}

// HitTest answers for the pointer at (x, y) in CSS pixels of the canvas.
func HitTest(c *Cache, v *View, layout *Layout, x, y float64) Hit {
	h := Hit{Event: -1, Group: -1}
	if b, ok := layout.BandUnder(y); ok && b.ID == BandFile {
		h.FileBand, h.File, h.Pin = true, b.File, x >= layout.Width-rightPad-pinW
		switch {
		case h.Pin && v.PinnedFiles.Has(b.File):
			h.Text = b.Label + "\nclick: unpin its tracks"
		case h.Pin:
			h.Text = b.Label + "\nclick: pin its tracks to the top"
		case b.Folded:
			h.Text = b.Label + "\nclick: unfold its tracks"
		default:
			h.Text = b.Label + "\nclick: fold its tracks into this line"
		}
		return h
	}
	if x < layout.PlotX-2 && layout.BandAt(y) != BandLanes {
		return h
	}
	s := v.PlotScale(layout)
	at := s.At(x)
	slop := max(int64(math.Ceil(hitSlop*float64(s.To-s.From)/s.Width)), 1)
	b, _ := layout.BandUnder(y)
	switch band := layout.BandAt(y); band {
	case BandAxis:
		h.Text = c.FormatPos(v.AxisRV, at)
	case BandDensity:
		h.Text = c.densityAt(v, layout, x, at)
	case BandSessions:
		return c.sessionsHit(v, b, at, slop)
	case BandBookmarks:
		return c.bookmarksHit(v, b, at, slop)
	case BandZoneAware, BandZoneIgnoring, BandZoneHad:
		h.Text = c.zonesAt(v, b, at, slop)
	case BandCursors:
		h.Text = c.cursorsAt(at, b)
		if k, ev := c.cursorStepHit(b, at, y); ev >= 0 {
			h.Event = ev
			h.Text += "\nclick: select the event that set the " + k + " cursor here"
		} else if k != "" {
			h.Text += "\nthe " + k + " cursor was set here by its session's request, not by an event"
		}
	case BandLanes:
		return c.lanesHit(v, layout, x, y, at, slop)
	case BandTrack:
		return c.tracks[b.Track].hit(v, b, s, at, x, y)
	}
	return h
}

func absInt64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
