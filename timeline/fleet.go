package timeline

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// The fleet: every client on the shared clock at once.
//
// A client is a file: a capture of one client's connection, or an
// informer's requests from audit logs (audit.go), but for the API
// servers' own informers. What matters to the control plane is how many
// clients read their whole state again at the
// same moment. The fleet counts the relists each client made and why,
// what bookmarks would have changed (the what-if's cursors and the
// counterfactual), and, at every instant, how many clients a reconnect
// then would send to a relist: the stampede had every watch dropped at
// once, each resuming over its open connection while its server takes
// new requests, else through the load balancer.

// RelistCause is why a client listed again.
type RelistCause uint8

const (
	// CauseUnknown: nothing before the LIST says why.
	CauseUnknown RelistCause = iota
	// CauseGone: the watch before it ended in 410 Gone (an ERROR event,
	// a LIST's HTTP 410, or inferred from an audit log).
	CauseGone
	// CauseError: the request before it failed otherwise.
	CauseError
)

var relistCauseNames = [...]string{"none seen", "410", "error"}

func (c RelistCause) String() string { return relistCauseNames[c] }

// RelistKind is how a client read its state again.
type RelistKind uint8

const (
	// RelistList: a LIST (its pages joined).
	RelistList RelistKind = iota
	// RelistWatchList: a WATCH with sendInitialEvents=true (client-go's
	// WatchList client, on by default since 1.35).
	RelistWatchList
)

var relistKindNames = [...]string{"list", "watchlist"}

func (k RelistKind) String() string { return relistKindNames[k] }

// RelistSource is where the API server served a relist from
// (evidence.md §3.1, watch-protocol.md §3): what it cost the control
// plane.
type RelistSource uint8

const (
	// SourceUnknown: the capture holds no request line.
	SourceUnknown RelistSource = iota
	// SourceCache: the watch cache: a LIST at a resourceVersion (client-go
	// lists at its last cursor first), or any WatchList.
	SourceCache
	// SourceEtcd: etcd: a LIST with resourceVersion "", a consistent read
	// (unless the server serves those from its cache too).
	SourceEtcd
)

var relistSourceNames = [...]string{"unknown", "watch cache", "etcd"}

func (s RelistSource) String() string { return relistSourceNames[s] }

var relistSourceWords = [...]string{"an unknown source", "the watch cache", "etcd"}

// Words names the source as a sentence says it: "the watch cache".
func (s RelistSource) Words() string { return relistSourceWords[s] }

// Relist is a request for the whole state after a client's first sync,
// or after a 410: the client read its state again, the costly path a
// resumable cursor avoids.
type Relist struct {
	File    int // the client
	Session int // global index of the LIST (its first page's) or the WatchList
	T       int64
	Kind    RelistKind
	Source  RelistSource
	// Objects and Bytes are the state it read, as the capture holds it
	// (a list's items over its pages, a WatchList's initial events).
	// Unread: its records (an audit log, a client's own log) hold the
	// request, not what it read, and both are 0.
	Objects int
	Bytes   int64
	Unread  bool
	// RV is the LIST's resourceVersion: the list's own when the capture
	// holds its answer, else the one it asked for (client-go lists at its
	// cursor first, served from the cache, and with "" from etcd only
	// when that fails).
	RV string
	// AskedRV is the resourceVersion its request asked for ("" asks
	// for the most recent state); Asked says a request was recorded.
	// After a 410, client-go asks for the expired cursor itself.
	AskedRV string
	Asked   bool
	Cause   RelistCause
	// CauseSession is the session that caused it (global index), -1 when
	// none was seen; CauseT and CauseMessage the 410's (or error's)
	// instant and message. Inferred says the 410 is read from an audit
	// log's signature, not seen.
	CauseSession int
	CauseT       int64
	CauseMessage string
	Inferred     bool
	Reason       string
}

// isList: the session is a LIST of a collection (not a watch, not a GET
// of one object).
func (s *Session) isList() bool {
	r := s.Request
	return r != nil && !r.Watch && r.Method == "GET" && isCollectionPath(r.Path)
}

// isCollectionPath says whether an API path names a collection:
// /api/v1/RES, /api/v1/namespaces/NS/RES, /apis/G/V/RES and their
// namespaced forms (a namespace itself, /api/v1/namespaces/NS, is one
// object).
func isCollectionPath(path string) bool {
	seg := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case len(seg) >= 2 && seg[0] == "api":
		seg = seg[2:]
	case len(seg) >= 3 && seg[0] == "apis":
		seg = seg[3:]
	default:
		return false
	}
	return len(seg) == 1 || len(seg) == 3 && seg[0] == "namespaces"
}

