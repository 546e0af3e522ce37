package timeline

import (
	"math"
	"sort"
)

// Read-only series of the Metrics, for drawing them: the points
// themselves rather than a value at one instant.

// HeadSeries is server's watch-cache RV for resource at each of its
// points, in time order: the instants, and the RVs made whole (see
// rvOf). Empty when the exports have no such series.
func (m *Metrics) HeadSeries(server, resource string) (t []int64, rv []uint64) {
	p := m.head[serverResource{server, resource}]
	if p == nil {
		return nil, nil
	}
	for i, at := range p.t {
		if v, ok := m.rvOf(p.v[i]); ok {
			t, rv = append(t, at), append(rv, v)
		}
	}
	return t, rv
}

// CapacitySeries is server's watch-cache capacity for resource at each
// of its points, in time order.
func (m *Metrics) CapacitySeries(server, resource string) (t []int64, capacity []int) {
	p := m.cap[serverResource{server, resource}]
	if p == nil {
		return nil, nil
	}
	for i, at := range p.t {
		if v := p.v[i]; v >= 0 {
			t, capacity = append(t, at), append(capacity, int(v))
		}
	}
	return t, capacity
}

// HeadResources are the resources server's exports have a cache RV of,
// the busiest first: by the changes its cache received, else, without
// that series, by how often its RV moved.
func (m *Metrics) HeadResources(server string) []string {
	type busy struct {
		resource string
		changes  float64
	}
	var rs []busy
	for sr := range m.head {
		if sr.server != server {
			continue
		}
		b := busy{resource: sr.resource}
		if p := m.recv[sr]; p != nil {
			for i := 1; i < len(p.v); i++ {
				b.changes += max(p.v[i]-p.v[i-1], 0)
			}
		} else {
			p := m.head[sr]
			for i := 1; i < len(p.v); i++ {
				if p.v[i] != p.v[i-1] {
					b.changes++
				}
			}
		}
		rs = append(rs, b)
	}
	sort.Slice(rs, func(i, j int) bool {
		return rs[i].changes > rs[j].changes || rs[i].changes == rs[j].changes && rs[i].resource < rs[j].resource
	})
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.resource
	}
	return out
}

// RequestSteps are the requests of verb ("LIST", "WATCH") server
// finished between each of its scrapes and the one before, over every
// resource, code and scope: at T[i], N[i] requests since T[i-1] (N[0]
// is 0). A new process counts from 0 (see Requests), and so does a
// series that first shows after the server's first scrape: a code or a
// resource it had not answered before.
func (m *Metrics) RequestSteps(server, verb string) (t []int64, n []float64) {
	resets := m.resets(server)
	first := int64(math.MaxInt64)
	for rk, ps := range m.reqs {
		if rk.server == server {
			for _, p := range ps {
				if len(p.t) > 0 {
					first = min(first, p.t[0])
				}
			}
		}
	}
	by := map[int64]float64{}
	for rk, ps := range m.reqs {
		if rk.server != server || rk.verb != verb {
			continue
		}
		for _, p := range ps {
			for i, at := range p.t {
				by[at] += increment(p.t, p.v, i, first, resets)
			}
		}
	}
	return stepsOf(by)
}

// increment is what a counter of one series counted between its i-th
// scrape (at t[i]) and the one before: all of v[i] at the series' first
// scrape when it shows after its server's first scrape (first), or
// after a reset (a value that went down, or a new process between); 0
// at a first scrape that is also the server's.
func increment(t []int64, v []float64, i int, first int64, resets []counterReset) float64 {
	switch {
	case i == 0 && t[0] > first:
		return v[0]
	case i == 0:
		return 0
	case v[i] < v[i-1] || resetBetween(resets, t[i-1], t[i]):
		return v[i]
	}
	return v[i] - v[i-1]
}

// stepsOf is by's instants in order, and the sum at each.
func stepsOf(by map[int64]float64) (t []int64, n []float64) {
	for at := range by {
		t = append(t, at)
	}
	sort.Slice(t, func(i, j int) bool { return t[i] < t[j] })
	n = make([]float64, len(t))
	for i, at := range t {
		n[i] = by[at]
	}
	return t, n
}

// WatchedResources are the resources the sessions' requests watch or
// list, as the metrics name them ("configmaps", "deployments.apps"),
// sorted.
func (tl *Timeline) WatchedResources() []string {
	seen := map[string]bool{}
	var out []string
	for g := range tl.Sessions {
		q := tl.Sessions[g].Request
		if q == nil {
			continue
		}
		if r := resourceOfPath(q.Path); r != "" && !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	sort.Strings(out)
	return out
}
