package timeline

import (
	"fmt"
	"sort"
	"time"
)

// The RV below which a new server process refuses a watch.
//
// A new process fills its cache of each kind from a LIST it makes as it
// starts, and refuses a watch from any RV below that LIST's
// (evidence.md §3.3). Every RV known to exist when the process before
// it ended is at most that LIST's RV, so a cursor below the newest of
// them is refused by the new process, and by every later one, whose
// LIST came later still. That bound leaves out the changes made while
// the server restarted (two in the lab's four seconds, where a dozen
// clients' bookmarks had left their cursors), and a cursor among them
// would be judged by the window models until the process's own 410.
//
// That 410, `too old resource version: X (Y)`, says Y is one below the
// oldest RV the cache then kept: the LIST's RV while it had evicted
// nothing, else one below the RV of the oldest change it still buffered
// (evidence.md §3.1). Y is the LIST's RV where the records show the
// cache evicted nothing from its LIST to the 410: a watch of every
// change of the kind, open from the old process's end to the 410, saw
// no change at RV Y+1; or the server's metrics show it received fewer
// changes since its first LIST than its capacity held (cacheBounds'
// evictedNothing). The process then refused every RV below Y from its
// start, though the 410 that shows it comes later.

// processList is what one server process's first too-old 410 of a kind
// shows of the LIST its cache of the kind started from.
type processList struct {
	rv uint64 // the LIST's RV
	at int64  // when the 410 that shows it reached its client
	// byMetrics: the server's metrics show that the cache evicted
	// nothing since the LIST, else a watch of the whole kind does.
	byMetrics bool
	// coveredFrom is when that watch was open from (byMetrics false).
	coveredFrom int64
	// session is the one whose 410 shows it: judging that very reconnect
	// (resumes), the list is not taken, lest the answer predict itself.
	session int
}

// processListKey is one kind's cache in one server process.
type processListKey struct {
	kind                string
	server, incarnation int
}

// findProcessLists finds, for each kind and each server process after
// a server's first, the LIST its cache started from, where its first
// too-old 410 shows it (see above).
func (a *Analysis) findProcessLists() {
	tl := a.TL
	first := map[processListKey]int{} // the session of each process's first too-old 410
	resources := map[string]string{}  // each kind's, found once: a restart's stampede has thousands of 410s
	for g := range tl.Sessions {
		s := &tl.Sessions[g]
		if s.Error == nil || !s.Error.TooOld || s.Error.Y == 0 || s.Server < 0 || s.Incarnation < 1 {
			continue
		}
		kind := tl.Files[s.File].Kind
		resource, ok := resources[kind]
		if !ok {
			resource = a.resourceOfKind(kind)
			resources[kind] = resource
		}
		if kind == "" || s.Request == nil || resourceOfPath(s.Request.Path) != resource {
			// An unnamed kind (a protobuf capture's, one of ERRORs alone)
			// mixes resources; a 410 of another resource than its
			// file's kind's tells another cache.
			continue
		}
		if _, known := tl.GoneArrival(g); !known {
			continue // no instant to bound the proof by
		}
		key := processListKey{kind, s.Server, s.Incarnation}
		if h, ok := first[key]; !ok || s.End < tl.Sessions[h].End {
			first[key] = g
		}
	}
	for key, g := range first {
		y := tl.Sessions[g].Error.Y
		at, _ := tl.GoneArrival(g)
		srv := &tl.Servers[key.server]
		prev := srv.Incarnations[key.incarnation-1].To
		if h, ok := tl.Head(prev); ok && y < h {
			continue // the head when the old process ended says more
		}
		resource := resources[key.kind]
		if a.reinitialisedIn(srv, resource, srv.Incarnations[key.incarnation].From, at) {
			continue // its cache listed again since: Y may be that LIST's
		}
		l := processList{rv: y, at: at, session: g}
		if from, ok := tl.series[key.kind].noChangeAt(y+1, prev, at, tl.timeOrdered); ok {
			l.coveredFrom = from
		} else if srv.Metrics != "" && a.resources != nil {
			b := a.boundCache(key.kind, resource, serverRef{key.server, key.incarnation}, at)
			if b.doubt != "" || !b.evictedNothing || !b.firstList {
				continue
			}
			l.byMetrics = true
		} else {
			continue
		}
		if a.processLists == nil {
			a.processLists = map[processListKey]processList{}
		}
		a.processLists[key] = l
	}
}

// resourceOfKind is the resource of kind, as the metrics name it.
func (a *Analysis) resourceOfKind(kind string) string {
	if r, ok := a.resources[kind]; ok {
		return r
	}
	return a.TL.resourceOfKind(kind)
}

// reinitialisedIn says the server's cache of resource may have listed
// again within [from, to], after its process's first list: its own log
// shows it, or its exports count more than that first initialisation.
func (a *Analysis) reinitialisedIn(srv *Server, resource string, from, to int64) bool {
	for _, r := range a.TL.CacheReinits() {
		if r.Server == srv.Name && r.Resource == resource && r.T >= from && r.T <= to {
			return true
		}
	}
	if m := a.TL.Metrics; m != nil && srv.Metrics != "" {
		inits := m.Initializations(srv.Metrics, resource)
		lo := sort.Search(len(inits), func(i int) bool { return inits[i] >= from })
		hi := sort.Search(len(inits), func(i int) bool { return inits[i] > to })
		return hi-lo > 1
	}
	return false
}

