package timeline

import (
	"fmt"
	"sort"
	"time"
)

// The LIST a new server process's cache of a kind starts from.
//
// A new process fills its cache of each kind from a LIST it makes as it
// starts, and refuses a watch from any RV below that LIST's
// (evidence.md §3.3). restartRefusing bounds that RV from below by the
// head when the process before it ended: the changes made while the
// server restarted (dozens in the lab's four seconds) are not counted,
// and a cursor among them is judged by the window models until the new
// process's own 410 shows. That 410, `too old resource version: X (Y)`,
// says Y is one below the oldest RV the cache then kept: the LIST's RV
// plus one while it had evicted nothing, else the RV of the oldest
// change it still buffered (evidence.md §3.1). Where a watch of every
// change of the kind was open from the old process's end to the 410
// and saw no change at RV Y+1, the cache had evicted nothing, and Y is
// the LIST's RV: the process refused every RV below it from its start,
// though the 410 that shows it comes later.

// processList is what one server process's first too-old 410 of a kind
// shows of the LIST its cache of the kind started from.
type processList struct {
	rv uint64 // the LIST's RV
	at int64  // when the 410 that shows it reached its client
}

// processListKey is one kind's cache in one server process.
type processListKey struct {
	kind                string
	server, incarnation int
}

// buildProcessLists finds, for each kind and each server process after
// a server's first, the LIST its cache started from, where its first
// too-old 410 and a watch of the whole kind show it (see above).
func (tl *Timeline) buildProcessLists() {
	first := map[processListKey]int{} // the session of each process's first too-old 410
	for g := range tl.Sessions {
		s := &tl.Sessions[g]
		if s.Error == nil || !s.Error.TooOld || s.Error.Y == 0 || s.Server < 0 || s.Incarnation < 1 {
			continue
		}
		key := processListKey{tl.Files[s.File].Kind, s.Server, s.Incarnation}
		if h, ok := first[key]; !ok || s.End < tl.Sessions[h].End {
			first[key] = g
		}
	}
	for key, g := range first {
		s := &tl.Sessions[g]
		at, _ := tl.GoneArrival(g)
		prev := tl.Servers[key.server].Incarnations[key.incarnation-1].To
		if h, ok := tl.Head(prev); ok && s.Error.Y < h {
			continue // the head when the old process ended says more
		}
		if !tl.series[key.kind].noChangeAt(s.Error.Y+1, prev, at, tl.timeOrdered) {
			continue
		}
		if tl.processLists == nil {
			tl.processLists = map[processListKey]processList{}
		}
		tl.processLists[key] = processList{rv: s.Error.Y, at: at}
	}
}

// noChangeAt says that a watch of the whole kind was open throughout
// [from, to] and saw no change at RV rv: none was made then. The
// changes' instants must be in order (timeOrdered) to be searched.
func (s *kindSeries) noChangeAt(rv uint64, from, to int64, timeOrdered bool) bool {
	if s == nil || !timeOrdered {
		return false
	}
	k := sort.Search(len(s.seenTo), func(i int) bool { return s.seenTo[i] >= to })
	if k == len(s.seenTo) || s.seenFrom[k] > from {
		return false
	}
	for j := sort.Search(s.len(), func(i int) bool { return s.t(i) >= from }); j < s.len() && s.t(j) <= to; j++ {
		if s.tab.rv.at(int(s.ev.at(j))) == rv {
			return false
		}
	}
	return true
}

// processListReason says how process k of server srv is known to have
// started its cache of kind from RV list.rv.
func processListReason(srv *Server, k int, kind string, list processList, loc *time.Location) string {
	return fmt.Sprintf("server %s's new process, serving from %s, filled its cache of %s from a LIST at RV %d: its first 410, at %s, named %d as the oldest RV it still accepted, and a watch of every %s, open from its previous process's end at %s, saw no change at RV %d, so the cache had dropped nothing since that LIST",
		srv.Name, FormatInstant(srv.Incarnations[k].From, loc), kind, list.rv, FormatInstant(list.at, loc), list.rv, kind, FormatInstant(srv.Incarnations[k-1].To, loc), list.rv+1)
}
