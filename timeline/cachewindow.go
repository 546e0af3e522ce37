package timeline

import (
	"fmt"
	"sort"
	"strconv"
	"time"
)

// What a server's metrics say of the oldest RV its watch cache held.
//
// The oldest RV a watch cache holds is not exported (evidence.md §1.3 b),
// but it is bounded by what is: the cache holds at most its capacity
// (watch_cache_capacity) of the newest events it received
// (apiserver_watch_cache_events_received_total), and, once full, at least
// that many; a grow doubles a full ring and leaves it half full, a shrink
// keeps the newest half full, a re-list empties it (§3.2). The RV gauge
// (apiserver_watch_cache_resource_version) is set by every event, so an
// event received after a scrape has an RV above that scrape's, and one
// received before a scrape an RV at most that scrape's. Each bound is
// taken where every reading of the scrapes (a scrape's series are read
// one after the other, and a query_range point is the last scrape before
// it) keeps it true: two points away from the scrape it relies on. Where
// the scrapes leave a gap, the process restarts, or the cache is
// re-initialised around the instant (the metrics show it, or the
// server's own log: reinitialised), they decide nothing.

// cacheBounds bound, at one instant, the RV below which a server's watch
// cache of a resource refuses a watch (oldest buffered - 1).
type cacheBounds struct {
	// refusedBelow: every RV below it is refused (gone); 0 when nothing
	// bounds it from below. heldFrom: every RV from it up is held (held
	// true).
	refusedBelow, heldFrom uint64
	held                   bool
	// evictedNothing: the cache evicted nothing since its list (at
	// initAt), so the RV below which it refuses is that list's, the same
	// from then on: every observation of it since bounds it.
	evictedNothing bool
	initAt         int64
	// firstList: that list is the process's first, its only
	// initialisation at its first point.
	firstList bool
	// capacity is the cache's capacity then, received the events it had
	// received, lowAt and highAt the instants of the scrapes that give
	// refusedBelow and heldFrom.
	capacity      int
	received      float64
	lowAt, highAt int64
	// doubt says why the metrics decide nothing, "" when they bound it.
	doubt string
	// by is the server's own answer that gave heldFrom (1 + its index
	// in Analysis.observed), 0 when the metrics alone did.
	by int
	// reinitAt is the last re-initialisation of the cache that the
	// server's own log shows before the instant, 0 when none does.
	reinitAt int64
	// locatedLow and locatedHigh, when placed, say how the changes of a
	// watch of the whole type located the ring (see locate) where that
	// gave refusedBelow or heldFrom.
	locatedLow, locatedHigh ringPlace
}

// refuses says the bounds refuse rv: it is below the RV every one below
// which is refused.
func (b cacheBounds) refuses(rv uint64) bool { return b.refusedBelow > 0 && rv < b.refusedBelow }

// processPoints are one server process's points of one resource's
// series: from the first point at or after from to the last at or
// before to.
type processPoints struct {
	m                 *Metrics
	head, recv, capac *metricPoints
	inits             *metricPoints
	from, to          int64
	started           int64 // when the process started, 0 when before the points
	lo, hi            int   // head's points of the process: head.t[lo:hi]
	step              int64
	changes           *processChanges
}

// valueAt is p's value at head point i: the last point of p at or
// before it within the lookback, and in the process; zero when the
// process has no point of p (a counter a server creates at its first
// increment).
func (pp *processPoints) valueAt(p *metricPoints, i int) (float64, bool) {
	if p == nil {
		return 0, false
	}
	t := pp.head.t[i]
	// The series of one server's scrape share its instants: point i of
	// the head is mostly point i of p, or a fixed number of points off
	// (a counter first seen later). Only then is it searched for.
	var k int
	if off := len(p.t) - len(pp.head.t) + i; off >= 0 && off < len(p.t) && p.t[off] == t && (off+1 == len(p.t) || p.t[off+1] > t) {
		k = off + 1
	} else if i < len(p.t) && p.t[i] == t && (i+1 == len(p.t) || p.t[i+1] > t) {
		k = i + 1
	} else {
		k = sort.Search(len(p.t), func(j int) bool { return p.t[j] > t })
	}
	if k == 0 || p.t[k-1] < pp.from || t-p.t[k-1] > p.lookback {
		return 0, false
	}
	return p.v[k-1], true
}

