package timeline

import (
	"sort"
	"time"
)

// The cost of recovery: what the fleet's relists read, and from where.
// A relist from etcd reads the whole selection from the database; one
// from the watch cache costs the API server's memory and CPU only. The
// seeds' question is how cheap recovery stays for thousands of clients.

// RelistCost adds up relists.
type RelistCost struct {
	Relists, Objects int
	Bytes            int64
}

func (c *RelistCost) add(r *Relist) {
	c.Relists++
	c.Objects += r.Objects
	c.Bytes += r.Bytes
}

// CostBin is the relists that started in [From, From+costBinWidth), by
// where they were served (indexed by RelistSource).
type CostBin struct {
	From     int64
	BySource [3]RelistCost
}

// FleetCost is the fleet's relists by source, in all and over time.
type FleetCost struct {
	BySource [3]RelistCost
	// Bins cover the relists' span, from the first one's bin on; bins
	// with none are left out.
	Bins []CostBin
}

// costBinWidth is the stampede's resolution: client-go backs off up to
// 30 s, so a fleet's return spreads over tens of seconds.
const costBinWidth = int64(10 * time.Second)

func fleetCost(relists []Relist) FleetCost {
	var c FleetCost
	if len(relists) == 0 {
		return c
	}
	first := relists[0].T
	for k := range relists {
		first = min(first, relists[k].T)
	}
	bins := map[int64]*CostBin{}
	for k := range relists {
		r := &relists[k]
		c.BySource[r.Source].add(r)
		from := first + (r.T-first)/costBinWidth*costBinWidth
		b := bins[from]
		if b == nil {
			b = &CostBin{From: from}
			bins[from] = b
		}
		b.BySource[r.Source].add(r)
	}
	for _, b := range bins {
		c.Bins = append(c.Bins, *b)
	}
	// Sorted rather than stepped through: relists years apart (a clock
	// that jumped) would be millions of empty bins to step over.
	sort.Slice(c.Bins, func(i, j int) bool { return c.Bins[i].From < c.Bins[j].From })
	return c
}
