package timeline

import "fmt"

// WhatIf counts, for the capture as recorded, the reconnects whose cursor
// would have needed a relist, with and without bookmarks, and had the
// client asked for them.
type WhatIf struct {
	Reconnects                  int
	RelistsWith                 int // bookmark-aware cursor refused
	RelistsWithout              int // bookmark-ignoring cursor refused
	RelistsHad                  int // had-bookmarks cursor refused
	LongestAgeWith              int64
	LongestAgeWithout           int64
	LongestAgeHad               int64
	Saved                       int
	SavedPercent                float64
	Points                      []ReconnectPoint
	UnknownWith, UnknownWithout int
	UnknownHad                  int
	AtRiskWith, AtRiskWithout   int
	AtRiskHad                   int
}

// ReconnectPoint is one reconnect of the what-if.
type ReconnectPoint struct {
	Session            int // the session that ended
	At                 int64
	With, Without, Had Verdict
}

// whatIf evaluates every reconnect of the capture as recorded: the end of
// each watch stream that ended without a 410 (a 410 is itself the
// relist's cause, counted at the reconnect that drew it) and that another
// session of the same file followed, resuming at its start. The end of a
// capture is no reconnect: what one after it would get is its horizon.
// An API server's own informers (File.Loopback) are not the clients the
// question is about, as in the fleet.
func (a *Analysis) whatIf() {
	tl := a.TL
	w := &a.WhatIf
	for fi, f := range tl.Files {
		if f.Loopback {
			continue
		}
		for k, g := range f.Sessions {
			s := tl.Sessions[g]
			if gone(s.Error) || !s.watchStream() || tl.unsynced(&s) {
				continue
			}
			// Attempts that reached no server are the same reconnect,
			// retried: it happens when one is answered, and is judged for
			// the server that answered it.
			next := k + 1
			for next < len(f.Sessions) && tl.Sessions[f.Sessions[next]].Unanswered() {
				next++
			}
			if next == len(f.Sessions) {
				continue
			}
			answer := &tl.Sessions[f.Sessions[next]]
			at := answer.Start
			state := s.End // the cursor as the stream left it
			if at > s.End {
				state = at - 1 // the gap may have moved it (another file's evidence does not)
			}
			// Judged when the server received it (see resumes), with what
			// came strictly before: its own answer (a 410 at its start)
			// is what it drew, not evidence for it (see seenBy).
			received, _ := tl.ServerReceived(f.Sessions[next])
			pt := ReconnectPoint{Session: g, At: at}
			for _, kind := range [...]CursorKind{BookmarkAware, BookmarkIgnoring, HadBookmarks} {
				rv, since, _, ok := a.cursor(fi, kind).At(state)
				v := a.verdictFor(Verdict{File: fi, Kind: kind, T: s.End, At: received}, onServer(answer.answeredBy()), rv, since, ok, received)
				switch kind {
				case BookmarkAware:
					pt.With = v
				case BookmarkIgnoring:
					pt.Without = v
				default:
					pt.Had = v
				}
			}
			w.Reconnects++
			w.count(pt.With, &w.RelistsWith, &w.LongestAgeWith, &w.UnknownWith, &w.AtRiskWith)
			w.count(pt.Without, &w.RelistsWithout, &w.LongestAgeWithout, &w.UnknownWithout, &w.AtRiskWithout)
			w.count(pt.Had, &w.RelistsHad, &w.LongestAgeHad, &w.UnknownHad, &w.AtRiskHad)
			w.Points = append(w.Points, pt)
		}
	}
	w.Saved = w.RelistsWithout - w.RelistsWith
	if w.RelistsWithout > 0 {
		w.SavedPercent = 100 * float64(w.Saved) / float64(w.RelistsWithout)
	}
}

// SavedWords says what the bookmarks received saved, out of what: "113
// of the 193 reconnects that relist when ignoring bookmarks (58.5 %);
// only the clients that asked got any". Beside the
// verdict's "bookmarks save 194 (100.0 %)", had every client asked, a
// bare share read as a second answer to the same question.
func (w *WhatIf) SavedWords() string { return SavedWords(w.Saved, w.RelistsWithout, w.SavedPercent) }

// SavedWords is WhatIf.SavedWords of its figures: saved relists of
// without, percent of them.
func SavedWords(saved, without int, percent float64) string {
	return fmt.Sprintf("%d of the %d reconnects that relist when ignoring bookmarks (%s); only the clients that asked got any", saved, without, FormatPercent(percent))
}

func (w *WhatIf) count(v Verdict, relists *int, longest *int64, unknown, atRisk *int) {
	switch v.Outcome {
	case Refused:
		*relists++
	case Unknown:
		*unknown++
	case AtRisk:
		*atRisk++
	}
	if v.HasCursor && v.At-v.Since > *longest {
		*longest = v.At - v.Since
	}
}
