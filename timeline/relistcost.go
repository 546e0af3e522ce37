package timeline

import (
	"slices"
	"sort"
	"time"
)

// The cost of recovery: what the fleet's relists read, and from where.
// A relist from etcd reads the whole selection from the database; one
// from the watch cache costs the API server's memory and CPU only. The
// seeds' question is how cheap recovery stays for thousands of clients.
// Where Prometheus exports are loaded, each bin puts beside the relists
// the clients' records show what the API servers counted in it
// (evidence.md §1.3 c): their LISTs of the fleet's resources, those the
// watch cache served, and the WATCHes that ended.

// RelistCost adds up relists; Unread counts those whose records do not
// show what they read (Relist.Unread), in Relists, not in Objects and
// Bytes.
type RelistCost struct {
	Relists, Objects, Unread int
	Bytes                    int64
}

func (c *RelistCost) add(r *Relist) {
	c.Relists++
	c.Objects += r.Objects
	c.Bytes += r.Bytes
	if r.Unread {
		c.Unread++
	}
}

// CostBin is what happened in [From, From+costBinWidth): the relists
// that started in it, by where they were served (indexed by
// RelistSource); every LIST the fleet's clients sent (Lists: first
// syncs too, continue pages not, WatchLists not: a server counts those
// as WATCHes); and, where the exports hold them, what the API servers
// counted ending in it over the fleet's resources, summed over servers:
// LIST requests (ServerLists, apiserver_request_total{verb="LIST"}),
// LISTs the watch cache served (CacheLists, apiserver_cache_list_total,
// less the servers' own consistency checks)
// and WATCH requests (ServerWatches, which a server counts when the
// watch ends).
type CostBin struct {
	From                                   int64
	BySource                               [3]RelistCost
	Lists                                  int
	ServerLists, CacheLists, ServerWatches float64
	// Unscraped are the servers the exports hold no point of for part
	// of the bin (ScrapeGaps), sorted: what they counted then shows in a
	// later bin, or never, from a process that ended unscraped.
	Unscraped []string
}

// empty says nothing was counted in the bin.
func (b *CostBin) empty() bool {
	return b.BySource == [3]RelistCost{} && b.Lists == 0 && b.ServerLists == 0 && b.CacheLists == 0 && b.ServerWatches == 0
}

// FleetCost is the fleet's relists by source, in all and over time.
type FleetCost struct {
	BySource [3]RelistCost
	// Bins are on a grid of costBinWidth from the first relist (the
	// first LIST when none), over the fleet's span; bins in which nothing
	// was counted are left out.
	Bins []CostBin
	// ServerLists, CacheLists and ServerWatches say the exports hold the
	// counter of the bins' field of that name; MetricsFrom is their first
	// instant: a bin that starts before it counts only part of its span,
	// or none.
	ServerLists, CacheLists, ServerWatches bool
	MetricsFrom                            int64
}

// costBinWidth is the stampede's resolution: client-go backs off up to
// 30 s, so a fleet's return spreads over tens of seconds.
const costBinWidth = int64(10 * time.Second)

// fleetCost bins the fleet's relists and the start of each of its LISTs
// (lists), and, from m when it is not nil, the counters of its
// resources between from and to, the fleet's span.
func fleetCost(relists []Relist, lists []int64, m *Metrics, resources []string, from, to int64) FleetCost {
	var c FleetCost
	if len(relists) == 0 && len(lists) == 0 {
		return c
	}
	origin := int64(0)
	switch {
	case len(relists) > 0:
		origin = relists[0].T
		for k := range relists {
			origin = min(origin, relists[k].T)
		}
	default:
		origin = lists[0]
		for _, t := range lists {
			origin = min(origin, t)
		}
	}
	// The grid is on whole ten seconds of the clock, as a reader counts
	// them ("18:09:10"), the first relist's bin the one that holds it.
	if m := origin % costBinWidth; m < 0 {
		origin -= m + costBinWidth
	} else {
		origin -= m
	}
	bins := map[int64]*CostBin{}
	binFrom := func(t int64) int64 {
		d := t - origin
		k := d / costBinWidth
		if d < 0 && d%costBinWidth != 0 {
			k-- // the grid goes on before the first relist
		}
		return origin + k*costBinWidth
	}
	bin := func(t int64) *CostBin {
		at := binFrom(t)
		b := bins[at]
		if b == nil {
			b = &CostBin{From: at}
			bins[at] = b
		}
		return b
	}
	for k := range relists {
		r := &relists[k]
		c.BySource[r.Source].add(r)
		bin(r.T).BySource[r.Source].add(r)
	}
	for _, t := range lists {
		bin(t).Lists++
	}
	if m != nil {
		c.MetricsFrom = m.From
		for _, q := range [...]struct {
			metric, verb string
			known        *bool
			field        func(*CostBin) *float64
		}{
			{metricRequests, "LIST", &c.ServerLists, func(b *CostBin) *float64 { return &b.ServerLists }},
			{metricCacheLists, "", &c.CacheLists, func(b *CostBin) *float64 { return &b.CacheLists }},
			{metricRequests, "WATCH", &c.ServerWatches, func(b *CostBin) *float64 { return &b.ServerWatches }},
		} {
			ts, ns, ok := m.CounterSteps(q.metric, q.verb, resources)
			*q.known = ok
			for i, t := range ts {
				if t >= from && t <= to {
					*q.field(bin(t)) += ns[i]
				}
			}
		}
		// The servers' own consistency checks are not the clients' LISTs:
		// each LISTs the cache once, mostly counted in the scrape that
		// counts the check, so it is taken off that scrape's bin, and a
		// bin left with nothing counted is dropped, as one never counted
		// is. (A check a scrape splits from its LIST leaves that LIST
		// counted; no bin goes below none.)
		ts, ns, _ := m.CounterSteps(metricConsistencyChecks, "", resources)
		for i, t := range ts {
			at := binFrom(t)
			if b := bins[at]; t >= from && t <= to && b != nil {
				b.CacheLists = max(0, b.CacheLists-ns[i])
				if b.empty() {
					delete(bins, at)
				}
			}
		}
		for _, g := range m.ScrapeGaps() {
			for _, b := range bins {
				if g.From < b.From+costBinWidth && g.To > b.From && !slices.Contains(b.Unscraped, g.Server) {
					b.Unscraped = append(b.Unscraped, g.Server)
				}
			}
		}
	}
	for _, b := range bins {
		slices.Sort(b.Unscraped)
		c.Bins = append(c.Bins, *b)
	}
	// Sorted rather than stepped through: relists years apart (a clock
	// that jumped) would be millions of empty bins to step over.
	sort.Slice(c.Bins, func(i, j int) bool { return c.Bins[i].From < c.Bins[j].From })
	return c
}
