package timeline

import (
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
// served every one of them (the lab's LISTs all ask for an RV); every
// relist of the captures is a LIST the servers counted. (The watch
// cache's counter counts a few LISTs more, 86 against 81 here, which no
// client of the fleet sent: it is only bounded below.)
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
		if server < float64(ended) || server > float64(started) || cache < float64(ended) {
			t.Errorf("by %s: servers counted %v LISTs (%v from the cache); the captures: %d ended %s before, %d started",
				FormatTime(end, ClockArrival), server, cache, ended, time.Duration(resolution), started)
		}
		compared++
	}
	if compared < 10 || relists < 50 || server != float64(captured) || relists != captured {
		t.Errorf("%d bins compared: %d relists, %d LISTs captured, %v counted", compared, relists, captured, server)
	}
	t.Logf("%d bins from %s: %d relists, %d LISTs captured, %v counted by the servers, %v served from the watch cache",
		compared, FormatTime(exportsFrom, ClockArrival), relists, captured, server, cache)
}
