package timeline

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"watchlens/parser"
)

// client-go's log joined with the audit logs.
//
// A client of a klog names no selector and no User-Agent, and many
// clients list and watch one type: neither names the audit-log client
// it is. What ties them is the requests themselves: every request the
// log shows answered ended at the instant the API server's audit log
// says it did (a watch's "Watch close" within 50 ms of its
// ResponseComplete in the recordings; the end of a server's watches at
// its shutdown, a watch's random timeout, the 410 of a stale resume),
// a 410's RV is the RV of a watch request of that client and no other
// but those on its selector, and a failed request's error names its URL
// with its selector. Where the User-Agent names a client of the log
// (the client name the log gives it), it names that one only. Each
// client of the log goes to the audit-log client whose request ends are
// nearest its own, over all clients at once (the assignment of least
// total distance; where two ways differ by less than klogSwapMargin,
// the one that keeps the order in which the server ended and started
// the requests, see klogJoinCost's spread), when at least half of the
// ends of each are within klogEndMatch of one of the other's: the joined file is the audit-log
// client, which has the selector and the User-Agent, and takes its
// 410s from the log, which shows them (an audit log records a watch's
// 200 header, never the ERROR in its stream).

// klogEndMatch bounds how far apart the log's and the audit log's
// instants of one request's end are (the log's line and the server's
// ResponseComplete: at most 80 ms in the recordings, a loaded machine
// can delay a line by more).
const klogEndMatch = int64(time.Second)

// klogEndCap is the distance an end counts for when nothing on the
// other side ended near it: a request one side has and the other not
// (a retry the log does not tell of). It is klogJoinLag, not
// klogEndMatch: a loaded server completes a refused watch's response up
// to 4 s after the client logged its 410 (samples-outage), which still
// tells that client from one that had no 410 then.
const klogEndCap = int64(klogJoinLag)

// klogGoneMatch bounds how far apart the log's 410 and the end of the
// refused watch in the audit log are, the watch being from the 410's
// RV: s021 of samples-outage logged its 410 12.9 s after the server
// completed the response, on a machine at a load of 21.
const klogGoneMatch = int64(30 * time.Second)

// klogNoJoin is the cost of a pair that cannot be the same client: the
// User-Agent names another client, the resource or the selector
// differs, or a 410's RV is not among the audit client's watches.
const klogNoJoin = int64(1) << 50

// klogJoinCandidate is a client of a log, with its sessions, that no
// capture holds.
type klogJoinCandidate struct {
	c  *klogClient
	ks []klogSession
	// ends are the instants its answered requests ended (not one the
	// log's end cut off); closes those of them the server ended (not
	// the client's stop).
	ends, closes []int64
	// gone are the RVs of its refused watches; req is a request its
	// failed requests name (its path and selector), nil when none.
	gone []string
	req  *parser.Request
	// synced: a WatchList stream of it got its initial-events-end
	// bookmark; neverSynced: it sent WatchLists and none got it.
	synced, neverSynced bool
	// firstEvents are, per WatchList stream that never synced, the
	// earliest instant its bookmark-expired warnings say an event came:
	// the stream's initial events, which come as the server starts its
	// response, unless another event came before the first warning.
	firstEvents []int64
	// ambiguous says, for a client left alone, which audit-log clients
	// it could be; nil when it is not said.
	ambiguous *parser.Diagnostic
	// syncs are the instants its WatchList streams got their
	// initial-events-end bookmark, which comes after the server started
	// its response.
	syncs []int64
}

// newKlogJoinCandidate reads what a client's sessions show of its
// requests.
func newKlogJoinCandidate(c *klogClient, ks []klogSession) klogJoinCandidate {
	k := klogJoinCandidate{c: c, ks: ks}
	for n := range ks {
		s := &ks[n]
		switch {
		case s.s.HTTPStatus == 0, s.s.Truncated && n == len(ks)-1:
		default:
			k.ends = append(k.ends, s.s.EndArrival)
			if !s.stopped {
				k.closes = append(k.closes, s.s.EndArrival)
			}
		}
		if s.err != nil && s.err.Code == 410 && !s.sync && s.rv != "" {
			k.gone = append(k.gone, s.rv)
		}
		if c.watchList && s.initialEnd != 0 {
			k.synced = true
			k.syncs = append(k.syncs, s.initialEnd)
		}
	}
	k.neverSynced = c.watchList && !k.synced && !hasResume(ks)
	first := make([]int64, len(ks))
	for _, kl := range c.lines {
		if kl.Kind != parser.KlogBookmarkExpired || kl.LastEvent == 0 {
			continue
		}
		at := kl.Time - kl.LastEvent
		for n := range ks {
			if s := &ks[n].s; ks[n].sync && !ks[n].synced && s.StartArrival <= at && at <= s.EndArrival {
				if first[n] == 0 || at < first[n] {
					first[n] = at
				}
				break
			}
		}
	}
	for _, at := range first {
		if at != 0 {
			k.firstEvents = append(k.firstEvents, at)
		}
	}
	for _, kl := range c.lines {
		if kl.Request != nil {
			k.req = kl.Request
			break
		}
	}
	return k
}

