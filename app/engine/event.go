package engine

import (
	"fmt"
	"strconv"

	"watchlens/app/canvas"
	"watchlens/parser"
	"watchlens/timeline"
)

// EventDetail is one event as the Event tab shows it: its fields, its
// object, where its bytes lie in its file, and its object's previous
// event, whose bytes the page reads too to show what changed.
type EventDetail struct {
	// Index is the event's in the timeline, -1 when there is no such
	// event.
	Index int
	Type  string
	// Object names its object ("ConfigMap ns/name"), UID its lane's UID;
	// both "" for a bookmark or an error.
	Object, UID string
	// RV is its resourceVersion, or says why it has none.
	RV string
	// File is its file's index in the timeline (Opened.Files), FileName
	// that file's name and Clock its times' source.
	File     int
	FileName string
	Clock    timeline.Clock
	// Session is its session's index within its file, Server the server
	// that answered that session ("" when no audit log holds it).
	Session int
	Server  string
	// T is its instant; Timed says it was recorded on arrival, not
	// estimated.
	T     int64
	Timed bool
	// StampedLate is how much later than its first bytes, at T, the
	// capture stamps its last (timeline.Event.StampedLate); 0 for most.
	StampedLate int64
	// Span is where its bytes lie in its file.
	Span parser.EventSpan
	// Status is an ERROR's Status ("code reason: message"), "" for
	// others.
	Status string
	// Prev is its object's previous event, -1 when none; PrevRV its
	// resourceVersion and PrevSpan where its bytes lie.
	Prev     int
	PrevRV   string
	PrevSpan parser.EventSpan
}

// Event answers event i in full, with its object's previous event.
func (e *Engine) Event(i int) EventDetail {
	tl := e.tl
	if i < 0 || i >= tl.Len() {
		return EventDetail{Index: -1, Prev: -1}
	}
	ev := tl.Event(i)
	f := tl.Files[ev.File]
	d := EventDetail{Index: ev.Index, Type: ev.Type.String(), RV: eventRV(ev), File: ev.File, FileName: f.Name, Clock: f.Clock,
		Session: tl.Sessions[ev.Session].Index, Server: canvas.SessionServer(tl, ev.Session), T: ev.T, Timed: ev.Timed, StampedLate: ev.StampedLate, Span: span(ev), Prev: -1}
	if ev.Status != nil {
		d.Status = fmt.Sprintf("%d %s: %s", ev.Status.Code, ev.Status.Reason, ev.Status.Message)
	}
	if ev.Lane >= 0 {
		d.Object, d.UID = objectName(tl.Lanes.At(ev.Lane)), tl.Lanes.UID(ev.Lane)
		events := tl.LaneEvents(ev.Lane)
		for k, j := range events {
			if int(j) == i && k > 0 {
				prev := tl.Event(int(events[k-1]))
				d.Prev, d.PrevRV, d.PrevSpan = prev.Index, prev.RV, span(prev)
			}
		}
	}
	return d
}

func span(ev timeline.Event) parser.EventSpan {
	return parser.EventSpan{Offset: ev.Offset, Length: ev.Length, Encoded: ev.Encoded, BodyOffset: ev.BodyOffset}
}

func objectName(l timeline.Lane) string {
	if l.Namespace == "" {
		return l.Kind + " " + l.Name
	}
	return l.Kind + " " + l.Namespace + "/" + l.Name
}

// eventRV is the event's resourceVersion; an ERROR carries none, and a
// 410 says instead which one was asked for and the oldest still kept.
func eventRV(ev timeline.Event) string {
	switch {
	case ev.RV != "":
		return ev.RV
	case ev.Status != nil && ev.Status.TooOld:
		return "none; asked from " + strconv.FormatUint(ev.Status.X, 10) + ", the oldest kept is " + strconv.FormatUint(ev.Status.Y, 10)
	}
	return "none"
}
