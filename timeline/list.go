package timeline

import (
	"fmt"
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

// buildLists joins each file's list pages into LISTs, in the order of
// their ends, reads its WatchList requests, and finds the relists: a
// request for the whole state (a LIST's first page, or a WatchList)
// after the client's first sync or after a 410.
func (tl *Timeline) buildLists() {
	for fi, f := range tl.Files {
		var open *listRead // the file's last LIST, while its pages go on
		// synced: the client has held a whole state (a LIST was read, or
		// a WatchList stream carried its initial-events-end bookmark).
		synced, tries := false, 0
		for pos, g := range f.Sessions {
			s := &tl.Sessions[g]
			if s.IsWatchList() {
				w := tl.watchList(fi, pos)
				if r := tl.relist(fi, pos); synced || r.Cause == CauseGone {
					tl.Relists = append(tl.Relists, r)
					w.Relist = true
				} else {
					w.Retry = tries > 0
				}
				tl.WatchLists = append(tl.WatchLists, w)
				synced = synced || w.Sync.Holds()
				tries++
				continue
			}
			if s.List == nil {
				// A LIST whose answer the capture does not hold (an audit
				// log's): a relist all the same, but no list to read.
				if s.isList() && !tl.continues(s) {
					if r := tl.relist(fi, pos); synced || r.Cause == CauseGone {
						tl.Relists = append(tl.Relists, r)
					}
					synced = true
				}
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
			if r := tl.relist(fi, pos); synced || r.Cause == CauseGone {
				tl.Relists = append(tl.Relists, r)
			}
			synced = true
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
// with its cause: a 410 or a failed request that ended the session before
// it, looking past LISTs refused in between (client-go retries a refused
// one with RV "").
func (tl *Timeline) relist(file, pos int) Relist {
	f := &tl.Files[file]
	s := &tl.Sessions[f.Sessions[pos]]
	r := Relist{File: file, Session: f.Sessions[pos], T: s.Start, CauseSession: -1, Reason: "no 410 or failed request before it"}
	if s.Request != nil {
		r.AskedRV, r.Asked = s.Request.ResourceVersion, true
		r.RV = r.AskedRV
	}
	if s.List != nil {
		r.RV = s.List.RV
	}
	tl.relistCost(&r, file, pos)
	for k := pos - 1; k >= 0; k-- {
		g := f.Sessions[k]
		p := &tl.Sessions[g]
		switch {
		case gone(p.Error):
			r.Cause, r.CauseSession, r.Inferred, r.CauseMessage = CauseGone, g, p.inferredGone, p.Error.Message
			r.CauseT, _ = tl.GoneArrival(g)
			r.Reason = "410 Gone " + p.goneMessage()
		case gone(p.Status) || p.HTTPStatus == 410:
			r.Cause, r.CauseSession = CauseGone, g
			r.CauseT, _ = tl.GoneArrival(g)
			if p.Status != nil {
				r.CauseMessage = p.Status.Message
			}
			r.Reason = "410 Gone " + p.goneMessage()
		case p.HTTPStatus != 0 && p.HTTPStatus != 200 && p.Request != nil && !p.Request.Watch:
			continue // a refused LIST: its cause is this one's
		case p.HTTPStatus != 0 && p.HTTPStatus != 200:
			r.Cause, r.CauseSession, r.CauseT = CauseError, g, p.End
			r.Reason = fmt.Sprintf("the request before it got HTTP %d", p.HTTPStatus)
		case p.Error != nil:
			r.Cause, r.CauseSession, r.CauseT, r.CauseMessage = CauseError, g, p.End, p.Error.Message
			r.Reason = "the watch before it ended with an error: " + p.Error.Message
		}
		break
	}
	return r
}

// relistCost fills where the relist that is the file's session at pos
// was served from, and what it read.
func (tl *Timeline) relistCost(r *Relist, file, pos int) {
	f := &tl.Files[file]
	s := &tl.Sessions[f.Sessions[pos]]
	// A client of the logs has no events: what it read is not there.
	r.Unread = f.Audit
	switch {
	case s.IsWatchList():
		r.Kind, r.Source, r.Objects, r.Bytes = RelistWatchList, SourceCache, s.InitialEvents, s.InitialBytes
		return
	case s.Request == nil:
	case s.Request.ResourceVersion == "":
		r.Source = SourceEtcd
	default:
		r.Source = SourceCache
	}
	for k := pos; k < len(f.Sessions); k++ {
		p := &tl.Sessions[f.Sessions[k]]
		if p.List == nil || k > pos && !tl.continues(p) {
			break
		}
		r.Objects += p.Events
		r.Bytes += p.EndOffset - p.Offset
	}
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
