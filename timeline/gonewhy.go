package timeline

import (
	"fmt"
	"math"
	"slices"
	"time"

	"watchlens/internal/quantity"
)

// Why the servers answered 410 Gone, in the words an engineer on call
// reads first: a server refuses a cursor older than the history its
// watch cache still keeps (watch-protocol.md §2), so the cause of a run
// of 410s is two figures set side by side: how old the refused cursors
// were when the clients came back, and how much history the servers
// kept then.
//
// A cursor's age is the verdict's (the instant it was last known
// current). The history kept is read from the refusal itself and the
// refusing server's metrics: the 410 names the oldest RV the server
// still accepted ("too old resource version: 625 (721)"), and the RV
// gauge of its cache of the resource shows when the cache reached that
// RV, between two scrapes. Without the gauge there is no instant for
// that RV that is not the head's estimate, which is blind to exactly
// the stretch that matters (no client sees the changes made while it is
// cut off): the history kept is then not told.

// refusalAges is why a run of observed 410s came.
type refusalAges struct {
	// refused counts the refused reconnects; noBookmarks those whose
	// watch did not ask for bookmarks; named those whose 410 names the
	// oldest RV the server still accepted.
	refused, noBookmarks, named int
	// kinds are the kinds of the refused watches, in the order met.
	kinds []string
	// age is the median age of the refused cursors, youngest and oldest
	// the least and the most, when hasAge.
	age, youngest, oldest int64
	hasAge                bool
	// kept is the median of how long the refusing servers' caches had
	// held the changes they still had, when hasKept; keptLeast and
	// keptMost the least and the most.
	kept                int64
	keptLeast, keptMost int64
	hasKept             bool
	// compared counts the refusals whose cursor's age and server's
	// history are both known; withinKept those of them whose history is
	// the longer: the history does not explain them.
	compared, withinKept int
	// newProcess counts the refusals by a server's process whose cache
	// never held the cursor (restartRefusing): its history began at its
	// start, after the cursor.
	newProcess int
}

// startListLag bounds how long after its start (its first audit record,
// or its boot time where only its metrics show it) a process's watch
// cache has the LIST it starts from.
const startListLag = int64(10 * time.Second)

// evictedSinceStart says the 410 that ended session ss names an oldest
// RV its server's process kept past the cluster's head startListLag
// after that process began: its cache had evicted what it started with
// (samples-fleet's a#2: "(1556)", where it started about RV 1400).
func (tl *Timeline) evictedSinceStart(ss *Session) bool {
	if ss.Error == nil || !ss.Error.TooOld || ss.Server < 0 || ss.Incarnation < 0 {
		return false
	}
	h, ok := tl.Head(tl.Servers[ss.Server].Incarnations[ss.Incarnation].From + startListLag)
	return ok && ss.Error.Y > h
}

// keptSlack is how far apart the two scrapes around the instant a
// server's cache reached an RV may be for that instant to be taken as
// their middle: 1 s scrapes, a few lost under load.
const keptSlack = int64(10 * time.Second)

