package timeline

import (
	"fmt"
	"strconv"
	"time"

	"watchlens/parser"
)

// Logs whose lines write less than their date.
//
// klog writes a line's month and day but not its year; logback's default
// pattern writes a time of day only. The parser reads each on what
// Builder.LogDate gives (a year serves klog's lines, a whole date both),
// else on what the log itself names (a klog log's Go log lines, its
// traces), else on the clock's date; Build then moves a log read on the
// clock's date to where the other files given with it are (nearFiles),
// by whole years or whole days, and says, in a diagnostic before the
// log's own, where its lines were read and why.

// LogDate is the date given for log lines that write less than theirs:
// a year alone, or a whole date. The zero LogDate gives none.
type LogDate struct {
	Year  int
	Month time.Month // 0 when only the year is given
	Day   int
}

// ParseLogDate reads a LogDate written as a year ("2026") or a date
// ("2026-12-01").
func ParseLogDate(s string) (LogDate, error) {
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return LogDate{t.Year(), t.Month(), t.Day()}, nil
	}
	if y, err := strconv.Atoi(s); err == nil && len(s) == 4 && y > 0 {
		return LogDate{Year: y}, nil
	}
	return LogDate{}, fmt.Errorf("%q is neither a year as 2026 nor a date as 2026-12-01", s)
}

// date is the whole date, the zero time when only a year is given.
func (d LogDate) date() time.Time {
	if d.Month == 0 {
		return time.Time{}
	}
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC)
}

// datePart is the part of a line's date that a log leaves out.
type datePart int

const (
	leftYear datePart = iota // klog's lines
	leftDay                  // a time of day only
)

// move is t moved by k of the part.
func (p datePart) move(t time.Time, k int) time.Time {
	if p == leftYear {
		return t.AddDate(k, 0, 0)
	}
	return t.AddDate(0, 0, k)
}

// nearFiles says by how many years (or days) to move a log read on the
// clock's date so that its first line is nearest the earliest start of
// the other files given with it: of the first line in the year (or on
// the day) of that start and in those either side of it, the nearest;
// a log may begin before midnight and the files after. ok is false when
// no other file has a time.
func (b *Builder) nearFiles(first int64, p datePart) (k int, ok bool) {
	var ref int64
	for _, f := range b.files {
		if f.file.Log == "" && f.file.Start != 0 && (ref == 0 || f.file.Start < ref) {
			ref = f.file.Start
		}
	}
	if ref == 0 {
		return 0, false
	}
	at, r := time.Unix(0, first).UTC(), time.Unix(0, ref).UTC()
	k0 := r.Year() - at.Year()
	if p == leftDay {
		const day = 24 * time.Hour
		k0 = int(r.Truncate(day).Sub(at.Truncate(day)) / day)
	}
	bestD := time.Duration(1<<63 - 1)
	for c := k0 - 1; c <= k0+1; c++ {
		if d := p.move(at, c).Sub(r).Abs(); d < bestD {
			k, bestD = c, d
		}
	}
	return k, true
}

// placeKlogYear places a klog log whose lines name no year in the year
// of the other files, when the clock's year was the reader's guess, and
// returns the log's diagnostics with a word on the year it was read in
// when that is a guess.
func (b *Builder) placeKlogYear(l *parser.KlogLog) []parser.Diagnostic {
	diags := l.Diagnostics
	if l.YearFrom != "clock" || len(l.Lines) == 0 {
		return diags
	}
	how := "the clock's year, the latest that does not put the log in the future"
	if k, ok := b.nearFiles(l.First, leftYear); ok {
		l.MoveToYear(l.Year+k, "files")
		how = "the year of the other files given with it"
	}
	return append([]parser.Diagnostic{{Offset: l.Lines[0].Offset, Line: l.Lines[0].Line, Kind: DiagNoYear,
		Msg: fmt.Sprintf("klog writes the month and day of a line but not its year, and no line of the log names it: its lines are read in %d, %s", l.Year, how)}}, diags...)
}

// placeLibDate places a library's log whose lines give a time of day
// only (logback's default pattern) on the date of the other files, when
// the clock's date was the reader's guess, and says, in a diagnostic
// before the log's own, which date its lines were read on and why.
func (b *Builder) placeLibDate(l *parser.LibLog) {
	if l.DateFrom == "" || len(l.Lines) == 0 {
		return
	}
	how := "the date --log-date gave"
	if l.DateFrom == "clock" {
		how = "the clock's date, the latest that does not put the log in the future"
		if k, ok := b.nearFiles(l.First, leftDay); ok {
			l.MoveToDate(l.Date.AddDate(0, 0, k), "files")
			how = "the date of the other files given with it"
		}
	}
	l.Diagnostics = append([]parser.Diagnostic{{Offset: l.Lines[0].Offset, Line: l.Lines[0].Line, Kind: DiagNoDate,
		Msg: fmt.Sprintf("the log's lines give a time of day but no date (logback's default pattern): they are read on %s, %s", l.Date.Format("2006-01-02"), how)}}, l.Diagnostics...)
}
