package timeline

import (
	"fmt"

	"watchlens/parser"
)

// lateStamps tallies a capture's events whose last bytes it stamps more
// than LateStamp after their first, which the timeline places at their
// first bytes' time.
type lateStamps struct {
	n           int
	least, most int64 // how much later, the least and the most
	offset      int64 // the first such event's
}

func (l *lateStamps) note(ev *parser.Event) {
	d := ev.Arrival - ev.Began
	if l.n == 0 {
		l.least, l.most, l.offset = d, d, ev.Offset
	}
	l.n++
	l.least, l.most = min(l.least, d), max(l.most, d)
}

// doubt says what the tally means, if there is one: where each event
// was placed, and what would make that wrong.
func (l *lateStamps) doubt() (parser.Diagnostic, bool) {
	if l.n == 0 {
		return parser.Diagnostic{}, false
	}
	gap := FormatDuration(l.least)
	if l.most-l.least >= 1e9 {
		gap = fmt.Sprintf("from %s to %s", FormatDuration(l.least), FormatDuration(l.most))
	}
	what := fmt.Sprintf("the last bytes of %d events", l.n)
	if l.n == 1 {
		what = "the last bytes of an event"
	}
	return parser.Diagnostic{Offset: l.offset, Kind: DiagLateStamps, Msg: fmt.Sprintf(
		"the capture stamps %s %s after their first, each as the next frame came: each is placed at its first bytes' time, since a frame comes whole from one write of the server and a recorder that stamps a piece only as the next one comes is late by the gap; if the sender truly stalled mid-frame, the client read the event later than shown",
		what, gap)}, true
}
