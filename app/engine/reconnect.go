package engine

import (
	"cmp"
	"slices"

	"watchlens/timeline"
)

// ReconnectAt is what a reconnect at one instant would get under the
// latest analysis, as `watchlens analyze --resume-at` answers it: the
// summary's words for it, the fleet's counts, and a row per file, the
// worst answers first.
type ReconnectAt struct {
	At    int64 // Unix ns
	Words []timeline.SummaryLine
	// Fleet counts the clients by what a reconnect of every one would
	// get, with bookmarks and without; nil without a fleet. OneAnswer
	// says every client's own log hides its bookmarks: the two sides are
	// one, the cursor each log shows (timeline.Fleet.BookmarksUnseen).
	Fleet     *timeline.FleetReconnect
	OneAnswer bool
	Files     []ReconnectFile
	// Start and End are the shared clock's first and last instants (both
	// 0 when no file has a clock): off them nothing was recorded, and
	// the panel says so of an instant asked there.
	Start, End int64
}

// ReconnectFile is one file's answers, a cursor each.
type ReconnectFile struct {
	File      int // its index in Opened.Files
	Name      string
	ShortName string
	// Server names the server the reconnect would likely go to: the one
	// of the file's connection open then ("" when not known).
	Server  string
	Cursors []ReconnectCursor
}

// ReconnectCursor is one cursor's answer, and the answer of each API
// server when the evidence shows several.
type ReconnectCursor struct {
	Kind    timeline.CursorKind
	Outcome timeline.Outcome
	// HasCursor says the cursor had a value then, RV.
	HasCursor bool
	RV        uint64
	// Reason is the model's exact reason; Words the answer in plain
	// words, and ServerWords the servers' ("" with one server).
	Reason, Words, ServerWords string
	PerServer                  []ServerAnswer
}

// ServerAnswer is one API server's answer to a cursor's reconnect.
type ServerAnswer struct {
	Server  string // its name
	Outcome timeline.Outcome
	Reason  string
}

// ReconnectAt answers what a reconnect at instant at would get. Over
// hundreds of files with several servers it takes a while as wasm, so
// it pauses with pause (nil: none) between files.
func (e *Engine) ReconnectAt(at int64, pause func()) ReconnectAt {
	if pause == nil {
		pause = func() {}
	}
	an, tl := e.an, e.tl
	q := timeline.ResumeQuery{At: at}
	out := ReconnectAt{At: at}
	if len(tl.Files) > 0 && !e.cache.NoClock() {
		out.Start, out.End = tl.Start(), tl.End()
	}
	servers := len(tl.Servers) > 1
	// Each file's rank: its cursor as it ran (the bookmark-aware one, its
	// own for a client that got no bookmarks), then the worst of its
	// what-ifs'. By the worst alone, every client whose bookmarks kept it
	// safe would come before those refused as they ran.
	type rank struct{ own, worst int }
	ranks := make([]rank, len(tl.Files))
	for fi := range tl.Files {
		if tl.NotCapture(fi) != timeline.IsCapture || tl.Files[fi].Loopback {
			// A README or a table given with the records; an API
			// server's own informer, which reconnects to no other
			// server (timeline's ResumeAnswers leaves it out too).
			continue
		}
		pause()
		rf := ReconnectFile{File: fi, Name: tl.Files[fi].Name, ShortName: tl.Files[fi].ShortName()}
		w := outcomeRank(timeline.Accepted)
		own := w
		for _, v := range an.ResumeAt(fi, q.For(&tl.Files[fi])) {
			rc := ReconnectCursor{Kind: v.Kind, Outcome: v.Outcome, HasCursor: v.HasCursor, RV: v.RV, Reason: v.Reason, Words: an.Words(v)}
			if servers {
				// The file's server is the one its last cursor's
				// reconnect would likely go to.
				per, likely := an.ResumeAtServers(v.File, v.Kind, v.Asked())
				rf.Server = ""
				if likely >= 0 {
					rf.Server = tl.Servers[likely].Name
				}
				for _, sv := range per {
					rc.PerServer = append(rc.PerServer, ServerAnswer{Server: tl.Servers[sv.Server].Name, Outcome: sv.Outcome, Reason: sv.Reason})
				}
				if len(per) > 0 {
					rc.ServerWords = an.ServerWords(per)
				}
			}
			w = min(w, outcomeRank(v.Outcome))
			if v.Kind == timeline.BookmarkAware {
				own = outcomeRank(v.Outcome)
			}
			rf.Cursors = append(rf.Cursors, rc)
		}
		out.Files = append(out.Files, rf)
		ranks[fi] = rank{own, w}
	}
	// The worst first: refused, then at risk, not judged, accepted.
	slices.SortStableFunc(out.Files, func(a, b ReconnectFile) int {
		ra, rb := ranks[a.File], ranks[b.File]
		return cmp.Or(cmp.Compare(ra.own, rb.own), cmp.Compare(ra.worst, rb.worst))
	})
	pause()
	if fc, ok := an.FleetReconnect(q); ok {
		out.Fleet = &fc
		out.OneAnswer = an.Fleet().AllBookmarksUnseen()
	}
	pause()
	out.Words = an.ResumeAtWords(q)
	return out
}

func outcomeRank(o timeline.Outcome) int {
	switch o {
	case timeline.Refused:
		return 0
	case timeline.AtRisk:
		return 1
	case timeline.Unknown:
		return 2
	}
	return 3
}
