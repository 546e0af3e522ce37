package timeline

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// The watch cache's dynamic capacity, replayed.
//
// The cache keeps the changes of one resource type in a ring buffer whose
// capacity starts at 100 and moves between 100 and 102 400
// (apiserver storage/cacher/watch_cache.go, updateCache and
// resizeCacheLocked): before a change is added to a full buffer, the
// capacity doubles when the oldest change is younger than
// eventFreshDuration, and halves (dropping the oldest) when the change a
// quarter of the capacity back is older than it; then a full buffer
// evicts its oldest change. A watch from r is refused once
// r < oldest - 1. How long the cache holds therefore depends on the
// event rate, and only a capture that saw every change of the type can
// replay it.
//
// The replay starts empty at the minimum capacity with the first change
// the captures saw: a cache that had grown before the capture began holds
// more than the replay says, which the reasons name. With one API server,
// a restart empties it (the new process starts from a fresh LIST; the
// restart model refuses what came before). With several, each server's
// cache grew with its own history, and on the fleet recording a server
// kept a cursor the replay had evicted two minutes before: there the
// replay puts a reconnect at risk and refuses nothing. So it does when
// what the server answered shows it held more than the replay (see
// contradiction).

// minCacheCapacity is the cache's lower bound (defaultLowerBoundCapacity).
const minCacheCapacity = 100

// cacheReplay is one kind's replayed cache: the instants at which its
// oldest buffered change rose, and to what. In a cache that stays full
// the oldest rises with nearly every change, so a step is stored as two
// indices into the kind's series, packed (both rise steadily: a byte or
// none a step, where an instant and an RV took 16): the change at whose instant the oldest
// rose (at), and the oldest change then buffered (from), whose running
// maximum RV is the oldest RV.
type cacheReplay struct {
	kind    string
	changes int
	s       *kindSeries
	at      packed[int32]
	from    packed[int32] // rising, and so is s.maxRV at it
	// minCap and maxCap bound the capacities the replay went through
	// once full, for the reasons.
	minCap, maxCap int
	// contradicted, when not "", says what the server did that the replay
	// says it could not: the replay then puts at risk and refuses nothing.
	contradicted string
}

// refusedFrom is the first instant the replayed cache refuses a watch
// from rv (never when it still holds rv+1 at the end of what the
// captures saw). The hints, which may be nil, are a cursor pass's: hint
// is the count model's, whose searches over the same series ask the
// same question of it.
func (c *cacheReplay) refusedFrom(rv uint64, hint *searchHint, steps *replayHint) int64 {
	k := c.firstRefusing(rv, hint, steps)
	if k == c.from.len() {
		return never
	}
	if steps == nil {
		return c.s.t(int(c.at.at(k)))
	}
	return steps.times.at(c.s, int(int32(steps.at.at(k))))
}

// replayHint speeds up the search over a replay's steps as searchHint
// does over a series: a cursor's values mostly rise, and then the answer
// can only move forward.
type replayHint struct {
	first int32 // the first change searched for last
	ans   int   // the previous answer: no step below it buffers first
	// The readers of the replay's steps and of their changes' instants,
	// which move forward with the answer.
	from, at blockReader
	times    timeReader
}

// firstRefusing is the first step whose oldest RV is above rv+1, or the
// number of steps. The series' running maximum RV does not fall, so that
// is the first step buffering nothing before the first change whose
// maximum is above rv+1. With a hint it gallops forward from the
// previous answer when that change did not move back.
func (c *cacheReplay) firstRefusing(rv uint64, hint *searchHint, steps *replayHint) int {
	first := int32(hint.firstAbove(&c.s.maxRV, rv))
	if steps == nil {
		return gallopAbove(&c.from, -1, first-1)
	}
	if first >= steps.first {
		steps.ans = firstAboveFrom(&steps.from, &c.from, steps.ans, first-1)
	} else {
		steps.ans = gallopAbove(&c.from, -1, first-1)
	}
	steps.first = first
	return steps.ans
}

