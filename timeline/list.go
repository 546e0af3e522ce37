package timeline

import (
	"net/url"
	"sort"
	"strconv"
)

// LISTs in a capture (watch-protocol.md §3). client-go's Reflector lists,
// then watches from the list's resourceVersion: the LIST's RV is its
// cursor (lastSyncResourceVersion) from the response's end, and its items
// are its state at that RV, not changes. A list too long for one response
// comes in pages, each asked for with the previous one's continue token
// and all at the first page's RV. A LIST after the client's first is a
// relist: the costly path that bookmarks avoid.

// listRead is one LIST, its pages joined.
type listRead struct {
	file  int
	first int // the first page's session (global index)
	last  int // the last page's session read
	end   int64
	rv    uint64
	rvOK  bool
	// complete: every page was read whole, and the last carries no
	// continue token. Only then does the client hold the list's RV.
	complete bool
}

// Relist is a LIST after the client's first one in the same file.
type Relist struct {
	File    int
	Session int    // the LIST's (its first page's) global session index
	T       int64  // its request
	RV      string // the list's resourceVersion
	// Cause is "410" when a 410 Gone (too old resource version) ended the
	// watch just before it (or refused a LIST in between), else "none
	// seen"; CauseT is that 410's instant and CauseMessage its message.
	Cause        string
	CauseT       int64
	CauseMessage string
}

// Relist causes.
const (
	Cause410      = "410"
	CauseNoneSeen = "none seen"
)

// buildLists joins each file's list pages into LISTs, in the order of
// their ends, and finds the relists.
func (tl *Timeline) buildLists() {
	for fi, f := range tl.Files {
		var open *listRead // the file's last LIST, while its pages go on
		firstSeen := false
		for pos, g := range f.Sessions {
			s := &tl.Sessions[g]
			if s.List == nil {
				continue
			}
			if open != nil && tl.continues(s) {
				open.last, open.end = g, s.End
				open.complete = open.complete && s.List.Complete && s.List.Continue == ""
				if s.List.Continue == "" {
					open = nil
				}
				continue
			}
			l := listRead{file: fi, first: g, last: g, end: s.End, complete: s.List.Complete && s.List.Continue == ""}
			if v, err := strconv.ParseUint(s.List.RV, 10, 64); err == nil && v < unknownRV {
				l.rv, l.rvOK = v, true
			}
			l.complete = l.complete && l.rvOK
			tl.lists = append(tl.lists, l)
			open = nil
			if s.List.Continue != "" {
				open = &tl.lists[len(tl.lists)-1]
			}
			if firstSeen {
				tl.Relists = append(tl.Relists, tl.relist(fi, pos))
			}
			firstSeen = true
		}
	}
	sort.SliceStable(tl.lists, func(a, b int) bool { return tl.lists[a].end < tl.lists[b].end })
	tl.listEnds = make(map[int]*listRead, len(tl.lists))
	for k := range tl.lists {
		if l := &tl.lists[k]; l.complete {
			tl.listEnds[l.last] = l
		}
	}
}

// continues says whether the list page in s goes on from the page before
// it: its request asks for a continue token, or, without a request line,
// the page before asked for more.
func (tl *Timeline) continues(s *Session) bool {
	if s.Request == nil {
		return true
	}
	q, err := url.ParseQuery(s.Request.Query)
	return err == nil && q.Get("continue") != ""
}

// relist describes the LIST whose first page is the file's session at pos,
// with its cause: a 410 that ended the session before it, looking past
// LISTs refused in between (client-go retries a refused one with RV "").
func (tl *Timeline) relist(file, pos int) Relist {
	f := &tl.Files[file]
	s := &tl.Sessions[f.Sessions[pos]]
	r := Relist{File: file, Session: f.Sessions[pos], T: s.Start, RV: s.List.RV, Cause: CauseNoneSeen}
	for k := pos - 1; k >= 0; k-- {
		p := &tl.Sessions[f.Sessions[k]]
		switch {
		case gone(p.Error):
			r.Cause, r.CauseT, r.CauseMessage = Cause410, tl.tab.t.at(p.ErrorEvent), p.Error.Message
		case gone(p.Status) || p.HTTPStatus == 410:
			r.Cause, r.CauseT = Cause410, p.End
			if p.Status != nil {
				r.CauseMessage = p.Status.Message
			}
		case p.HTTPStatus != 0 && p.HTTPStatus != 200 && p.Request != nil && !p.Request.Watch:
			continue // a refused LIST: its cause is this one's
		}
		break
	}
	return r
}

// listsUpTo returns the LISTs from *next on that end at or before t, in
// the order of their ends, and moves *next past them.
func (tl *Timeline) listsUpTo(next *int, t int64) []listRead {
	k := *next
	for *next < len(tl.lists) && tl.lists[*next].end <= t {
		*next++
	}
	return tl.lists[k:*next]
}
