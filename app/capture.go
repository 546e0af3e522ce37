package app

import (
	"time"

	"watchlens/app/engine"
	"watchlens/app/load"
	"watchlens/timeline"
)

// capture is what the page shows: the capture a load made (see
// load.Capture), with the page's ways of showing its files.
type capture struct{ *load.Capture }

// analysis is what the retention model says of a capture: the verdict's
// lines, shown at once, with what the page asked it with. The reports
// (the exports and Copy summary) the page asks the engine for.
type analysis struct {
	summary []timeline.SummaryLine
	// judged says whether any file gave something to judge: with none,
	// the summary says so, and there is no verdict to copy or export.
	judged bool
	// fleet says the capture has a fleet, which the page offers a view of.
	fleet bool
	// generation is the engine's count of analyses kept: the timeline
	// view redraws when it changes.
	generation int
	// restarts are the API server restarts the captures suggest.
	restarts []timeline.DetectedRestart
	// servers are the API servers the records name.
	servers []string
	// zone is the zone the analysis was asked to write times in
	// (Params.Zone), which the views write theirs in.
	zone *time.Location
	// etcdCompactedEvery is how often the metrics show etcd compacting,
	// 0 when they do not (engine.Analyzed).
	etcdCompactedEvery time.Duration
}

// newAnalysis is what the engine answered of its latest analysis,
// asked with params.
func newAnalysis(a engine.Analyzed, params timeline.Params) analysis {
	return analysis{summary: a.Summary, judged: a.Judged, fleet: a.Fleet, generation: a.Generation, restarts: a.Restarts, servers: a.Servers, zone: zoneIn(params),
		etcdCompactedEvery: a.EtcdCompactedEvery}
}
