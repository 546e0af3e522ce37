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

// HitTest answers for the pointer at (x, y) in CSS pixels of the canvas:
// the band under it answers, in the plot, or in the gutter if it says
// it does there.
func HitTest(c *Cache, v *View, layout *Layout, x, y float64) Hit {
	c.takeZone(v)
	k, ok := kinds[layout.BandAt(y)]
	if !ok {
		return Hit{Event: -1, Group: -1}
	}
	if _, gutter := k.(gutterHit); x < layout.PlotX-2 && !gutter {
		return Hit{Event: -1, Group: -1}
	}
	s := v.PlotScale(layout)
	at := s.At(x)
	slop := max(int64(math.Ceil(hitSlop*float64(s.To-s.From)/s.Width)), 1)
	b, _ := layout.BandUnder(y)
	return k.hit(c, v, pointer{layout: layout, band: b, s: s, x: x, y: y, at: at, slop: slop})
}

func absInt64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
