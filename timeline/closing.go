package timeline

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// When an API server's process stops taking new requests.
//
// On SIGTERM a kube-apiserver stops listening and its connections take
// no new stream ("NotAcceptingNewRequest", at once with the default
// --shutdown-delay-duration=0), while it serves the watches already
// open until it exits, a minute later (watch-protocol.md §6). A
// reconnect in that minute reaches another server, whether its client's
// connection was to the closing one or not: in samples-lab no request
// reached a, b or c's old process between its SIGTERM and its exit. Its
// own log dates it; else its metrics bound it, between the last scrape
// it answered before every one failed until it ended and the first that
// failed (in the lab, two seconds that hold its SIGTERM). Else its audit
// logs date it by its own informers' watches, which end as it is told to
// stop: a minute (shutdownDrain) before the watches it still served end
// as its logs end, or, with none to serve, as its logs end, where it
// exited at once. A process whose audit logs hold no watch of its own
// informers (a policy that leaves its loopback user out) gets no closing
// from them. The model takes the earliest. A server known from its
// metrics alone ends each process at its last answered scrape, so its
// shutdown is part of its restart there.

// ClosingSource is the record that shows when a process stopped taking
// new requests.
type ClosingSource uint8

const (
	ClosingUnknown ClosingSource = iota
	// ClosingLogged: its own log ("NotAcceptingNewRequest"), the instant.
	ClosingLogged
	// ClosingScraped: its metrics, between the last scrape it answered
	// and the first that failed.
	ClosingScraped
	// ClosingAudited: its audit log, where its own informers' watches
	// ended shutdownDrain before the watches it ended as it stopped.
	ClosingAudited
	// ClosingExited: its audit log, where its own informers' watches
	// ended together as the log ends: it exited with no client's watch
	// open.
	ClosingExited
)

var closingSourceNames = [...]string{"", "log", "scrapes", "audit-log", "audit-log"}

// String names the source as the report's JSON does: "log", "scrapes",
// "audit-log"; "" when none shows the closing.
func (c ClosingSource) String() string { return closingSourceNames[c] }

// shutdownDrain is how long a kube-apiserver told to stop serves the
// watches already open, taking no new request, before it ends them
// (watch-protocol.md §6, with the default --shutdown-delay-duration=0):
// 60.00 to 60.05 s from SIGTERM in samples-fleet, -lab and -watchlist.
const shutdownDrain = int64(60 * time.Second)

// setClosings sets each process's Closing: from its server's own logs,
// else from its audit logs where the metrics' scrapes of it bound it
// around their instant or do not bound it, else from the scrapes.
func (tl *Timeline) setClosings() {
	for s := range tl.Servers {
		srv := &tl.Servers[s]
		for k := range srv.Incarnations {
			inc := &srv.Incarnations[k]
			if at := tl.loggedClosing(srv.Name, inc.From, inc.To); at != 0 {
				inc.Closing, inc.ClosingBy, inc.ClosingSource = at, at, ClosingLogged
				continue
			}
			at, source := tl.auditedClosing(s, k)
			if tl.Metrics != nil && srv.Metrics != "" {
				// The scrapes bound it within their interval; the audit
				// log's instant, where it falls within, is the closer.
				if after, by := tl.Metrics.scrapesBoundClosing(srv.Metrics, inc.From, inc.To); by != 0 && (at <= after || at > by) {
					inc.Closing, inc.ClosingBy, inc.ClosingSource = after+1, by, ClosingScraped
					continue
				}
			}
			if at != 0 {
				inc.Closing, inc.ClosingBy, inc.ClosingSource = at, at, source
			}
		}
	}
}

// drainSlack bounds how far from shutdownDrain before the watches a
// shutdown ended its informers' watches end (60.00 to 60.05 s in the
// samples), and how long after those the process may still log a
// request received (none came after them in the samples; samples-fleet's
// b logged its last 33 ms before them).
const drainSlack = int64(time.Second)

