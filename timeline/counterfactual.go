package timeline

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"watchlens/parser"
)

// The counterfactual cursor: "had it asked for bookmarks".
//
// A watch that did not ask for bookmarks (or asked and got none) keeps its
// cursor at the last change it saw, however long ago. Had it asked, the
// watch cache would have sent it a bookmark about every minute (the
// cacher's defaultBookmarkFrequency, fired on 1 s buckets, so up to a
// second late) and one 2 s before the request's deadline, each carrying
// the cache's resourceVersion then (watch-protocol.md §1 BOOKMARK). That
// RV is the head of the resource type at that moment: known only while a
// capture of the whole type on the same clock was open, and otherwise
// unknown, which the verdicts then say rather than guess. Watches served
// from etcd (Events, or a server without its watch cache) get no periodic
// bookmarks, so they get no credit: their counterfactual is their
// bookmark-aware cursor. A watch that did receive bookmarks keeps its
// measured cadence.

// Counterfactual is one file's had-bookmarks cursor.
type Counterfactual struct {
	Cursor
	// Synthetic says the cursor has bookmarks the recording did not: some
	// watch of the file got none and is served from the watch cache.
	// Otherwise the cursor is the file's bookmark-aware one.
	Synthetic bool
	// Why says, in words, how the cursor was made or why it has no credit.
	Why string
	// Bookmarks counts the bookmarks added; Unknown those whose RV no
	// capture shows, the first of them at FirstUnknown.
	Bookmarks, Unknown int
	FirstUnknown       int64
	// HeadKnownAfter, when not 0, is the instant of an observed too-old
	// error that shows the head (its Y) after the fact.
	HeadKnownAfter int64
	HeadKnownY     uint64
}

// kindHead is the highest RV of one kind the captures show by each
// instant, and when a capture of the whole kind was open (the head is
// known only then). Its steps are nearly all events (see Steps).
type kindHead struct {
	Steps // rising
	s     *kindSeries
	// metrics, when not nil, answers where no capture does: the API
	// servers' own cache RV of the kind (Metrics.lowestHead).
	metrics func(t int64) (uint64, bool)
}

// at returns the kind's head at t, and whether a capture of the whole
// kind was open then or, failing that, the servers' metrics say it.
func (h *kindHead) at(t int64) (uint64, bool) {
	k := sort.Search(len(h.s.seenTo), func(i int) bool { return h.s.seenTo[i] > t })
	if k == len(h.s.seenTo) || h.s.seenFrom[k] > t {
		if h.metrics != nil {
			return h.metrics(t)
		}
		return 0, false
	}
	// The steps at t or earlier: those before the first after it.
	j := h.Len()
	if t < math.MaxInt64 {
		j = h.SearchT(0, j, t+1)
	}
	if j == 0 {
		return 0, false
	}
	return h.RV(j - 1), true
}

// bookmarkSchedule appends to out the instants at which the watch cache
// would have sent periodic bookmarks to session s had it asked for them:
// every bookmarkPeriod from its start, and one deadlineBookmarkAt before
// the request's deadline, while the stream was open; at most limit in
// all.
func bookmarkSchedule(out []int64, s *Session, limit int) []int64 {
	deadline := never
	if s.Request != nil && s.Request.TimeoutSeconds > 0 {
		deadline = s.Start + int64(s.Request.TimeoutSeconds)*int64(time.Second)
	}
	for t := s.Start; len(out) < limit; {
		next := t + int64(bookmarkPeriod)
		if deadline != never {
			next = min(next, deadline-int64(deadlineBookmarkAt))
		}
		if next <= t || next >= s.End {
			return out
		}
		out = append(out, next)
		t = next
	}
	return out
}

