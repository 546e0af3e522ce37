package canvas

import (
	"math"
	"sort"

	"watchlens/timeline"
)

// serverInfo is one API server as its tracks draw it: its processes, as
// its audit logs show them, and what its Prometheus metrics say of its
// watch caches and of the requests it served. Worked out once per
// timeline; a frame only looks up what lies in view.
type serverInfo struct {
	name string
	// audit is its index in Timeline.Servers, -1 when only the metrics
	// name it.
	audit int
	// metrics is its name in the Metrics, "" when they have none of it.
	metrics string
	// restarts are the instants a new process of it started, as its
	// metrics say (process_start_time_seconds, its counters' resets).
	restarts []int64
	// caches are its watch caches of the resources drawn.
	caches []cacheSeries
	// list and watch are its LIST and WATCH requests between scrapes.
	list, watch requestSeries
	// logRestarts are the restarts its own log shows (SIGTERM, then a
	// new process), reinits its watch caches that ended every watch
	// with no restart.
	logRestarts []timeline.ServerLogRestart
	reinits     []timeline.ServerCacheEvent
}

// cacheSeries is one watch cache's head RV and capacity over time.
type cacheSeries struct {
	resource string
	t        []int64
	rv       []uint64
	capT     []int64
	capacity []int
	// gap is the longest interval between two points that a line still
	// joins: a longer one is a time nobody scraped the server.
	gap int64
}

// requestSeries are requests finished between scrapes: n[i] since t[i-1].
type requestSeries struct {
	t []int64
	n []float64
	// gap is the longest interval between scrapes that a rate is drawn
	// over: across a longer one nobody scraped the server.
	gap int64
}

// maxCaches is how many resources' caches a server's track draws.
const maxCaches = 3

// cacheColors are the resources' lines, in order.
var cacheColors = [maxCaches]string{ColorAware, ColorModified, ColorIgnoring}

// serverTracks are the API servers' tracks: for each server, a band of
// its processes and its caches' head RVs, when its metrics count
// requests a band of its LISTs and WATCHes, and a band of each cache's
// window with the cursors of the clients on it (see windowTrack).
func serverTracks(c *Cache) []track {
	servers := collectServers(c.tl)
	if len(servers) == 0 {
		return nil
	}
	rvs := &rvBounds{lo: math.MaxUint64}
	windows := &rvBounds{lo: math.MaxUint64}
	peak := new(float64)
	var tracks []track
	for i := range servers {
		srv := &servers[i]
		for _, cs := range srv.caches {
			for _, rv := range cs.rv {
				rvs.lo, rvs.hi = min(rvs.lo, rv), max(rvs.hi, rv)
			}
		}
		tracks = append(tracks, &serverTrack{c: c, srv: srv, rvs: rvs})
		if len(srv.list.t)+len(srv.watch.t) > 0 {
			for _, rs := range []*requestSeries{&srv.list, &srv.watch} {
				for k := 1; k < len(rs.t); k++ {
					*peak = max(*peak, rs.rate(k))
				}
			}
			tracks = append(tracks, &requestTrack{c: c, srv: srv, peak: peak})
		}
		if k := c.tl.ServerIndex(srv.metrics); k >= 0 {
			tracks = append(tracks, windowTracks(c, srv, k, windows)...)
		}
	}
	return tracks
}