// goneMessage says where a session's 410 came from.
func (s *Session) goneMessage() string {
	switch {
	case s.inferredGone:
		return "(" + s.Error.Message + ")"
	case s.Error != nil:
		return fmt.Sprintf("in the watch's stream: %q", s.Error.Message)
	case s.Status != nil:
		return fmt.Sprintf("answering the LIST: %q", s.Status.Message)
	}
	return "answering the request"
}

// FleetClient is one client of the fleet.
type FleetClient struct {
	File int
	// Name is the client's User-Agent, else (none, or one that other
	// clients share) its file's name.
	Name string
	// Bookmarks says every watch of the client asked for bookmarks (or,
	// recorded without its request, got some). BookmarksUnseen: its
	// records show neither (File.BookmarksUnseen), and Bookmarks is its
	// library's default, not what it did.
	Bookmarks, BookmarksUnseen bool
	Watches, Lists             int
	// NeverSynced: its WatchList requests never ended its sync
	// (Timeline.UnsyncedClients); Repeats are those after its first, each
	// of which read the whole selection again.
	NeverSynced bool
	Repeats     int
	// WatchList: its first watch was a WatchList request, whose sync
	// ends only with a bookmark: without bookmarks it never syncs, and
	// each reconnect reads the whole selection again (see Fleet).
	WatchList bool
	rereads   bool // see rereadsWithout
	// Profile is what its library does by default, from its User-Agent;
	// ProfileDifferences where its requests differ from that.
	Profile            ClientProfile
	ProfileDifferences []string
	Relists            []Relist
	// EndsAtGone: its records end at a watch refused with 410 Gone, so the
	// relist that 410 sends it to is not among Relists (the recording
	// stopped first). RelistsDue counts it.
	EndsAtGone bool
	Reconnects int
	Drops      int // watches that ended before their deadline, not in a 410, nor at the recording's stop
	// With and Without count the reconnects whose cursor the models
	// refuse, with and without bookmarks; UnknownWith and UnknownWithout
	// those they cannot judge, on the side the client did not record.
	With, Without               int
	UnknownWith, UnknownWithout int
	LongestAge                  int64 // the recorded cursor's longest age at a reconnect
	// AgeKnown: the recorded cursor was known at one of its reconnects
	// at least (an audit log's bookmarks sit at a head nothing may show).
	AgeKnown bool
	// RelistsWith and RelistsWithout are the client's relists with and
	// without bookmarks (see Fleet).
	RelistsWith, RelistsWithout int
	// WithoutAtLeast: RelistsWithout is the least it could be. The client
	// asked for bookmarks, and its audit log shows the cursor they kept
	// fresh; without them it would have resumed from its last event's RV,
	// older still, which the log does not show. Or it lists through
	// WatchList and reconnected: without bookmarks it would also have
	// retried each time its wait for the sync ran out.
	WithoutAtLeast bool
	// RefusedWith and RefusedWithout are the sorted, disjoint [from, to)
	// spans where a reconnect of the client's cursor with bookmarks and
	// without them (see Analysis.sides) would be refused; AtRiskWith and
	// AtRiskWithout, where it would be at risk and not refused.
	RefusedWith, RefusedWithout [][2]int64
	AtRiskWith, AtRiskWithout   [][2]int64
}

// askedInAuditLogs counts the clients read from audit logs whose relists
// without bookmarks are the least they could be (FleetClient.WithoutAtLeast)
// for the cursor the log shows: not the WatchList clients, whose count is
// a least for their retries (atLeastWords).
func (f *Fleet) askedInAuditLogs() int {
	n := 0
	for k := range f.Clients {
		if c := &f.Clients[k]; c.WithoutAtLeast && !(c.rereadsWithout() && c.Bookmarks) {
			n++
		}
	}
	return n
}

// watchListsReconnecting counts the WatchList clients that asked for
// bookmarks and reconnected: without bookmarks, each reconnect would
// have read the whole selection again.
func (f *Fleet) watchListsReconnecting() int {
	n := 0
	for k := range f.Clients {
		if c := &f.Clients[k]; c.rereadsWithout() && c.Bookmarks && !c.NeverSynced && c.Reconnects > 0 {
			n++
		}
	}
	return n
}

// auditCursorsWithoutBookmarks says some client of the fleet is read
// from the audit logs alone and did not ask for bookmarks: its cursor
// at an instant is the RV of its last request, which its events may
// have moved past since.
func (f *Fleet) auditCursorsWithoutBookmarks(tl *Timeline) bool {
	for k := range f.Clients {
		if c := &f.Clients[k]; !c.Bookmarks && tl.Files[c.File].ServerRecorded() {
			return true
		}
	}
	return false
}

