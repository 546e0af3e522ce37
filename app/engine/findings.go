package engine

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"watchlens/app/words"
	"watchlens/report"
	"watchlens/timeline"
)

// Findings is what the Findings tab lists of the latest analysis: the
// bookmarks what-if, each recorded cursor's longest stretch unconfirmed,
// and the model's findings that pass a filter, each with where it takes
// the view.
type Findings struct {
	// WhatIf is the analysis's bookmarks what-if, without its points
	// (one per reconnect, which the tab does not list).
	WhatIf timeline.WhatIf
	// LongestAges names, per file and recorded cursor, the longest it
	// went unconfirmed, the longest first ("w4 bookmark-aware 1m15s; …";
	// past maxLongestAges, how many more).
	LongestAges string
	// Fleet says the analysis has a fleet, whose figures answer another
	// question than the what-if's, as BesideFleet says with both sides'
	// numbers (report.WhatIfBesideFleet). BookmarksUnseen says every
	// file's own log hides its bookmarks (timeline.File.BookmarksUnseen):
	// what they saved is not known.
	Fleet, BookmarksUnseen bool
	BesideFleet            string
	// Each list in the order the tab shows it: the gaps the longest
	// first, the others in the model's order.
	Errors, Zones, Resumes, Gaps, Anomalies []Finding
	// GapCount counts the gaps (Analysis.GapCount), Gaps holding the
	// longest of them (timeline.MaxGapsKept at most); with a kind filter,
	// those of the longest that pass it.
	GapCount int
}

// Finding is one line of the Findings tab: the instant it happened, the
// event it is about, and what.
type Finding struct {
	At int64 // Unix ns
	// Timed is false when its file has no clock: following it keeps the
	// range shown.
	Timed bool
	Event int // the event to select, -1 when it is about no one event
	Text  string
}

