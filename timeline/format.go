package timeline

import "time"

// timeLayout is RFC 3339 with all nine digits of nanoseconds, so times
// line up and compare as strings.
const timeLayout = "2006-01-02T15:04:05.000000000Z07:00"

// FormatTime renders an instant of a file with the given clock, UTC, as
// the model's reasons and the report write it; empty when the file has no
// clock.
func FormatTime(t int64, c Clock) string {
	if c == ClockNone {
		return ""
	}
	return time.Unix(0, t).UTC().Format(timeLayout)
}
