package timeline

import (
	"math"
	"time"

	"watchlens/parser"
)

// Placing events on the clock.
//
// Watch events carry no timestamps (watch-protocol.md §1). With arrival
// times (a `ts`-prefixed capture) each event sits at its arrival. Without
// them the instants are estimated, in this order of trust:
//   - a response's HTTP Date header is when its watch started (1 s, floored);
//   - a clean end of a request with timeoutSeconds is the server deadline,
//     start + timeoutSeconds (clipped to the next response's start);
//   - an ADDED or MODIFIED object's Estimated time (newest managedFields
//     time, else creation timestamp, 1 s) is its event's instant, but
//     instants never go backwards, so an older one takes the previous
//     instant; a DELETED's estimate is only its last update, so deletes go
//     between their neighbours, no earlier than that; an initial list's
//     objects predate the watch and go between their neighbours too;
//   - bookmarks carry no time: the cacher sends them about every 60 s from
//     the watch's start (defaultBookmarkFrequency, 1 s buckets plus jitter)
//     and one about 2 s before the deadline, so they go on that grid while
//     it fits between their neighbours, else evenly between them; a
//     bookmark repeating the previous one's RV is the closing pair and
//     follows it at once;
//   - the initial-events-end bookmark follows the initial burst at once;
//   - an ERROR ends its stream: it takes the session's end.
// Everything estimated has about 1 s of error (more for bookmarks); the
// report says which clock each file used.

const (
	bookmarkPeriod     = 60 * time.Second // cacher defaultBookmarkFrequency (1.19+)
	deadlineBookmarkAt = 2 * time.Second  // the bookmark sent just before the deadline
	slotSlack          = 5 * time.Second  // drift of the cadence plus the Date header's flooring
)

func dateHeader(hs []parser.Header) int64 {
	for _, h := range hs {
		if len(h.Name) == 4 && (h.Name == "Date" || h.Name == "date" || h.Name == "DATE") {
			if t, err := time.Parse(time.RFC1123, h.Value); err == nil {
				return t.UnixNano()
			}
		}
	}
	return 0
}

// place sets the instant of every event of the file and the start and
// end of its sessions.
func (f *FileBuilder) place(base int) {
	b := f.b
	ss := b.sessions[base:]
	clock := ClockNone
	switch {
	case f.arrived:
		clock = ClockArrival
	case f.estimated:
		clock = ClockEstimated
	}
	for _, s := range ss {
		if clock == ClockNone && s.Date != 0 {
			clock = ClockEstimated
		}
		if s.Start != 0 && clock != ClockArrival {
			clock = ClockArrival
		}
	}
	f.file.Clock = clock
	if clock == ClockNone {
		// Ordinals keep the order and let count-based models work; time
		// models answer "unknown" for this file.
		for i := f.lo; i < f.hi; i++ {
			b.tab.t.set(i, int64(i-f.lo))
			b.pace.tick(1)
		}
		b.tab.t.pack(f.lo, f.hi)
		for k := range ss {
			s := &ss[k]
			if s.firstEv >= 0 {
				s.Start, s.End = b.tab.t.at(s.firstEv), b.tab.t.at(s.lastEv)
			} else if k > 0 {
				s.Start, s.End = ss[k-1].End, ss[k-1].End
			}
		}
		return
	}
	var last int64 // latest instant placed in this file
	f.packPlaced = inOrder(ss)
	for k := range ss {
		s := &ss[k]
		if clock == ClockEstimated {
			s.Start = s.Date
			if s.Start == 0 && s.firstEv >= 0 {
				s.Start = f.firstAnchor(s, clock)
			}
			s.End = 0
			if deadline := f.deadlineEnd(s); deadline != 0 {
				s.End = deadline
				if k+1 < len(ss) && ss[k+1].Date != 0 && ss[k+1].Date < s.End {
					s.End = ss[k+1].Date
				}
			}
		}
		if s.Start == 0 || s.Start < last {
			s.Start = max(s.Start, last)
		}
		if s.End != 0 && s.End < s.Start {
			s.End = s.Start
		}
		last = f.placeSession(s, clock, s.Start)
		if s.End == 0 || s.End < last {
			s.End = last
		}
		last = s.End
		if clock == ClockArrival {
			for i := s.firstEv; i >= 0 && i <= s.lastEv; i++ {
				if b.arrival.at(i) != 0 {
					b.tab.flags.set(i, b.tab.flags.at(i)|flagTimed)
				}
			}
		}
	}
	b.tab.t.pack(f.lo, f.hi)
}

