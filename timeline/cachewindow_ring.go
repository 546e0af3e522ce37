package timeline

import (
	"fmt"
	"sort"
	"strconv"
	"time"
)

// Where a server's watch cache was, located in the changes themselves.
//
// The scrapes' counts place the cache's oldest change only to within
// what arrived between two scrapes (a second of the lab's changes is
// twenty). But a watch of the whole type saw every change, each with its
// RV, and the cache holds a run of them: the newest it received, back
// to its oldest. Once the ring is full at capacity C and stays so, its
// oldest is the C-th newest change at or below its head; after a grow
// from C/2 it held the C/2 changes before the one that grew it, and
// evicts nothing until it is full again (evidence.md §3.2). The metrics
// place the head at the instant between two scrapes and the resize
// between two others; the changes then place the oldest within a few
// changes, where the counts left tens.

// changeIndex is a kind's changes in RV order, and the RV spans within
// which the watches of the whole type saw every change: a watch from r
// that was answered sees every change after r, up to the last RV it got.
type changeIndex struct {
	rv               []uint64
	spanFrom, spanTo []uint64 // merged spans (from, to], in order
}

// changesOf is the kind's changeIndex, nil when no watch of the whole
// type resumed from an RV (only then does it see every change).
func (a *Analysis) changesOf(kind string) *changeIndex {
	if ch, ok := a.changes[kind]; ok {
		return ch
	}
	if a.changes == nil {
		a.changes = map[string]*changeIndex{}
	}
	a.changes[kind] = nil
	tl := a.TL
	type span struct{ from, to uint64 }
	var spans []span
	for _, f := range tl.Files {
		if f.Kind != kind || !f.Broad || f.Audit {
			continue
		}
		for _, g := range f.Sessions {
			s := &tl.Sessions[g]
			if !s.watchStream() || s.Request == nil || s.IsWatchList() || s.Error != nil {
				continue
			}
			from, err1 := strconv.ParseUint(s.Request.ResourceVersion, 10, 64)
			to, err2 := strconv.ParseUint(s.LastRV, 10, 64)
			if err1 == nil && err2 == nil && from > 0 && to > from {
				spans = append(spans, span{from, to})
			}
		}
	}
	s := tl.series[kind]
	if len(spans) == 0 || s == nil {
		return nil
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].from < spans[j].from })
	ch := &changeIndex{}
	for _, sp := range spans {
		if n := len(ch.spanTo); n > 0 && sp.from <= ch.spanTo[n-1] {
			ch.spanTo[n-1] = max(ch.spanTo[n-1], sp.to)
			continue
		}
		ch.spanFrom, ch.spanTo = append(ch.spanFrom, sp.from), append(ch.spanTo, sp.to)
	}
	ch.rv = make([]uint64, 0, s.len())
	for k := range s.len() {
		ch.rv = append(ch.rv, tl.tab.rv.at(int(s.ev.at(k))))
	}
	sort.Slice(ch.rv, func(i, j int) bool { return ch.rv[i] < ch.rv[j] })
	ch.rv = dedupSorted(ch.rv)
	a.changes[kind] = ch
	return ch
}

