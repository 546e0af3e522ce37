package canvas

import (
	"math/bits"

	"watchlens/parser"
	"watchlens/timeline"
)

// specialsPerColumn is how many bookmarks and errors per plot column make
// the density band count its columns itself on the time axis (see
// timeColumns) rather than ask the timeline's Bins, which walks every
// bookmark and error in view once per frame: a capture split into 10 000
// virtual clients has 600 000 copies of its bookmarks. Below it, Bins'
// one search per column costs less than timeColumns' two.
const specialsPerColumn = 16

// densityBins counts the events per column of q as timeline.Bins does
// (its Objects), by timeColumns when the bookmarks and errors are many.
func (c *Cache) densityBins(q timeline.BinQuery, out *timeline.Bins) *timeline.Bins {
	if q.Axis != timeline.AxisTime || len(c.specialT) < specialsPerColumn*max(q.Columns, 1) {
		return c.tl.Bins(q, out)
	}
	return c.timeColumns(q, out)
}

// timeColumns fills out's Columns and Objects for q on the time axis, as
// Bins does (the events in each column less its bookmarks and errors), in
// searches per column: the events' through the timeline's TimeRange, the
// bookmarks' and errors' by galloping over their sorted instants
// (Cache.specialT). Its other counts are left empty.
func (c *Cache) timeColumns(q timeline.BinQuery, out *timeline.Bins) *timeline.Bins {
	if out == nil {
		out = &timeline.Bins{}
	}
	cols := max(q.Columns, 1)
	out.Columns, out.Rows, out.Max = cols, 0, 0
	out.Counts, out.Bookmarks, out.Errors = out.Counts[:0], out.Bookmarks[:0], out.Errors[:0]
	if cap(out.Objects) < cols {
		out.Objects = make([]uint32, cols)
	}
	out.Objects = out.Objects[:cols]
	clear(out.Objects)
	span := q.To - q.From
	if span <= 0 {
		return out
	}
	st := c.specialT
	lo, _ := c.tl.TimeRange(q.From, q.From)
	sp := gallop(0, len(st), func(k int) bool { return st[k] >= q.From })
	for col := range cols {
		bound := columnStart(col+1, q.From, span, cols)
		hi, _ := c.tl.TimeRange(bound, bound)
		next := gallop(sp, len(st), func(k int) bool { return st[k] >= bound })
		out.Objects[col] = uint32(hi-lo) - uint32(next-sp)
		lo, sp = hi, next
	}
	return out
}

// columnStart is the least instant of column col of cols over [from,
// from+span), as the timeline's Bins reckons it (exactly, in 128 bits).
func columnStart(col int, from, span int64, cols int) int64 {
	hi, lo := bits.Mul64(uint64(col), uint64(span))
	q, r := bits.Div64(hi, lo, uint64(cols))
	if r != 0 {
		q++
	}
	return from + int64(q)
}

// isSpecial says whether an event of type typ is one Bins counts apart
// from the objects': a bookmark or an error.
func isSpecial(typ parser.EventType) bool { return typ == parser.Bookmark || typ == parser.Error }