// buildHadBookmarks makes each file's counterfactual cursor.
func (a *Analysis) buildHadBookmarks() {
	tl := a.TL
	a.HadBookmarks = make([]Counterfactual, len(tl.Files))
	a.headOf = map[string]*kindHead{}
	for fi, f := range tl.Files {
		cf := &a.HadBookmarks[fi]
		cf.Cursor = tl.Cursors[2*fi+int(BookmarkAware)]
		cf.Kind = HadBookmarks
		switch {
		case f.Clock == ClockNone:
			cf.Why = "the capture has no clock, so the bookmarks it would have got cannot be placed"
			continue
		case a.uncached(fi):
			cf.Why = fmt.Sprintf("watches of %s are served from etcd, which sends no periodic bookmarks: no credit", orWord(f.Kind, "this resource"))
			continue
		}
		// A watch ends within an hour at the server's deadline, so a
		// capture's bookmarks are few; a clock that spans decades (a
		// damaged capture) would ask for millions.
		var sched, asked []int64
		taken, watches, bookmarked := false, 0, 0
		for _, g := range f.Sessions {
			s := &tl.Sessions[g]
			if s.watchStream() {
				watches++
				if s.Bookmarks > 0 {
					bookmarked++
				}
			}
			if !s.watchStream() || s.Bookmarks > 0 {
				continue
			}
			// A client from audit logs got bookmarks if it asked: the log
			// shows the request, not the events. Its own log shows
			// neither: its watches are taken as asking, client-go's
			// default, which half of them may not have.
			switch {
			case f.BookmarksUnseen():
				taken = true
				continue
			case f.Audit && s.Request.AllowWatchBookmarks:
				asked = bookmarkSchedule(asked, s, maxHadBookmarks+1)
				continue
			}
			sched = bookmarkSchedule(sched, s, maxHadBookmarks+1)
		}
		if len(asked) > 0 {
			// The bookmarks the server sent, a minute apart, each at
			// the head then: the cursor the client had.
			var aw Counterfactual
			a.synthesize(fi, &aw, asked[:min(len(asked), maxHadBookmarks)], true)
			aw.Cursor.Kind = BookmarkAware
			if a.asked == nil {
				a.asked = map[int]*Cursor{}
			}
			a.asked[fi] = &aw.Cursor
			a.askedUnknown = a.askedUnknown || aw.Unknown > 0
			if len(sched) == 0 {
				cf.Cursor, cf.Kind = aw.Cursor, HadBookmarks
				cf.Why = auditBookmarksWords + ", and this cursor is the one with the bookmarks it received"
				continue
			}
			sched = append(sched, asked...)
			slices.Sort(sched)
		}
		capped := len(sched) > maxHadBookmarks
		if capped {
			sched = sched[:maxHadBookmarks]
		}
		switch {
		case len(sched) == 0 && taken:
			cf.Why = "its client log shows neither the bookmarks asked for nor those received: its watches are taken as asking for them, client-go's default, and receiving them, and this cursor is the one with the bookmarks it received"
			continue
		case len(sched) == 0 && watches == 0:
			cf.Why = "it holds no watch, which bookmarks would have come on: this cursor is the one recorded"
			continue
		case len(sched) == 0 && bookmarked == 0:
			cf.Why = "no watch lasted long enough for a bookmark, which the server sends about once a minute: this cursor is the one recorded"
			continue
		case len(sched) == 0:
			cf.Why = "every watch long enough for one received bookmarks: this cursor is the one with the bookmarks it received, as measured"
			continue
		}
		a.synthesize(fi, cf, sched, false)
		if capped {
			cf.Why += fmt.Sprintf("; only the first %d: the capture's watches span %s", maxHadBookmarks, time.Duration(f.End-f.Start).Round(time.Hour))
		}
	}
	a.awareSteps = stepReader{} // its buffers are not kept with the analysis
}

// maxHadBookmarks bounds the bookmarks added to one file: 10 weeks of a
// bookmark a minute.
const maxHadBookmarks = 100_000