// refusalAges is why the reconnects refused in [from, to) were, by the
// instant their servers received them. A figure is told when more than
// half of the refusals give it: a median of a few says less than none.
func (a *Analysis) refusalAges(from, to int64) refusalAges {
	tl := a.TL
	var r refusalAges
	var ages, kept []int64
	for _, rs := range a.Resumes {
		if rs.Observed != Refused {
			continue
		}
		at, _ := tl.ServerReceived(rs.Session)
		if at < from || at >= to {
			continue
		}
		ss := &tl.Sessions[rs.Session]
		r.refused++
		if !ss.Request.AllowWatchBookmarks {
			r.noBookmarks++
		}
		if ss.Error != nil && ss.Error.TooOld {
			r.named++
		}
		if kind := tl.Files[ss.File].Kind; kind != "" && !slices.Contains(r.kinds, kind) {
			r.kinds = append(r.kinds, kind)
		}
		// An audit log shows when the watch before began, not when its
		// cursor last moved: such an age is a bound, not a figure.
		age, aged := int64(0), false
		if p := rs.Predicted; p.HasCursor && !tl.SinceAtMost(rs.Session) {
			age, aged = at-p.Since, true
			ages = append(ages, age)
		}
		if p := rs.Predicted; p.HasCursor && ss.Server >= 0 && ss.Incarnation > 0 {
			// By the cursor's value, not its age: a process's history
			// begins at the list it fills its cache from, which holds
			// every RV past the head when the process before it ended,
			// a cursor last current a moment before the restart among
			// them. Such a cursor is refused later only by eviction. A
			// 410 whose oldest RV is past the head a while after the
			// process started says it had evicted since, and would have
			// refused the cursor without the restart too.
			if k, _ := a.restartRefusing(ss.Server, tl.Files[ss.File].Kind, p.RV); k > 0 && k <= ss.Incarnation && !tl.evictedSinceStart(ss) {
				r.newProcess++
			}
		}
		if d, ok := a.keptBefore(rs.Session, at); ok {
			kept = append(kept, d)
			if aged {
				r.compared++
			}
			if aged && age <= d {
				r.withinKept++
			}
		}
	}
	if 2*len(ages) > r.refused {
		r.age, r.youngest, r.oldest, r.hasAge = median(ages), slices.Min(ages), slices.Max(ages), true
	}
	if 2*len(kept) > r.refused {
		r.kept, r.keptLeast, r.keptMost, r.hasKept = median(kept), slices.Min(kept), slices.Max(kept), true
	}
	return r
}

// keptBefore is how long before at the server that refused session g had
// held the oldest change it still had: from when its cache reached the
// RV its 410 names as the oldest it still accepted, as its metrics show
// it, to at.
func (a *Analysis) keptBefore(g int, at int64) (int64, bool) {
	tl := a.TL
	s := &tl.Sessions[g]
	if s.Error == nil || !s.Error.TooOld || s.Server < 0 || tl.Metrics == nil {
		return 0, false
	}
	srv := &tl.Servers[s.Server]
	if srv.Metrics == "" {
		return 0, false
	}
	// A process's cache starts with it: its history begins no earlier.
	since := int64(math.MinInt64)
	if s.Incarnation >= 0 && s.Incarnation < len(srv.Incarnations) {
		since = srv.Incarnations[s.Incarnation].From
	}
	// The cache's RV reaches Y with the first change it still holds, or
	// with its list at Y when it has evicted nothing since: either way
	// its history starts then.
	lo, hi, ok := tl.Metrics.reached(srv.Metrics, a.resourceOf(s.File), s.Error.Y, since, at)
	if !ok || hi-lo > keptSlack {
		return 0, false
	}
	return at - (lo+hi)/2, true
}

// roughly says a duration as an engineer says it aloud: "1 second", "45 seconds",
// "2.5 minutes", "6 minutes", "2 hours".
func roughly(d int64) string {
	switch {
	case d < int64(10*time.Second):
		return quantity.Plural(int(max(1, (d+int64(500*time.Millisecond))/int64(time.Second))), "second")
	case d < int64(90*time.Second):
		return fmt.Sprintf("%d seconds", (d+int64(2500*time.Millisecond))/int64(5*time.Second)*5)
	case d < int64(10*time.Minute):
		halves := (d + int64(15*time.Second)) / int64(30*time.Second)
		if halves%2 == 0 {
			return fmt.Sprintf("%d minutes", halves/2)
		}
		return fmt.Sprintf("%d.5 minutes", halves/2)
	case d < int64(2*time.Hour):
		return fmt.Sprintf("%d minutes", (d+int64(30*time.Second))/int64(time.Minute))
	}
	return quantity.Plural(int((d+int64(30*time.Minute))/int64(time.Hour)), "hour")
}
