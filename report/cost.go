package report

import (
	"fmt"
	"strings"

	"watchlens/timeline"
)

// CostReport adds up relists served from one source.
type CostReport struct {
	Relists int   `json:"relists"`
	Objects int   `json:"objects"`
	Bytes   int64 `json:"bytes"`
	// Unread counts the relists whose records (logs) do not show what
	// they read: in Relists, not in Objects and Bytes.
	Unread int `json:"unread"`
}

// SourcesReport is relists by where they were served.
type SourcesReport struct {
	WatchCache CostReport `json:"watchCache"`
	Etcd       CostReport `json:"etcd"`
	Unknown    CostReport `json:"unknown"`
}

// CostBinReport is what happened in the ten seconds from From
// (timeline.CostBin): the relists that started in them, by source; the
// LISTs the fleet's clients sent (first syncs too); and what the API
// servers' metrics counted ending in them over the fleet's resources:
// LIST requests, LISTs the watch cache served, WATCH requests (0 where
// FleetCostReport.Metrics says no export holds the counter).
type CostBinReport struct {
	From string `json:"from"`
	SourcesReport
	Lists         int     `json:"lists"`
	ServerLists   float64 `json:"serverLists"`
	CacheLists    float64 `json:"cacheLists"`
	ServerWatches float64 `json:"serverWatches"`
	// Unscraped are the servers the exports miss for part of the bin
	// (timeline.CostBin.Unscraped); omitted when none.
	Unscraped []string `json:"unscraped,omitempty"`
}

// CostMetricsReport says which counters the exports hold, and from when
// ("" when none): a bin that starts before From counts part of its span
// or none.
type CostMetricsReport struct {
	From          string `json:"from"`
	ServerLists   bool   `json:"serverLists"`
	CacheLists    bool   `json:"cacheLists"`
	ServerWatches bool   `json:"serverWatches"`
}

// FleetCostReport is what the fleet's relists read, and from where, and
// over time what the servers counted beside them.
type FleetCostReport struct {
	BySource SourcesReport     `json:"bySource"`
	Bins     []CostBinReport   `json:"bins"`
	Metrics  CostMetricsReport `json:"metrics"`
}

func sourcesReport(by [3]timeline.RelistCost) SourcesReport {
	c := func(s timeline.RelistSource) CostReport {
		return CostReport{Relists: by[s].Relists, Objects: by[s].Objects, Bytes: by[s].Bytes, Unread: by[s].Unread}
	}
	return SourcesReport{WatchCache: c(timeline.SourceCache), Etcd: c(timeline.SourceEtcd), Unknown: c(timeline.SourceUnknown)}
}

func fleetCostReport(c timeline.FleetCost) FleetCostReport {
	r := FleetCostReport{BySource: sourcesReport(c.BySource), Bins: []CostBinReport{},
		Metrics: CostMetricsReport{ServerLists: c.ServerLists, CacheLists: c.CacheLists, ServerWatches: c.ServerWatches}}
	if c.MetricsFrom != 0 {
		r.Metrics.From = timeline.FormatTime(c.MetricsFrom, timeline.ClockArrival)
	}
	for _, b := range c.Bins {
		r.Bins = append(r.Bins, CostBinReport{From: timeline.FormatTime(b.From, timeline.ClockArrival), SourcesReport: sourcesReport(b.BySource),
			Lists: b.Lists, ServerLists: b.ServerLists, CacheLists: b.CacheLists, ServerWatches: b.ServerWatches, Unscraped: b.Unscraped})
	}
	return r
}

// writeCost writes the fleet's relists per ten seconds, by source, and,
// where metrics are loaded, what the API servers counted beside them:
// the relists per second the clients' records show next to the LISTs
// per second the servers counted.
func (r *Report) writeCost(p *printer) {
	c := r.Fleet.Cost
	if len(c.Bins) == 0 {
		return
	}
	metrics := c.Metrics.ServerLists || c.Metrics.CacheLists || c.Metrics.ServerWatches
	title := "Relists per 10 s (from the clients' records)"
	if metrics {
		title = "Relists per 10 s (from the clients' records), beside what the API servers counted"
	}
	p.section(title)
	counted := func(known bool, v float64, from string) string {
		if !known || from < c.Metrics.From {
			return "-" // no export holds it, or not yet
		}
		return fmt.Sprintf("%g (%.1f/s)", v, v/10)
	}
	// The column of the servers not scraped is there when one was not.
	unscraped := false
	for _, b := range c.Bins {
		unscraped = unscraped || len(b.Unscraped) > 0
	}
	var rows [][]string
	for _, b := range c.Bins {
		n := b.WatchCache.Relists + b.Etcd.Relists + b.Unknown.Relists
		objects := fmt.Sprint(b.WatchCache.Objects + b.Etcd.Objects + b.Unknown.Objects)
		if n > 0 && b.WatchCache.Unread+b.Etcd.Unread+b.Unknown.Unread == n {
			objects = "-" // the logs do not show what they read
		}
		row := []string{r.instant(b.From), fmt.Sprintf("%d (%.1f/s)", n, float64(n)/10), fmt.Sprint(b.WatchCache.Relists), fmt.Sprint(b.Etcd.Relists),
			objects, fmt.Sprint(b.Lists)}
		if metrics {
			row = append(row, counted(c.Metrics.ServerLists, b.ServerLists, b.From), counted(c.Metrics.CacheLists, b.CacheLists, b.From),
				counted(c.Metrics.ServerWatches, b.ServerWatches, b.From))
			if unscraped {
				row = append(row, orDash(strings.Join(b.Unscraped, ", ")))
			}
		}
		rows = append(rows, row)
	}
	head := []string{"from", "relists", "from the watch cache", "from etcd", "objects", "LISTs sent (first syncs too)"}
	if metrics {
		head = append(head, "LISTs the servers counted", "LISTs served from the watch cache", "WATCHes that ended")
		if unscraped {
			head = append(head, "servers not scraped")
		}
	}
	p.table(head, rows)
	if metrics {
		p.printf("\nA server counts a request when it ends and is scraped after that, so its counts may fall in the bin after the clients'; it also counts other clients' requests of the same resources (not its own checks of the watch cache against etcd, left out); a dash marks a bin no export covers.")
		if unscraped {
			p.printf(" A server not scraped for part of a bin (its exports miss several scrapes, as while it restarts) counts what it served then in a later bin, or never, when its process ended unscraped: its watches that a restart ended may be missing.")
		}
		p.printf("\n")
	}
}