// events is the events received at head point i (0 before the counter's
// first point of the process).
func (pp *processPoints) events(i int) float64 {
	v, _ := pp.valueAt(pp.recv, i)
	return v
}

// rv is the cache's RV at head point i.
func (pp *processPoints) rv(i int) uint64 {
	rv, _ := pp.m.rvOf(pp.head.v[i])
	return rv
}

// cacheBounds bounds what server's cache of resource refused at t;
// process, when not -1, is the server's process (0 the first) known to
// have answered then, which must be the one its metrics show, and
// startedAfter an instant it is known to have started after (its
// previous process's audit log's end), 0 when none is. ch, when not
// nil, is every change of the resource (see locate). Its doubts write
// times in zone loc.
func (m *Metrics) cacheBounds(server, resource string, process int, startedAfter, t int64, ch *changeIndex, loc *time.Location) cacheBounds {
	sr := serverResource{server, resource}
	head := m.head[sr]
	if head == nil || len(head.t) == 0 {
		return cacheBounds{doubt: fmt.Sprintf("server %s's metrics have no watch cache of %s", server, resource)}
	}
	if m.cap[sr] == nil {
		return cacheBounds{doubt: fmt.Sprintf("server %s's metrics have no capacity of its %s cache", server, resource)}
	}
	pp := &processPoints{m: m, head: head, recv: m.recv[sr], capac: m.cap[sr], step: head.lookback / 2, from: head.t[0], to: head.t[len(head.t)-1]}
	if ps := m.inits[sr]; len(ps) > 0 {
		pp.inits = mergePoints(ps)
	}
	shown := 0
	for _, r := range m.serverResets[server] {
		switch {
		case r.After <= t:
			pp.from, pp.started = r.After, max(m.startIn(server, r), startedAfter)
			shown++
		case r.Before < t:
			return cacheBounds{doubt: fmt.Sprintf("server %s restarted between %s and %s (its counters started again)", server, FormatInstant(r.Before, loc), FormatInstant(r.After, loc))}
		default:
			pp.to = min(pp.to, r.Before)
		}
	}
	if process >= 0 && process != shown {
		return cacheBounds{doubt: fmt.Sprintf("the process of server %s that answered is not the one its metrics show at %s", server, FormatInstant(t, loc))}
	}
	pp.lo = sort.Search(len(head.t), func(i int) bool { return head.t[i] >= pp.from })
	pp.hi = sort.Search(len(head.t), func(i int) bool { return head.t[i] > pp.to })
	pp.changes = m.changesOf(sr, pp)
	// The points around t: the last at or before it, and the first two
	// steps after it (the state at t is scraped by then).
	prev := sort.Search(len(head.t), func(i int) bool { return head.t[i] > t }) - 1
	next := sort.Search(len(head.t), func(i int) bool { return head.t[i] >= t+2*pp.step })
	if prev < pp.lo || next >= pp.hi || t-head.t[prev] > 2*pp.step {
		return cacheBounds{doubt: fmt.Sprintf("no scrape of server %s's metrics around %s", server, FormatInstant(t, loc))}
	}
	for i := prev + 1; i <= next; i++ {
		if head.t[i]-head.t[i-1] > 2*pp.step {
			return cacheBounds{doubt: fmt.Sprintf("server %s's metrics were not scraped from %s to %s", server, FormatInstant(head.t[i-1], loc), FormatInstant(head.t[i], loc))}
		}
	}
	capLo, capHi := -1.0, 0.0
	for i := prev; i <= next; i++ {
		c, ok := pp.valueAt(pp.capac, i)
		if !ok {
			return cacheBounds{doubt: fmt.Sprintf("no capacity of server %s's %s cache around %s", server, resource, FormatInstant(t, loc))}
		}
		if capLo < 0 || c < capLo {
			capLo = c
		}
		capHi = max(capHi, c)
	}
	// The cache's last initialisation: the first point of the process,
	// or the last whose count of them rose.
	init := pp.lo
	if i := lastIn(pp.changes.inits, pp.lo, next); i >= 0 {
		init = i
	}
	if init > prev {
		return cacheBounds{doubt: fmt.Sprintf("server %s's %s cache was initialised around %s", server, resource, FormatInstant(head.t[init], loc))}
	}
	eLo, eHi := pp.events(prev), pp.events(next)
	b := cacheBounds{capacity: int(capHi), received: eLo}
	// initEvents is the count when the cache was last filled by a list:
	// a process's first initialisation comes before any event its cache
	// receives (its watch starts from the list's RV), and its counter
	// counts from the process's start: shown as one initialisation at
	// its first point, it came at the count 0. A re-list came after the
	// point before the one that shows it.
	initEvents := pp.events(init)
	if v, _ := pp.valueAt(pp.inits, init); init == pp.lo && v == 1 {
		initEvents, b.firstList = 0, true
	} else if init > pp.lo {
		initEvents = pp.events(init - 1)
	}

	// Below: the cache holds at most its capacity of the newest events,
	// all received after the last point whose count is that much lower.
	if init > pp.lo && init-1 >= pp.lo {
		b.refusedBelow, b.lowAt = pp.rv(init-1), head.t[init-1] // a re-list's RV is above what it had
	}
	most := pp.heldAtMost(init, initEvents, prev, next, capLo, capHi)
	for i := prev; i >= pp.lo; i-- {
		if pp.events(i)+raced <= eLo-most {
			if rv := pp.rv(i); rv > b.refusedBelow {
				b.refusedBelow, b.lowAt = rv, head.t[i]
			}
			break
		}
	}

	// Above: the cache holds at least its newest n events. The list's
	// RV is below its events' RVs, each its own: at most a point's RV
	// less the events received since the list.
	listHigh := pp.rv(init)
	for i := init; i <= min(init+2, pp.hi-1); i++ {
		if got := pp.events(i) - initEvents - raced; got >= 1 && pp.rv(i) >= uint64(got) {
			listHigh = min(listHigh, pp.rv(i)-uint64(got))
		}
	}
	b.initAt = head.t[init]
	if pp.evictedNothing(init, initEvents, next) {
		b.evictedNothing = true
		b.heldFrom, b.highAt, b.held = listHigh, head.t[init], true
	} else if n := pp.heldAtLeast(init, initEvents, prev, capLo, capHi); n >= 1 {
		j := eHi - n + 1 // the oldest event held is at most the j-th received
		for i := init; i < pp.hi; i++ {
			if pp.events(i)-raced >= j {
				b.heldFrom, b.highAt, b.held = max(pp.rv(i), listHigh), head.t[i], true
				break
			}
		}
	}
	// The changes themselves, where a watch of the whole type saw them,
	// place the ring closer than the counts: from a point two steps
	// before t, read before it whichever reading of the scrapes holds.
	if low := sort.Search(len(head.t), func(i int) bool { return head.t[i] > t-2*pp.step }) - 1; ch != nil && low >= init && t-head.t[low] <= 3*pp.step && capLo == capHi {
		pp.locate(&b, ch, init, initEvents, low, next, capHi)
	}
	return b
}