// RelistsDue counts the relists the client's records show it made or
// sent to: those made, and the one a 410 at the records' end forces.
func (c *FleetClient) RelistsDue() int {
	if c.EndsAtGone {
		return len(c.Relists) + 1
	}
	return len(c.Relists)
}

// Synced counts the clients that synced: all but those whose WatchList
// requests never ended their sync (NeverSynced).
func (f *Fleet) Synced() int {
	n := 0
	for k := range f.Clients {
		if !f.Clients[k].NeverSynced {
			n++
		}
	}
	return n
}

// Fleet is the fleet's model.
type Fleet struct {
	Clients []FleetClient // riskiest first
	// RelistsObserved counts the relists the clients made. RelistsWith
	// and RelistsWithout are the relists with and without bookmarks: a
	// client that asked for them counts its observed relists with and
	// its what-if's bookmark-ignoring cursor without; one that did not,
	// its observed relists without and its counterfactual with. Unknown
	// counts the reconnects the models could not judge for the side that
	// was not recorded.
	RelistsObserved             int
	RelistsWith, RelistsWithout int
	UnknownWith, UnknownWithout int
	// SavingsKnown says the records tell what bookmarks would have
	// saved: a client that relisted, or would have without bookmarks,
	// asked for them, or a model judged one of its reconnects as if it
	// had; or nothing would have been saved. Saved and SavedPercent are
	// 0 when they do not.
	SavingsKnown bool
	Saved        int
	SavedPercent float64
	// WithoutAtLeast: RelistsWithout, and so Saved and SavedPercent, are
	// the least they could be (a client's FleetClient.WithoutAtLeast).
	WithoutAtLeast bool
	// WatchListsAsked counts the WatchList clients that asked for
	// bookmarks and synced: without them each would never have synced, so
	// its relists without bookmarks are its reconnects, each a read of
	// the whole selection; the stampede's steps count its cursor had it
	// ignored bookmarks.
	WatchListsAsked int
	// Cost is what the relists read, and from where.
	Cost FleetCost
	// Steps is the stampede over the shared clock: from each step's T on,
	// how many clients a reconnect would send to a relist.
	Steps []FleetStep
	// Stampedes are the worst stretches, in time order; Worst indexes the
	// one ranked first (the most refused, then the most at risk, then
	// the longest), -1 when there is none; RankedWithBookmarks says they are
	// ranked by the clients with bookmarks, not without (stampedes).
	Stampedes           []Stampede
	Worst               int
	RankedWithBookmarks bool
}

// FleetStep is one step of the stampede series: from T, With clients
// (with bookmarks) and Without clients (without them) would be refused,
// and AtRiskWith and AtRiskWithout more would be at risk: past what the
// server is sure to keep, with nothing on the clock to say it refuses
// (audit logs alone, or a head no capture shows, give no more).
type FleetStep struct {
	T                         int64
	With, Without             int
	AtRiskWith, AtRiskWithout int
}

// Stampede is a stretch where the most clients at once would relist,
// or be at risk of it.
type Stampede struct {
	From, To                  int64
	With, Without             int
	AtRiskWith, AtRiskWithout int
	// Reasons are the models that refuse, or put at risk, the clients'
	// reconnects at From, the details behind the plain words
	// (stampedeReasons).
	Reasons []StampedeReason
}

// sides are a client's cursors with and without bookmarks: the recorded
// one and the what-if's bookmark-ignoring one when it asked for them,
// else the counterfactual (when there is one) and its own.
func (a *Analysis) sides(c *FleetClient) (with, without CursorKind) {
	if c.Bookmarks {
		return BookmarkAware, BookmarkIgnoring
	}
	if a.HadBookmarks[c.File].Synthetic {
		return HadBookmarks, BookmarkIgnoring
	}
	return BookmarkAware, BookmarkIgnoring
}

// maxStampedes bounds the stampedes listed.
const maxStampedes = 5

// clientNames names each client by its User-Agent where that tells it
// from the others, else by its file's name: clients built with
// client-go's default User-Agent, or the API servers' own informers,
// share one.
func (tl *Timeline) clientNames(cs []FleetClient) {
	n := map[string]int{}
	for k := range cs {
		n[cs[k].Name]++
	}
	for k := range cs {
		if n[cs[k].Name] > 1 {
			cs[k].Name = tl.Files[cs[k].File].ShortName()
		}
	}
}

// clientName is the client's User-Agent, else its file's short name: a
// table of clients has no room for the path a file was opened from.
func (tl *Timeline) clientName(fi int) string {
	if ua := tl.UserAgent(fi); ua != "" {
		return ua
	}
	return tl.Files[fi].ShortName()
}

