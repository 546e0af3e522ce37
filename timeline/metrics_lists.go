package timeline

import (
	"math"
	"time"
)

// What the API servers counted of the requests that cost a relist
// (evidence.md §1.3 c): apiserver_request_total's LISTs and WATCHes per
// resource, and apiserver_cache_list_total's LISTs served from the watch
// cache. Each counter counts a request when it ends, per server and
// resource; a new process counts from 0.

// metricCacheLists counts the LISTs a watch cache served (1.23–1.36;
// deprecated in 1.37, where apiserver_storage_list_total{storage} takes
// over).
const metricCacheLists = "apiserver_cache_list_total"

// metricConsistencyChecks counts a server's own checks of its watch
// cache against etcd (1.33 on): each check LISTs the cache once, which
// metricCacheLists counts beside the clients' LISTs.
const metricConsistencyChecks = "apiserver_storage_consistency_checks_total"

// CounterSteps are the increments of a counter over the series of
// metric whose resource is one of resources and, when verb is not "",
// whose verb is verb, summed over servers, codes and scopes: at T[i],
// N[i] counted since each server's scrape before. A new process counts
// from 0, and so does a series that first shows after its server's
// first scrape of metric (a code or a resource not counted before). ok
// is false when no export holds metric.
func (m *Metrics) CounterSteps(metric, verb string, resources []string) (t []int64, n []float64, ok bool) {
	want := map[string]bool{}
	for _, r := range resources {
		want[r] = true
	}
	first := map[string]int64{}
	for k := range m.Series {
		s := &m.Series[k]
		if s.Name != metric || len(s.T) == 0 {
			continue
		}
		ok = true
		srv := s.Label(m.ServerLabel)
		if f, seen := first[srv]; !seen || s.T[0] < f {
			first[srv] = s.T[0]
		}
	}
	by := map[int64]float64{}
	resets := map[string][]counterReset{}
	for k := range m.Series {
		s := &m.Series[k]
		if s.Name != metric || verb != "" && s.Label("verb") != verb || !want[resourceName(s)] {
			continue
		}
		srv := s.Label(m.ServerLabel)
		rs, known := resets[srv]
		if !known {
			rs = m.resets(srv)
			resets[srv] = rs
		}
		for i, at := range s.T {
			if at == 0 {
				continue // a scrape of no known instant
			}
			if d := increment(s.T, s.V, i, first[srv], rs); d > 0 && !math.IsInf(d, 0) && !math.IsNaN(d) {
				by[at] += d
			}
		}
	}
	t, n = stepsOf(by)
	return t, n, ok
}

// ScrapeGap is a stretch in which the exports hold no point of a server
// though they hold points before and after it: Prometheus did not
// scrape it (its `up` was 0, as while a server restarts). What the
// server's process counted then reaches the exports at its next scrape,
// or never, when the process ended unscraped.
type ScrapeGap struct {
	Server   string
	From, To int64 // the last point before and the first after
}

// ScrapeGapLimit is the longest interval between two of a series'
// sorted instants t that is no gap in its scrapes: three of its usual
// steps (the median interval), at least a second. The page draws a
// series' line across no longer an interval, and ScrapeGaps finds the
// longer ones.
func ScrapeGapLimit(t []int64) int64 {
	if len(t) < 2 {
		return int64(time.Second)
	}
	d := make([]int64, len(t)-1)
	for i := range d {
		d[i] = t[i+1] - t[i]
	}
	return max(3*median(d), int64(time.Second))
}

// ScrapeGaps are the servers' gaps, by server, then in time order: the
// stretches between two of a server's points (of its watch caches'
// head RVs) longer than ScrapeGapLimit.
func (m *Metrics) ScrapeGaps() []ScrapeGap {
	var out []ScrapeGap
	var ts, merged []int64
	for _, srv := range m.Servers {
		ts = ts[:0]
		for sr, p := range m.head {
			if sr.server == srv {
				// A server's resources are scraped together: merged in
				// order, their instants stay about one series' many.
				merged = unionSorted(merged[:0], ts, p.t)
				ts, merged = merged, ts
			}
		}
		if len(ts) < 3 {
			continue
		}
		limit := ScrapeGapLimit(ts)
		for i := 1; i < len(ts); i++ {
			if ts[i]-ts[i-1] > limit {
				out = append(out, ScrapeGap{Server: srv, From: ts[i-1], To: ts[i]})
			}
		}
	}
	return out
}

// unionSorted appends to dst the instants of a and b, each in order,
// in order and once each.
func unionSorted(dst, a, b []int64) []int64 {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var t int64
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			t, i = a[i], i+1
		case i == len(a) || b[j] < a[i]:
			t, j = b[j], j+1
		default:
			t, i, j = a[i], i+1, j+1
		}
		if n := len(dst); n == 0 || dst[n-1] != t {
			dst = append(dst, t)
		}
	}
	return dst
}