// raced is how many events a bound allows for between two reads of one
// scrape: Prometheus reads a server's series one after the other, so a
// scrape's count of events and its RV may be an event or so apart.
const raced = 1

// heldAtLeast is how many of its newest events the cache held at least
// at point prev, its capacity between capLo and capHi around it. A
// resize comes only when the ring is full: a grow leaves it half full
// and it fills again, a shrink keeps it full; a re-list empties it, and
// it fills with every event after.
func (pp *processPoints) heldAtLeast(init int, initEvents float64, prev int, capLo, capHi float64) float64 {
	if capLo != capHi {
		return capLo // resized around the instant: full at the resize
	}
	c, eLo := capLo, pp.events(prev)
	// The last resize before prev: the capacity is c from it on.
	if i := lastIn(pp.changes.capacity, init, prev); i >= 0 {
		if before, _ := pp.valueAt(pp.capac, i-1); before > c {
			return c
		}
		// The grow came before point i's scrape.
		return min(c, c/2+max(0, eLo-pp.events(i)-raced))
	}
	since := max(0, eLo-initEvents)
	if init == pp.lo && !pp.startedAt(init) && c > lowerBoundCapacity {
		// The process ran before its first point: its cache may have
		// resized before it was scraped.
		return min(c/2, since)
	}
	return min(c, since)
}