// auditedClosing is when process k of server s stopped taking new
// requests as its audit logs show it, and how, 0 where they do not: its
// own informers' watches (its loopback client's) ended as it was told to
// stop, and its logs show no request received from a second after. Either
// the watches of at least two clients, served through a minute's drain,
// ended together as its logs end, about shutdownDrain after its
// informers' (ClosingAudited: each old process of samples-fleet, -lab and
// -watchlist, its informers' ends 4 to 45 ms after its SIGTERM); or, with
// no client's watch to drain, it exited at once, at least two of its
// informers' watches ending together as its logs end (ClosingExited:
// their last processes, stopped after the fleet). Clients that stop close
// their watches together too, but the process's informers go on.
func (tl *Timeline) auditedClosing(s, k int) (int64, ClosingSource) {
	inc := &tl.Servers[s].Incarnations[k]
	if len(inc.Logs) == 0 {
		return 0, ClosingUnknown
	}
	ofProcess := func(g int) bool { return tl.Sessions[g].answeredBy() == serverRef{s, k} }
	ownInformer := func(g int) bool {
		ss := &tl.Sessions[g]
		return ofProcess(g) && tl.Files[ss.File].Loopback && ss.watchStream() && ss.EndReason == EndEOF
	}
	ended, cut := tl.endingWatches(ofProcess, inc.To)
	toldToStop := cut - shutdownDrain
	drained, informersEnded := 0, 0
	informersStopped, source := int64(0), ClosingExited
	for _, g := range ended {
		switch ss := &tl.Sessions[g]; {
		case ownInformer(g):
			informersEnded++
			if informersStopped == 0 || ss.End < informersStopped {
				informersStopped = ss.End
			}
		case ss.Start < toldToStop:
			drained++
		}
	}
	if informersEnded < 2 {
		if drained < 2 {
			return 0, ClosingUnknown
		}
		informersStopped, source = 0, ClosingAudited
		for g := range tl.Sessions {
			if ss := &tl.Sessions[g]; ownInformer(g) && ss.End >= toldToStop-drainSlack && ss.End <= toldToStop+drainSlack && (informersStopped == 0 || ss.End < informersStopped) {
				informersStopped = ss.End
			}
		}
	}
	last := int64(0)
	for _, l := range inc.Logs {
		last = max(last, tl.AuditLogs[l].lastReceived)
	}
	if informersStopped == 0 || last >= informersStopped+drainSlack {
		return 0, ClosingUnknown
	}
	return max(informersStopped, last+1), source
}

// loggedClosing is the first instant in [from, to] at which the named
// server's own logs show it stopped taking new requests, 0 when none
// does.
func (tl *Timeline) loggedClosing(server string, from, to int64) int64 {
	var first int64
	for _, l := range tl.ServerLogs {
		if l.Server != server {
			continue
		}
		for _, t := range l.Closings {
			if t >= from && t <= to && (first == 0 || t < first) {
				first = t
			}
		}
	}
	return first
}

// ClosingWords says when the process stopped taking new requests, as
// its records show it, with at writing an instant: "at T, as its own log
// shows", "between T and U, as its scrapes bound it" or "at T, as its
// audit log shows: ..."; "" when none does.
func (inc *Incarnation) ClosingWords(at func(int64) string) string {
	if inc.Closing == 0 {
		return ""
	}
	return closingSpan(inc.Closing, inc.ClosingBy, inc.ClosingSource, at) + ", " + inc.ClosingSource.shown(false)
}

// closingSpan writes a closing, closing to by, as source shows it: "at
// T" (its own log or its audit log), "between T and U" (the scrapes'
// bounds).
func closingSpan(closing, by int64, source ClosingSource, at func(int64) string) string {
	if source == ClosingScraped {
		return "between " + at(closing-1) + " and " + at(by)
	}
	return "at " + at(closing)
}

// shown says how the source shows a closing, of one process or (plural)
// of several: "as its own log shows".
func (c ClosingSource) shown(plural bool) string {
	switch {
	case c == ClosingScraped && plural:
		return "as their scrapes bound them"
	case c == ClosingScraped:
		return "as its scrapes bound it"
	case c == ClosingAudited && plural:
		return "as their audit logs show: their own informers' watches ended then, a minute before each ended the watches it still served"
	case c == ClosingAudited:
		return "as its audit log shows: its own informers' watches ended then, a minute before it ended the watches it still served"
	case c == ClosingExited && plural:
		return "as their audit logs show: their own informers' watches ended then, together, as each exited with no client's watch open"
	case c == ClosingExited:
		return "as its audit log shows: its own informers' watches ended then, together, as it exited with no client's watch open"
	case plural:
		return "as their own logs show"
	}
	return "as its own log shows"
}

// closed says whether the process took no new request at t.
func (inc *Incarnation) closed(t int64) bool { return inc.Closing != 0 && t >= inc.Closing }

// closedFrom is the first instant the process took no new request: its
// Closing, else the instant after its last record.
func (inc *Incarnation) closedFrom() int64 {
	if inc.Closing != 0 {
		return inc.Closing
	}
	return inc.To + 1
}

// accepting is the server's process that takes a new request at t: the
// one serving then, unless it was closing; -1 when none does.
func (s *Server) accepting(t int64) int {
	k := s.serving(t)
	if k >= 0 && s.Incarnations[k].closed(t) {
		return -1
	}
	return k
}

// noneTakingFrom is the instant from which no API server took a new
// request and the records show none starting again: every server's last
// process was shutting down, surely from the last of their ClosingBy.
// never when a server's last process took requests to its records' end,
// when no server is known, when more servers are assumed than the
// records show (-servers), or when a request sent later was answered
// (by a server whose records are not given). A reconnect from then on
// finds no server to answer it: client-go retries until one listens,
// which the records never show.
func (a *Analysis) noneTakingFrom() int64 { return a.noneFrom }