// UserAgent is the client's User-Agent: an audit log's, or a capture's
// first request's that has one; "" when none was recorded.
func (tl *Timeline) UserAgent(fi int) string {
	f := &tl.Files[fi]
	if f.Client != "" {
		return f.Client
	}
	for _, g := range f.Sessions {
		if r := tl.Sessions[g].Request; r != nil && r.UserAgent != "" {
			return r.UserAgent
		}
	}
	return ""
}

// Fleet is the fleet's model, built on first use; nil when fewer than two
// clients (files with a watch) are loaded.
func (a *Analysis) Fleet() *Fleet {
	if !a.fleetBuilt {
		a.fleet, a.fleetBuilt = a.buildFleet(), true
	}
	return a.fleet
}

func (a *Analysis) buildFleet() *Fleet {
	tl := a.TL
	byFile := map[int]int{}
	fl := &Fleet{}
	for fi, f := range tl.Files {
		if f.Loopback {
			continue
		}
		c := FleetClient{File: fi, Name: tl.clientName(fi), Bookmarks: true, BookmarksUnseen: tl.Files[fi].BookmarksUnseen()}
		for _, g := range f.Sessions {
			s := &tl.Sessions[g]
			switch {
			case s.isWatch():
				c.Watches++
				// A response recorded without its request shows the
				// asking by the bookmarks it got.
				asked := s.Request != nil && s.Request.AllowWatchBookmarks || s.Request == nil && s.Bookmarks > 0
				c.Bookmarks = c.Bookmarks && asked
				// A request no server answered was no watch to drop, and
				// the recording's stop (EndCutOff) ended none; see
				// recordingStopped for a stop that ends a stream cleanly.
				if (s.EndReason == EndEOF || s.EndReason == EndNewResponse) && !s.Unanswered() {
					c.Drops++
				}
			case s.isList():
				c.Lists++
			}
		}
		if c.Watches == 0 {
			continue
		}
		c.WatchList, c.rereads = tl.watchListClient(fi), tl.rereadsWithoutBookmarks(fi)
		c.Profile = tl.FileProfile(fi)
		c.ProfileDifferences = tl.ProfileDifferences(fi, c.Profile)
		c.EndsAtGone = tl.EndsAtGone(fi)
		byFile[fi] = len(fl.Clients)
		fl.Clients = append(fl.Clients, c)
	}
	if len(fl.Clients) < 2 {
		return nil
	}
	for k := range tl.recordingStopped(fl.Clients) {
		fl.Clients[k].Drops--
	}
	tl.clientNames(fl.Clients)
	for _, u := range tl.UnsyncedClients() {
		if k, ok := byFile[u.File]; ok {
			fl.Clients[k].NeverSynced, fl.Clients[k].Repeats = true, u.Repeats
		}
	}
	var relists []Relist
	for _, r := range tl.Relists {
		if k, ok := byFile[r.File]; ok {
			fl.Clients[k].Relists = append(fl.Clients[k].Relists, r)
			relists = append(relists, r)
		}
	}
	var lists []int64
	from, to := int64(0), int64(0)
	for fi := range byFile {
		f := &tl.Files[fi]
		if f.Start != 0 && (from == 0 || f.Start < from) {
			from = f.Start
		}
		to = max(to, f.End)
		for _, g := range f.Sessions {
			if s := &tl.Sessions[g]; s.isList() && !tl.continues(s) {
				lists = append(lists, s.Start)
			}
		}
	}
	fl.Cost = fleetCost(relists, lists, tl.Metrics, tl.WatchedResources(), from, to)
	for _, pt := range a.WhatIf.Points {
		k, ok := byFile[tl.Sessions[pt.Session].File]
		if !ok {
			continue
		}
		c := &fl.Clients[k]
		c.Reconnects++
		// The recorded cursor and the one the client did not have. A
		// client's own log shows no bookmarks: its cursor is the last RV
		// the log names, one without them, and what they would have
		// changed is not known.
		unseen := c.BookmarksUnseen
		asked := c.Bookmarks && !unseen
		rec, other := pt.With, pt.Without
		switch {
		case unseen:
			rec, other = pt.Without, Verdict{Outcome: Unknown}
		case !asked:
			rec, other = pt.Without, pt.Had
		}
		if rec.Outcome == Refused {
			if asked {
				c.With++
			} else {
				c.Without++
			}
		}
		if asked && tl.Files[c.File].ServerRecorded() {
			c.WithoutAtLeast = true
		}
		if rec.HasCursor {
			c.AgeKnown = true
			c.LongestAge = max(c.LongestAge, rec.At-rec.Since)
		}
		switch {
		case other.Outcome == Refused && asked:
			c.Without++
		case other.Outcome == Refused:
			c.With++
		case other.Outcome == Unknown && asked:
			c.UnknownWithout++
		case other.Outcome == Unknown:
			c.UnknownWith++
		}
	}
	for k := range fl.Clients {
		c := &fl.Clients[k]
		fl.RelistsObserved += len(c.Relists)
		// Observed relists, and one a 410 at the records' end forces, are
		// what happened; the other side is the models' answer at the
		// reconnects.
		n := c.RelistsDue()
		switch {
		case c.rereadsWithout() && c.NeverSynced && c.Bookmarks:
			// It asked and never synced all the same: bookmarks changed
			// nothing, and each request after the first read the whole
			// selection again.
			c.RelistsWith = max(n, c.Repeats)
			c.RelistsWithout = c.RelistsWith
		case c.rereadsWithout() && c.NeverSynced:
			// Without bookmarks, as recorded: each request after the
			// first read the whole selection again.
			c.RelistsWith, c.RelistsWithout = c.With, max(n, c.Repeats)
		case c.rereadsWithout() && c.Bookmarks:
			// Without them it would never have synced: each reconnect
			// reads the whole selection again, and so does each retry
			// when its wait for the sync runs out, which nothing shows:
			// the count is a least where it reconnected.
			c.RelistsWith, c.RelistsWithout = n, max(n, c.Reconnects)
			c.UnknownWithout, c.WithoutAtLeast = 0, c.Reconnects > 0
			fl.WatchListsAsked++
		case c.Bookmarks && !c.BookmarksUnseen:
			c.RelistsWith, c.RelistsWithout = n, max(c.Without, n)
		default:
			c.RelistsWith, c.RelistsWithout = c.With, n
		}
		fl.RelistsWith += c.RelistsWith
		fl.RelistsWithout += c.RelistsWithout
		fl.UnknownWith += c.UnknownWith
		fl.UnknownWithout += c.UnknownWithout
		fl.WithoutAtLeast = fl.WithoutAtLeast || c.WithoutAtLeast
		fl.SavingsKnown = fl.SavingsKnown || c.RelistsWithout > 0 && !c.BookmarksUnseen && (c.Bookmarks || !c.WithUnknown())
	}
	// Nothing to save is known as such, but where the clients' logs hide
	// every bookmark.
	fl.SavingsKnown = fl.SavingsKnown || fl.RelistsWithout == 0 && !fl.AllBookmarksUnseen()
	if fl.SavingsKnown {
		fl.Saved = fl.RelistsWithout - fl.RelistsWith
		if fl.RelistsWithout > 0 {
			fl.SavedPercent = 100 * float64(fl.Saved) / float64(fl.RelistsWithout)
		}
	}
	sort.SliceStable(fl.Clients, func(i, j int) bool {
		x, y := &fl.Clients[i], &fl.Clients[j]
		if x.NeverSynced != y.NeverSynced {
			return x.NeverSynced // broken whatever its cursor does
		}
		if len(x.Relists) != len(y.Relists) {
			return len(x.Relists) > len(y.Relists)
		}
		if x.RelistsWithout != y.RelistsWithout {
			return x.RelistsWithout > y.RelistsWithout
		}
		return x.LongestAge > y.LongestAge
	})
	a.stampede(fl)
	return fl
}