// startedAt says whether the process was scraped from its start: its
// first point comes within the fresh duration after it started, too soon
// for its cache to have shrunk back.
func (pp *processPoints) startedAt(first int) bool {
	return pp.started > 0 && pp.head.t[first]-pp.started < eventFresh
}

// eventFresh is the watch cache's eventFreshDuration, and
// lowerBoundCapacity its least capacity: a cache at it either never
// resized or shrank to it, full (evidence.md §3.2).
const (
	eventFresh         = int64(75 * time.Second)
	lowerBoundCapacity = 100
)

// evictedNothing says whether the cache evicted nothing from its list
// (point init) to point next: it received no more events than its least
// capacity since, or it only grew, each time when it first filled (its
// count since the list then tells) or while every event it held was
// younger than the fresh duration (a full ring whose oldest event is
// that young grows instead of evicting), and has not filled since.
func (pp *processPoints) evictedNothing(init int, initEvents float64, next int) bool {
	got := pp.events(next) - initEvents
	known := init > pp.lo || pp.startedAt(init)
	least, _ := pp.valueAt(pp.capac, init)
	shrank, lastGrow, fullGrows := false, -1, true
	// Between its resizes the capacity stays.
	caps := pp.changes.capacity
	for k := sort.SearchInts(caps, init+1); k < len(caps) && caps[k] <= next; k++ {
		i := caps[k]
		c, _ := pp.valueAt(pp.capac, i)
		if before, _ := pp.valueAt(pp.capac, i-1); c < before {
			shrank = true
		} else {
			lastGrow = i
			// A ring that evicted nothing grows at its first
			// full insert: the (before+1)-th event since the list.
			fullGrows = fullGrows && pp.events(i)-initEvents <= before+1+raced
		}
		least = min(least, c)
	}
	c, _ := pp.valueAt(pp.capac, next)
	switch {
	case shrank || got > c:
		return false
	case got <= least && (known || least == lowerBoundCapacity):
		return true
	case known && lastGrow > 0 && fullGrows:
		return true
	}
	// The list came after the process started.
	return lastGrow > 0 && init == pp.lo && pp.startedAt(init) && pp.head.t[lastGrow]-pp.started < eventFresh
}

// heldAtMost is how many of its newest events the cache held at most
// at point prev (next: a point after the instant asked), its capacity
// between capLo and capHi around it: after a grow, half of it and what
// came since; after a re-list, what came since.
func (pp *processPoints) heldAtMost(init int, initEvents float64, prev, next int, capLo, capHi float64) float64 {
	c, eHi := capHi, pp.events(next)
	if capLo != capHi {
		return c
	}
	// The last resize before prev: the capacity is c from it on.
	if i := lastIn(pp.changes.capacity, init, prev); i >= 0 {
		if before, _ := pp.valueAt(pp.capac, i-1); before < c {
			// The grow came after point i-1's scrape.
			return min(c, c/2+eHi-pp.events(i-1)+raced)
		}
		return c
	}
	if init == pp.lo && !pp.startedAt(init) && initEvents > 0 {
		return c
	}
	return min(c, eHi-initEvents)
}

// serverMetrics says whether any server's metrics were exported.
func (tl *Timeline) serverMetrics() bool {
	for _, s := range tl.Servers {
		if s.Metrics != "" {
			return true
		}
	}
	return false
}

// serverCache bounds, from its metrics, what the server on refused of
// the file's resource at instant at.
func (a *Analysis) serverCache(file int, on serverRef, at int64) cacheBounds {
	if on.server < 0 {
		return cacheBounds{doubt: "the server the reconnect goes to is not known"}
	}
	return a.cacheOf(a.TL.Files[file].Kind, a.resourceOf(file), on, at)
}

// cacheOf bounds what the server on (known) refused of resource, the
// kind's, at instant at: from its metrics, sharpened by its own answers
// to watches of the kind, and its own log's re-initialisations.
//
// A reconnect's verdict, its reason and its what-if ask the same
// instant's bounds again, each a walk over the process's scrapes: the
// answers are kept (see cacheAsked).
func (a *Analysis) cacheOf(kind, resource string, on serverRef, at int64) cacheBounds {
	key := cacheAsked{kind, resource, on, at}
	if b, ok := a.cacheAnswers[key]; ok {
		return b
	}
	b := a.boundCache(kind, resource, on, at)
	if a.cacheAnswers == nil {
		a.cacheAnswers = map[cacheAsked]cacheBounds{}
	}
	a.cacheAnswers[key] = b
	return b
}

