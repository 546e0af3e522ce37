package parser

import (
	"bytes"
	"io"
	"time"
)

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
