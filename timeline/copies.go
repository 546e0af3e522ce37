package timeline

import (
	"fmt"
	"maps"

	"watchlens/internal/quantity"
	"watchlens/parser"
)

// copyTolerance is how far apart two files' instants of one session may
// be and still be the same recording: an estimated clock is about a
// second off the arrival times of the same bytes.
const copyTolerance = 2e9

// noteCopies marks each capture that holds the same watch as a capture
// given before it (DiagSameWatch): the same recording in two forms (a
// raw `.http` and its `.ts.http` with arrival times) or the same file
// given twice; or that holds responses one given before it holds too,
// by their Audit-Id (which the API server gives each request, or keeps
// from the client: the same request, begun at the same time, is asked
// too): a capture cut from a longer one (samples-real's
// w3-narrow-label-bookmarks is the first response of w3-then-resume).
// Each file is a client of its own for the fleet and the verdicts, so
// the doubt (IsDoubt) says that one of them may count twice.
func (tl *Timeline) noteCopies() {
	// responses finds a response's session in the captures before, by
	// its Audit-Id.
	responses := map[string]int{}
	for i := range tl.Files {
		f := &tl.Files[i]
		if !f.copyCandidate() {
			continue
		}
		if !tl.noteSameWatch(i) {
			tl.noteSharedResponses(f, responses)
		}
		for _, g := range f.Sessions {
			if id := tl.Sessions[g].auditID; id != "" {
				if _, ok := responses[id]; !ok {
					responses[id] = g
				}
			}
		}
	}
}

// noteSameWatch notes file i as holding the same watch as a capture
// given before it, if it does, and says whether it does.
func (tl *Timeline) noteSameWatch(i int) bool {
	f := &tl.Files[i]
	for j := range i {
		if tl.Files[j].copyCandidate() && tl.sameWatch(&tl.Files[j], f) {
			f.Diagnostics = append(f.Diagnostics, parser.Diagnostic{Kind: DiagSameWatch, Msg: fmt.Sprintf(
				"this capture holds the same watch as %s (the same requests, sessions, events and resourceVersions at the same times): if it is a copy of that recording, its client is counted twice; leave one of them out", tl.Files[j].ShortName())})
			for k, g := range f.Sessions {
				tl.twin(g, tl.Files[j].Sessions[k])
			}
			return true
		}
	}
	return false
}

// noteSharedResponses notes f as holding responses that a capture given
// before it holds too, by their Audit-Id, if it does.
func (tl *Timeline) noteSharedResponses(f *File, responses map[string]int) {
	shared, other := 0, -1
	for _, g := range f.Sessions {
		s := &tl.Sessions[g]
		t, ok := responses[s.auditID]
		if !ok || s.auditID == "" || !sameResponse(s, &tl.Sessions[t]) {
			continue
		}
		tl.twin(g, t)
		shared++
		if other < 0 {
			other = tl.Sessions[t].File
		}
	}
	if shared == 0 {
		return
	}
	held := fmt.Sprintf("%d of its %d responses", shared, len(f.Sessions))
	if shared == len(f.Sessions) {
		held = "its " + quantity.Plural(shared, "response")
		if shared == 1 {
			held = "its response"
		}
	}
	f.Diagnostics = append(f.Diagnostics, parser.Diagnostic{Kind: DiagSameWatch, Msg: fmt.Sprintf(
		"this capture holds the same watch as %s, which recorded %s too (the same request, begun at the same time, with the same Audit-Id): if they are one recording, its client is counted twice; leave one of them out",
		tl.Files[other].ShortName(), held)})
}

// sameResponse says sessions a and b, of one Audit-Id, are one response:
// the server keeps an Audit-ID a client sent, so the same request (where
// both recorded it) begun within copyTolerance is asked too.
func sameResponse(a, b *Session) bool {
	if a.Request != nil && b.Request != nil && !sameRequest(a.Request, b.Request) {
		return false
	}
	return a.Start-b.Start <= copyTolerance && b.Start-a.Start <= copyTolerance
}

// CopiedGone says session g is a copy of one given before it
// (noteCopies) that holds its 410 too: the same answer, recorded twice.
func (tl *Timeline) CopiedGone(g int) bool {
	t, ok := tl.twins[g]
	return ok && (tl.Sessions[t].answeredGone() || tl.Sessions[t].inferredGone)
}

// twin notes session g as the same response as session of, given
// before it.
func (tl *Timeline) twin(g, of int) {
	if tl.twins == nil {
		tl.twins = map[int]int{}
	}
	tl.twins[g] = of
}

// copyCandidate says f is a capture with events: a client's requests read
// from logs, and a virtual client of a capture, are no recording.
func (f *File) copyCandidate() bool {
	return !f.Audit && f.SplitOf == "" && f.Events > 0 && len(f.Sessions) > 0
}

// sameWatch says captures a and b hold the same sessions with the same
// requests and events, at instants within copyTolerance of each other,
// or equal where both have arrival times: two informers of one resource
// started together see the same events, but their arrival times differ.
func (tl *Timeline) sameWatch(a, b *File) bool {
	if a.Kind != b.Kind || a.Filtered != b.Filtered || a.Events != b.Events || a.FirstRV != b.FirstRV || a.LastRV != b.LastRV ||
		len(a.Sessions) != len(b.Sessions) || !maps.Equal(a.Counts, b.Counts) {
		return false
	}
	tol := int64(copyTolerance)
	switch {
	case a.Clock == ClockArrival && b.Clock == ClockArrival:
		tol = 0
	case a.Clock == ClockNone || b.Clock == ClockNone:
		tol = -1
	}
	near := func(x, y int64) bool { return tol < 0 || x-y <= tol && y-x <= tol }
	for k, ga := range a.Sessions {
		sa, sb := &tl.Sessions[ga], &tl.Sessions[b.Sessions[k]]
		if !sameRequest(sa.Request, sb.Request) || sa.HTTPStatus != sb.HTTPStatus || sa.Events != sb.Events || sa.Bookmarks != sb.Bookmarks ||
			sa.Errors != sb.Errors || sa.FirstRV != sb.FirstRV || sa.LastRV != sb.LastRV || sa.EndReason != sb.EndReason ||
			!near(sa.Start, sb.Start) || !near(sa.End, sb.End) {
			return false
		}
	}
	return true
}

// sameRequest says two sessions asked the same: both recorded without a
// request line, or the same method, path and query.
func sameRequest(a, b *parser.Request) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Method == b.Method && a.Path == b.Path && a.Query == b.Query
}