// cacheAsked is what cacheOf is asked: a resource's cache on a server
// process at an instant.
type cacheAsked struct {
	kind, resource string
	on             serverRef
	at             int64
}

// boundCache is cacheOf, worked out.
func (a *Analysis) boundCache(kind, resource string, on serverRef, at int64) cacheBounds {
	srv := &a.TL.Servers[on.server]
	var b cacheBounds
	if srv.Metrics == "" {
		b = cacheBounds{doubt: fmt.Sprintf("no metrics of server %s were exported", srv.Name)}
	} else {
		var after int64
		if on.incarnation > 0 {
			after = srv.Incarnations[on.incarnation-1].To
		}
		b = a.TL.Metrics.cacheBounds(srv.Metrics, resource, on.incarnation, after, at, a.changesOf(kind), a.Params.Zone)
		a.sharpen(&b, kind, on, at)
	}
	a.reinitialised(&b, srv.Name, resource, at)
	return b
}

// reinitialised applies to b the re-initialisations of the server's
// cache of resource that its own log shows, up to at (CacheReinits). A
// re-initialised cache starts again from a quorum LIST, as after a
// restart: it refuses every RV below that LIST's, which is at least the
// newest RV known then (the head). Across a re-initialisation the
// metrics do not show (after the one they know), their bounds of what
// the cache held decide nothing; the refusal still holds.
func (a *Analysis) reinitialised(b *cacheBounds, server, resource string, at int64) {
	for _, r := range a.TL.CacheReinits() {
		if r.Server != server || r.Resource != resource || r.T > at {
			continue
		}
		head, ok := a.TL.Head(r.T)
		if b.doubt != "" || r.T > b.initAt {
			*b = cacheBounds{refusedBelow: b.refusedBelow, lowAt: b.lowAt, capacity: b.capacity}
		}
		b.reinitAt = r.T
		if ok && head > b.refusedBelow {
			b.refusedBelow, b.lowAt = head, r.T
		}
	}
}

// resourceOf is the resource of the file's kind, as the metrics name it.
func (a *Analysis) resourceOf(file int) string { return a.resourceOfKind(a.TL.Files[file].Kind) }