// rereadsWithout says that without bookmarks each reconnect of the
// client reads its whole selection again (Timeline.rereadsWithoutBookmarks).
func (c *FleetClient) rereadsWithout() bool { return c.rereads }

// WithUnknown says no model could judge a reconnect of the client had it
// asked for bookmarks, when it did not: its "with" side is not known.
func (c *FleetClient) WithUnknown() bool {
	return !c.Bookmarks && c.Reconnects > 0 && c.UnknownWith >= c.Reconnects
}

// AllBookmarksUnseen says every client's own log hides its bookmarks:
// what they would have changed is one answer, the cursor each log shows.
func (f *Fleet) AllBookmarksUnseen() bool { return f.BookmarksUnseen() == len(f.Clients) }

// allAsked says every client asked for bookmarks, as its records show:
// the fleet's side with bookmarks is the one it ran.
func (f *Fleet) allAsked() bool {
	for k := range f.Clients {
		if c := &f.Clients[k]; !c.Bookmarks || c.BookmarksUnseen {
			return false
		}
	}
	return len(f.Clients) > 0
}

// BookmarksUnseen counts the clients whose records show neither the
// bookmarks they asked for nor those they received.
func (f *Fleet) BookmarksUnseen() int {
	n := 0
	for k := range f.Clients {
		if f.Clients[k].BookmarksUnseen {
			n++
		}
	}
	return n
}