// synthesize merges the scheduled bookmarks into the file's bookmark-aware
// steps. A step the recording took from a request's resourceVersion is
// left out where it would lower the cursor: the counterfactual client
// resumes from its own, fresher cursor. A bookmark's RV is the head of
// the file's kind then; where nothing shows that and sent is set (the
// bookmarks a client did get), the newest RV any record shows then, a
// bound below the one it got: the bookmark came, its RV is not known.
func (a *Analysis) synthesize(fi int, cf *Counterfactual, sched []int64, sent bool) {
	tl := a.TL
	f := &tl.Files[fi]
	h := a.kindHead(f.Kind)
	aware := &tl.Cursors[2*fi+int(BookmarkAware)]
	cf.Cursor = Cursor{File: fi, Kind: HadBookmarks, End: aware.End}
	b := newStepBuilder(tl, &cf.Steps)
	cur, known := unsetRV, false
	j := 0
	addSynthetic := func(t int64) {
		cf.Bookmarks++
		rv, ok := h.at(t)
		if !ok && sent {
			rv, ok = tl.Head(t)
		}
		if !ok {
			cf.Unknown++
			if cf.Unknown == 1 {
				cf.FirstUnknown = t
			}
			cur, known = unknownRV, false
			b.set(t, unknownRV, -1)
			return
		}
		if known {
			rv = max(rv, cur)
		}
		cur, known = rv, true
		b.set(t, rv, -1)
	}
	// The aware cursor's steps are read in order, each decoded once.
	steps := &a.awareSteps
	steps.reuse(&aware.Steps)
	for k := 0; k < aware.Len(); k++ {
		t, rv := steps.step(k)
		for j < len(sched) && sched[j] < t {
			addSynthetic(sched[j])
			j++
		}
		i := int32(steps.ev.at(k))
		if i < 0 && rv != unsetRV && known && rv < cur {
			continue
		}
		cur, known = rv, rv != unsetRV
		b.set(t, rv, int(max(i, -1)))
	}
	for ; j < len(sched); j++ {
		addSynthetic(sched[j])
	}
	b.finish()
	cf.Synthetic = true
	cf.Why = fmt.Sprintf("%d bookmarks added where the watch got none (every %s from its start, and %s before its deadline), each carrying the head of %s then",
		cf.Bookmarks, bookmarkPeriod, deadlineBookmarkAt, orWord(f.Kind, "the resource"))
	if fl := tl.floors[f.Kind]; fl != nil && len(fl.t) > 0 {
		cf.HeadKnownAfter, cf.HeadKnownY = fl.t[0], fl.y[0]
	}
}

// kindHead returns (building once) the head of one kind.
func (a *Analysis) kindHead(kind string) *kindHead {
	if h := a.headOf[kind]; h != nil {
		return h
	}
	tl := a.TL
	h := &kindHead{s: tl.series[kind]}
	if h.s == nil {
		h.s = &kindSeries{}
	}
	if m := tl.Metrics; m != nil {
		resource := tl.resourceOfKind(kind)
		h.metrics = func(t int64) (uint64, bool) { return m.lowestHead(resource, t) }
	}
	steps := newStepBuilder(tl, &h.Steps)
	// A step of an event is the event's (ev >= 0); a LIST's is kept apart.
	raise := func(t int64, rv uint64, ev int) {
		if steps.len() == 0 || rv > steps.lastRV {
			steps.set(t, rv, ev)
		}
	}
	// A LIST's RV is the kind's head when it was sent; its items are
	// older state, no change.
	nextList := 0
	raiseLists := func(t int64) {
		for _, l := range tl.listsUpTo(&nextList, t) {
			if l.rvOK && tl.Files[l.file].Kind == kind {
				raise(l.end, l.rv, -1)
			}
		}
	}
	for i := 0; i < tl.Len(); i++ {
		a.pace.tick(1)
		raiseLists(tl.tab.t.at(i))
		if typ := parser.EventType(tl.tab.typ.at(i)); tl.tab.flags.at(i)&flagRVValid == 0 || typ == parser.Error || typ == parser.Listed {
			continue
		}
		if tl.Files[tl.Sessions[tl.tab.sess.at(i)].File].Kind != kind {
			continue
		}
		raise(tl.tab.t.at(i), tl.tab.rv.at(i), i)
	}
	raiseLists(math.MaxInt64)
	steps.finish()
	a.headOf[kind] = h
	return h
}

// unknownReason says why the counterfactual cursor is unknown after the
// bookmark at t.
func (cf *Counterfactual) unknownReason(a *Analysis, t int64) string {
	f := &a.TL.Files[cf.File]
	s := fmt.Sprintf("had it asked for bookmarks, the server would have sent one at %s carrying the head of %s then, and no capture shows that head (no watch of every %s was open then)",
		a.instant(t), orWord(f.Kind, "the resource"), orWord(f.Kind, "object"))
	if cf.HeadKnownAfter > t {
		s += fmt.Sprintf("; the server's 410 at %s says it was at least %d by then, after the fact", a.instant(cf.HeadKnownAfter), cf.HeadKnownY)
	}
	return s
}

func orWord(s, word string) string {
	if s == "" {
		return word
	}
	return s
}

// auditBookmarksWords says where the bookmarks of an audit log's client
// that asked for them are placed.
const auditBookmarksWords = "an audit log shows the requests, not the bookmarks received: they are placed as the server sends them, a minute apart, at the head then"
