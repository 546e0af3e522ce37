package canvas

import "watchlens/parser"

// errorLayer paints the ERROR marks over the sessions bands and their
// lines down through the zone bands; the sessions band answers for them.
type errorLayer struct{}

type errorMark struct {
	t, idx int64
	y      uint64 // the lowest RV still accepted, timeline.NoRV when the message does not say
	msg    string
	file   int
}

// paint puts a marker on every observed ERROR above the sessions and
// a line down through the zone bands. On the RV axis an error sits at the
// lowest RV it says is still accepted.
func (errorLayer) paint(c *Cache, v *View, layout *Layout, s Scale, fr *Frame) {
	if !v.Filter.Event(parser.Error) {
		return
	}
	var marks, lines []float32
	for _, b := range layout.Bands {
		if b.ID != BandSessions {
			continue
		}
		// The line runs down through the file's zone bands.
		var zb Band
		for _, z := range layout.Bands {
			if z.ID == BandZoneIgnoring && z.File == b.File {
				zb = z
			}
		}
		for _, e := range c.errs {
			p, ok := axisPos(v.AxisRV, e.t, e.y)
			if !ok || p < v.From || p >= v.To || !inFile(b, e.file) {
				continue
			}
			x := s.X(p)
			marks = append(marks, float32(x), float32(b.Y+b.Height/2))
			lines = append(lines, float32(x), float32(b.Y+b.Height/2), float32(x), float32(zb.Y+zb.Height))
		}
	}
	fr.add(Op{Kind: "seg", Color: ColorError, Size: 1.5}, lines)
	fr.add(Op{Kind: "mark", Shape: "tridown", Color: ColorError, Size: markSize + 3}, marks)
}

func (c *Cache) nearestError(v *View, b Band, at, slop int64) int {
	best, bestD := -1, slop+1
	for k, e := range c.errs {
		p, ok := axisPos(v.AxisRV, e.t, e.y)
		if !ok || !inFile(b, e.file) {
			continue
		}
		if d := absInt64(p - at); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// errorHit is the ERROR marked nearest at, within slop, if any.
func (c *Cache) errorHit(v *View, b Band, at, slop int64) Hit {
	h := Hit{Event: -1, Group: -1}
	if k := c.nearestError(v, b, at, slop); k >= 0 {
		e := c.errs[k]
		h.Event = int(e.idx)
		h.Text = "ERROR at " + c.FormatTime(e.t) + ": " + e.msg
	}
	return h
}