func (c *cacheReplay) reason(rv uint64, loc *time.Location) string {
	k := c.firstRefusing(rv, nil, nil)
	if k == c.from.len() {
		return "watch cache (capacity): the replayed cache still holds it"
	}
	return fmt.Sprintf("watch cache (capacity): replaying the %d changes of %s that a watch of the whole type saw, the cache (%d to %d changes at these rates) held nothing older than RV %d from %s, and a watch from r is refused when r < oldest - 1; a cache that had grown before the capture began would hold more",
		c.changes, c.kind, c.minCap, c.maxCap, c.s.maxRV.at(int(c.from.at(k))), FormatInstant(c.s.t(int(c.at.at(k))), loc))
}

// replayCaches replays the cache of each kind that a capture of the whole
// type watched (and that the watch cache serves).
func (a *Analysis) replayCaches() {
	a.capacity = map[string]*cacheReplay{}
	if !a.Params.WatchCache {
		return
	}
	timed := map[string]bool{}
	for _, f := range a.TL.Files {
		timed[f.Kind] = timed[f.Kind] || f.Clock != ClockNone
	}
	for kind, s := range a.TL.series {
		if len(s.seenFrom) == 0 || isEventKind(kind) || !timed[kind] || a.Params.CacheWindow <= 0 {
			continue
		}
		c := a.replay(kind, s)
		c.contradicted = a.contradiction(c)
		a.capacity[kind] = c
	}
}

// contradiction checks the replay against what the server answered: a
// resume it accepted from RV r at t means it still held r+1 then, and a
// `too old resource version: X (Y)` at t means it still accepted Y. A
// replay that had evicted either by then started from less history than
// the server had (its cache had grown before the capture): it says so,
// and refuses nothing.
func (a *Analysis) contradiction(c *cacheReplay) string {
	tl := a.TL
	for _, s := range tl.Sessions {
		if tl.Files[s.File].Kind != c.kind || s.Request == nil || !s.Request.Watch || !s.watchStream() || gone(s.Error) {
			continue
		}
		r, err := strconv.ParseUint(s.Request.ResourceVersion, 10, 64)
		if err != nil || r == 0 {
			continue
		}
		if t := c.refusedFrom(r, nil, nil); t <= s.Start {
			return fmt.Sprintf("the server accepted a resume from RV %d at %s that the replay had evicted at %s", r, a.instant(s.Start), a.instant(t))
		}
	}
	if f := tl.floors[c.kind]; f != nil {
		for k, y := range f.y {
			if t := c.refusedFrom(y, nil, nil); t <= f.t[k] {
				return fmt.Sprintf("the server still accepted RV %d at %s (its 410 says so), which the replay had evicted at %s", y, a.instant(f.t[k]), a.instant(t))
			}
		}
	}
	return ""
}

// replayWalk is where a replay of a kind's changes stands: the cache,
// of capacity changes, holds those from start on; at and from are the
// evictions recorded (the change at which the oldest change held rose,
// and the change it rose to, whose value is oldest). Sealed as they
// fill: a capture of millions of changes evicts at nearly every one, and
// two plain columns of them would be the most the analysis holds.
type replayWalk struct {
	s          *kindSeries
	end, start int
	capacity   int
	oldest     uint64
	at, from   sealed[int32]
}

