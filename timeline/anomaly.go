package timeline

import (
	"fmt"
	"time"

	"watchlens/parser"
)

const (
	// bookmarkSilence: the cacher sends a bookmark about every 60 s (1 s
	// buckets, jitter), and a healthy kube-apiserver v1.37's watches in
	// samples-outage went up to 78 s between two (most often the first
	// after the initial-events-end bookmark, 65-78 s); 80 s without one on
	// a watch that asked for them is a symptom (a watch served from etcd,
	// an old server, a stuck cacher, a server shutting down).
	bookmarkSilence = 80 * time.Second
	// shortWatch: a watch that closes within a second with nothing in it
	// is usually a refused or misrouted request, or a client in a loop.
	shortWatch = time.Second
)

// anomalies checks the file's sessions in capture order, once events are
// placed on the clock.
func (f *FileBuilder) anomalies(base int) {
	b := f.b
	ss := b.sessions[base:]
	add := func(kind string, g, i int, t int64, msg string) {
		a := Anomaly{Kind: kind, File: f.idx, Session: g, Event: i, T: t, Msg: msg}
		if i >= 0 {
			a.RV = b.rvString(i)
		}
		b.anoms = append(b.anoms, a)
	}
	// Anomalies found while adding (after-delete) get their instant now.
	for k := range b.anoms {
		a := &b.anoms[k]
		if a.File == f.idx && a.Event >= f.lo && a.Event < f.hi {
			a.T, a.RV, a.Session = b.tab.t.at(a.Event), b.rvString(a.Event), int(b.tab.sess.at(a.Event))
		}
	}
	// The last RV of each lane in the current session, when in says the
	// lane has been seen in it (by the session's index + 1): a map
	// cleared per session would be a large part of Finish as wasm.
	// The file's lanes are the last ones made (files are added one at a
	// time): a fleet of thousands of files must not make each of them
	// an array the size of every lane so far.
	laneLo := int32(f.laneLo)
	lanes := make([]laneSeen, b.lanes.Len()-f.laneLo)
	for k := range ss {
		s := &ss[k]
		g := base + k
		var maxRV uint64
		seen := false
		for i := s.firstEv; i >= 0 && i <= s.lastEv; i++ {
			var j int
			j, maxRV, seen = b.tab.anomalyFreeRun(i, min(s.lastEv+1, i+pauseEvery), s.lastEv, k, maxRV, seen, lanes, laneLo)
			b.pace.tick(j - i)
			if i = j; i > s.lastEv {
				break
			}
			b.pace.tick(1)
			typ := parser.EventType(b.tab.typ.at(i))
			fl := b.tab.flags.at(i)
			// The instant is read only for an anomaly: a read of the
			// packed column at every event was a large part of the loop.
			if typ == parser.Error {
				if i != s.lastEv && b.noteAnomaly("error-not-last") {
					add("error-not-last", g, i, b.tab.t.at(i), "ERROR event followed by more events in the same stream")
				}
				continue
			}
			if fl&flagRVValid == 0 {
				continue
			}
			rv := b.tab.rv.at(i)
			// A list's items, like an initial burst, come in no RV order.
			if fl&flagInitial == 0 && typ != parser.Listed {
				if seen && rv < maxRV && b.noteAnomaly("rv-backwards") {
					add("rv-backwards", g, i, b.tab.t.at(i), fmt.Sprintf("%s at RV %d after RV %d in the same stream", typ, rv, maxRV))
				}
				if !seen || rv > maxRV {
					maxRV = rv
				}
				seen = true
			}
			if l := b.tab.lane.at(i); l >= 0 {
				ls := &lanes[l-laneLo]
				if ls.in == int32(k+1) && ls.rv == rv && b.noteAnomaly("repeated") {
					ln := b.lanes.At(int(l))
					add("repeated", g, i, b.tab.t.at(i), fmt.Sprintf("%s for %s repeats RV %d", typ, objName(ln.Namespace, ln.Name), rv))
				}
				ls.rv, ls.in = rv, int32(k+1)
			}
		}
		f.sessionAnomalies(s, g, add)
	}
}

// laneSeen is a lane's last RV in the session anomalies walks, when in
// is that session's index + 1. The two are read together at nearly
// every event, each of another lane than the last: side by side they
// are one cache miss where two slices made two.
type laneSeen struct {
	rv uint64
	in int32
}