// inOrder says whether each session's events come after the ones
// before's, as a reader numbers them: the instants are then placed in
// event order.
func inOrder(ss []Session) bool {
	last := -1
	for _, s := range ss {
		if s.firstEv >= 0 {
			if s.firstEv <= last {
				return false
			}
			last = s.lastEv
		}
	}
	return true
}

// setInstant places event i at t. When the file's instants are placed in
// event order (packPlaced), the first of a chunk packs the chunk before,
// all placed: a watch of a million events, one session, held its
// instants plain, 8 bytes an event, until the last was placed.
func (f *FileBuilder) setInstant(i int, t int64) {
	if f.packPlaced && i&chunkMask == 0 && i-chunkSize >= f.lo {
		f.b.tab.t.pack(i-chunkSize, i)
	}
	if !f.b.tab.t.trySet(i, t) {
		f.b.tab.t.set(i, t)
	}
}

func (f *FileBuilder) anchor(i int, clock Clock) int64 {
	b := f.b
	if clock == ClockArrival {
		return b.arrival.at(i)
	}
	if b.tab.flags.at(i)&flagInitial != 0 || parser.EventType(b.tab.typ.at(i)) == parser.Listed {
		return 0 // an initial or listed object's fields predate the watch or the LIST
	}
	if parser.EventType(b.tab.typ.at(i)) == parser.Deleted {
		// A delete does not touch managedFields: its estimate is the last
		// update, only a lower bound (fillRun uses it so).
		return 0
	}
	return b.est.at(i)
}

func (f *FileBuilder) firstAnchor(s *Session, clock Clock) int64 {
	for i := s.firstEv; i <= s.lastEv; i++ {
		if a := f.anchor(i, clock); a != 0 {
			return a
		}
	}
	return 0
}

// deadlineEnd is start + timeoutSeconds for a session that ended cleanly
// with the request known, else 0.
func (f *FileBuilder) deadlineEnd(s *Session) int64 {
	if s.Start == 0 || s.Request == nil || s.Request.TimeoutSeconds <= 0 || s.Truncated ||
		(s.HTTPStatus != 0 && s.HTTPStatus != 200) {
		return 0
	}
	if s.lastEv >= 0 && parser.EventType(f.b.tab.typ.at(s.lastEv)) == parser.Error {
		return 0
	}
	return s.Start + int64(s.Request.TimeoutSeconds)*int64(time.Second)
}

// placeSession places the session's events from prev on, and returns the
// last instant placed.
func (f *FileBuilder) placeSession(s *Session, clock Clock, prev int64) int64 {
	b := f.b
	if s.firstEv < 0 {
		return prev
	}
	pending := -1 // first index of a run of events without an anchor
	for i := s.firstEv; i <= s.lastEv; i++ {
		var j int
		j, prev, pending = f.placeRun(i, min(s.lastEv+1, i+pauseEvery), clock, s.End, prev, pending)
		b.pace.tick(j - i)
		if i = j; i > s.lastEv {
			break
		}
		b.pace.tick(1)
		a := f.anchor(i, clock)
		if a == 0 {
			if pending < 0 {
				pending = i
			}
			continue
		}
		t := max(a, prev)
		if s.End != 0 && t > s.End && clock == ClockEstimated {
			t = max(s.End, prev)
		}
		if pending >= 0 {
			f.fillRun(s, clock, pending, i, prev, t)
			pending = -1
		}
		f.setInstant(i, t)
		prev = t
	}
	if pending >= 0 {
		right := max(s.End, prev)
		if s.End == 0 {
			// No known end: bookmarks keep the cadence, nothing bounds them.
			right = math.MaxInt64
		}
		prev = f.fillRun(s, clock, pending, s.lastEv+1, prev, right)
	}
	return prev
}