// stampede builds the step series from the zones: a client counts from
// the instant any model refuses (or puts at risk) a reconnect of its
// cursor with bookmarks and without them (see sides). A client refused
// on a side is not also counted at risk there.
func (a *Analysis) stampede(fl *Fleet) {
	type edge struct {
		t int64
		d int
		// count is the FleetStep counter it moves.
		count func(*FleetStep) *int
	}
	var edges []edge
	counters := [2][2]func(*FleetStep) *int{
		{func(s *FleetStep) *int { return &s.With }, func(s *FleetStep) *int { return &s.Without }},
		{func(s *FleetStep) *int { return &s.AtRiskWith }, func(s *FleetStep) *int { return &s.AtRiskWithout }},
	}
	refused, risky := zoneSpans(a.Zones), zoneSpans(a.RiskZones)
	for k := range fl.Clients {
		c := &fl.Clients[k]
		with, without := a.sides(c)
		c.RefusedWith = spanUnion(refused[fileCursor{c.File, with}])
		c.RefusedWithout = spanUnion(refused[fileCursor{c.File, without}])
		c.AtRiskWith = spanMinus(spanUnion(risky[fileCursor{c.File, with}]), c.RefusedWith)
		c.AtRiskWithout = spanMinus(spanUnion(risky[fileCursor{c.File, without}]), c.RefusedWithout)
		if f := &a.TL.Files[c.File]; f.Clock != ClockNone {
			// A client counts while it is recorded: its cursor's zones run
			// on past its file's end (a reconnect after the capture stopped
			// is still a question of its own), but had every watch dropped
			// then, nothing shows that this client was still watching, or
			// from which cursor; its last instant is included.
			end := f.End + 1
			c.RefusedWith, c.RefusedWithout = spanBefore(c.RefusedWith, end), spanBefore(c.RefusedWithout, end)
			c.AtRiskWith, c.AtRiskWithout = spanBefore(c.AtRiskWith, end), spanBefore(c.AtRiskWithout, end)
		}
		for side, spans := range [2][2][][2]int64{{c.RefusedWith, c.RefusedWithout}, {c.AtRiskWith, c.AtRiskWithout}} {
			for w, list := range spans {
				for _, iv := range list {
					edges = append(edges, edge{iv[0], 1, counters[side][w]}, edge{iv[1], -1, counters[side][w]})
				}
			}
		}
	}
	sort.SliceStable(edges, func(i, j int) bool { return edges[i].t < edges[j].t })
	cur := FleetStep{}
	for i := 0; i < len(edges); {
		t := edges[i].t
		for ; i < len(edges) && edges[i].t == t; i++ {
			*edges[i].count(&cur) += edges[i].d
		}
		cur.T = t
		if n := len(fl.Steps); n > 0 && sameCounts(fl.Steps[n-1], cur) {
			continue
		}
		fl.Steps = append(fl.Steps, cur)
	}
	fl.Stampedes, fl.Worst, fl.RankedWithBookmarks = stampedes(fl.Steps, fl.allAsked())
	a.stampedeReasons(fl)
}

// stampedes are the stretches of steps with the most clients refused
// without bookmarks, or, where every client asked for them (asked) and
// some step counts clients with them, with them: the stampede the fleet
// as it was would have met, not the one it was spared; when no model
// refuses any (audit logs alone), the most at risk. A stretch runs while
// the counts it is ranked by stay the same, and keeps the most at risk
// within it. A stretch that holds no
// instant on a millisecond is none: the words name a stretch by its
// start rounded up to the millisecond (instantFrom), which a reconnect
// asked then must find in it (a client between two of its watches for
// 0.3 ms in samples-lab's audit logs made one). They come in time order, with the index of the
// one ranked first, and whether they are ranked with bookmarks.
func stampedes(steps []FleetStep, asked bool) ([]Stampede, int, bool) {
	refused, with, withAtRisk := false, false, false
	for _, s := range steps {
		refused = refused || s.Without > 0 || s.With > 0
		with, withAtRisk = with || s.With > 0, withAtRisk || s.AtRiskWith > 0
	}
	asked = asked && (with || !refused && withAtRisk)
	measure := func(s FleetStep) [2]int {
		switch {
		case refused && asked:
			return [2]int{s.With, s.Without}
		case refused:
			return [2]int{s.Without, s.With}
		case asked:
			return [2]int{s.AtRiskWith, s.AtRiskWithout}
		}
		return [2]int{s.AtRiskWithout, s.AtRiskWith}
	}
	var st []Stampede
	for k := 0; k < len(steps); {
		m := measure(steps[k])
		run := Stampede{From: steps[k].T, With: steps[k].With, Without: steps[k].Without}
		for ; k < len(steps) && measure(steps[k]) == m; k++ {
			run.AtRiskWith = max(run.AtRiskWith, steps[k].AtRiskWith)
			run.AtRiskWithout = max(run.AtRiskWithout, steps[k].AtRiskWithout)
		}
		if k == len(steps) || m[0] < 2 || CeilMillisecond(run.From) >= steps[k].T {
			continue
		}
		run.To = steps[k].T
		st = append(st, run)
	}
	rank := func(s Stampede) [2]int {
		if asked {
			return [2]int{s.With, s.AtRiskWith}
		}
		return [2]int{s.Without, s.AtRiskWithout}
	}
	sort.SliceStable(st, func(i, j int) bool {
		a, b := rank(st[i]), rank(st[j])
		if a != b {
			return a[0] > b[0] || a[0] == b[0] && a[1] > b[1]
		}
		return st[i].To-st[i].From > st[j].To-st[j].From
	})
	st = st[:min(len(st), maxStampedes)]
	if len(st) == 0 {
		return nil, -1, asked
	}
	worst := st[0].From
	sort.Slice(st, func(i, j int) bool { return st[i].From < st[j].From })
	return st, sort.Search(len(st), func(i int) bool { return st[i].From >= worst }), asked
}

