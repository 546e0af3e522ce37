package timeline

import (
	"sort"
	"sync"
)

// Where a server process's cache capacity changed and its cache was
// initialised again, once per process: cacheBounds looks for the last
// of each before an instant, and a threshold over time (everyserver.go)
// asks it at every scrape, which would walk the process's scrapes each
// time.

// processChanges are the head points of one server process's series of
// one resource where its capacity differs from the point before
// (resized, or missing), and where its count of initialisations rose,
// in order.
type processChanges struct {
	capacity, inits []int
}

// processKey is a process's series: its server and resource, and the
// first instant of its points.
type processKey struct {
	serverResource
	from int64
}

// processMemo keeps each process's changes. Analyses of one timeline
// may run at once, so it is locked.
type processMemo struct {
	mu      sync.Mutex
	changes map[processKey]*processChanges
}

// changesOf returns pp's changes, found once per process; pp's lo and
// from are set.
func (m *Metrics) changesOf(sr serverResource, pp *processPoints) *processChanges {
	memo := &m.processes
	memo.mu.Lock()
	defer memo.mu.Unlock()
	key := processKey{sr, pp.from}
	if c, ok := memo.changes[key]; ok {
		return c
	}
	c := &processChanges{}
	for i := pp.lo + 1; i < len(pp.head.t); i++ {
		before, _ := pp.valueAt(pp.capac, i-1)
		if now, _ := pp.valueAt(pp.capac, i); now != before {
			c.capacity = append(c.capacity, i)
		}
		if pp.inits != nil {
			a, _ := pp.valueAt(pp.inits, i-1)
			if b, _ := pp.valueAt(pp.inits, i); b > a {
				c.inits = append(c.inits, i)
			}
		}
	}
	if memo.changes == nil {
		memo.changes = map[processKey]*processChanges{}
	}
	memo.changes[key] = c
	return c
}

// lastIn is the last of the points at in (lo, hi], -1 when none is.
func lastIn(at []int, lo, hi int) int {
	k := sort.SearchInts(at, hi+1) - 1
	if k < 0 || at[k] <= lo {
		return -1
	}
	return at[k]
}
