package engine

import (
	"fmt"
	"strings"
	"time"

	"watchlens/report"
	"watchlens/timeline"
)

// ReportFormat names a form of the report the page exports or copies.
type ReportFormat string

const (
	// ReportMarkdown is the whole report for a postmortem document.
	ReportMarkdown ReportFormat = "markdown"
	// ReportPaste is the summary as one pastes it, with a link to the
	// view (report.PasteMarkdown).
	ReportPaste ReportFormat = "paste"
	// ReportJSON is the report for scripts, its times in UTC whatever
	// zone the analysis writes in (a contract, report/REPORT.md).
	ReportJSON ReportFormat = "json"
	// ReportPerfetto is a trace in Chrome's JSON trace format, for
	// Perfetto UI.
	ReportPerfetto ReportFormat = "perfetto"
)

// reportCache is the latest analysis's report, built when first asked
// for: over 10 000 virtual clients it takes more than a second as wasm.
type reportCache struct {
	an  *timeline.Analysis
	rep *report.Report
}

// built is the latest analysis's report.
func (e *Engine) built() *report.Report {
	if e.report.an != e.an || e.report.rep == nil {
		e.report = reportCache{an: e.an, rep: report.New(e.an, nil)}
	}
	return e.report.rep
}

// Report writes the latest analysis's report in format, as the command
// line writes it for the same files and settings; link is the view's
// URL, which ReportPaste ends with ("" for none).
func (e *Engine) Report(format ReportFormat, link string) (string, error) {
	if e.an == nil {
		return "", fmt.Errorf("no analysis to report")
	}
	var b strings.Builder
	var err error
	switch format {
	case ReportMarkdown:
		err = e.built().WriteMarkdown(&b)
	case ReportPaste:
		return e.built().PasteMarkdown(link), nil
	case ReportJSON:
		rep := e.built()
		if z := e.an.Params.Zone; z != nil && z != time.UTC {
			// The model's sentences, written again in UTC.
			p := e.an.Params
			p.Zone = nil
			rep = report.New(e.tl.Analyze(p), nil)
		}
		err = rep.WriteJSON(&b)
	case ReportPerfetto:
		err = report.WritePerfetto(&b, e.an)
	default:
		return "", fmt.Errorf("no report format %q", format)
	}
	if err != nil {
		return "", err
	}
	return b.String(), nil
}