// noChangeAt says that a watch of the whole kind was open throughout
// [from, to], had brought changes past RV rv by to, and saw no change
// at rv: none was made (a watch that lagged behind the server would
// have told nothing of rv yet). It returns when that watch was open
// from. The changes' instants must be in order (timeOrdered) to be
// searched.
func (s *kindSeries) noChangeAt(rv uint64, from, to int64, timeOrdered bool) (int64, bool) {
	if s == nil || !timeOrdered {
		return 0, false
	}
	k := sort.Search(len(s.seenTo), func(i int) bool { return s.seenTo[i] >= to })
	if k == len(s.seenTo) || s.seenFrom[k] > from {
		return 0, false
	}
	j := sort.Search(s.len(), func(i int) bool { return s.t(i) >= from })
	for ; j < s.len() && s.t(j) <= to; j++ {
		if s.tab.rv.at(int(s.ev.at(j))) == rv {
			return 0, false
		}
	}
	if j == 0 || s.maxRV.at(j-1) <= rv {
		return 0, false
	}
	return s.seenFrom[k], true
}

// reason says how process k of server srv is known to have started its
// cache of kind from RV l.rv.
func (l processList) reason(srv *Server, k int, kind string, loc *time.Location) string {
	shows := "its metrics show that the cache received fewer changes since that LIST than it held, so it had dropped none"
	if !l.byMetrics {
		shows = fmt.Sprintf("a watch of every %s, open from %s, saw no change at RV %d, so the cache had dropped nothing since that LIST", kind, FormatInstant(l.coveredFrom, loc), l.rv+1)
	}
	return fmt.Sprintf("server %s's new process, serving from %s, filled its cache of %s from a LIST at RV %d: its first 410, at %s, named %d as the oldest RV it still accepted, and %s",
		srv.Name, FormatInstant(srv.Incarnations[k].From, loc), kind, l.rv, FormatInstant(l.at, loc), l.rv, shows)
}

// restartRefusing returns the first incarnation of server (0 when none)
// whose cache of kind never held rv, and the RV below which it refuses
// (processFloor).
func (a *Analysis) restartRefusing(server int, kind string, rv uint64) (int, uint64) {
	for k := 1; k < len(a.TL.Servers[server].Incarnations); k++ {
		if h, ok := a.processFloor(server, k, kind); ok && rv < h {
			return k, h
		}
	}
	return 0, 0
}

// processFloor is the RV below which process k (k > 0) of server
// refuses a watch of kind from its start: the RV its cache's LIST is
// known to have (processList), else the RV known to exist when the
// process before it ended, which that LIST is not below. ok is false
// when neither is known.
func (a *Analysis) processFloor(server, k int, kind string) (rv uint64, ok bool) {
	rv, ok = a.TL.Head(a.TL.Servers[server].Incarnations[k-1].To)
	if l, known := a.processLists[processListKey{kind, server, k}]; known && l.rv > rv && !a.judgingItself(l.session) {
		return l.rv, true
	}
	return rv, ok
}

// judgingItself says session g is the recorded reconnect resumes()
// judges, or a copy of it (twins).
func (a *Analysis) judgingItself(g int) bool {
	if a.judging < 0 {
		return false
	}
	t, ok := a.TL.twins[a.judging]
	return g == a.judging || ok && g == t
}

// restartReason explains restartRefusing's answer.
func (a *Analysis) restartReason(server int, kind string, rv uint64) string {
	tl, loc := a.TL, a.Params.Zone
	srv := &tl.Servers[server]
	k, _ := a.restartRefusing(server, kind, rv)
	if k == 0 {
		return fmt.Sprintf("restart: every process of server %s started before RV %d was the cluster's newest known", srv.Name, rv)
	}
	inc, prev := &srv.Incarnations[k], &srv.Incarnations[k-1]
	h, _ := tl.Head(prev.To)
	if rv >= h {
		// Only the LIST that its first 410 shows refuses it.
		return fmt.Sprintf("restart: %s; cursor %d is older, so it refuses it", a.processLists[processListKey{kind, server, k}].reason(srv, k, kind, loc), rv)
	}
	if len(inc.Logs) == 0 {
		// Known from its metrics: the new process from its start (its
		// boot time, whole seconds at best), the old one to its last
		// answered scrape.
		return fmt.Sprintf("restart: server %s's new process (started about %s, its metrics say) filled its cache from a LIST made after its previous process's last answered scrape at %s, when RV %d already existed; cursor %d is older, so it refuses it",
			srv.Name, FormatSecond(inc.From, loc), FormatInstant(prev.To, loc), h, rv)
	}
	return fmt.Sprintf("restart: server %s's new process (its audit log from %s) filled its cache from a LIST made after its previous process's log ended at %s, when RV %d already existed; cursor %d is older, so it refuses it",
		srv.Name, FormatInstant(inc.From, loc), FormatInstant(prev.To, loc), h, rv)
}
