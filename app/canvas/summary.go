package canvas

import (
	"sort"

	"watchlens/parser"
	"watchlens/timeline"
)

// Summary is what the canvas shows in view, in numbers.
type Summary struct {
	Lanes, Groups int
	Bookmarks     int
	Errors        int
	Zones         [2]timeline.ZoneTotal // refused zones in view, by cursor kind
}

// Summarize says what view v shows, with lanes lanes passing its filter.
func (c *Cache) Summarize(v *View, lanes int) Summary {
	s := Summary{Lanes: lanes, Groups: len(v.Groups)}
	if v.Filter.Event(parser.Bookmark) {
		xs := c.bmT
		if v.AxisRV {
			xs = c.bmRV
		}
		s.Bookmarks = countIn(xs, v.From, v.To)
	}
	if v.Filter.Event(parser.Error) {
		for _, e := range c.errs {
			if p, ok := axisPos(v.AxisRV, e.t, e.y); ok && p >= v.From && p < v.To {
				s.Errors++
			}
		}
	}
	if v.Analysis != nil {
		s.Zones = v.Analysis.ZoneTotals(v.AxisRV, v.From, v.To)
	}
	return s
}

// countIn counts the sorted xs in [from, to).
func countIn(xs []int64, from, to int64) int {
	lo := sort.Search(len(xs), func(i int) bool { return xs[i] >= from })
	hi := sort.Search(len(xs), func(i int) bool { return xs[i] >= to })
	return max(hi-lo, 0)
}

// EventText names an event for the summary.
func (c *Cache) EventText(i int) string {
	ev := c.tl.Event(i)
	s := ev.Type.String()
	if ev.Lane >= 0 {
		ln := c.tl.Lanes.At(ev.Lane)
		s += " " + laneText(ln)
	}
	if ev.RV != "" {
		s += ", RV " + ev.RV
	}
	s += ", " + c.FormatTime(ev.T)
	if ev.Status != nil {
		s += ": " + ev.Status.Message
	}
	return s
}
