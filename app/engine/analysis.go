package engine

import (
	"time"

	"watchlens/timeline"
)

// Analyzed is what an analysis answers: the verdict's lines, whether any
// file held something to judge (with none there is no verdict to copy),
// the analysis's generation, which changes with each analysis kept
// (a view redraws when it does), and the API server restarts the
// captures suggest, which the settings offer to apply.
type Analyzed struct {
	Summary []timeline.SummaryLine
	// Fleet says the capture has a fleet, two clients or more, which the
	// fleet view shows.
	Fleet      bool
	Judged     bool
	Generation int
	Restarts   []timeline.DetectedRestart
	// Servers are the API servers the records name (audit logs, metrics,
	// the servers' own logs), which the settings' count cannot go below
	// (Analysis.ServerCount).
	Servers []string
	// EtcdCompactedEvery is how often etcd's exports show it compacting
	// (timeline.Metrics.CompactionEvery), 0 when they do not: what the
	// settings' etcd interval would model.
	EtcdCompactedEvery time.Duration
}

// Analyze runs the retention model over the timeline with params, as the
// settings change. On a large capture it takes long enough that the host
// runs it in a goroutine, pausing with pause (nil: none); an analysis
// asked for meanwhile supersedes it: it returns ErrCancelled and the
// model keeps the later one's answer.
func (e *Engine) Analyze(params timeline.Params, pause func()) (Analyzed, error) {
	if pause == nil {
		pause = func() {}
	}
	e.analyses++
	mine := e.analyses
	// Over a million events the analysis takes half a second as wasm,
	// pausing as its Builder's Pause says.
	pause()
	an := e.tl.Analyze(params)
	pause()
	// The summary judges a reconnect of every client: over 10 000 of
	// them, a task of its own before the page renders them.
	summary := an.Summary(nil)
	pause()
	if mine != e.analyses {
		return Analyzed{}, ErrCancelled
	}
	e.an, e.summary = an, summary
	e.generation++
	e.opened.Analyzed = Analyzed{Summary: summary, Judged: e.tl.Judged(), Generation: e.generation, Restarts: an.Restarts,
		EtcdCompactedEvery: e.tl.Metrics.CompactionEvery()}
	for _, srv := range e.tl.Servers {
		e.opened.Analyzed.Servers = append(e.opened.Analyzed.Servers, srv.Name)
	}
	// The fleet is worked out once per analysis: the summary of a judged
	// capture has done it.
	e.opened.Analyzed.Fleet = an.Fleet() != nil
	return e.opened.Analyzed, nil
}