// dedupSorted drops the repeats of a sorted slice, in place.
func dedupSorted(v []uint64) []uint64 {
	out := v[:0]
	for i, x := range v {
		if i == 0 || x != v[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// at is the index of the newest change at or below rv, -1 when none is.
func (ch *changeIndex) at(rv uint64) int {
	return sort.Search(len(ch.rv), func(i int) bool { return ch.rv[i] > rv }) - 1
}

// covers says whether one span holds every change from change k up to
// RV to: then change k+n is the n-th after it.
func (ch *changeIndex) covers(k int, to uint64) bool {
	if k < 0 || k >= len(ch.rv) {
		return false
	}
	from := ch.rv[k]
	i := sort.Search(len(ch.spanTo), func(i int) bool { return ch.spanTo[i] >= to })
	return i < len(ch.spanTo) && ch.spanFrom[i] < from
}

// ringPlace is how the changes of a watch of the whole type placed a
// cache's ring (locate), put in words only when a reason asks: every
// bound of every piece locates it, and few are read.
type ringPlace struct {
	how        placedHow
	before, c  int   // its capacity before a resize, and then
	from, till int64 // the points the resize came between; from: the one it was full by
}

// placedHow is what placed a ring: none, a resize, or a capacity full.
type placedHow uint8

const (
	placedNone placedHow = iota
	placedGrew
	placedShrank
	placedFull
)

// words says how the ring was placed, instants in loc.
func (r ringPlace) words(loc *time.Location) string {
	switch r.how {
	case placedGrew:
		return fmt.Sprintf("it grew from %d to %d between %s and %s, full, holding the %d changes before the one that grew it",
			r.before, r.c, FormatInstant(r.from, loc), FormatInstant(r.till, loc), r.c/2)
	case placedShrank:
		return fmt.Sprintf("it shrank from %d to %d between %s and %s and stayed full", r.before, r.c, FormatInstant(r.from, loc), FormatInstant(r.till, loc))
	case placedFull:
		return fmt.Sprintf("it was at %d since its list and full by %s", r.c, FormatInstant(r.from, loc))
	}
	return ""
}

// locate bounds b from where the changes place the ring at t: its head
// between its RVs at point low (two steps before t: read before it) and
// at point next (two after); its capacity c the same from its last
// resize, or from its list, to next. init and initEvents are the
// cache's list (see cacheBounds).
func (pp *processPoints) locate(b *cacheBounds, ch *changeIndex, init int, initEvents float64, low, next int, c float64) {
	// The last resize at or before low, none after it up to next.
	r := lastIn(pp.changes.capacity, init, next)
	if r > low {
		return
	}
	jLo, jHi := ch.at(pp.rv(low)), ch.at(pp.rv(next))
	var oLo, oHi, from int // the oldest change held, within [oLo, oHi]; from: the first change the bound relies on
	var how ringPlace
	switch {
	case r > 0:
		before, _ := pp.valueAt(pp.capac, r-1)
		// The change that resized it came after point r-1's capacity
		// was read and by point r's: its index is within raced of the
		// heads read with them.
		xLo, xHi := ch.at(pp.rv(r-1))+1-raced, ch.at(pp.rv(r))+raced
		half := int(c) / 2
		switch before {
		case c / 2:
			// Full at c/2 when it grew: it held the c/2 changes before
			// the one that grew it, and evicts once full at c.
			oLo, oHi, from = max(xLo-half, jLo-int(c)+1), max(xHi-half, jHi-int(c)+1), xLo-half
			how = ringPlace{placedGrew, int(before), int(c), pp.head.t[r-1], pp.head.t[r]}
		case 2 * c:
			// A shrink keeps it full.
			oLo, oHi, from = jLo-int(c)+1, jHi-int(c)+1, jLo-int(c)+1
			how = ringPlace{placedShrank, int(before), int(c), pp.head.t[r-1], pp.head.t[r]}
		default:
			return
		}
		init = r - 1
	case (init > pp.lo || pp.startedAt(init)) && pp.events(low)-initEvents >= c+raced:
		// At its capacity since its list, and full by low: it evicts
		// from then on.
		oLo, oHi, from = jLo-int(c)+1, jHi-int(c)+1, jLo-int(c)+1
		how = ringPlace{how: placedFull, c: int(c), from: pp.head.t[low]}
	default:
		return
	}
	if from < 0 || oLo < 0 || !ch.covers(min(from, oLo), pp.rv(next)) {
		return
	}
	// The changes must be the ones the cache received: as many between
	// the point the bound starts from and next as the metrics counted.
	seen := float64(ch.at(pp.rv(next)) - ch.at(pp.rv(init)))
	if got := pp.events(next) - pp.events(init); got-seen > 2*raced || seen-got > 2*raced {
		return
	}
	lo, hi := ch.rv[oLo]-1, ch.rv[oHi]-1
	if lo > b.refusedBelow {
		b.refusedBelow, b.lowAt, b.locatedLow = lo, pp.head.t[low], how
	}
	if !b.held || hi < b.heldFrom {
		b.heldFrom, b.highAt, b.held, b.locatedHigh, b.by = hi, pp.head.t[next], true, how, 0
	}
}
