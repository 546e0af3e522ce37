package canvas

import (
	"strconv"
	"time"
)

func fmtSeconds(d int64) string {
	return strconv.FormatFloat(float64(d)/1e9, 'f', 3, 64) + " s"
}

// FormatTime shows an instant; a capture without a clock has ordinals.
func (c *Cache) FormatTime(t int64) string {
	if c.noClock {
		return "#" + strconv.FormatInt(t, 10)
	}
	return time.Unix(0, t).UTC().Format("2006-01-02 15:04:05.000")
}

func (c *Cache) FormatPos(axisRV bool, v int64) string {
	if axisRV {
		return "RV " + strconv.FormatInt(v, 10)
	}
	return c.FormatTime(v)
}
