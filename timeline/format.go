package timeline

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// timeLayout is RFC 3339 with all nine digits of nanoseconds, so times
// line up and compare as strings.
const timeLayout = "2006-01-02T15:04:05.000000000Z07:00"

// FormatTime renders an instant of a file with the given clock, UTC, as
// the report's JSON fields hold it (a contract, see report/REPORT.md);
// empty when the file has no clock.
func FormatTime(t int64, c Clock) string {
	if c == ClockNone {
		return ""
	}
	u := time.Unix(0, t).UTC()
	b := make([]byte, 0, len(timeLayout))
	b, ok := appendDate(b, u)
	if !ok {
		return u.Format(timeLayout)
	}
	b = appendClock(append(b, 'T'), u)
	b = append(appendDigits(append(b, '.'), u.Nanosecond(), 9), 'Z')
	return string(b)
}

// FormatInstant renders an instant as every sentence, table and tooltip
// shows it to a person: date, time to the millisecond and zone, such as
// "2026-11-30 01:04:24.512 UTC". The zone is always written, so a time
// read off one surface can be compared with another's.
func FormatInstant(t int64, loc *time.Location) string {
	u := time.Unix(0, t).In(zoneOr(loc))
	b, ok := appendDate(make([]byte, 0, 32), u)
	if ok {
		b, ok = appendClockZone(append(b, ' '), u)
	}
	if !ok {
		return u.Format("2006-01-02 15:04:05.000 MST")
	}
	return string(b)
}

// FormatSecond renders an instant known to about a second, rounded to
// it: "2026-12-01 18:13:29 UTC". A process's start time in its metrics
// (process_start_time_seconds) is the machine's boot time, a whole
// second, plus the process's start in clock ticks, and a restart seen
// between two scrapes is no closer: milliseconds would claim more.
func FormatSecond(t int64, loc *time.Location) string {
	return time.Unix(0, t).Round(time.Second).In(zoneOr(loc)).Format("2006-01-02 15:04:05 MST")
}

// CeilMillisecond rounds t up to the millisecond FormatInstant shows: a
// stretch that begins 542µs into a millisecond, said at that
// millisecond, would be said before it begins.
func CeilMillisecond(t int64) int64 {
	const ms = int64(time.Millisecond)
	if r := t % ms; r > 0 {
		return t - r + ms
	}
	return t
}

// FormatClock is FormatInstant without the date, for places where the
// date is plain from what is around it (a range of the plot, a tooltip
// beside the axis): "01:04:24.512 UTC".
func FormatClock(t int64, loc *time.Location) string {
	u := time.Unix(0, t).In(zoneOr(loc))
	b, ok := appendClockZone(make([]byte, 0, 24), u)
	if !ok {
		return u.Format("15:04:05.000 MST")
	}
	return string(b)
}

// The layouts above, written digit by digit: time.Format reads its
// layout anew at every call, and a report or a load's reasons write
// thousands of instants. Each writes what Format writes, which the
// tests hold them to; a year of other than four digits, or a zone
// without a name, is left to Format.

// appendDate appends u's "2006-01-02"; false for a year Format writes
// otherwise.
func appendDate(b []byte, u time.Time) ([]byte, bool) {
	year, month, day := u.Date()
	if year < 1000 || year > 9999 {
		return b, false
	}
	b = appendDigits(b, year, 4)
	b = appendDigits(append(b, '-'), int(month), 2)
	return appendDigits(append(b, '-'), day, 2), true
}

// appendClock appends u's "15:04:05".
func appendClock(b []byte, u time.Time) []byte {
	hour, minute, sec := u.Clock()
	b = appendDigits(b, hour, 2)
	b = appendDigits(append(b, ':'), minute, 2)
	return appendDigits(append(b, ':'), sec, 2)
}

// appendClockZone appends u's "15:04:05.000 MST"; false for a zone
// without a name, which Format writes as an offset.
func appendClockZone(b []byte, u time.Time) ([]byte, bool) {
	name, _ := u.Zone()
	if name == "" {
		return b, false
	}
	b = appendDigits(append(appendClock(b, u), '.'), u.Nanosecond()/int(time.Millisecond), 3)
	return append(append(b, ' '), name...), true
}

// appendDigits appends n, at least 0, in width digits, zeros first.
func appendDigits(b []byte, n, width int) []byte {
	var d [9]byte
	for i := width - 1; i >= 0; i-- {
		d[i] = byte('0' + n%10)
		n /= 10
	}
	return append(b, d[:width]...)
}

func zoneOr(loc *time.Location) *time.Location {
	if loc == nil {
		return time.UTC
	}
	return loc
}

// ParseZone reads the zone a person asks times to be written in:
// "UTC" (or nothing), "local" for the reader's own zone, or an IANA
// name such as "Europe/Paris". The page and the command line both ask
// here, so that one name means one zone on both.
func ParseZone(name string) (*time.Location, error) {
	switch strings.ToLower(name) {
	case "", "utc":
		return time.UTC, nil
	case "local":
		return time.Local, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("unknown time zone %q: give UTC, local or an IANA name such as Europe/Paris", name)
	}
	return loc, nil
}

// FormatDuration renders a duration in ns in the one style every surface
// uses, rounded the same way everywhere so that one value reads as one
// string: whole milliseconds below a second ("312ms"), tenths of a second
// below ten seconds ("4.2s"), whole seconds above ("1m38s", "2h0m5s").
// Below a millisecond it keeps microseconds ("45µs"), so a short but
// real interval does not read as nothing.
func FormatDuration(d int64) string {
	neg := d < 0
	if neg {
		d = -d
	}
	var s string
	switch {
	case d == 0:
		s = "0s"
	case d < int64(time.Millisecond):
		s = time.Duration(d).Round(time.Microsecond).String()
	case d < int64(time.Second)-int64(time.Millisecond)/2:
		s = strconv.FormatInt((d+int64(time.Millisecond)/2)/int64(time.Millisecond), 10) + "ms"
	case d < int64(10*time.Second)-int64(50*time.Millisecond):
		s = time.Duration(d).Round(100 * time.Millisecond).String()
	default:
		s = time.Duration(d).Round(time.Second).String()
	}
	if neg {
		return "-" + s
	}
	return s
}

// FormatSeconds is FormatDuration for a figure the report holds in
// seconds.
func FormatSeconds(v float64) string {
	return FormatDuration(Nanoseconds(v))
}

// Nanoseconds is a figure the report holds in seconds back in the
// timeline's nanoseconds.
func Nanoseconds(v float64) int64 {
	return int64(math.Round(v * 1e9))
}

// RoundPercent rounds a share to the tenth of a percent every surface
// shows: the JSON's figure and FormatPercent's words are one value.
func RoundPercent(p float64) float64 {
	return math.Round(p*10) / 10
}

// FormatPercent says a share as every surface writes it: "15.9 %",
// "100.0 %".
func FormatPercent(p float64) string {
	return strconv.FormatFloat(RoundPercent(p), 'f', 1, 64) + " %"
}
