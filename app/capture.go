package app

import (
	"watchlens/app/engine"
	"watchlens/app/load"
	"watchlens/report"
	"watchlens/timeline"
)

// capture is what the page shows: the capture a load made (see
// load.Capture), with the page's ways of showing its files.
type capture struct{ *load.Capture }

// analysis is what the retention model says of a capture: the verdict's
// lines, shown at once, and the report, which only the exports and Copy
// summary read and which is built when first asked for (over 10 000
// virtual clients it takes more than a second as wasm, in one task).
type analysis struct {
	// an is the engine's model, for the panels that still read it
	// rather than ask the engine (docs/engine.md lists them).
	an      *timeline.Analysis
	summary []timeline.SummaryLine
	built   *builtReport
	// judged says whether any file gave something to judge: with none,
	// the summary says so, and there is no verdict to copy or export.
	judged bool
	// generation is the engine's count of analyses kept: the timeline
	// view redraws when it changes.
	generation int
	// restarts are the API server restarts the captures suggest.
	restarts []timeline.DetectedRestart
}

type builtReport struct{ r *report.Report }

// report returns the analysis's report, building it the first time.
func (a analysis) report() *report.Report {
	if a.built.r == nil {
		a.built.r = report.New(a.an, nil)
	}
	return a.built.r
}

// newAnalysis is what the engine eng answered of its latest analysis.
func newAnalysis(eng *engine.Engine, a engine.Analyzed) analysis {
	return analysis{an: eng.Analysis(), summary: a.Summary, built: &builtReport{}, judged: a.Judged, generation: a.Generation, restarts: a.Restarts}
}
