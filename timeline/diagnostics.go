package timeline

import (
	"sort"

	"watchlens/parser"
)

// DiagnosticEvents is, per file and per parser diagnostic of it (in the
// order of Files[f].Diagnostics), the first event read after the problem:
// where on the timeline the diagnostic sits; -1 when no event of the file
// comes after it. One pass over the events places them all.
func (tl *Timeline) DiagnosticEvents() [][]int {
	out := make([][]int, len(tl.Files))
	next := make([][]int, len(tl.Files)) // per file, its diagnostics not yet placed, by offset
	left := 0
	for fi := range tl.Files {
		ds := tl.Files[fi].Diagnostics
		out[fi] = make([]int, len(ds))
		for d := range ds {
			out[fi][d] = -1
			next[fi] = append(next[fi], d)
		}
		sort.SliceStable(next[fi], func(a, b int) bool { return ds[next[fi][a]].Offset < ds[next[fi][b]].Offset })
		left += len(ds)
	}
	for i := 0; i < tl.Len() && left > 0; i++ {
		fi := tl.Sessions[tl.tab.sess.at(i)].File
		ds := tl.Files[fi].Diagnostics
		for len(next[fi]) > 0 && ds[next[fi][0]].Offset <= tl.tab.off.at(i) {
			out[fi][next[fi][0]] = i
			next[fi] = next[fi][1:]
			left--
		}
	}
	return out
}

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
	// DiagAmbiguousJoin is a client of a client log, and each audit-log
	// client it could be, that the records cannot tell apart: none is
	// joined.
	DiagAmbiguousJoin parser.DiagnosticKind = "ambiguous-join"
	// DiagUnsureSplit is a request of an audit-log client from which on
	// its requests could as well be another informer's of the same
	// User-Agent, user, address and selector.
	DiagUnsureSplit parser.DiagnosticKind = "unsure-split"
	// DiagSameWatch is a capture that holds the same watch as one given
	// before it: likely the same recording twice (a doubt, IsDoubt).
	DiagSameWatch parser.DiagnosticKind = "same-watch"
	// DiagLateStamps is a capture that stamps the last bytes of events
	// more than LateStamp after their first: the events are placed at
	// their first bytes' time (a doubt, IsDoubt).
	DiagLateStamps parser.DiagnosticKind = "late-stamps"
)
