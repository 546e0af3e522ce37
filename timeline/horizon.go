package timeline

import (
	"sort"
	"time"
)

// Resume horizons: for a client that dropped, how long could it have
// stayed away? A drop is each watch stream's end (the capture's own end
// included); its horizon, per cursor, is the earliest reconnect instant
// the models put at risk and the earliest they refuse, judged with
// everything on the shared clock (a capture of the whole type keeps the
// head and the replayed cache moving after a narrow capture stops).

// Horizon is one drop's horizon for one cursor.
type Horizon struct {
	File    int
	Session int // global index of the session that ended
	Kind    CursorKind
	Drop    int64
	// HasCursor is false when there was no cursor at the drop (Unknown
	// then says why), or its value is unknown.
	HasCursor bool
	RV        uint64
	Since     int64
	// RiskFrom and RefusedFrom are the earliest reconnect instants at or
	// after the drop that are at risk and refused (never: nothing the
	// files show puts it there), with the model that says so and why.
	RiskFrom, RefusedFrom     int64
	RiskModel, RefusedModel   Model
	RiskReason, RefusedReason string
	Unknown                   string
}

// RiskStart is RiskFrom, and false when nothing the files show puts a
// reconnect after the drop at risk.
func (h Horizon) RiskStart() (int64, bool) { return h.RiskFrom, h.RiskFrom != never }

// RefusalStart is RefusedFrom, and false when nothing the files show has
// a reconnect after the drop refused.
func (h Horizon) RefusalStart() (int64, bool) { return h.RefusedFrom, h.RefusedFrom != never }

// horizons computes the horizon of every drop of every file's cursors.
func (a *Analysis) horizons() {
	tl := a.TL
	for fi, f := range tl.Files {
		for _, g := range f.Sessions {
			s := &tl.Sessions[g]
			if !s.watchStream() || gone(s.Error) {
				continue // a watch that ended in 410 relists: it resumes from nothing
			}
			for _, kind := range a.kinds(fi) {
				a.Horizons = append(a.Horizons, a.horizon(fi, g, kind, s.End))
			}
		}
	}
}

// kinds lists the cursors of a file: the two recorded ones, and the
// counterfactual where it differs from the bookmark-aware one.
func (a *Analysis) kinds(file int) []CursorKind {
	if a.HadBookmarks[file].Synthetic {
		return []CursorKind{BookmarkAware, BookmarkIgnoring, HadBookmarks}
	}
	return []CursorKind{BookmarkAware, BookmarkIgnoring}
}

func (a *Analysis) horizon(file, session int, kind CursorKind, drop int64) Horizon {
	h := Horizon{File: file, Session: session, Kind: kind, Drop: drop, RiskFrom: never, RefusedFrom: never}
	rv, since, _, ok := a.cursor(file, kind).At(drop)
	switch {
	case !ok:
		h.Unknown = "no cursor: the watch started without a resourceVersion and had seen nothing"
		return h
	case rv == unknownRV:
		h.Unknown = a.HadBookmarks[file].unknownReason(a, since)
		return h
	case a.TL.Files[file].Clock == ClockNone:
		h.Unknown = "the capture has no clock"
	}
	h.HasCursor, h.RV, h.Since = true, rv, since
	for _, m := range a.applicable(file) {
		risk, refused, ok := a.threshold(m, file, anyServer, rv, since, never)
		if !ok {
			continue
		}
		if refused != never && max(refused, drop) < h.RefusedFrom {
			h.RefusedFrom, h.RefusedModel = max(refused, drop), m
			h.RefusedReason = a.reason(m, Refused, file, anyServer, rv, since, h.RefusedFrom)
		}
		if risk != never && max(risk, drop) < h.RiskFrom {
			h.RiskFrom, h.RiskModel = max(risk, drop), m
			h.RiskReason = a.reason(m, AtRisk, file, anyServer, rv, since, h.RiskFrom)
		}
	}
	if h.RefusedFrom < h.RiskFrom {
		h.RiskFrom, h.RiskModel, h.RiskReason = h.RefusedFrom, h.RefusedModel, h.RefusedReason
	}
	return h
}

// ResumeAt answers, for each cursor of the file, what a reconnect at
// instant at would get: the cursor as the client held it then (as it left
// it, when at is past the file's end), judged with the evidence observed
// before at.
func (a *Analysis) ResumeAt(file int, at int64) []Verdict {
	var out []Verdict
	state := min(at, a.TL.Files[file].End)
	for _, kind := range a.kinds(file) {
		rv, since, _, ok := a.cursor(file, kind).At(state)
		out = append(out, a.verdictFor(Verdict{File: file, Kind: kind, T: state, At: at}, anyServer, rv, since, ok, at))
	}
	return out
}

// resumeOutcome is the outcome of ResumeAt's verdict for one cursor kind,
// without the words: a fleet asks it of thousands of clients.
func (a *Analysis) resumeOutcome(file int, kind CursorKind, at int64) Outcome {
	rv, since, _, ok := a.cursor(file, kind).At(min(at, a.TL.Files[file].End))
	if !ok || rv == unknownRV {
		return Unknown
	}
	return overall(a.outcomes(file, anyServer, rv, since, at, at))
}

// ResumeAnswers is ResumeAt for every file at each instant asked, ordered
// by instant (stably, those of files without a clock first: they have no
// instant to show).
func (a *Analysis) ResumeAnswers(qs []ResumeQuery) []Verdict {
	var out []Verdict
	for _, q := range qs {
		for fi := range a.TL.Files {
			out = append(out, a.ResumeAt(fi, q.For(&a.TL.Files[fi]))...)
		}
	}
	timed := func(v Verdict) bool { return a.TL.Files[v.File].Clock != ClockNone }
	sort.SliceStable(out, func(i, j int) bool {
		ti, tj := timed(out[i]), timed(out[j])
		return !ti && tj || ti && tj && out[i].At < out[j].At
	})
	return out
}

// ResumeQuery is a reconnect instant asked about: At, or when Relative,
// After past each file's own end.
type ResumeQuery struct {
	At       int64
	After    time.Duration
	Relative bool
}

// For is the instant q asks of file f.
func (q ResumeQuery) For(f *File) int64 {
	if q.Relative {
		return f.End + int64(q.After)
	}
	return q.At
}