// serverCacheReason explains ModelServerCache's verdict for cursor rv.
func (a *Analysis) serverCacheReason(file int, on serverRef, rv uint64, at int64) string {
	b := a.serverCache(file, on, at)
	if b.doubt != "" {
		return "server cache (metrics): " + b.doubt
	}
	if b.reinitAt > 0 && !b.held && rv >= b.refusedBelow {
		return fmt.Sprintf("server %s's cache of %s ended every watch at %s with no restart (its own log) and started again from a list at RV %d or later: its own 410 or an accepted resume then would decide on RV %d",
			a.TL.Servers[on.server].Name, a.resourceOf(file), a.instant(b.reinitAt), b.refusedBelow, rv)
	}
	name := a.TL.Servers[on.server].Name
	res := a.resourceOf(file)
	switch {
	case b.reinitAt > 0 && b.lowAt == b.reinitAt && rv < b.refusedBelow:
		return fmt.Sprintf("server %s's cache of %s ended every watch at %s with no restart (its own log): it started again from a list at RV %d or later, so it refuses RV %d",
			name, res, a.instant(b.reinitAt), b.refusedBelow, rv)
	case b.locatedLow.how != placedNone && rv < b.refusedBelow:
		return fmt.Sprintf("server %s's cache of %s (metrics: %s) held a run of the changes a watch of the whole type saw, up to its head: at %s it held nothing older than RV %d, so it refuses RV %d",
			name, res, b.locatedLow.words(a.Params.Zone), a.instant(at), b.refusedBelow+1, rv)
	case b.locatedHigh.how != placedNone && b.held && rv >= b.heldFrom:
		return fmt.Sprintf("server %s's cache of %s (metrics: %s) held a run of the changes a watch of the whole type saw, up to its head: at %s it still held every change from RV %d, so it holds RV %d",
			name, res, b.locatedHigh.words(a.Params.Zone), a.instant(at), b.heldFrom+1, rv)
	case b.refuses(rv):
		return fmt.Sprintf("server %s's cache of %s held at most its %d newest changes, all received after %s, when its RV was %d: it kept nothing older, so it refuses RV %d (metrics)",
			name, res, b.capacity, a.instant(b.lowAt), b.refusedBelow, rv)
	case b.held && rv >= b.heldFrom && b.by > 0:
		o := a.observed[floorKey{a.TL.Files[file].Kind, on.server}][b.by-1]
		what := fmt.Sprintf("it accepted a watch from RV %d at %s", o.rv, a.instant(o.t))
		if o.refused {
			what = fmt.Sprintf("its own 410 at %s said it kept nothing older than RV %d", a.instant(o.t), o.rv)
		}
		return fmt.Sprintf("server %s's cache of %s evicted nothing since its list at %s (metrics: fewer changes than its capacity), and %s: it holds RV %d",
			name, res, a.instant(b.initAt), what, rv)
	case b.held && rv >= b.heldFrom && b.evictedNothing:
		return fmt.Sprintf("server %s's cache of %s evicted nothing since its list at %s, made at RV %d or before (metrics: fewer changes than its capacity), so it holds RV %d",
			name, res, a.instant(b.initAt), b.heldFrom, rv)
	case b.held && rv >= b.heldFrom:
		return fmt.Sprintf("server %s's cache of %s (capacity %d) still held every change after RV %d (its RV at %s), so it holds RV %d (metrics)",
			name, res, b.capacity, b.heldFrom, a.instant(b.highAt), rv)
	}
	low := "its list's RV"
	if b.refusedBelow > 0 {
		low = fmt.Sprintf("RV %d", b.refusedBelow)
	}
	high := "its head"
	if b.held {
		high = fmt.Sprintf("RV %d", b.heldFrom)
	}
	return fmt.Sprintf("server %s's metrics put the RV below which its cache of %s (capacity %d) refused at %s between %s and %s, and RV %d is between: its own 410 or an accepted resume then would decide",
		name, res, b.capacity, a.instant(at), low, high, rv)
}

// cacheObservation is a server's own answer to a watch from an RV: it
// accepted RV rv (so held it), or refused a cursor with "too old
// resource version: X (rv)" (so rv was the RV below which it refused).
type cacheObservation struct {
	t                int64
	rv               uint64
	process, session int
	refused          bool
}

// observeServers lists, per kind and server, the servers' own answers to
// watches from an RV, in time order.
func (a *Analysis) observeServers() {
	tl := a.TL
	a.observed = map[floorKey][]cacheObservation{}
	for g := range tl.Sessions {
		s := &tl.Sessions[g]
		if s.Server < 0 || s.Request == nil || !s.Request.Watch || s.IsWatchList() || s.Unanswered() {
			continue
		}
		o := cacheObservation{t: s.Start, process: s.Incarnation, session: g}
		switch {
		case s.Error != nil && s.Error.TooOld && s.Error.Y > 0:
			o.rv, o.refused = s.Error.Y, true
			if s.ErrorEvent >= 0 {
				o.t = tl.tab.t.at(s.ErrorEvent)
			}
		case gone(s.Error) || s.HTTPStatus != 200:
			continue
		default:
			rv, err := strconv.ParseUint(s.Request.ResourceVersion, 10, 64)
			if err != nil || rv == 0 {
				continue
			}
			o.rv = rv
		}
		k := floorKey{tl.Files[s.File].Kind, s.Server}
		a.observed[k] = append(a.observed[k], o)
	}
	for _, os := range a.observed {
		sort.Slice(os, func(i, j int) bool { return os[i].t < os[j].t })
	}
}

// sharpen lowers b's heldFrom with the server's own answers since its
// list, before at, when the cache evicted nothing since: its refusing
// RV was the list's all along.
func (a *Analysis) sharpen(b *cacheBounds, kind string, on serverRef, at int64) {
	if !b.evictedNothing {
		return
	}
	for k, o := range a.observed[floorKey{kind, on.server}] {
		if o.t >= at {
			break
		}
		if o.t >= b.initAt && o.process == on.incarnation && o.rv < b.heldFrom {
			b.heldFrom, b.highAt, b.by = o.rv, o.t, k+1
		}
	}
}
