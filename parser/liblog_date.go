package parser

import (
	"bytes"
	"fmt"
	"time"
)

// Log lines without a date.
//
// Two layouts that libraries' users get by default write less than a
// date and a time. logback's pattern without a configuration file, which
// a fabric8 program logs through unless it sets one, is
// "%d{HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n": a time of
// day only ("18:13:29.501 [pool-2-thread-1] DEBUG ..."). Python's
// logging.basicConfig() without a format writes BASIC_FORMAT,
// "%(levelname)s:%(name)s:%(message)s": no time at all
// ("WARNING:kubernetes.informer.informer:Watch expired ..."). A time of
// day is read on a date that LibLogOptions gives, else on the clock's
// (the latest that does not put the log in the future), which the
// timeline moves to the date of the other files given with it
// (MoveToDate); a line that goes back in time by more than 12 hours
// crossed midnight. A line with no time is never given one: each that
// tells of a list, a watch or a 410 is diagnosed where it stands, and
// counted in LibLog.Untimed.

// LibLogOptions are ReadLibLog's options for the logs' times.
type LibLogOptions struct {
	// Date is the date of lines that give a time of day only; the zero
	// time leaves it to the clock (see LibLog.DateFrom).
	Date time.Time
	// Now is the clock's instant for that; the zero time is time.Now.
	Now time.Time
}

// timeOfDay reads a time of day a line begins with, "18:13:29.501" or
// "18:13:29,501" (the fraction optional), followed by a blank: the
// nanoseconds since midnight, and the rest of the line.
func timeOfDay(b []byte) (int64, []byte, bool) {
	if len(b) < 9 || b[2] != ':' || b[5] != ':' {
		return 0, nil, false
	}
	var hms [3]int
	for k := range hms {
		d0, d1 := b[3*k], b[3*k+1]
		if !isDigit(d0) || !isDigit(d1) {
			return 0, nil, false
		}
		hms[k] = int(d0-'0')*10 + int(d1-'0')
	}
	if hms[0] > 23 || hms[1] > 59 || hms[2] > 60 {
		return 0, nil, false
	}
	t := int64(hms[0])*int64(time.Hour) + int64(hms[1])*int64(time.Minute) + int64(hms[2])*int64(time.Second)
	end := 8
	if b[end] == ',' || b[end] == '.' {
		frac, digits := int64(0), 0
		for end++; end < len(b) && isDigit(b[end]); end++ {
			if digits < 9 {
				frac, digits = frac*10+int64(b[end]-'0'), digits+1
			}
		}
		if digits == 0 {
			return 0, nil, false
		}
		for ; digits < 9; digits++ {
			frac *= 10
		}
		t += frac
	}
	if end >= len(b) || b[end] != ' ' && b[end] != '\t' {
		return 0, nil, false
	}
	return t, b[end:], true
}

// basicFormat reads a line in Python's BASIC_FORMAT, "LEVEL:logger:
// message" with no time: its logger's name and message, as the Python
// reader finds them ("logger: message").
func basicFormat(b []byte) ([]byte, bool) {
	for _, lv := range [...]string{"DEBUG:", "INFO:", "WARNING:", "ERROR:", "CRITICAL:"} {
		if rest, ok := bytes.CutPrefix(b, []byte(lv)); ok {
			name, msg, ok := bytes.Cut(rest, []byte(":"))
			if !ok || len(name) == 0 || bytes.ContainsAny(name, " \t") {
				return nil, false
			}
			return append(append(append([]byte(lv[:len(lv)-1]+" "), name...), ": "...), msg...), true
		}
	}
	return nil, false
}

// onDay places a time of day read from the log on the reader's day:
// the day before a line 12 hours or more earlier than the one before
// it, the next.
func (lr *libReader) onDay(tod int64) int64 {
	const day = int64(24 * time.Hour)
	if lr.sawTimeOfDay && tod < lr.lastTimeOfDay-day/2 {
		lr.days++
	}
	lr.sawTimeOfDay, lr.lastTimeOfDay = true, tod
	return lr.days*day + tod
}

// untimed diagnoses a line with no time that tells of a list, a watch
// or a 410 (l): its event is not placed on the clock.
func (lr *libReader) untimed(ln line, l LibLine, b []byte) {
	lr.log.Untimed++
	lr.diag(Diagnostic{Offset: ln.raw, Line: ln.no, Kind: DiagNoTime, Msg: fmt.Sprintf(
		"a %s line (%s) with no time at all, as Python's logging.basicConfig() writes by default: its event is left off the clock, not given a time (%s)",
		lr.log.Library, l.Kind, clipString(string(b)))})
}

// placeDays gives the lines read as times of day their date: lo.Date,
// else the clock's, the latest that does not put the first of them in
// the future.
func (lr *libReader) placeDays(lo LibLogOptions) {
	if !lr.sawTimeOfDay {
		return
	}
	l := &lr.log
	var date time.Time
	switch {
	case !lo.Date.IsZero():
		d := lo.Date.UTC()
		date, l.DateFrom = time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC), "option"
	default:
		now := lo.Now
		if now.IsZero() {
			now = time.Now()
		}
		now = now.UTC()
		date, l.DateFrom = time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC), "clock"
		if first := lr.firstTimeOfDay(); first >= 0 && date.UnixNano()+first > now.UnixNano() {
			date = date.AddDate(0, 0, -1)
		}
	}
	l.Date = date
	for k := range l.Lines {
		if l.Lines[k].noDate {
			l.Lines[k].Time += date.UnixNano()
			l.Lines[k].noDate = false
		}
	}
}

// firstTimeOfDay is the first line's time of day, -1 when no line was
// read as one.
func (lr *libReader) firstTimeOfDay() int64 {
	for _, ln := range lr.log.Lines {
		if ln.noDate {
			return ln.Time
		}
	}
	return -1
}

// MoveToDate places a log whose lines gave a time of day only and were
// read on the clock's date (DateFrom "clock") on another date, which
// from names the origin of ("files": the other files given with it); a
// log whose lines named their date is left as it is.
func (l *LibLog) MoveToDate(date time.Time, from string) {
	date = time.Date(date.Year(), date.Month(), date.Day(), 0, 0, 0, 0, time.UTC)
	if l.DateFrom != "clock" || date.Equal(l.Date) {
		return
	}
	delta := date.UnixNano() - l.Date.UnixNano()
	for k := range l.Lines {
		l.Lines[k].Time += delta
	}
	l.First, l.Last = l.First+delta, l.Last+delta
	l.Date, l.DateFrom = date, from
}