// recordingStopTogether bounds how far apart the clean ends of the
// clients' last watches are when the recording's stop ended them: 0.7 s
// over samples-watchlist's 99 clients.
const recordingStopTogether = int64(2 * time.Second)

// recordingStopped are the clients (indices in clients) whose records end
// with a watch that ended cleanly (EndEOF) within
// recordingStopTogether of the first of such ends of more than half the
// fleet's clients: the recording's stop, which closed them as a client
// that writes its own record does when it stops ("by=client" in
// samples-watchlist's load balancer's log), not a drop. A server that
// ends many watches at once, as a restart does, sees its clients come
// back: their records go on; a watch its server's shutdown ended is a
// drop all the same (endedByShutdown). Only records on the arrival clock
// count, each capture once: the virtual clients of one capture
// (SplitOf) share its connection's end, and stop with it. A record of
// one client cannot tell, and keeps its last end as a drop.
func (tl *Timeline) recordingStopped(clients []FleetClient) map[int]bool {
	type end struct {
		capture string
		at      int64
	}
	var ends []end
	// of holds each capture's clients whose records end in a clean end;
	// captures counts every capture.
	of := map[string][]int{}
	captures := map[string]bool{}
	for k := range clients {
		f := &tl.Files[clients[k].File]
		if f.Clock != ClockArrival {
			continue
		}
		capture := f.Name
		if f.SplitOf != "" {
			capture = f.SplitOf
		}
		captures[capture] = true
		s := &tl.Sessions[f.Sessions[len(f.Sessions)-1]]
		if s.EndReason != EndEOF || s.Unanswered() || !s.isWatch() || tl.endedByShutdown(s) {
			continue
		}
		if of[capture] = append(of[capture], k); len(of[capture]) == 1 {
			ends = append(ends, end{capture, s.End})
		}
	}
	sort.Slice(ends, func(i, j int) bool { return ends[i].at < ends[j].at })
	stopped := map[int]bool{}
	for i, j := 0, 0; i < len(ends); i = j {
		for j = i + 1; j < len(ends) && ends[j].at-ends[i].at <= recordingStopTogether; j++ {
		}
		if 2*(j-i) > len(captures) {
			for _, e := range ends[i:j] {
				for _, k := range of[e.capture] {
					stopped[k] = true
				}
			}
		}
	}
	return stopped
}

// endedByShutdown says session s ended in its server process's shutdown:
// the process had stopped taking new requests, and s ended with the
// watches it still served, as its records end.
func (tl *Timeline) endedByShutdown(s *Session) bool {
	if s.Server < 0 || s.Incarnation < 0 {
		return false
	}
	inc := &tl.Servers[s.Server].Incarnations[s.Incarnation]
	return inc.closed(s.End) && inc.To-s.End <= restartCluster
}

func sameCounts(a, b FleetStep) bool {
	a.T = b.T
	return a == b
}

// FleetReconnect is what a reconnect of every client at one instant would
// get, with bookmarks and without (see sides), and AsRecorded as each
// client ran, with bookmarks where it asked for them (its side of the
// two): what a rolling restart of the API servers then would cost in
// relists, each client reconnecting once to a server that kept its
// history.
type FleetReconnect struct {
	Query                     ResumeQuery
	With, Without, AsRecorded OutcomeCounts
}

