package app

import (
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
	an      *timeline.Analysis
	summary []timeline.SummaryLine
	built   *builtReport
	// judged says whether any file gave something to judge: with none,
	// the summary says so, and there is no verdict to copy or export.
	judged bool
}

type builtReport struct{ r *report.Report }

// report returns the analysis's report, building it the first time.
func (a analysis) report() *report.Report {
	if a.built.r == nil {
		a.built.r = report.New(a.an, nil)
	}
	return a.built.r
}

// newAnalysis is the analysis of the retention model's answer an, whose
// verdict's lines are summary.
func newAnalysis(an *timeline.Analysis, summary []timeline.SummaryLine) analysis {
	return analysis{an: an, summary: summary, built: &builtReport{}, judged: an.TL.Judged()}
}

// analyze runs the retention model over a timeline again, as the
// settings change; on a large capture it takes long enough that the
// caller runs it in a goroutine.
func analyze(tl *timeline.Timeline, params timeline.Params) analysis {
	return newAnalysis(load.Analyze(tl, params))
}
