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
	return timeline.FormatInstant(t, time.UTC)
}

func (c *Cache) FormatPos(axisRV bool, v int64) string {
	if axisRV {
		return "RV " + strconv.FormatInt(v, 10)
	}
	return c.FormatTime(v)
}
