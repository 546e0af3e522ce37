package timeline

import (
	"strconv"
	"testing"
	"time"

	"watchlens/parser"
)

// t0 is the epoch of hand-made captures.
var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()

func at(d time.Duration) int64 { return t0 + int64(d) }

// allLanes reads every lane of tl, to compare or print them.
func allLanes(tl *Timeline) []Lane {
	out := make([]Lane, tl.Lanes.Len())
	for l := range out {
		out[l] = tl.Lanes.At(l)
	}
	return out
}

// capture builds a hand-made capture with arrival times: sessions are
// opened with watch(), events appended with the helpers below.
type capture struct {
	evs  []parser.Event
	sess []parser.Session
}

// watch opens a session with the given request (nil for none), starting
// at start and ending at end.
func (c *capture) watch(req *parser.Request, start, end time.Duration) *capture {
	c.sess = append(c.sess, parser.Session{Index: len(c.sess), Request: req, HTTPStatus: 200, StatusText: "OK",
		StartArrival: at(start), EndArrival: at(end)})
	return c
}

func (c *capture) add(typ parser.EventType, rv uint64, when time.Duration, name string) *capture {
	e := parser.Event{Seq: len(c.evs), Session: len(c.sess) - 1, Type: typ, Kind: "ConfigMap", APIVersion: "v1",
		RV: strconv.FormatUint(rv, 10), RVNum: rv, RVValid: true, Arrival: at(when)}
	if name != "" {
		e.Namespace, e.Name, e.UID = "ns", name, "uid-"+name
	}
	c.evs = append(c.evs, e)
	return c
}

func (c *capture) ev(typ parser.EventType, rv uint64, when time.Duration, name string) *capture {
	return c.add(typ, rv, when, name)
}

func (c *capture) bookmark(rv uint64, when time.Duration) *capture {
	return c.add(parser.Bookmark, rv, when, "")
}

func (c *capture) initialEnd(rv uint64, when time.Duration) *capture {
	c.add(parser.Bookmark, rv, when, "")
	c.evs[len(c.evs)-1].InitialEventsEnd = true
	return c
}

func (c *capture) tooOld(x, y uint64, when time.Duration) *capture {
	c.evs = append(c.evs, parser.Event{Seq: len(c.evs), Session: len(c.sess) - 1, Type: parser.Error, Kind: "Status",
		Arrival: at(when), Status: &parser.Status{Code: 410, Reason: "Expired", TooOld: true, X: x, Y: y,
			Message: "too old resource version: " + strconv.FormatUint(x, 10) + " (" + strconv.FormatUint(y, 10) + ")"}})
	return c
}

func req(rv string, bookmarks bool) *parser.Request {
	return &parser.Request{Method: "GET", Path: "/api/v1/configmaps", Watch: true, ResourceVersion: rv, AllowWatchBookmarks: bookmarks}
}

func narrow(rv string, bookmarks bool) *parser.Request {
	r := req(rv, bookmarks)
	r.Path = "/api/v1/namespaces/ns/configmaps"
	r.LabelSelector = "app=x"
	return r
}

// watchList is a WatchList request: a watch from no resourceVersion that
// asks for the initial events.
func watchList(bookmarks bool) *parser.Request {
	r := req("", bookmarks)
	r.SendInitialEvents, r.ResourceVersionMatch = true, "NotOlderThan"
	return r
}

// build builds a timeline of the captures (files "f0", "f1", ...).
func build(cs ...*capture) *Timeline {
	b := NewBuilder()
	for k, c := range cs {
		b.AddCapture("f"+strconv.Itoa(k), &parser.Capture{Events: c.evs, Sessions: c.sess})
	}
	return b.Build()
}

func cursorAt(t *testing.T, tl *Timeline, file int, kind CursorKind, when time.Duration) (uint64, bool) {
	t.Helper()
	rv, _, _, ok := tl.Cursors[2*file+int(kind)].At(at(when))
	return rv, ok
}

func params(mod func(*Params)) Params {
	p := DefaultParams()
	if mod != nil {
		mod(&p)
	}
	return p
}

// summaryTopic is the text of the summary's last line of topic, "" when
// it has none.
func summaryTopic(a *Analysis, topic string) string {
	line := ""
	for _, l := range a.Summary(nil) {
		if l.Topic == topic {
			line = l.Text
		}
	}
	return line
}
