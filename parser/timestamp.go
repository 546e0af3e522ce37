package parser

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"time"
)

// MinTime and MaxTime are the first and last instants that Unix
// nanoseconds in an int64 hold, the timeline's clock: 1677-09-21 and
// 2262-04-11. Outside them time.Time.UnixNano wraps (year 9999 would read
// as 1754), so a time outside is refused, never kept.
var (
	MinTime = time.Unix(0, math.MinInt64).UTC()
	MaxTime = time.Unix(0, math.MaxInt64).UTC()
)

// minYear and maxYear are MinTime's and MaxTime's years, for the fast
// time parser, which reads years as digits.
const minYear, maxYear = 1677, 2262

// TimeRange says MinTime..MaxTime in words, for the messages that refuse
// a time outside it.
const TimeRange = "outside the years 1677 to 2262 that the timeline's clock holds"

// UnixNano is t as Unix nanoseconds, and false when t is outside
// MinTime..MaxTime.
func UnixNano(t time.Time) (int64, bool) {
	if t.Before(MinTime) || t.After(MaxTime) {
		return 0, false
	}
	return t.UnixNano(), true
}

// timeLayout is RFC 3339 with nanoseconds kept to a fixed width, as the
// samples' recorder wrote them, so prefixes line up in a terminal.
const timeLayout = "2006-01-02T15:04:05.000000000Z07:00"

// NewTimestampWriter returns a writer that copies to w, putting before each
// line the time its first byte was written (RFC 3339 nano, UTC) and a
// space: the arrival-time prefix the Reader reads back. Each Write goes to w
// at once, so a live capture is on disk as it arrives. Close does not close
// w.
func NewTimestampWriter(w io.Writer, now func() time.Time) io.WriteCloser {
	return &timestampWriter{w: w, now: now, atLineStart: true}
}

type timestampWriter struct {
	w           io.Writer
	now         func() time.Time
	atLineStart bool
	buf         []byte
}

func (t *timestampWriter) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n := len(p)
	stamp := t.now().UTC()
	out := t.buf[:0]
	for len(p) > 0 {
		if t.atLineStart {
			out = stamp.AppendFormat(out, timeLayout)
			out = append(out, ' ')
			t.atLineStart = false
		}
		i := len(p)
		if k := bytes.IndexByte(p, '\n'); k >= 0 {
			i = k + 1
			t.atLineStart = true
		}
		out = append(out, p[:i]...)
		p = p[i:]
	}
	t.buf = out
	_, err := t.w.Write(out)
	if err != nil {
		return 0, err
	}
	return n, nil
}

func (t *timestampWriter) Close() error { return nil }

// badTime is an arrival prefix outside MinTime..MaxTime: where its line
// starts, and its text.
type badTime struct {
	raw    int64
	line   int
	prefix string
}

// maxBadTimes bounds the badTimes a line reader holds between two takes.
const maxBadTimes = 64

// outOfRangePrefix says whether b starts with an RFC 3339 arrival time
// outside MinTime..MaxTime and the space or tab after it, and returns
// their length.
func outOfRangePrefix(b []byte) (int, bool) {
	if len(b) < 20 || b[4] != '-' || b[7] != '-' || (b[10] != 'T' && b[10] != 't') {
		return 0, false
	}
	t, end, ok := parseRFC3339Time(b)
	if !ok {
		return 0, false
	}
	if _, in := UnixNano(t); in {
		return 0, false
	}
	return end + 1, true
}

// sayBadTimes turns the out-of-range arrival prefixes the lines held into
// diagnostics at their lines' offsets.
func (r *Reader) sayBadTimes() {
	for _, b := range r.lines.badTimes {
		r.addDiag(Diagnostic{Offset: b.raw, Line: b.line, Kind: DiagBadTime,
			Msg: fmt.Sprintf("the arrival time %q is %s; the line keeps the time of the line before", clipString(b.prefix), TimeRange)})
	}
	r.lines.badTimes = r.lines.badTimes[:0]
}
