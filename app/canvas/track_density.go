package canvas

import (
	"math"

	"watchlens/internal/quantity"
	"watchlens/timeline"
)

// densityBand is the band of events per pixel column.
type densityBand struct{}

func (densityBand) label() string      { return "events" }
func (densityBand) height(int) float64 { return densityH }
func (densityBand) hit(c *Cache, v *View, p pointer) Hit {
	return Hit{Event: -1, Group: -1, Text: c.densityAt(v, p.layout, p.x, p.at)}
}

// paint draws how many events fall in each pixel column, on a log
// scale, from the timeline's binned counts: where the activity is, even
// in lanes scrolled out of sight.
func (densityBand) paint(c *Cache, v *View, layout *Layout, _ Scale, fr *Frame) {
	b, _ := layout.bandByID(BandDensity)
	q := timeline.BinQuery{From: v.From, To: v.To, Columns: max(int(layout.PlotW), 1), File: -1}
	if v.AxisRV {
		q.Axis = timeline.AxisRV
	}
	c.bins = c.densityBins(q, c.bins)
	var peak uint32
	for _, n := range c.bins.Objects {
		peak = max(peak, n)
	}
	if peak == 0 {
		return
	}
	scale := (b.Height - 2) / math.Log1p(float64(peak))
	rects := c.rects[:0]
	for col, n := range c.bins.Objects {
		if n == 0 {
			continue
		}
		h := max(math.Log1p(float64(n))*scale, 1.5)
		rects = append(rects, float32(layout.PlotX+float64(col)), float32(b.Y+b.Height-1-h), 1, float32(h))
	}
	fr.add(Op{Kind: "rect", Color: ColorMuted, Alpha: 0.7}, rects)
	c.rects = rects
}

// densityAt says how many events the density band's column under x holds.
func (c *Cache) densityAt(v *View, layout *Layout, x float64, at int64) string {
	b := c.bins
	if b == nil || b.Columns == 0 {
		return ""
	}
	col := int(x - layout.PlotX)
	if col < 0 || col >= b.Columns {
		return ""
	}
	return quantity.Plural(int(b.Objects[col]), "event") + " (not counting bookmarks and errors) around " + c.FormatPos(v.AxisRV, at)
}
