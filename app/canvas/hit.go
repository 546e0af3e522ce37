package canvas

import (
	"math"
	"watchlens/app/words"
	"watchlens/parser"
	"watchlens/timeline"
)

// Hit is what lies under the pointer: a tooltip, the event a click
// selects (-1 for none) and the group header a click folds (-1 for none).
type Hit struct {
	Text  string
	Event int
	Group int
}

// HitTest answers for the pointer at (x, y) in CSS pixels of the canvas.
func HitTest(c *Cache, v *View, layout *Layout, x, y float64) Hit {
	h := Hit{Event: -1, Group: -1}
	if x < layout.PlotX-2 && layout.BandAt(y) != BandLanes {
		return h
	}
	s := v.PlotScale(layout)
	at := s.At(x)
	slop := max(int64(math.Ceil(hitSlop*float64(s.To-s.From)/s.Width)), 1)
	tl := c.tl
	switch layout.BandAt(y) {
	case BandAxis:
		h.Text = c.FormatPos(v.AxisRV, at)
	case BandDensity:
		if b := c.bins; b != nil && b.Columns > 0 {
			col := int(x - layout.PlotX)
			if col >= 0 && col < b.Columns {
				h.Text = words.Plural(int(b.Objects[col]), "event") + " (not counting bookmarks and errors) around " + c.FormatPos(v.AxisRV, at)
			}
		}
	case BandSessions:
		if k := c.nearestError(v, at, slop); k >= 0 {
			e := c.errs[k]
			h.Event = int(e.idx)
			h.Text = "ERROR at " + c.FormatTime(e.t) + ": " + e.msg
			return h
		}
		h.Text = c.sessionAt(v.AxisRV, at, slop)
		if h.Text == "" && !v.AxisRV {
			// No watch open here: what would coming back now get?
			h.Text = c.reconnectText(v.Analysis, []timeline.CursorKind{timeline.BookmarkAware, timeline.BookmarkIgnoring, timeline.HadBookmarks}, at)
		}
	case BandBookmarks:
		if !v.Filter.Event(parser.Bookmark) {
			return h
		}
		if k := c.nearestBookmark(v.AxisRV, at, slop); k >= 0 {
			b := c.bookmarks[k]
			h.Event = int(b.idx)
			h.Text = bookmarkText(b, c.FormatTime(b.t))
		}
	case BandZoneAware, BandZoneIgnoring, BandZoneHad:
		kind := ZoneBandKind(layout.BandAt(y))
		if v.AxisRV {
			h.Text = zonesAt(v.Analysis, kind, at, slop)
			return h
		}
		h.Text = c.reconnectText(v.Analysis, []timeline.CursorKind{kind}, at)
	case BandCursors:
		h.Text = c.cursorsAt(at)
	case BandLanes:
		r := layout.RowAt(y, v.ScrollY, len(v.Rows))
		if r < 0 {
			return h
		}
		rw := v.Rows[r]
		g := &v.Groups[rw.Group]
		if rw.Lane < 0 {
			h.Group = rw.Group
			verb := "fold"
			if g.Collapsed {
				verb = "unfold"
			}
			h.Text = g.Label(tl) + ": click to " + verb
			return h
		}
		ln := &tl.Lanes[rw.Lane]
		h.Text = laneText(ln) + ": " + words.Plural(len(tl.LaneEvents(rw.Lane)), "event")
		if ln.Deleted {
			h.Text += ", deleted"
		}
		if x < layout.PlotX {
			return h
		}
		if k := c.nearestInLane(v, rw.Lane, at, slop); k >= 0 {
			ev := tl.Event(k)
			h.Event = k
			h.Text = ev.Type.String() + " " + laneText(ln) + "\nRV " + ev.RV + " at " + c.FormatTime(ev.T)
			if !ev.Timed && !c.noClock {
				h.Text += " (estimated)"
			}
			if ev.Initial {
				h.Text += "\npart of the initial events (sendInitialEvents)"
			}
		}
	}
	return h
}

func absInt64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
