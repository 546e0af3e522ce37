package timeline

import (
	"slices"
	"testing"
	"time"
)

// TestLabCostBesideMetrics: on samples-lab's captures with its
// Prometheus exports (scraped every second), the fleet's cost bins hold
// what the servers counted beside the captures' relists, and the counts
// agree: from the first bin the exports cover on, the LISTs the servers
// counted up to each bin's end are at least the captured LISTs that
// ended a scrape's resolution (1 s, plus 1 s for the export's step)
// before it and at most those that started before it; the watch cache
// served every one of them (the lab's LISTs all ask for an RV), and no
// other: its counter also counts the servers' own consistency checks,
// 5 here, which are not the clients'; every relist of the captures is
// a LIST the servers counted.
func TestLabCostBesideMetrics(t *testing.T) {
	tl := buildRecording(t, "samples-lab", "*.ts.http", "prometheus/query_range/*.json.gz")
	fl := tl.Analyze(realServer()).Fleet()
	c := fl.Cost
	if !c.ServerLists || !c.CacheLists || !c.ServerWatches {
		t.Fatalf("the exports hold the counters: %v %v %v", c.ServerLists, c.CacheLists, c.ServerWatches)
	}
	// The exports begin after the fleet's first LISTs: compare from the
	// first bin that starts once every server has a point.
	exportsFrom := int64(0)
	for _, srv := range tl.Metrics.Servers {
		from, _ := tl.Metrics.span(srv)
		exportsFrom = max(exportsFrom, from)
	}
	type list struct{ start, end int64 }
	var lists []list
	for _, cl := range fl.Clients {
		for _, g := range tl.Files[cl.File].Sessions {
			if s := &tl.Sessions[g]; s.isList() && !tl.continues(s) {
				lists = append(lists, list{s.Start, s.End})
			}
		}
	}
	const resolution = int64(2 * time.Second)
	var server, cache float64
	compared, relists, captured := 0, 0, 0
	for _, b := range c.Bins {
		if b.From < exportsFrom {
			continue
		}
		server += b.ServerLists
		cache += b.CacheLists
		relists += b.BySource[SourceCache].Relists + b.BySource[SourceEtcd].Relists + b.BySource[SourceUnknown].Relists
		end := b.From + costBinWidth
		ended, started := 0, 0
		for _, l := range lists {
			if l.end < exportsFrom {
				continue
			}
			if l.end < end-resolution {
				ended++
			}
			if l.start < end {
				started++
			}
		}
		captured = started
		if server < float64(ended) || server > float64(started) || cache < float64(ended) || cache > float64(started) {
			t.Errorf("by %s: servers counted %v LISTs (%v from the cache); the captures: %d ended %s before, %d started",
				FormatTime(end, ClockArrival), server, cache, ended, time.Duration(resolution), started)
		}
		compared++
	}
	if compared < 10 || relists < 50 || server != float64(captured) || cache != float64(captured) || relists != captured {
		t.Errorf("%d bins compared: %d relists, %d LISTs captured, %v counted, %v from the watch cache", compared, relists, captured, server, cache)
	}
	t.Logf("%d bins from %s: %d relists, %d LISTs captured, %v counted by the servers, %v served from the watch cache",
		compared, FormatTime(exportsFrom, ClockArrival), relists, captured, server, cache)
}

// TestOutageCacheListsAreTheServersOwn: samples-outage's clients relist
// with WatchLists, which a server counts as WATCHes, and send no LIST;
// the 6 LISTs its watch caches counted of ConfigMaps are the servers'
// own consistency checks, one a check, so the fleet's bins show none
// served from the watch cache, and a bin that counted only checks is
// left out.
func TestOutageCacheListsAreTheServersOwn(t *testing.T) {
	tl := buildRecording(t, "samples-outage", "*.ts.http", "prometheus/query_range/*.json.gz")
	c := tl.Analyze(realServer()).Fleet().Cost
	if !c.CacheLists {
		t.Fatal("the exports hold apiserver_cache_list_total")
	}
	resources := []string{"configmaps", "secrets"}
	_, counted, _ := tl.Metrics.CounterSteps(metricCacheLists, "", resources)
	_, checks, _ := tl.Metrics.CounterSteps(metricConsistencyChecks, "", resources)
	if sum(counted) == 0 || sum(counted) != sum(checks) {
		t.Fatalf("the watch caches counted %v LISTs and %v consistency checks: want as many, and some", sum(counted), sum(checks))
	}
	lists, relists := 0, 0
	for _, b := range c.Bins {
		lists += b.Lists
		relists += b.BySource[SourceCache].Relists
		if b.CacheLists != 0 {
			t.Errorf("the bin from %s: %v LISTs served from the watch cache, want none", FormatTime(b.From, ClockArrival), b.CacheLists)
		}
		if b.empty() {
			t.Errorf("the bin from %s counts nothing: it is left out", FormatTime(b.From, ClockArrival))
		}
	}
	if lists != 0 || relists < 70 {
		t.Errorf("%d LISTs sent and %d relists from the watch cache: want none, and the outage's WatchLists", lists, relists)
	}
}

func sum(v []float64) (s float64) {
	for _, x := range v {
		s += x
	}
	return s
}

// TestScrapeGapsAtTheRestarts: samples-lab's Prometheus lost each server
// for about a minute as it restarted (its `up` 0): the exports' gaps are
// those three, each holding its server's new process's start as the
// audit logs show it, and the cost bins they overlap name the server,
// whose old process's last counts the exports never got.
func TestScrapeGapsAtTheRestarts(t *testing.T) {
	tl := buildRecording(t, "samples-lab", "audit-*.log", "prometheus/query_range/*.json.gz")
	gaps := tl.Metrics.ScrapeGaps()
	if len(gaps) != 3 {
		t.Fatalf("%d gaps: %+v, want the three restarts'", len(gaps), gaps)
	}
	for _, s := range tl.Servers {
		if len(s.Incarnations) != 2 {
			t.Fatalf("server %s: %d processes", s.Name, len(s.Incarnations))
		}
		start := s.Incarnations[1].From
		if !slices.ContainsFunc(gaps, func(g ScrapeGap) bool { return g.Server == s.Metrics && g.From < start && start < g.To }) {
			t.Errorf("no gap of %s's exports holds its new process's start at %s: %+v", s.Name, FormatTime(start, ClockArrival), gaps)
		}
	}
	named := 0
	for _, b := range tl.Analyze(realServer()).Fleet().Cost.Bins {
		var want []string
		for _, g := range gaps {
			if g.From < b.From+costBinWidth && g.To > b.From {
				want = append(want, g.Server)
			}
		}
		slices.Sort(want)
		if !slices.Equal(b.Unscraped, want) {
			t.Errorf("the bin from %s: %v not scraped, want %v", FormatTime(b.From, ClockArrival), b.Unscraped, want)
		}
		if len(want) > 0 {
			named++
		}
	}
	if named < 3 {
		t.Errorf("%d bins name a server not scraped, want those of the three restarts at least", named)
	}
}