// OutcomeCounts counts clients by the outcome of their reconnect.
type OutcomeCounts struct {
	Accepted, AtRisk, Refused, Unknown int
	// Of the Unknown, NoCursor had no resourceVersion to resume from (a
	// WatchList that never synced, a watch from none that has seen
	// nothing yet), whose reconnect lists everything again and is no 410,
	// BeforeRecording were asked about before their recordings begin, and
	// AfterRecording after they ended (an instant, not one relative to each
	// recording's end): nothing shows the client still watching then. The
	// rest are those no record shows the cluster's head for.
	NoCursor, BeforeRecording, AfterRecording int
	// UnnamedRV: of the Unknown, clients read from their own logs, which
	// name no resourceVersion they held then; NoServer, clients asked
	// about when no API server took new requests, nor again in the
	// records.
	UnnamedRV, NoServer int
}

// noHead counts the Unknown that no other reason leaves unjudged: no
// record shows the cluster's head then.
func (c OutcomeCounts) noHead() int {
	return c.Unknown - c.NoCursor - c.BeforeRecording - c.AfterRecording - c.UnnamedRV - c.NoServer
}

func (c *OutcomeCounts) add(o Outcome, why unjudged) {
	switch o {
	case Accepted:
		c.Accepted++
	case AtRisk:
		c.AtRisk++
	case Refused:
		c.Refused++
	default:
		c.Unknown++
		switch why {
		case noCursor:
			c.NoCursor++
		case beforeRecording:
			c.BeforeRecording++
		case afterRecording:
			c.AfterRecording++
		case unnamedRV:
			c.UnnamedRV++
		case noServer:
			c.NoServer++
		}
	}
}

// FleetReconnect answers q for the whole fleet; false without a fleet.
func (a *Analysis) FleetReconnect(q ResumeQuery) (FleetReconnect, bool) {
	fl := a.Fleet()
	if fl == nil {
		return FleetReconnect{}, false
	}
	r := FleetReconnect{Query: q}
	for k := range fl.Clients {
		c := &fl.Clients[k]
		with, without := a.sides(c)
		f := &a.TL.Files[c.File]
		at := q.For(f)
		if q.afterRecording(f) {
			// As the curves count it (stampede): not recorded then; but
			// where no server takes requests, that says more, and it is
			// what each client's own answer says.
			why := afterRecording
			if at >= a.noneTakingFrom() {
				why = noServer
			}
			r.With.add(Unknown, why)
			r.Without.add(Unknown, why)
			r.AsRecorded.add(Unknown, why)
			continue
		}
		to := a.reconnectReach(c.File, at, at)
		ow, whyW := a.resumeOutcomeWhy(c.File, with, to, at)
		oo, whyO := a.resumeOutcomeWhy(c.File, without, to, at)
		r.With.add(ow, whyW)
		r.Without.add(oo, whyO)
		if c.Bookmarks {
			r.AsRecorded.add(ow, whyW)
		} else {
			r.AsRecorded.add(oo, whyO)
		}
	}
	return r, true
}

// fileCursor is one cursor of one file.
type fileCursor struct {
	file int
	kind CursorKind
}

// zoneSpans groups the zones' spans by file and cursor, in one pass: a
// fleet of ten thousand clients must not walk every zone for each.
func zoneSpans(zones []Zone) map[fileCursor][][2]int64 {
	out := map[fileCursor][][2]int64{}
	for _, z := range zones {
		if z.To > z.From {
			k := fileCursor{z.File, z.Kind}
			out[k] = append(out[k], [2]int64{z.From, z.To})
		}
	}
	return out
}

// spanUnion sorts spans and merges those that overlap or touch, into
// sorted, disjoint [from, to) spans.
func spanUnion(spans [][2]int64) [][2]int64 {
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var out [][2]int64
	for _, s := range spans {
		if n := len(out); n > 0 && s[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], s[1])
			continue
		}
		out = append(out, s)
	}
	return out
}

// spanBefore is the part of spans, sorted and disjoint, before end.
func spanBefore(spans [][2]int64, end int64) [][2]int64 {
	k := len(spans)
	for k > 0 && spans[k-1][0] >= end {
		k--
	}
	spans = spans[:k]
	if k > 0 && spans[k-1][1] > end {
		spans[k-1][1] = end
	}
	return spans
}

// spanMinus is a less b, both sorted and disjoint.
func spanMinus(a, b [][2]int64) [][2]int64 {
	var out [][2]int64
	k := 0
	for _, s := range a {
		from := s[0]
		for k < len(b) && b[k][1] <= from {
			k++
		}
		for j := k; j < len(b) && b[j][0] < s[1]; j++ {
			if b[j][0] > from {
				out = append(out, [2]int64{from, b[j][0]})
			}
			from = max(from, b[j][1])
		}
		if from < s[1] {
			out = append(out, [2]int64{from, s[1]})
		}
	}
	return out
}