// hasResume says whether a client of a log watched on from its cursor:
// a session that is not a list.
func hasResume(ks []klogSession) bool {
	for n := range ks {
		if !ks[n].sync {
			return true
		}
	}
	return false
}

// auditJoinFiles are the audit-log clients a client of a log may be:
// not an API server's own, not joined with another log.
func (b *Builder) auditJoinFiles() []*FileBuilder {
	var out []*FileBuilder
	for _, f := range b.files {
		if f.file.Audit && f.file.Log == "" && f.file.LogJoined == "" && !f.file.Loopback && f.file.SplitOf == "" && len(f.file.Sessions) > 0 {
			out = append(out, f)
		}
	}
	return out
}

// joinKlogAudit joins each candidate with its audit-log client where one
// fits (see the comment at the top of this file) and returns the
// candidates that none fits.
func (b *Builder) joinKlogAudit(logName string, cands []klogJoinCandidate) []klogJoinCandidate {
	files := b.auditJoinFiles()
	if len(cands) == 0 || len(files) == 0 {
		return cands
	}
	views := make([]auditCalls, len(files))
	for j, f := range files {
		views[j] = b.fileCalls(f)
	}
	cost, spread := klogJoinCosts(cands, views)
	assign := untangle(cost, spread, minCostAssignment(cost))
	var left []klogJoinCandidate
	for i, j := range assign {
		if j < 0 || cost[i][j] >= klogNoJoin || !klogEndsAgree(&cands[i], &views[j]) {
			left = append(left, cands[i])
			continue
		}
		if alike := swappable(cost, spread, assign, i); len(alike) > 0 {
			b.sayAmbiguous(logName, &cands[i], files, append([]int{j}, alike...))
			left = append(left, cands[i])
			continue
		}
		b.joinKlogAuditFile(logName, &cands[i], files[j])
	}
	return left
}

// klogSwapMargin is how much dearer than the assignment a swap of two
// clients' audit-log clients must be for the join to be told: a log's
// line and the audit log's stage of one instant are up to 50 ms apart
// in the recordings, so instants that differ by less in all do not
// tell two clients apart.
const klogSwapMargin = int64(50 * time.Millisecond)

// swappable lists the audit-log clients (columns of cost) that the
// client of row i could as well have, another client of the log taking
// its own: within klogSwapMargin, and in an order of their instants
// that does not tell them apart either (an equal spread), the two
// cannot be told apart, and neither is joined rather than joined by a
// guess.
func swappable(cost [][]int64, spread [][]float64, assign []int, i int) []int {
	j := assign[i]
	var alike []int
	for i2, j2 := range assign {
		if i2 == i || j2 < 0 || cost[i][j2] >= klogNoJoin || cost[i2][j] >= klogNoJoin {
			continue
		}
		if cost[i][j2]+cost[i2][j] <= cost[i][j]+cost[i2][j2]+klogSwapMargin &&
			spread[i][j2]+spread[i2][j] <= spread[i][j]+spread[i2][j2] {
			alike = append(alike, j2)
		}
	}
	return alike
}