// collectServers gathers the servers the audit logs and the metrics
// name, the audit logs' first, a server of both by its name.
func collectServers(tl *timeline.Timeline) []serverInfo {
	var out []serverInfo
	byName := map[string]int{}
	for k, s := range tl.Servers {
		byName[s.Name] = len(out)
		// A server the model knows from the metrics alone has no log:
		// its processes are the metrics' restarts.
		audit := -1
		for _, inc := range s.Incarnations {
			if len(inc.Logs) > 0 {
				audit = k
			}
		}
		out = append(out, serverInfo{name: s.Name, audit: audit})
	}
	m := tl.Metrics
	if m == nil {
		return ownLogs(tl, out)
	}
	for _, name := range m.Servers {
		k, ok := byName[name]
		if !ok {
			k = len(out)
			out = append(out, serverInfo{name: name, audit: -1})
		}
		out[k].metrics = name
	}
	watched := tl.WatchedResources()
	for i := range out {
		srv := &out[i]
		if srv.metrics == "" {
			continue
		}
		srv.restarts = m.Restarts(srv.metrics)
		resources := m.HeadResources(srv.metrics)
		if len(watched) > 0 {
			// The resources the clients watch, which their cursors
			// are RVs of.
			has := map[string]bool{}
			for _, r := range resources {
				has[r] = true
			}
			resources = resources[:0:0]
			for _, r := range watched {
				if has[r] {
					resources = append(resources, r)
				}
			}
		}
		for _, r := range resources[:min(len(resources), maxCaches)] {
			cs := cacheSeries{resource: r}
			cs.t, cs.rv = m.HeadSeries(srv.metrics, r)
			cs.capT, cs.capacity = m.CapacitySeries(srv.metrics, r)
			cs.gap = timeline.ScrapeGapLimit(cs.t)
			srv.caches = append(srv.caches, cs)
		}
		srv.list.t, srv.list.n = m.RequestSteps(srv.metrics, "LIST")
		srv.watch.t, srv.watch.n = m.RequestSteps(srv.metrics, "WATCH")
		srv.list.gap, srv.watch.gap = timeline.ScrapeGapLimit(srv.list.t), timeline.ScrapeGapLimit(srv.watch.t)
	}
	return ownLogs(tl, out)
}

// ownLogs adds what the servers' own logs show to the servers: their
// restarts and their caches' re-initialisations, and a server only
// they name.
func ownLogs(tl *timeline.Timeline, out []serverInfo) []serverInfo {
	byName := map[string]int{}
	for k, srv := range out {
		byName[srv.name] = k
	}
	at := func(name string) *serverInfo {
		k, ok := byName[name]
		if !ok {
			k = len(out)
			byName[name] = k
			out = append(out, serverInfo{name: name, audit: -1})
		}
		return &out[k]
	}
	for _, l := range tl.ServerLogs {
		if l.Server != "" {
			at(l.Server)
		}
	}
	for _, r := range tl.ServerLogRestarts() {
		if r.Server != "" {
			srv := at(r.Server)
			srv.logRestarts = append(srv.logRestarts, r)
		}
	}
	for _, r := range tl.CacheReinits() {
		if r.Server != "" {
			srv := at(r.Server)
			srv.reinits = append(srv.reinits, r)
		}
	}
	return out
}

// rate is requests per second between point k-1 and point k.
func (rs *requestSeries) rate(k int) float64 {
	if d := rs.t[k] - rs.t[k-1]; d > 0 {
		return rs.n[k] / (float64(d) / 1e9)
	}
	return 0
}

// rvBounds are the lowest and highest head RV of every server's caches:
// one RV scale for every server's track, so that their lines compare.
type rvBounds struct{ lo, hi uint64 }

// lastAtOrBefore is the index of the last of the sorted instants at or
// before t, -1 when none is.
func lastAtOrBefore(ts []int64, t int64) int {
	return sort.Search(len(ts), func(i int) bool { return ts[i] > t }) - 1
}

// ServerSummary is one API server as the timeline's tracks show it.
type ServerSummary struct {
	Name string
	// Processes counts its processes: from its audit logs, else from
	// the restarts its metrics show.
	Processes int
	// Metrics says whether Prometheus exports have its series.
	Metrics bool
}

// Servers are the API servers the tracks draw, in their order.
func (c *Cache) Servers() []ServerSummary {
	var out []ServerSummary
	for _, t := range c.tracks {
		if st, ok := t.(*serverTrack); ok {
			out = append(out, ServerSummary{Name: st.srv.name, Processes: len(st.processes()), Metrics: st.srv.metrics != ""})
		}
	}
	return out
}
