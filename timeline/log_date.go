package timeline

import (
	"fmt"
	"time"

	"watchlens/parser"
)

// placeLibDate places a library's log whose lines give a time of day only
// (logback's default pattern) on the date of the other files, when there
// are some with times and no option named the date (the clock's date is
// the reader's guess), and says, in a diagnostic before the log's own,
// which date its lines were read on and why.
func (b *Builder) placeLibDate(l *parser.LibLog) {
	if l.DateFrom == "" || len(l.Lines) == 0 {
		return
	}
	how := "the date --log-date gave"
	if l.DateFrom == "clock" {
		how = "the clock's date, the latest that does not put the log in the future"
		var ref int64
		for _, f := range b.files {
			if f.file.Log == "" && f.file.Start != 0 && (ref == 0 || f.file.Start < ref) {
				ref = f.file.Start
			}
		}
		if ref != 0 {
			// The date that puts the log's first line nearest the other
			// files: a log may begin before midnight and the files after.
			tod := l.First - l.Date.UnixNano()
			refDay := time.Unix(0, ref).UTC().Truncate(24 * time.Hour)
			best, bestD := refDay, int64(1<<63-1)
			for _, d := range []time.Time{refDay.AddDate(0, 0, -1), refDay, refDay.AddDate(0, 0, 1)} {
				if dist := max(d.UnixNano()+tod-ref, ref-d.UnixNano()-tod); dist < bestD {
					best, bestD = d, dist
				}
			}
			l.MoveToDate(best, "files")
			how = "the date of the other files given with it"
		}
	}
	l.Diagnostics = append([]parser.Diagnostic{{Offset: l.Lines[0].Offset, Line: l.Lines[0].Line, Kind: DiagNoDate,
		Msg: fmt.Sprintf("the log's lines give a time of day but no date (logback's default pattern): they are read on %s, %s", l.Date.Format("2006-01-02"), how)}}, l.Diagnostics...)
}