// run replays the changes from end, up to stop (exclusive), as replay's
// loop does a change before the instant restart at which the cache is
// not full, or full and neither grows nor shrinks, evicting one change
// that the tails have room to record. It stops at the first change that
// is otherwise, sets r.end to it, and says whether the cache was full at
// any change it replayed. It makes no call (see clearWalk.walk): as
// wasm, a call for each of the reads and evictions of every change cost
// more than the replay's own work.
func (r *replayWalk) run(end, stop int, restart, fresh int64) (full bool) {
	// The columns are copied to locals: read through a pointer, each
	// column's list of blocks is read again at every read, the loop's
	// stores (to the tails) being to memory the compiler cannot tell
	// apart from it.
	evs, times, maxRV := r.s.ev, r.s.tab.t, r.s.maxRV
	start, capacity, oldest := r.start, r.capacity, r.oldest
	for ; end < stop; end++ {
		t := times.at(int(evs.at(end)))
		if t >= restart {
			break
		}
		if end-start != capacity {
			continue
		}
		if t-times.at(int(evs.at(start))) < fresh || t-times.at(int(evs.at(end-capacity/4))) > fresh && capacity > minCacheCapacity {
			break
		}
		if rv := maxRV.at(start + 1); r.from.len() == 0 || rv > oldest {
			if len(r.at.tail)+1 >= cap(r.at.tail) || len(r.from.tail)+1 >= cap(r.from.tail) {
				break
			}
			r.at.tryAdd(int32(end))
			r.from.tryAdd(int32(start + 1))
			oldest = rv
		}
		start++
		full = true
	}
	r.end, r.start, r.oldest = end, start, oldest
	return full
}

// evictTo has the cache, at change end, hold the changes from k on,
// recording the eviction where the oldest change held rises (run records
// it so, where the tails have room).
func (r *replayWalk) evictTo(end, k int) {
	r.start = k
	if rv := r.s.maxRV.at(k); r.from.len() == 0 || rv > r.oldest {
		if !r.at.tryAdd(int32(end)) {
			r.at.add(int32(end))
		}
		if !r.from.tryAdd(int32(k)) {
			r.from.add(int32(k))
		}
		r.oldest = rv
	}
}

func (a *Analysis) replay(kind string, s *kindSeries) *cacheReplay {
	p := &a.Params
	upper := p.CacheCount
	if upper <= 0 {
		upper = 100 * 1024
	}
	upper = max(upper, minCacheCapacity)
	fresh := int64(p.CacheWindow)
	c := &cacheReplay{kind: kind, changes: s.len(), s: s, minCap: upper, maxCap: minCacheCapacity}
	var restarts []int64
	if a.ServerCount() == 1 {
		for _, r := range p.Restarts {
			restarts = append(restarts, r.To)
		}
	}
	r := replayWalk{s: s, capacity: minCacheCapacity}
	evs, times := &s.ev, &s.tab.t
	for end := 0; end < s.len(); end++ {
		restart := int64(math.MaxInt64)
		if len(restarts) > 0 {
			restart = restarts[0]
		}
		stop := min(end+pauseEvery, s.len())
		if full := r.run(end, stop, restart, fresh); r.end > end {
			if full {
				c.minCap, c.maxCap = min(c.minCap, r.capacity), max(c.maxCap, r.capacity)
			}
			a.pace.tick(r.end - end)
			if end = r.end; end == stop {
				end--
				continue
			}
		}
		a.pace.tick(1)
		t := times.at(int(evs.at(end)))
		for len(restarts) > 0 && restarts[0] <= t {
			r.capacity, r.start, restarts = minCacheCapacity, end, restarts[1:]
		}
		if end-r.start == r.capacity {
			c.minCap, c.maxCap = min(c.minCap, r.capacity), max(c.maxCap, r.capacity)
			switch {
			case t-times.at(int(evs.at(r.start))) < fresh:
				r.capacity = min(2*r.capacity, upper)
			case t-times.at(int(evs.at(end-r.capacity/4))) > fresh && r.capacity > minCacheCapacity:
				r.capacity = max(r.capacity/2, minCacheCapacity)
				r.evictTo(end, end-r.capacity)
			}
		}
		if end-r.start == r.capacity {
			r.evictTo(end, r.start+1)
		}
	}
	c.minCap = min(c.minCap, c.maxCap)
	c.at, c.from = r.at.seal(), r.from.seal()
	return c
}