// Findings gathers the latest analysis's findings that pass filter.
// Errors, zones, resumes and gaps belong to a file's watch, so only the
// kind filter applies to them (a watch's cursor does not depend on which
// objects the user looks at); an anomaly about one event follows every
// filter.
func (e *Engine) Findings(filter timeline.Filter) Findings {
	an, tl := e.an, e.tl
	out := Findings{WhatIf: an.WhatIf, LongestAges: e.longestAges(), BookmarksUnseen: len(tl.Files) > 0}
	if fl := an.Fleet(); fl != nil {
		out.Fleet = true
		out.BesideFleet = report.WhatIfBesideFleet(an.WhatIf.RelistsWith, fl.RelistsObserved, fl.RelistsWith, fl.RelistsWithout, fl.WithoutAtLeast, fl.WatchListsAsked)
	}
	for i := range tl.Files {
		out.BookmarksUnseen = out.BookmarksUnseen && tl.Files[i].BookmarksUnseen()
	}
	out.WhatIf.Points = nil
	fileOK := make([]bool, len(tl.Files))
	for i, f := range tl.Files {
		fileOK[i] = filter.Kind == "" || f.Kind == filter.Kind
	}
	at := func(file int, t int64, event int, text string) Finding {
		return Finding{At: t, Timed: tl.Files[file].Clock != timeline.ClockNone, Event: event, Text: text}
	}
	for _, oe := range tl.ObservedErrors() {
		s := tl.Sessions[oe.Session]
		if fileOK[s.File] {
			out.Errors = append(out.Errors, at(s.File, oe.T, -1, fmt.Sprintf("%s session %d: %d %s: %s", tl.Files[s.File].Name, s.Index, oe.Status.Code, oe.Status.Reason, oe.Status.Message)))
		}
	}
	// The 410s that only a log, or a response with no Status body, shows.
	for g := range tl.Sessions {
		s := &tl.Sessions[g]
		if !s.GoneUnlisted() || !fileOK[s.File] {
			continue
		}
		text := fmt.Sprintf("%s session %d: 410 Gone", tl.Files[s.File].Name, s.Index)
		switch {
		case s.GoneInferred():
			// Its error says why, as the summary does.
			text += ", " + s.Error.Message
		case s.Error != nil && s.Error.Message != "":
			text += " in the client's log: " + s.Error.Message
		default:
			text += " (no Status body)"
		}
		out.Errors = append(out.Errors, at(s.File, s.Start, -1, text))
	}
	slices.SortStableFunc(out.Errors, func(a, b Finding) int { return cmp.Compare(a.At, b.At) })
	for _, z := range an.Zones {
		if fileOK[z.File] {
			out.Zones = append(out.Zones, at(z.File, z.From, -1, fmt.Sprintf("%s, %s, %s, RV %s..%s: %s", tl.Files[z.File].Name, z.Kind.Words(), z.Model, timeline.FormatRV(z.FromRV), timeline.FormatRV(z.ToRV), an.ZoneReason(z))))
		}
	}
	for _, r := range an.Resumes {
		s := tl.Sessions[r.Session]
		if fileOK[s.File] {
			// At risk, or not known, contradicts neither answer.
			agree := "agrees"
			switch {
			case r.Contradicts():
				agree = "DISAGREES"
			case r.Observed != r.Predicted.Outcome:
				agree = "undecided"
			}
			out.Resumes = append(out.Resumes, at(s.File, s.Start, -1, fmt.Sprintf("%s session %d from RV %s: the server %s, the models %s (%s): %s", tl.Files[s.File].Name, s.Index, r.RV, timeline.OutcomeWords(r.Observed), timeline.OutcomeWords(r.Predicted.Outcome), agree, r.Predicted.Reason)))
		}
	}
	// The longest gaps first: they are the ones to read.
	gaps := slices.Clone(an.Gaps)
	slices.SortStableFunc(gaps, func(a, b timeline.Gap) int { return cmp.Compare(b.AgeTime, a.AgeTime) })
	out.GapCount = an.GapCount
	if filter.Kind != "" {
		out.GapCount = 0
	}
	for _, g := range gaps {
		if fileOK[g.File] {
			if filter.Kind != "" {
				out.GapCount++
			}
			out.Gaps = append(out.Gaps, at(g.File, g.From, -1, fmt.Sprintf("%s, %s cursor at RV %s while the head reached %s: by then %s since it was last current, %s RVs behind", words.Isolated(tl.Files[g.File].Name), g.Kind, timeline.FormatRV(g.RV), timeline.FormatRV(g.HeadRV), timeline.FormatDuration(g.AgeTime), timeline.FormatRV(g.AgeRV))))
		}
	}
	for _, a := range tl.Anomalies {
		if a.Event >= 0 {
			ev := tl.Event(a.Event)
			if !filter.Event(ev.Type) || (ev.Lane >= 0 && !filter.Lane(tl.Lanes.At(ev.Lane))) {
				continue
			}
		} else if !fileOK[a.File] {
			continue
		}
		rv := ""
		if a.RV != "" {
			rv = " (RV " + a.RV + ")"
		}
		out.Anomalies = append(out.Anomalies, at(a.File, a.T, a.Event, fmt.Sprintf("%s: %s%s: %s", words.Isolated(tl.Files[a.File].Name), a.Kind, rv, timeline.VisibleBidi(a.Msg))))
	}
	return out
}

// maxLongestAges bounds the cursors LongestAges names: a fleet has
// hundreds, and one line of them all is unreadable.
const maxLongestAges = 5

// longestAges names, per file and recorded cursor (with several files,
// each file's longest), the longest stretch it went unconfirmed, the
// longest first, apart from the age at a reconnect the what-if gives.
func (e *Engine) longestAges() string {
	var ages []timeline.CursorAge
	for _, c := range e.an.Ages {
		if c.Kind != timeline.HadBookmarks {
			ages = append(ages, c)
		}
	}
	slices.SortStableFunc(ages, func(a, b timeline.CursorAge) int { return cmp.Compare(b.MaxAge, a.MaxAge) })
	many := len(e.tl.Files) > 1
	if many {
		// A file's longest, once: its two cursors often say the same.
		seen := map[int]bool{}
		ages = slices.DeleteFunc(ages, func(c timeline.CursorAge) bool {
			dup := seen[c.File]
			seen[c.File] = true
			return dup
		})
	}
	var parts []string
	for _, c := range ages[:min(len(ages), maxLongestAges)] {
		name := c.Kind.Words()
		if many {
			name = words.Isolated(e.tl.Files[c.File].Name) + " (" + name + ")"
		}
		parts = append(parts, name+" "+timeline.FormatDuration(c.MaxAge))
	}
	if n := len(ages) - maxLongestAges; n > 0 {
		parts = append(parts, fmt.Sprintf("and %d more", n))
	}
	return strings.Join(parts, "; ")
}