// findNoneTakingFrom is noneTakingFrom, worked out.
func (a *Analysis) findNoneTakingFrom() int64 {
	tl := a.TL
	if len(tl.Servers) == 0 || a.ServerCount() > len(tl.Servers) {
		return never
	}
	from := int64(math.MinInt64)
	for s := range tl.Servers {
		incs := tl.Servers[s].Incarnations
		if len(incs) == 0 || incs[len(incs)-1].Closing == 0 {
			return never
		}
		from = max(from, incs[len(incs)-1].ClosingBy)
	}
	// A request some server answered after it shows a server the
	// records do not (one server's audit log of several, given alone).
	for g := range tl.Sessions {
		if s := &tl.Sessions[g]; s.Start > from && !s.Unanswered() {
			return never
		}
	}
	return from
}

// noneTakingWords says why a reconnect at t, from noneTakingFrom on, has
// no answer.
func (a *Analysis) noneTakingWords(t int64) string {
	all := make([]int, len(a.TL.Servers))
	for s := range all {
		all[s] = s
	}
	return fmt.Sprintf("no answer: no API server took new requests at %s (%s) and the records show none starting again, so a reconnect then found no server to answer it", a.instant(t), a.notTakingWords(all, t))
}

// shuttingDown says whether server s's process was alive at t but took
// no new request: it was shutting down, not restarting.
func (a *Analysis) shuttingDown(s int, t int64) bool {
	srv := &a.TL.Servers[s]
	return srv.accepting(t) < 0 && srv.serving(t) >= 0
}

// restartingWords says why server s took no request at t, between two
// of its processes: where its audit logs show them, the new one had not
// begun; where only its metrics do, the old one's last answered scrape
// may have come a minute before it ended its watches (it was shutting
// down), which they cannot tell from a restart.
func (a *Analysis) restartingWords(s int, t int64) string {
	srv := &a.TL.Servers[s]
	n := sort.Search(len(srv.Incarnations), func(i int) bool { return srv.Incarnations[i].From > t })
	if n == 0 || n == len(srv.Incarnations) || len(srv.Incarnations[n-1].Logs) > 0 {
		return fmt.Sprintf("no process of server %s served at %s: it was restarting", srv.Name, a.instant(t))
	}
	// A process's start in the metrics is its boot time and clock ticks,
	// whole seconds at best.
	old, next := a.instant(srv.Incarnations[n-1].To), FormatSecond(srv.Incarnations[n].From, a.Params.Zone)
	if a.TL.Metrics != nil && a.TL.Metrics.scrapeFailed(srv.Metrics, t) {
		return fmt.Sprintf("server %s answered no scrape after %s, its old process's last, until its new process started about %s: shutting down or restarting, it took no new request", srv.Name, old, next)
	}
	return fmt.Sprintf("server %s's metrics show no process at %s, between its old one's last scrape at %s and its new one's start about %s: restarting, the new one may already serve", srv.Name, a.instant(t), old, next)
}

// stopped says whether server s's last process took no new request at
// t and its records had ended: it had shut down, and none followed.
func (a *Analysis) stopped(s int, t int64) bool {
	srv := &a.TL.Servers[s]
	k := srv.serving(t)
	return a.shuttingDown(s, t) && k == len(srv.Incarnations)-1 && t > srv.Incarnations[k].To
}

// notTakingWords names servers that take no new request at t, each
// group with why: "a shutting down and b restarting", "c stopped".
func (a *Analysis) notTakingWords(servers []int, t int64) string {
	return a.notTakingWordsBy(servers, func(s int) notTakingWhy {
		switch {
		case a.stopped(s, t):
			return stoppedServer
		case a.shuttingDown(s, t):
			return shuttingDownServer
		}
		return restartingServer
	})
}

// notTakingWhy is why a server takes no new request, as its words say it.
type notTakingWhy string

const (
	shuttingDownServer notTakingWhy = "shutting down"
	restartingServer   notTakingWhy = "restarting"
	stoppedServer      notTakingWhy = "stopped"
)

// notTakingWordsBy is notTakingWords where why says why each server
// took none (each at its own instant).
func (a *Analysis) notTakingWordsBy(servers []int, why func(s int) notTakingWhy) string {
	var parts []string
	for _, w := range [...]notTakingWhy{shuttingDownServer, restartingServer, stoppedServer} {
		var names []string
		for _, s := range servers {
			if why(s) == w {
				names = append(names, a.TL.Servers[s].Name)
			}
		}
		if len(names) > 0 {
			parts = append(parts, joinWords(names)+" "+string(w))
		}
	}
	return joinWords(parts)
}
