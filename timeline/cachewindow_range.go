package timeline

import (
	"slices"
	"sort"
)

// A server's retained window over time: what its watch cache of a
// resource surely held and surely no longer held at each of its scrapes,
// as cacheBounds bounds it at one instant, for drawing the window as a
// band on the RV axis.

// WindowPoint is what one server's watch cache of a resource held at an
// instant, as its metrics, its own answers and its own log bound it.
type WindowPoint struct {
	T int64
	// Head is the cache's RV then, the newest change it held (its
	// metrics).
	Head uint64
	// Gone: every RV below it was refused then (0 when nothing bounds
	// it from below). HeldFrom: every RV from it to Head was surely
	// held, when Held. Between the two the evidence does not decide.
	Gone, HeldFrom uint64
	Held           bool
	// Doubt says why the evidence bounds nothing then, "" when it does.
	Doubt string
	// Process is the server's process then (0 the first), -1 while it
	// restarted.
	Process int
}

// Window describes p in plain words: "server b kept changes from RV
// 1190 to 1630 then (metrics)".
func (p WindowPoint) Window(server string) string {
	switch {
	case p.Doubt != "":
		return "server " + server + "'s window is not known then: " + p.Doubt
	case p.Held && p.Gone > 0 && p.Gone < p.HeldFrom:
		return "server " + server + " kept changes from RV " + FormatRV(p.HeldFrom) + " to " + FormatRV(p.Head) +
			" then, and none below RV " + FormatRV(p.Gone) + "; between the two its metrics do not tell (metrics)"
	case p.Held:
		return "server " + server + " kept changes from RV " + FormatRV(p.HeldFrom) + " to " + FormatRV(p.Head) + " then (metrics)"
	case p.Gone > 0:
		return "server " + server + " kept nothing below RV " + FormatRV(p.Gone) + " then, up to RV " + FormatRV(p.Head) +
			"; how much above it held its metrics do not tell"
	}
	return "server " + server + "'s cache was at RV " + FormatRV(p.Head) + " then; how far back it held its metrics do not tell"
}

// CacheWindowAt bounds what server (an index in Timeline.Servers) held
// of resource (as the metrics name it) at instant at, from the evidence
// before it; ok false when its metrics have no RV of that cache then.
func (a *Analysis) CacheWindowAt(server int, resource string, at int64) (WindowPoint, bool) {
	m, srv := a.TL.Metrics, &a.TL.Servers[server]
	if m == nil || srv.Metrics == "" {
		return WindowPoint{}, false
	}
	p := m.head[serverResource{srv.Metrics, resource}]
	if p == nil {
		return WindowPoint{}, false
	}
	k := sort.Search(len(p.t), func(i int) bool { return p.t[i] > at }) - 1
	if k < 0 || at-p.t[k] > p.lookback {
		return WindowPoint{}, false
	}
	head, ok := m.rvOf(p.v[k])
	if !ok {
		return WindowPoint{}, false
	}
	return a.windowPoint(server, resource, a.kindOf(resource), at, head), true
}

// CacheWindow is the window of server's cache of resource at its
// scrapes in [from, to], in time order: each scrape, or, when every is
// above 0, the first scrape at least every after the one before (a
// window costs a search of the metrics per point).
func (a *Analysis) CacheWindow(server int, resource string, from, to, every int64) []WindowPoint {
	m, srv := a.TL.Metrics, &a.TL.Servers[server]
	if m == nil || srv.Metrics == "" {
		return nil
	}
	p := m.head[serverResource{srv.Metrics, resource}]
	if p == nil {
		return nil
	}
	kind := a.kindOf(resource)
	var out []WindowPoint
	for i := sort.Search(len(p.t), func(i int) bool { return p.t[i] >= from }); i < len(p.t) && p.t[i] <= to; i++ {
		if n := len(out); n > 0 && p.t[i]-out[n-1].T < every {
			continue
		}
		if head, ok := m.rvOf(p.v[i]); ok {
			out = append(out, a.windowPoint(server, resource, kind, p.t[i], head))
		}
	}
	return out
}

// windowPoint bounds the cache at t, whose RV then was head.
func (a *Analysis) windowPoint(server int, resource, kind string, t int64, head uint64) WindowPoint {
	srv := &a.TL.Servers[server]
	w := WindowPoint{T: t, Head: head, Process: srv.serving(t)}
	if w.Process < 0 {
		w.Doubt = "no process of server " + srv.Name + " served then: it was restarting"
		return w
	}
	b := a.cacheOf(kind, resource, serverRef{server, w.Process}, t)
	// A new process filled its cache from a LIST made after the process
	// before it ended: it never held an RV older than the newest known
	// then (see restartRefusing).
	var restarted uint64
	if w.Process > 0 {
		if h, ok := a.processFloor(server, w.Process, kind); ok && h <= head {
			restarted = h
		}
	}
	if b.doubt != "" && b.refusedBelow == 0 && restarted == 0 {
		w.Doubt = b.doubt
		return w
	}
	w.Gone = min(max(b.refusedBelow, restarted), head)
	if b.held && b.heldFrom <= head {
		w.HeldFrom, w.Held = max(b.heldFrom, w.Gone), true
	}
	return w
}

// kindOf is the kind whose files watch resource, "" when no file does:
// where several do, the first by name of those the files name (a
// protobuf capture's kind may be unnamed, ""), whatever the map's order.
func (a *Analysis) kindOf(resource string) string {
	var kinds []string
	for kind, r := range a.resources {
		if r == resource {
			kinds = append(kinds, kind)
		}
	}
	slices.Sort(kinds)
	if len(kinds) > 1 && kinds[0] == "" {
		return kinds[1]
	}
	if len(kinds) == 0 {
		return ""
	}
	return kinds[0]
}

// ResourceOf is the resource the file watches, as the metrics name it.
func (tl *Timeline) ResourceOf(file int) string { return tl.resourceOfKind(tl.Files[file].Kind) }

// ServerIndex is the index in Servers of the server the metrics name
// metrics, -1 when none is ("" names none).
func (tl *Timeline) ServerIndex(metrics string) int {
	for k, s := range tl.Servers {
		if metrics != "" && s.Metrics == metrics {
			return k
		}
	}
	return -1
}
