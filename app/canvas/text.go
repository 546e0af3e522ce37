package canvas

import (
	"strconv"
	"time"

	"watchlens/timeline"
)

// FormatTime shows an instant; a capture without a clock has ordinals.
func (c *Cache) FormatTime(t int64) string {
	if c.noClock {
		return "#" + strconv.FormatInt(t, 10)
	}
	return timeline.FormatInstant(t, c.zone)
}

// takeZone has the cache write times, on its axis and in its tooltips,
// in the zone of the view's analysis (timeline.Params.Zone): the reader's
// choice, nil for UTC.
func (c *Cache) takeZone(v *View) {
	c.zone = nil
	if v.Analysis != nil {
		c.zone = v.Analysis.Params.Zone
	}
}

// zoneOr is loc, UTC when nil.
func zoneOr(loc *time.Location) *time.Location {
	if loc == nil {
		return time.UTC
	}
	return loc
}

// clock writes an instant of a tooltip as a time of day in zone loc.
func clock(t int64, loc *time.Location) string { return timeline.FormatClock(t, loc) }

func (c *Cache) FormatPos(axisRV bool, v int64) string {
	if axisRV {
		return "RV " + strconv.FormatInt(v, 10)
	}
	return c.FormatTime(v)
}

// FormatShown writes the range [from, to) a view shows, as the summary
// beside the canvas says it. A resourceVersion and an event ordinal are
// whole numbers: the range names the first and the last it holds, and
// ordinals go no further than the capture's events, where the view's
// margins would name events before the first (#-4000) and past the last.
func (c *Cache) FormatShown(axisRV bool, from, to int64) (string, string) {
	switch {
	case axisRV:
		from = max(from, 0)
		to = max(to-1, from)
	case c.noClock:
		from = min(max(from, c.start), c.end)
		to = min(max(to-1, from), c.end)
	}
	return c.FormatPos(axisRV, from), c.FormatPos(axisRV, to)
}
