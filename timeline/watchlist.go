package timeline

import "sort"

// WatchList: since client-go 1.35 an informer's initial list, and every
// relist, is a WATCH with sendInitialEvents=true and
// resourceVersionMatch=NotOlderThan (watch-protocol.md §1, evidence.md
// §2). The server streams the selection as ADDED events, then a BOOKMARK
// annotated k8s.io/initial-events-end; only that bookmark ends the
// client's sync. Asked for without allowWatchBookmarks, the request is
// still answered, but the bookmark never comes: the informer never
// syncs, and each end of the stream sends it back for the whole
// selection again.

// SyncState is whether a WatchList stream ended its client's sync.
type SyncState uint8

const (
	// SyncDone: the stream carried its initial-events-end bookmark.
	SyncDone SyncState = iota
	// SyncNever: it did not, and could not: the request did not ask for
	// bookmarks, so the server sends none, that one included.
	SyncNever
	// SyncMissing: it asked for bookmarks and ended without that one.
	SyncMissing
	// SyncPresumed: an audit log's request that asked for bookmarks and
	// whose stream outlived the initial events: the log cannot show the
	// bookmark, so the sync is presumed done.
	SyncPresumed
)

var syncStateNames = [...]string{"synced", "never", "missing", "presumed"}

func (s SyncState) String() string { return syncStateNames[s] }

// Holds says the client held its whole state after the stream.
func (s SyncState) Holds() bool { return s == SyncDone || s == SyncPresumed }

// WatchList is one WatchList request of a client.
type WatchList struct {
	File, Session int
	T             int64
	// RV is the resourceVersion it asked for: "" for the first sync (a
	// consistent read), the expired cursor for client-go's relist after
	// a 410 (it keeps it, with NotOlderThan: any newer state will do).
	RV   string
	Sync SyncState
	// SyncedAt is the instant of the initial-events-end bookmark, 0
	// when none came.
	SyncedAt int64
	// Objects and Bytes are the state it streamed: the events before the
	// bookmark that ends the initial events, or, when none came, its
	// leading ADDED events (the live changes ran on after them); 0 from
	// an audit log.
	Objects int
	Bytes   int64
	// Relist: it followed a sync or a 410 (Timeline.Relists has it);
	// Retry: it repeated a first sync that never ended.
	Relist, Retry bool
}

// IsWatchList says the session is a WatchList request: a watch that asks
// for the initial events, or, recorded without its request, one whose
// stream carried the bookmark that ends them.
func (s *Session) IsWatchList() bool {
	if s.Request == nil {
		return s.InitialEventsEnd != 0
	}
	return s.Request.Watch && s.Request.SendInitialEvents
}

// watchListClient says file fi's client lists through WatchList: its
// first watch asked for the initial events (see IsWatchList), whose sync
// ends only with a bookmark.
func (tl *Timeline) watchListClient(fi int) bool {
	for _, g := range tl.Files[fi].Sessions {
		if s := &tl.Sessions[g]; s.isWatch() {
			return s.IsWatchList()
		}
	}
	return false
}

// rereadsWithoutBookmarks says that without bookmarks each reconnect of
// file fi's client reads its whole selection again: it lists through
// WatchList, whose sync ends only with a bookmark, and its records show
// whether it asked for them (a client's own log does not).
func (tl *Timeline) rereadsWithoutBookmarks(fi int) bool {
	return tl.watchListClient(fi) && !tl.Files[fi].BookmarksUnseen()
}

// watchList reads the WatchList request that is the file's session at pos.
func (tl *Timeline) watchList(file, pos int) WatchList {
	g := tl.Files[file].Sessions[pos]
	s := &tl.Sessions[g]
	w := WatchList{File: file, Session: g, T: s.Start, SyncedAt: s.InitialEventsEnd, Objects: s.InitialEvents, Bytes: s.InitialBytes}
	if s.Request != nil {
		w.RV = s.Request.ResourceVersion
	}
	switch {
	case s.InitialEventsEnd != 0:
		w.Sync = SyncDone
	case !s.Request.AllowWatchBookmarks:
		w.Sync = SyncNever
	case tl.Files[file].Audit && tl.Files[file].Log == "" && s.EndReason != EndError:
		// (A client's own log says when its list completed.)
		w.Sync = SyncPresumed
	default:
		w.Sync = SyncMissing
	}
	return w
}

// unsynced says s is a WatchList stream that left its client without a
// cursor: it never ended its sync, so the client has nothing to resume
// from and its reconnect is a new sync, not a resume.
func (tl *Timeline) unsynced(s *Session) bool {
	if !s.IsWatchList() || s.InitialEventsEnd != 0 {
		return false
	}
	f := &tl.Files[s.File]
	return !f.Audit || f.Log != "" || !s.Request.AllowWatchBookmarks
}

// UnsyncedClient is a client whose WatchList requests never ended its
// sync: its informer never reported synced, and each of its requests
// read the whole selection again.
type UnsyncedClient struct {
	File int
	// Requests are its WatchList requests, Repeats those after the
	// first; Objects and Bytes add up what they streamed.
	Requests, Repeats int
	Objects           int
	Bytes             int64
	// NoBookmarks: its requests did not ask for bookmarks, which is why
	// the end of the initial events never came.
	NoBookmarks bool
}

// UnsyncedClients lists the clients that made WatchList requests and
// never synced, in file order.
func (tl *Timeline) UnsyncedClients() []UnsyncedClient {
	var out []UnsyncedClient
	for k := 0; k < len(tl.WatchLists); {
		c, ok := tl.unsyncedFrom(&k)
		if ok {
			out = append(out, c)
		}
	}
	return out
}

// unsyncedFrom reads the WatchList requests of the file of the one at
// *k, moving *k past them: the client, and whether it never synced.
func (tl *Timeline) unsyncedFrom(k *int) (UnsyncedClient, bool) {
	file := tl.WatchLists[*k].File
	c := UnsyncedClient{File: file, NoBookmarks: true}
	synced := false
	for ; *k < len(tl.WatchLists) && tl.WatchLists[*k].File == file; *k++ {
		w := &tl.WatchLists[*k]
		synced = synced || w.Sync.Holds()
		c.Requests++
		c.Objects += w.Objects
		c.Bytes += w.Bytes
		c.NoBookmarks = c.NoBookmarks && w.Sync == SyncNever
	}
	c.Repeats = c.Requests - 1
	return c, !synced && !tl.hasListSync(file)
}

// neverSynced says file fi's client made WatchList requests and never
// synced (UnsyncedClients).
func (tl *Timeline) neverSynced(fi int) bool {
	k := sort.Search(len(tl.WatchLists), func(i int) bool { return tl.WatchLists[i].File >= fi })
	if k == len(tl.WatchLists) || tl.WatchLists[k].File != fi {
		return false
	}
	_, never := tl.unsyncedFrom(&k)
	return never
}

// hasListSync says the file read a LIST, which syncs its client too.
func (tl *Timeline) hasListSync(file int) bool {
	for _, g := range tl.Files[file].Sessions {
		if s := &tl.Sessions[g]; s.isList() {
			return true
		}
	}
	return false
}