// sayAmbiguous tells, on a client of the log left alone and on each
// audit-log client it could be (files[js]), that the records cannot say
// which of them it is.
func (b *Builder) sayAmbiguous(logName string, k *klogJoinCandidate, files []*FileBuilder, js []int) {
	names := make([]string, len(js))
	for n, j := range js {
		names[n] = strconv.Quote(files[j].file.Name)
	}
	k.ambiguous = &parser.Diagnostic{Kind: DiagAmbiguousJoin, Msg: fmt.Sprintf(
		"%d clients of the audit logs could be this client: the instants of their requests tell them apart by less than %s in all, nor by their order, so it is joined with none of %s",
		len(js), FormatDuration(klogSwapMargin), strings.Join(names, ", "))}
	for _, j := range js {
		f := files[j]
		f.file.Diagnostics = append(f.file.Diagnostics, parser.Diagnostic{Kind: DiagAmbiguousJoin, Msg: fmt.Sprintf(
			"%s's client %s could be this client or another of the audit logs': the instants of their requests do not tell which, so neither is joined",
			logName, strconv.Quote(k.c.name))})
	}
}

// uaNames says whether a User-Agent names a client: its name stands in
// it between characters that cannot continue a name
// ("fleet-c000-bookmarks/1.0" names c000-bookmarks, not c000).
func uaNames(ua, name string) bool {
	for from := 0; name != ""; {
		i := strings.Index(ua[from:], name)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(name)
		if (i == 0 || !isNameByte(ua[i-1])) && (end == len(ua) || !isNameByte(ua[end]) && ua[end] != '-' && ua[end] != '_') {
			return true
		}
		from = i + 1
	}
	return false
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// klogJoinCosts is the cost of each candidate (row) being each
// audit-log client (column), and the spread of that pair's distances
// (see klogJoinCost): a User-Agent that names a client of the log names
// it alone.
func klogJoinCosts(cands []klogJoinCandidate, views []auditCalls) (cost [][]int64, spread [][]float64) {
	named := make([]string, len(views)) // the client of the log a User-Agent names
	for j := range views {
		for _, k := range cands {
			if uaNames(views[j].ua, k.c.name) && len(k.c.name) > len(named[j]) {
				named[j] = k.c.name
			}
		}
	}
	cost, spread = make([][]int64, len(cands)), make([][]float64, len(cands))
	for i := range cands {
		cost[i], spread[i] = make([]int64, len(views)), make([]float64, len(views))
		for j := range views {
			cost[i][j], spread[i][j] = klogJoinCost(&cands[i], &views[j], named[j])
		}
	}
	return cost, spread
}

// klogJoinCost is how far a client of a log is from being an audit-log
// client: the distance of each request end of each to the nearest of
// the other's, at most klogEndCap each, and of each instant the log
// shows a WatchList's response started or synced to the audit log's;
// klogNoJoin when they cannot be the same client. Its spread is the
// sum of the squares of the distances of the instants the server set
// (the ends of requests it ended, each to the audit log's nearest end;
// the instants a WatchList's response started or synced), in ms²: of
// two ways to pair two clients whose instants all lie on one side of
// the other's, the costs are equal, and the spread is the smaller for
// the way that keeps the order in which the server ended their
// requests (or started their responses), as the clients saw them. A
// client's own stop is left out: the fleets stop their informers one
// by one, and the server completes the watches in another order.
func klogJoinCost(k *klogJoinCandidate, a *auditCalls, named string) (int64, float64) {
	if named != "" && named != k.c.name {
		return klogNoJoin, 0
	}
	if kind, _ := typeKind(k.c.typ); kind != "" && a.kind != "" && kind != a.kind {
		return klogNoJoin, 0
	}
	if len(a.calls) == 0 {
		return klogNoJoin, 0
	}
	first := a.calls[0].req
	if k.req != nil && first != nil && parser.RequestClient(k.req) != parser.RequestClient(first) {
		return klogNoJoin, 0
	}
	for _, rv := range k.gone {
		if !a.watchedAt(rv) {
			return klogNoJoin, 0
		}
	}
	if !watchListAgrees(k, a) {
		return klogNoJoin, 0
	}
	var cost int64
	var spread float64
	add := func(d int64, ordered bool) {
		d = min(d, klogEndCap)
		cost += d
		if ordered {
			ms := float64(d) / float64(time.Millisecond)
			spread += ms * ms
		}
	}
	ends := a.ends()
	for _, e := range k.ends {
		add(nearest(ends, e), slices.Contains(k.closes, e))
	}
	for _, e := range ends {
		add(nearest(k.ends, e), false)
	}
	starts := a.watchListStarts()
	for _, e := range k.firstEvents {
		add(nearest(starts, e), true)
	}
	for _, e := range k.syncs {
		add(sinceLatest(starts, e), true)
	}
	// A 410 the audit log inferred that the log does not show, or the
	// reverse, is a request of another client.
	inferred := a.inferredGone()
	for range max(inferred-len(k.gone), len(k.gone)-inferred) {
		add(klogEndCap, false)
	}
	if named != "" {
		return 0, 0 // the User-Agent says it
	}
	return cost, spread
}

// watchListAgrees says whether what a client's log shows of its
// WatchList syncs can be what an audit-log client's requests asked for:
// the server sends the initial-events-end bookmark only to a WatchList
// that allows bookmarks, so a client whose log shows that bookmark is
// not one whose WatchLists all went without (samples-watchlist's
// clients without bookmarks); and client-go watches on from a cursor
// only after a sync, so a client whose log shows WatchLists that never
// synced is not one that resumed.
func watchListAgrees(k *klogJoinCandidate, a *auditCalls) bool {
	lists, asked, resumed := 0, 0, false
	for n := range a.calls {
		switch r := a.calls[n].req; {
		case r == nil || !r.Watch:
		case r.SendInitialEvents:
			lists++
			if r.AllowWatchBookmarks {
				asked++
			}
		default:
			resumed = true
		}
	}
	if k.synced && lists > 0 && asked == 0 {
		return false
	}
	return !(k.neverSynced && resumed)
}

// klogEndsAgree says whether at least half of the request ends of a
// client of a log and of an audit-log client are each within
// klogEndMatch of one of the other's: even a User-Agent that names the
// client is not enough, as a log and audit logs of another day name
// the same.
func klogEndsAgree(k *klogJoinCandidate, a *auditCalls) bool {
	ends := a.ends()
	near := func(a, other []int64) bool {
		n := 0
		for _, e := range a {
			if nearest(other, e) <= klogEndMatch {
				n++
			}
		}
		return 2*n >= len(a)
	}
	return len(k.ends) > 0 && near(k.ends, ends) && near(ends, k.ends)
}

// sinceLatest is how long after the latest of ts at or before t t is;
// klogNoJoin when none is.
func sinceLatest(ts []int64, t int64) int64 {
	d := klogNoJoin
	for _, x := range ts {
		if x <= t {
			d = min(d, t-x)
		}
	}
	return d
}

// nearest is the distance from t to the nearest of ts; klogNoJoin when
// there is none.
func nearest(ts []int64, t int64) int64 {
	d := klogNoJoin
	for _, x := range ts {
		d = min(d, max(x-t, t-x))
	}
	return d
}

// joinKlogAuditFile makes an audit-log client the client of the log it
// is: it names the log and its client there, and its watches' ends are
// the log's: a watch the log shows refused ends in the log's 410 (the
// watch from the 410's RV that ended nearest it), and one the audit log
// took for a 410 that the log shows ended without one did not.
func (b *Builder) joinKlogAuditFile(logName string, k *klogJoinCandidate, f *FileBuilder) {
	f.file.LogJoined, f.file.LogClient, f.file.WatchListGate = logName, k.c.name, k.c.gate
	refused := map[*Session]bool{}
	for n := range k.ks {
		ks := &k.ks[n]
		if ks.err == nil || ks.err.Code != 410 {
			continue
		}
		if s := b.auditSessionEnding(f, ks.s.EndArrival, klogGoneMatch, ks.rv); s != nil {
			s.Error, s.EndReason, s.inferredGone = ks.err, EndError, false
			refused[s] = true
		}
	}
	for n := range k.ks {
		ks := &k.ks[n]
		if ks.err != nil || ks.s.HTTPStatus == 0 || ks.s.Truncated {
			continue
		}
		if s := b.auditSessionEnding(f, ks.s.EndArrival, klogEndMatch, ""); s != nil && s.inferredGone && !refused[s] {
			s.Error, s.EndReason, s.inferredGone = nil, EndEOF, false
		}
	}
}

// auditSessionEnding is the audit-log client's watch, from rv unless
// rv is "", that ended nearest t, within within; nil when none did.
func (b *Builder) auditSessionEnding(f *FileBuilder, t, within int64, rv string) *Session {
	var best *Session
	bestD := within + 1
	for _, g := range f.file.Sessions {
		s := &b.sessions[g]
		if s.Request == nil || !s.Request.Watch || rv != "" && s.Request.ResourceVersion != rv {
			continue
		}
		if d := max(s.End-t, t-s.End); d < bestD {
			best, bestD = s, d
		}
	}
	return best
}