// anomalyFreeRun walks the events of session k (of its file), whose
// last is last, from i up to end (exclusive) as anomalies' loop does
// while none is an anomaly, and returns the first that may be one (end
// for none) with the session's
// largest RV so far and whether it has one; anomalies' loop takes that
// event. It makes no call: as wasm a loop that makes any, even on a
// branch rarely taken, is several times slower (see clearWalk.walk), and
// nearly every event is no anomaly.
func (e *eventTable) anomalyFreeRun(i, end, last, k int, maxRV uint64, seen bool, lanes []laneSeen, laneLo int32) (int, uint64, bool) {
	for ; i < end; i++ {
		typ := parser.EventType(e.typ.at(i))
		fl := e.flags.at(i)
		if typ == parser.Error {
			if i != last {
				break
			}
			continue
		}
		if fl&flagRVValid == 0 {
			continue
		}
		rv := e.rv.at(i)
		ordered := fl&flagInitial == 0 && typ != parser.Listed
		l := e.lane.at(i)
		if ordered && seen && rv < maxRV {
			break
		}
		if l >= 0 {
			ls := &lanes[l-laneLo]
			if ls.in == int32(k+1) && ls.rv == rv {
				break
			}
			ls.rv, ls.in = rv, int32(k+1)
		}
		if ordered {
			maxRV, seen = max(maxRV, rv), true
		}
	}
	return i, maxRV, seen
}

func (f *FileBuilder) sessionAnomalies(s *Session, g int, add func(string, int, int, int64, string)) {
	b := f.b
	ok200 := s.HTTPStatus == 0 || s.HTTPStatus == 200
	measured := f.file.Clock == ClockArrival
	if measured && s.watchStream() && s.End-s.Start < int64(shortWatch) && s.Events+s.Bookmarks+s.Errors == 0 && b.noteAnomaly("short-watch") {
		add("short-watch", g, -1, s.Start, fmt.Sprintf("watch lasted %s with no events", FormatDuration(s.End-s.Start)))
	}
	if s.Request == nil || !s.Request.AllowWatchBookmarks || !ok200 {
		return
	}
	if !measured {
		// Estimated bookmark instants are placed on the cadence itself, so
		// only a watch that got none at all can be told apart.
		if s.Bookmarks == 0 && s.End-s.Start > int64(bookmarkSilence) && b.noteAnomaly("no-bookmarks") {
			add("no-bookmarks", g, -1, s.Start, fmt.Sprintf("asked for bookmarks, got none in %s", FormatDuration(s.End-s.Start)))
		}
		return
	}
	from := s.Start
	check := func(to int64) {
		if to-from > int64(bookmarkSilence) && b.noteAnomaly("no-bookmarks") {
			add("no-bookmarks", g, -1, from, fmt.Sprintf("asked for bookmarks, none for %s while open", FormatDuration(to-from)))
		}
	}
	for i := s.firstEv; i >= 0 && i <= s.lastEv; i++ {
		b.pace.tick(1)
		if parser.EventType(b.tab.typ.at(i)) == parser.Bookmark {
			check(b.tab.t.at(i))
			from = b.tab.t.at(i)
		}
	}
	check(s.End)
}

// maxAnomaliesPerKind bounds the anomalies kept of each kind: one event
// sent a million times is a million "repeated" anomalies, which would hold
// hundreds of MB and fill the reports line by line. The rest are counted
// (Timeline.AnomalyCounts), and the reports say how many were left out.
const maxAnomaliesPerKind = 1000

// noteAnomaly counts an anomaly of kind and says whether it is kept. A
// caller formats the anomaly's message only when it is: over millions of
// events the formatting costs more than the check.
func (b *Builder) noteAnomaly(kind string) bool {
	if b.anomCounts == nil {
		b.anomCounts = map[string]int{}
	}
	b.anomCounts[kind]++
	return b.anomCounts[kind] <= maxAnomaliesPerKind
}

// Anomaly is something in the capture a correct server and recorder would
// not produce, or a symptom worth a look.
type Anomaly struct {
	// Kind: "rv-backwards", "repeated", "after-delete", "no-bookmarks",
	// "short-watch", "error-not-last".
	Kind    string
	File    int
	Session int // global session index
	Event   int // table index, -1 when the anomaly is about a session
	T       int64
	RV      string
	Msg     string
}