// placeRun places the events of a session from i up to end (exclusive)
// as placeSession's loop does, while each either has no anchor or, with
// no run of such events before it, has one and an instant that sets
// into a plain chunk, and returns the first event that needs more (end
// for none) with the last instant placed and the first event of the
// run without an anchor (-1 for none); placeSession's loop takes that
// event. It makes no call: as wasm a loop that makes any, even on a
// branch rarely taken, is several times slower (see clearWalk.walk),
// and reading anchors and setting instants is most of placing.
func (f *FileBuilder) placeRun(i, end int, clock Clock, sEnd, prev int64, pending int) (int, int64, int) {
	b := f.b
	estimated := clock == ClockEstimated
	for ; i < end; i++ {
		// anchor, inline.
		var a int64
		if !estimated {
			a = b.arrival.at(i)
		} else if typ := parser.EventType(b.tab.typ.at(i)); b.tab.flags.at(i)&flagInitial == 0 && typ != parser.Listed && typ != parser.Deleted {
			if k := i >> chunkBits; k >= len(b.est.holes) || b.est.holes[k] == nil || b.est.holes[k][i&chunkMask>>6]&(1<<(i&63)) == 0 {
				a = b.est.vals.at(i)
			}
		}
		if a == 0 {
			if pending < 0 {
				pending = i
			}
			continue
		}
		if pending >= 0 {
			break
		}
		t := max(a, prev)
		if sEnd != 0 && t > sEnd && estimated {
			t = max(sEnd, prev)
		}
		// setInstant, when it would only set.
		if f.packPlaced && i&chunkMask == 0 && i-chunkSize >= f.lo || !b.tab.t.trySet(i, t) {
			break
		}
		prev = t
	}
	return i, prev, pending
}

// fillRun places the events [lo, hi) that have no anchor between the
// instants left and right (math.MaxInt64: unbounded), and returns the
// last instant placed.
func (f *FileBuilder) fillRun(s *Session, clock Clock, lo, hi int, left, right int64) int64 {
	b := f.b
	trailing := hi == s.lastEv+1
	deadline := trailing && clock == ClockEstimated && s.End != 0 && f.deadlineEnd(s) == s.End
	limit := right
	if deadline && right-int64(deadlineBookmarkAt) >= left {
		limit = right - int64(deadlineBookmarkAt)
	}
	slot := s.Start + int64(bookmarkPeriod) // the first comes a period after the watch starts
	prev := left
	for i := lo; i < hi; i++ {
		typ := parser.EventType(b.tab.typ.at(i))
		t := int64(-1)
		switch {
		case typ == parser.Error && i == s.lastEv && right != math.MaxInt64:
			t = right
		case b.tab.flags.at(i)&(flagInitialEnd|flagInitial) != 0 || typ == parser.Listed:
			t = prev // the initial state, and a list, go out at once, not on the cadence
		case deadline && typ == parser.Bookmark && f.endBookmarks(i, hi):
			t = limit
		case typ == parser.Bookmark && i > lo && parser.EventType(b.tab.typ.at(i-1)) == parser.Bookmark && b.tab.rv.at(i-1) == b.tab.rv.at(i):
			// The RV moves with any write in the cluster, so a bookmark
			// repeating the previous one is the closing pair, not a period later.
			t = prev
		case typ == parser.Bookmark && clock == ClockEstimated && s.Start != 0:
			// The cadence drifts by a second or two per quarter hour:
			// a slot just behind the previous instant is still this one.
			for slot+int64(slotSlack) <= prev {
				slot += int64(bookmarkPeriod)
			}
			if slot < limit {
				t = max(slot, prev)
				slot += int64(bookmarkPeriod)
			}
		}
		if t < 0 {
			if limit == math.MaxInt64 {
				t = prev
			} else {
				// Evenly between prev and the limit, leaving room for the rest.
				t = prev + (limit-prev)/int64(hi-i+1)
			}
			if clock == ClockEstimated {
				t = max(t, b.est.at(i)) // a DELETED's last update is a lower bound
			}
		}
		t = min(max(t, prev), right)
		f.setInstant(i, t)
		prev = t
	}
	return prev
}

// endBookmarks: bookmark i is followed in its run [i, hi) only by
// bookmarks at the same RV; a server closing at its deadline sends those
// in its last seconds.
func (f *FileBuilder) endBookmarks(i, hi int) bool {
	b := f.b
	for k := i + 1; k < hi; k++ {
		if parser.EventType(b.tab.typ.at(k)) != parser.Bookmark || b.tab.rv.at(k) != b.tab.rv.at(i) {
			return false
		}
	}
	return true
}
