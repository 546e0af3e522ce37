package timeline

import "watchlens/parser"

// The kinds of problem the analysis adds to the readers' diagnostics
// (parser.DiagnosticKind): their text is part of the report's JSON
// contract too.
const (
	// DiagTooManyObjects is where reading stopped because the analysis
	// keeps at most Builder.MaxObjects distinct objects.
	DiagTooManyObjects parser.DiagnosticKind = "too-many-objects"
	// DiagNoYear is a klog log whose lines name no year, read in the year
	// the analysis chose.
	DiagNoYear parser.DiagnosticKind = "no-year"
	// DiagNoDate is a client library's log whose lines give a time of
	// day only, read on the date the analysis chose.
	DiagNoDate parser.DiagnosticKind = "no-date"
	// DiagNoClient is a client library's log with no line telling of a list
	// or a watch.
	DiagNoClient parser.DiagnosticKind = "no-client"
	// DiagDuplicateAudit is an audit log whose requests were read already
	// from another log.
	DiagDuplicateAudit parser.DiagnosticKind = "duplicate-audit"
)
